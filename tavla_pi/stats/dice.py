"""Are the dice fair?  Face and roll distributions with Pearson's chi-square test.

Pure functions over the rolls recorded in the events (``rolled`` and
``opening_roll``), so players can check the electronic dice themselves.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tavla_pi.errors import BadInputError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.rules.dice import FACES

FACE_VALUES = range(1, FACES + 1)
"""The values a die shows, 1..6."""
ROLLS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in FACE_VALUES for b in FACE_VALUES if a >= b)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A goodness-of-fit result: statistic, degrees of freedom, p-value."""

    statistic: float
    dof: int
    p_value: float


def dice_from_events(events: Iterable[Event]) -> list[tuple[int, int]]:
    """Every roll of two dice in the events; an opening roll counts as one roll.

    Impossible dice (not whole numbers 1..6) are a :class:`BadInputError`.
    """
    rolls: list[tuple[int, int]] = []
    for event in events:
        if event.type == EventType.ROLLED:
            a, b = event["dice"]
            rolls.append(_roll(event, a, b))
        elif event.type == EventType.OPENING_ROLL:
            rolls.append(_roll(event, event["white"], event["black"]))
    return rolls


def _roll(event: Event, a: Any, b: Any) -> tuple[int, int]:
    if not (_face(a) and _face(b)):
        raise BadInputError(f"{event.type} at {event.t} ms", f"impossible dice {a!r}, {b!r}")
    return a, b


def _face(die: Any) -> bool:
    return isinstance(die, int) and not isinstance(die, bool) and die in FACE_VALUES


def face_counts(rolls: Iterable[tuple[int, int]]) -> Counter[int]:
    """How often each face 1..6 showed, counting both dice."""
    return Counter(d for roll in rolls for d in roll)


def roll_counts(rolls: Iterable[tuple[int, int]]) -> Counter[tuple[int, int]]:
    """How often each of the 21 unordered rolls showed, high die first."""
    return Counter((max(r), min(r)) for r in rolls)


def roll_probability(roll: tuple[int, int]) -> float:
    """1/36 for a double, 2/36 for any other unordered roll."""
    return 1 / 36 if roll[0] == roll[1] else 2 / 36


def chi_square(observed: list[int], expected: list[float]) -> ChiSquare:
    """Pearson's test of ``observed`` counts against ``expected`` counts."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)
    dof = len(observed) - 1
    return ChiSquare(stat, dof, chi_square_sf(stat, dof))


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom."""
    if x <= 0:
        return 1.0
    return _upper_gamma_regularized(dof / 2, x / 2)


def _upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) by series below a + 1 and a continued fraction above."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def face_test(rolls: list[tuple[int, int]]) -> ChiSquare:
    """Chi-square of the six faces against the uniform distribution."""
    counts = face_counts(rolls)
    n = 2 * len(rolls)
    return chi_square([counts[f] for f in FACE_VALUES], [n / 6] * 6)


def roll_test(rolls: list[tuple[int, int]]) -> ChiSquare:
    """Chi-square of the 21 rolls against 1/36 (doubles) and 2/36 (others)."""
    counts = roll_counts(rolls)
    n = len(rolls)
    return chi_square([counts[r] for r in ROLLS], [n * roll_probability(r) for r in ROLLS])
