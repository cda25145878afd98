"""The stack watch does what the tables of ``tavla_pi/decode/stacks.py``'s docstring say.

The tables are parsed from the docstring: every transition row is driven once,
from its example below (a row without an example, or an example without a row,
fails), and random walks check that at every step the first row that fits
says what the watch did (so the table is complete, in the code's order).
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from tavla_pi.decode import stacks
from tavla_pi.decode.stacks import StackWatch
from tavla_pi.decode.tables import EMPTY, LEVEL_NAMES, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN, WEAK

STEP = 200.0
"""The second-layer step of the watches here (counts)."""
HELD = 1
"""The colour the examples' pockets hold (+1 White)."""
TYPICAL = {EMPTY: 3.0, WEAK: 400.0, ONE: 1550.0, ONE_PLUS: 1700.0, TWO_PLUS: 1900.0,
           UNKNOWN: 1000.0}
"""A magnitude for each level, where a row does not look at the reference."""
COUNTS: dict[str, int | None] = {"open": None, "0": 0, "1": 1, "2": 2}
COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "~": lambda x, y: abs(x - y) < 0.25}
Row = dict[str, str]


def table(first: str) -> list[Row]:
    """The docstring's table whose first column is headed ``first``, a dict per row."""
    blocks: list[list[list[str]]] = [[]]
    for line in (stacks.__doc__ or "").splitlines():
        if line.startswith("|"):
            blocks[-1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif blocks[-1]:
            blocks.append([])
    for header, _rule, *rows in (b for b in blocks if b):
        if header[0] == first:
            return [dict(zip(header, row, strict=True)) for row in rows]
    raise AssertionError(f"stacks.py's docstring has no table headed {first!r}")


STATES = {row["state"]: row for row in table("state")}
ROWS = table("row")
NAMES = [row["row"] for row in ROWS]


@dataclass(frozen=True)
class Pocket:
    """All a one-pocket watch holds."""

    count: int | None
    ref: float
    sign: int
    sure: bool
    bare: float | None


@dataclass(frozen=True)
class Reading:
    """One pocket's part of a frame, as the decoder hands it to ``update``."""

    level: int
    magnitude: float
    sign: int
    steady: bool = False
    tall: bool = False


def pocket(watch: StackWatch) -> Pocket:
    """What a one-pocket watch holds now."""
    return Pocket(watch.count[0], watch.ref[0], watch.sign[0], watch.sure[0], watch.bare[0])


def state_of(watch: StackWatch) -> str:
    """The name in the states table of the state a one-pocket watch is in."""
    count, sign, sure = watch.count[0], watch.sign[0], watch.sure[0]
    if count is None:
        return "unseen" if sign == 0 else "open"
    assert (count == 0) == (sign == 0), f"count {count} with colour {sign}"
    if count == 0:
        return "empty"
    return ("one" if count == 1 else "two") + ("" if sure else "?")


def colour_of(watch: StackWatch, reading: Reading) -> str:
    """``new``, ``same`` or ``""`` (no colour), as the table's ``reads`` column says it."""
    if not reading.sign:
        return ""
    return "same" if reading.sign == watch.sign[0] else "new"


def within(condition: str, d: float, b: float | None = None) -> bool:
    """Whether ``d`` (and ``b``, None where the pocket has no ``bare``) meet a ``d``
    cell: ``-``, ``d <= -3/4``, ``-1/4 < d < 1/4``, ``d <= -3/4, b ~ 0``..."""
    if condition == "-":
        return True
    return all(_chain(part.split(), {"d": d, "b": b}) for part in condition.split(", "))


def _chain(words: list[str], names: dict[str, float | None]) -> bool:
    """Whether a chain of comparisons such as ``-1/4 < d < 1/4`` or ``b ~ 0`` holds."""
    named = [names[w] if w in names else float(Fraction(w)) for w in words[::2]]
    values = [v for v in named if v is not None]
    if len(values) < len(named):
        return False
    pairs = zip(values[:-1], words[1::2], values[1:], strict=True)
    return all(COMPARE[op](x, y) for x, op, y in pairs)


def fits(row: Row, watch: StackWatch, reading: Reading) -> bool:
    """Whether ``row`` fits the watch's state and this reading."""
    level, *colour = row["reads"].split()
    holds = row["holds"].split()
    return ((holds == ["any"] or state_of(watch) in holds)
            and level == LEVEL_NAMES[reading.level]
            and colour in ([], [colour_of(watch, reading)])
            and within(row["d"], (reading.magnitude - watch.ref[0]) / STEP, bare_d(watch, reading))
            and row["steady"] in ("-", "yes" if reading.steady else "no",
                                  *(("tall",) if reading.tall else ())))


def bare_d(watch: StackWatch, reading: Reading) -> float | None:
    """The reading minus the pocket's ``bare`` in steps (None: it has none)."""
    bare = watch.bare[0]
    return None if bare is None else (reading.magnitude - bare) / STEP


def step(watch: StackWatch, reading: Reading) -> str:
    """Feed ``reading``; check it did what the first row that fits says; that row's name."""
    row = next((r for r in ROWS if fits(r, watch, reading)), None)
    assert row is not None, f"no row fits state {state_of(watch)} reading {reading}"
    before = pocket(watch)
    reported = watch.update([reading.level], [reading.magnitude], [reading.sign],
                            [reading.steady], [reading.tall])
    after, name = pocket(watch), row["row"]
    count = before.count if row["count"] == "=" else COUNTS[row["count"]]
    assert reported == [count], f"row {name}: reported {reported}, the table says {count}"
    if row["next"] == "kept":
        assert after == before, f"row {name}: {before} became {after}"
    elif row["next"] == "follows":
        assert after == replace(before, ref=reading.magnitude), f"row {name}: {after}"
    else:
        assert state_of(watch) == row["next"], f"row {name}: {before} became {after}"
        assert after.sign == reading.sign, f"row {name}: colour {after.sign}"
        if "reference" in STATES[row["next"]]["remembers"]:
            assert after.ref == reading.magnitude, f"row {name}: reference {after.ref}"
    return name


PATHS = {
    "unseen": [],
    "empty": [Reading(EMPTY, 3.0, 0)],
    "open": [Reading(ONE_PLUS, 1700.0, HELD)],
    "one": [Reading(EMPTY, 3.0, 0), Reading(ONE, 1600.0, HELD)],
    "one?": [Reading(ONE, 1600.0, HELD)],
    "two": [Reading(EMPTY, 3.0, 0), Reading(TWO_PLUS, 1860.0, HELD)],
    "two?": [Reading(TWO_PLUS, 1860.0, HELD)],
}
"""Readings that bring a new one-pocket watch into each state."""
STACKED = [Reading(EMPTY, 3.0, 0), Reading(ONE, 1600.0, HELD),
           Reading(TWO_PLUS, 2000.0, HELD)]
"""Readings that leave a ``two`` with ``bare`` (1600): a second checker put on the
first under a phantom of the same colour."""
VIA = {"stacked": STACKED, "lifted": [*STACKED, Reading(ONE, 1800.0, HELD)]}
"""Readings that leave a state with ``bare`` known (``lifted``: a ``one`` read under
the phantom, 1800)."""


def watch_in(state: str, via: str = "") -> StackWatch:
    """A one-pocket watch in ``state``, brought there by readings (``via``: by those
    of :data:`VIA`, ``bare`` known)."""
    watch = StackWatch(1, second_layer_step=STEP)
    for reading in VIA[via] if via else PATHS[state]:
        watch.update([reading.level], [reading.magnitude], [reading.sign], [reading.steady])
    assert state_of(watch) == state
    assert (watch.bare[0] is not None) == bool(via)
    return watch


@dataclass(frozen=True)
class Example:
    """A reading that the row it is filed under fits first, from a state it holds."""

    state: str
    level: int
    colour: str = ""
    d: float | None = None
    """Steps from the reference; None: the level's typical magnitude."""
    steady: bool = False
    tall: bool = False
    via: str = ""
    """From the state that readings of :data:`VIA` leave, ``bare`` known."""

    def reading(self, watch: StackWatch) -> Reading:
        held = watch.sign[0]
        sign = {"": 0, "same": held, "new": -held if held else HELD}[self.colour]
        magnitude = TYPICAL[self.level] if self.d is None else watch.ref[0] + self.d * STEP
        return Reading(self.level, magnitude, sign, self.steady, self.tall)


EXAMPLES = {
    "emptied": Example("two", EMPTY),
    "put-one": Example("empty", ONE, "new"),
    "put-one+": Example("empty", ONE_PLUS, "new"),
    "put-two": Example("empty", TWO_PLUS, "new"),
    "fresh-one": Example("one", ONE, "new", d=-0.67),  # a blot swapped for its hitter
    "fresh-one+": Example("unseen", ONE_PLUS, "new"),
    "fresh-two": Example("two", TWO_PLUS, "new"),
    "fresh-unknown": Example("one", UNKNOWN, "new"),  # a stuck sensor
    "bared": Example("one", ONE, "same", d=-1.0, via="lifted"),  # the phantom has gone
    "masked": Example("one", ONE, "same", d=-1.1),
    "lifted-masked": Example("two", ONE, "same", d=-1.9),  # a lift under a phantom
    "reads-one": Example("one", ONE, "same", d=-0.55),  # a weaker one swapped in
    "reads-one-unsure": Example("open", ONE, "same"),
    "reads-two": Example("one?", TWO_PLUS, "same"),
    "stays-open": Example("open", ONE_PLUS, "same", d=0.3),
    "step-up": Example("one", ONE_PLUS, "same", d=1.0),
    "step-up-unsure": Example("one?", ONE_PLUS, "same", d=1.0),
    "still-two": Example("two", ONE_PLUS, "same", d=-1.0, via="stacked"),  # it went
    "step-down": Example("two", ONE_PLUS, "same", d=-1.0),
    "step-down-unsure": Example("two?", ONE_PLUS, "same", d=-1.0),
    "two-unsure-opens": Example("two?", ONE_PLUS, "same", d=0.1),
    "drift": Example("two", ONE_PLUS, "same", d=0.1),
    "steady-drift": Example("one", ONE_PLUS, "same", d=0.45, steady=True),
    "tall-drift": Example("two", ONE_PLUS, "same", d=-0.35, tall=True),  # a third off
    "not-a-step": Example("one", ONE_PLUS, "same", d=0.45),
    "weak": Example("one", WEAK),
    "unknown": Example("two", UNKNOWN),
}
"""One example per row of the transitions table, in its order."""


def test_every_row_has_one_example_and_every_example_a_row() -> None:
    assert list(EXAMPLES) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_row(name: str) -> None:
    """The row's example, from the row's state, does what the row says."""
    example = EXAMPLES.get(name)
    assert example is not None, f"row {name} of stacks.py's table has no example here"
    watch = watch_in(example.state, example.via)
    assert step(watch, example.reading(watch)) == name


def test_the_states_are_the_ones_the_watch_tells_apart() -> None:
    assert list(STATES) == list(PATHS)
    for state, row in STATES.items():
        assert watch_in(state).count == [COUNTS[row["count"]]], state


def test_the_table_uses_its_own_words() -> None:
    for row in ROWS:
        level, *colour = row["reads"].split()
        assert set(row["holds"].split()) <= {"any", *STATES}, row
        assert level in LEVEL_NAMES and colour in ([], ["new"], ["same"]), row
        assert row["steady"] in ("-", "yes", "no", "tall"), row
        assert row["next"] in {"kept", "follows", *STATES}, row
        if row["next"] in STATES:
            assert row["count"] == STATES[row["next"]]["count"], row
        within(row["d"], 0.0, 0.0)  # parses


def test_the_reasons_are_given_for_rows_of_the_table() -> None:
    reasons = re.findall(r"^- (.*?): ", stacks.__doc__ or "", re.MULTILINE)
    named = {n for line in reasons for n in re.findall(r"``([^`]+)``", line)}
    assert named and named <= set(NAMES), named - set(NAMES)


BOUNDS = (-1.75, -0.75, -0.5, -0.25, 0.25, 0.5)
"""The ``d`` bounds in the table: random readings keep clear of them."""


def random_reading(rng: random.Random, watch: StackWatch) -> Reading:
    """A reading the decoder could hand over: a colour from one checker up, or stuck."""
    level = rng.choice([EMPTY, WEAK, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN])
    held = watch.sign[0] or rng.choice([1, -1])
    sign = 0 if level in (EMPTY, WEAK) else rng.choice([held, held, held, -held])
    if level == UNKNOWN:
        sign = rng.choice([0, 0, sign])
    magnitude = _clear_of_bounds(rng, watch)
    return Reading(level, magnitude, sign, rng.random() < 0.5, rng.random() < 0.3)


def _clear_of_bounds(rng: random.Random, watch: StackWatch) -> float:
    """A random magnitude whose ``d`` and ``b`` keep clear of the table's bounds: now
    and then near ``bare``, where the pocket has one."""
    bare = watch.bare[0]
    while True:
        if bare is not None and rng.random() < 0.3:
            magnitude = bare + rng.uniform(-0.5, 0.5) * STEP
        else:
            magnitude = watch.ref[0] + rng.uniform(-2.2, 1.5) * STEP
        d = (magnitude - watch.ref[0]) / STEP
        b = None if bare is None else (magnitude - bare) / STEP
        b_clear = b is None or all(abs(b - x) >= 0.01 for x in (-0.25, 0.25, 0.5))
        if all(abs(d - x) >= 0.01 for x in BOUNDS) and b_clear:
            return magnitude


def test_every_step_of_random_walks_is_the_first_row_that_fits() -> None:
    rng = random.Random(10)
    used: set[str] = set()
    for _ in range(400):
        watch = StackWatch(1, second_layer_step=STEP)
        for _ in range(rng.randrange(1, 25)):
            used.add(step(watch, random_reading(rng, watch)))
    assert used == set(NAMES), f"rows never used: {set(NAMES) - used}"
