"""Slot levels to an :class:`Observation`: colours, count intervals, location faults.

Per place the count of a colour is the sum of its slots' counts: ``ONE``
is exactly 1, ``ONE_PLUS`` at least 1, ``TWO_PLUS`` at least 2, and a
``WEAK`` or ``UNKNOWN`` slot could hold anything of either colour.  The upper
bound is then tightened by the one fact the sensors cannot break: each side
has 15 checkers, so a place holds at most 15 minus the lower bounds of that
colour everywhere else.

Two things narrow the interval: the layering prior and each pocket's
history of steps (see :func:`_pocket_counts`); a pocket that may hold a
third layer (:mod:`tavla_pi.decode.tall`) leaves it open above.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from tavla_pi.decode.observation import (
    NOTHING,
    CountRange,
    Observation,
    Reading,
    SensorFault,
)
from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN, WEAK, Group, Tables
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS

_LOW = (0, 0, 1, 1, 2, 0)
"""Least checkers a slot at each level holds."""


@functools.lru_cache(maxsize=512)
def count_range(low: int, high: int) -> CountRange:
    """A shared :class:`CountRange` (observations are rebuilt every frame)."""
    return CountRange(low, high)


@dataclass(slots=True)
class _Summary:
    """What the slots of one place add up to."""

    low: dict[Color, int] = field(default_factory=lambda: {Color.WHITE: 0, Color.BLACK: 0})
    open: dict[Color, bool] = field(
        default_factory=lambda: {Color.WHITE: False, Color.BLACK: False}
    )
    first: list[tuple[Color, int]] = field(default_factory=list)
    covered: Color | None = None
    maybe: bool = False
    unknown: bool = False
    weak_runs: list[list[int]] = field(default_factory=list)


def _summarise(group: Group, levels: list[int], signs: list[int],
               known: Sequence[int | None], covered: Mapping[int, int], *,
               tall: Sequence[bool], maybe: Collection[int]) -> _Summary:
    summary = _Summary()
    previous_weak = False
    exact = _pocket_counts(group, levels, known, covered, tall)
    for slot, i in enumerate(group.sensors):
        level = levels[i]
        if i in covered:
            _cover(summary, Color.WHITE if covered[i] > 0 else Color.BLACK, i)
            previous_weak = False
            continue
        if level >= UNKNOWN or level == WEAK:
            summary.unknown = True
            if level == WEAK:
                if not previous_weak:
                    summary.weak_runs.append([])
                summary.weak_runs[-1].append(slot)
            previous_weak = level == WEAK
            continue
        previous_weak = False
        if level < ONE:
            continue
        color = Color.WHITE if signs[i] > 0 else Color.BLACK
        count = exact[slot]
        summary.low[color] += max(_LOW[level], known[i] or 0) if count is None else count
        summary.open[color] |= count is None
        summary.maybe |= i in maybe
        if not any(c is color for c, _ in summary.first):
            summary.first.append((color, i))
    return summary


def _cover(summary: _Summary, color: Color, i: int) -> None:
    """Pocket ``i``: one checker of ``color`` with one or more of the other on it."""
    summary.covered = summary.covered or color
    summary.low[color] += 1
    summary.low[color.opponent] += 1
    summary.open[color.opponent] = True
    for c in (color, color.opponent):
        if not any(seen is c for seen, _ in summary.first):
            summary.first.append((c, i))


def _pocket_counts(group: Group, levels: list[int], known: Sequence[int | None],
                   covered: Mapping[int, int], tall: Sequence[bool]) -> list[int | None]:
    """Each pocket's count where a prior or the pocket's history pins it, else None.

    Hands fill a place layer by layer, so a one-or-more pocket is one while
    the first layer has a gap, and a two-or-more pocket is two while the
    second layer has one (a third layer starts only over a full second).
    Otherwise a pocket's own history of steps (:mod:`tavla_pi.decode.stacks`)
    may still tell one from two.  A pocket covered by a checker of the other
    colour holds one of its own.  A tall pocket's count is open (at least what
    its history says), gap or none.
    """
    pockets = [levels[i] for i in group.sensors]
    first_gap = EMPTY in pockets
    exact: list[int | None] = []
    for i, level in zip(group.sensors, pockets, strict=True):
        if level == ONE or i in covered:
            exact.append(1)
        elif level == ONE_PLUS:
            exact.append(1 if first_gap else known[i])
        else:
            exact.append(None)
    second_gap = any(n is not None and n < 2 for n in exact) or first_gap
    for slot, (i, level) in enumerate(zip(group.sensors, pockets, strict=True)):
        if level == TWO_PLUS and second_gap:
            exact[slot] = 2
        if tall[i] and level in (ONE_PLUS, TWO_PLUS):
            exact[slot] = None
    return exact


def _count(summary: _Summary, color: Color, totals: dict[Color, int]) -> CountRange:
    low = summary.low[color]
    if not (summary.open[color] or summary.unknown):
        return count_range(low, low)
    cap = CHECKERS - (totals[color] - low)
    return count_range(low, max(low, min(CHECKERS, cap)))


def _reading(summary: _Summary, totals: dict[Color, int]) -> Reading:
    if summary.first:
        color = summary.first[0][0]
        return Reading(color, _count(summary, color, totals),
                       _count(summary, color.opponent, totals), summary.covered,
                       summary.maybe and summary.covered is None)
    if summary.unknown:
        cap = CHECKERS - min(totals.values())
        return Reading(None, count_range(0, cap))
    return NOTHING


def _place_faults(group: Group, summary: _Summary) -> list[SensorFault]:
    name = group.location if group.half is None else f"bar ({group.half.value} half)"
    faults = []
    for run in summary.weak_runs:
        slots = f"slots {run[0]}-{run[-1]}" if len(run) > 1 else f"slot {run[0]}"
        faults.append(SensorFault(
            group.sensors[run[0]], group.location, "between_slots",
            f"{name}: weak field over {slots}: a checker between pockets or off-centre?",
        ))
    if len(summary.first) > 1:
        faults.append(SensorFault(
            summary.first[1][1], group.location, "mixed_colors",
            f"{name}: white and black checkers both sensed",
        ))
    return faults


def assemble(tables: Tables, levels: list[int], signs: list[int],
             sensor_faults: list[SensorFault], *,
             known: Sequence[int | None] | None = None,
             covered: Mapping[int, int] | None = None,
             tall: Sequence[bool] | None = None,
             maybe_covered: Collection[int] = frozenset()) -> Observation:
    """The observation of one frame's slot levels and signs.

    ``known`` holds each pocket's count as its history tells it (0..2, or
    None), from :class:`~tavla_pi.decode.stacks.StackWatch`; ``covered`` the
    pockets whose one checker has one of the other colour on it (sensor ->
    sign of the checker below); ``tall`` the pockets that may hold a third
    layer (:class:`~tavla_pi.decode.tall.TallWatch`); ``maybe_covered`` the pockets
    read as one checker that may have one of the other colour on it, unseen
    (``Reading.maybe_covered``).
    """
    history = known if known is not None else [None] * len(levels)
    masked = covered if covered is not None else {}
    high = tall if tall is not None else [False] * len(levels)
    summaries = [_summarise(g, levels, signs, history, masked, tall=high, maybe=maybe_covered)
                 for g in tables.groups]
    totals = {
        color: sum(s.low[color] for s in summaries) for color in (Color.WHITE, Color.BLACK)
    }
    points = [NOTHING] * 24
    bar = {Color.WHITE: NOTHING, Color.BLACK: NOTHING}
    faults = list(sensor_faults)
    for group, summary in zip(tables.groups, summaries, strict=True):
        reading = _reading(summary, totals)
        if group.half is None:
            points[int(group.location) - 1] = reading
        else:
            bar[group.half] = reading
        faults += _place_faults(group, summary)
    faults.sort(key=lambda f: (f.sensor, f.kind))
    return Observation(tuple(points), bar[Color.WHITE], bar[Color.BLACK], tuple(faults))
