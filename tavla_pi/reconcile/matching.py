"""Does a board fit what the sensors read?  Cell by cell, against intervals.

:class:`Sensed` turns an :class:`~tavla_pi.decode.Observation` into one signed
interval per cell (White +, Black -, as in :mod:`tavla_pi.reconcile.layout`),
so that checking a board is a few comparisons on the cells a play changed.

Each reading gives an interval for each colour (``count`` for the colour
seen, ``other`` for the opposite one: non-empty while a hitter stands on a
blot, or where a sensor is in doubt).  A location flagged ``mixed_colors``
whose reading gives no count for the other colour is read as "the other
colour there, how many unknown".
"""

from __future__ import annotations

from collections.abc import Iterable

from tavla_pi.decode.observation import CountRange, Observation, Reading
from tavla_pi.reconcile.layout import N_LOCS, N_POINTS, Cells, location_name
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS

MIXED = "mixed_colors"

Content = tuple[int, int]
"""What a location holds, as (white, black) counts; both only while a hit is under way."""


def readings_of(obs: Observation) -> tuple[Reading, ...]:
    """The 26 readings in cell order: points 1..24, White's bar half, Black's."""
    return (*obs.points, obs.bar_white, obs.bar_black)


def mixed_cells(obs: Observation) -> frozenset[int]:
    """The cells the decoder flagged as holding both colours."""
    names = {f.location for f in obs.faults if f.kind == MIXED}
    return frozenset(i for i in range(N_POINTS) if location_name(i) in names)


def ranges(reading: Reading, *, mixed: bool) -> tuple[CountRange, CountRange]:
    """The (white, black) count intervals of one reading."""
    if reading.color is None:
        either = CountRange(0, reading.count.high)
        return either, either
    other = reading.other
    if mixed and other.high == 0:
        other = CountRange(1, CHECKERS)
    if reading.color is Color.WHITE:
        return reading.count, other
    return other, reading.count


def interval(white: CountRange, black: CountRange) -> tuple[int, int]:
    """The signed counts a single-coloured (or empty) location may hold.

    Empty (low > high) when both colours are surely there.
    """
    if white.low and black.low:
        return 1, 0
    if white.low:
        return white.low, white.high
    if black.low:
        return -black.high, -black.low
    return -black.high, white.high


class Sensed:
    """One observation, ready for matching boards against it."""

    __slots__ = ("hi", "lo", "maybe_covered", "mixed", "ranges", "readings")

    def __init__(self, obs: Observation) -> None:
        self.readings = readings_of(obs)
        self.mixed = mixed_cells(obs)
        self.maybe_covered = frozenset(i for i, r in enumerate(self.readings)
                                       if r.maybe_covered)
        self.ranges = tuple(ranges(r, mixed=i in self.mixed) for i, r in enumerate(self.readings))
        bounds = [interval(w, b) for w, b in self.ranges]
        self.lo = tuple(b[0] for b in bounds)
        self.hi = tuple(b[1] for b in bounds)

    def fits_cell(self, i: int, v: int, *, pinned: bool = False) -> bool:
        """True if cell ``i`` holding signed count ``v`` reads as observed (``pinned``:
        with a checker of the other colour pinned under those, Plakoto)."""
        if pinned:
            return self.fits_pin(i, v)
        return self.lo[i] <= v <= self.hi[i]

    def fits(self, cells: Cells, where: Iterable[int],
             pinned: frozenset[int] = frozenset()) -> bool:
        """True if ``cells`` read as observed on every cell in ``where`` (``pinned``: the
        cells holding a pinned checker under the counted ones)."""
        lo, hi = self.lo, self.hi
        if pinned:
            return all(self.fits_pin(i, cells[i]) if i in pinned else lo[i] <= cells[i] <= hi[i]
                       for i in where)
        return all(lo[i] <= cells[i] <= hi[i] for i in where)

    def mismatches(self, cells: Cells, pinned: frozenset[int] = frozenset()) -> frozenset[int]:
        """The cells where ``cells`` (with checkers pinned under ``pinned``) do not read
        as observed."""
        lo, hi = self.lo, self.hi
        found = frozenset(i for i in range(N_LOCS)
                          if i not in pinned and not lo[i] <= cells[i] <= hi[i])
        return found | {i for i in pinned if not self.fits_pin(i, cells[i])}

    def fits_pin(self, i: int, v: int) -> bool:
        """True if point ``i`` reads as ``v`` (signed) checkers on one pinned of the other
        colour: a covered pocket is what the rules expect there, not a fault.  Where the
        decoder says a lone checker may be covered unseen, one of those on top may be
        unseen (:attr:`~tavla_pi.decode.observation.Reading.maybe_covered`)."""
        if self.fits_content(i, pin_content(v)):
            return True
        hidden = (v - 1, 1) if v > 0 else (1, -v - 1)
        return i in self.maybe_covered and self.fits_content(i, hidden)

    def fits_content(self, i: int, content: Content) -> bool:
        """True if location ``i`` holding ``content`` (white, black) reads as observed."""
        white, black = self.ranges[i]
        return content[0] in white and content[1] in black


def pin_content(v: int) -> Content:
    """A pinned point as (white, black): ``v`` (signed) on top, one of the other under."""
    return (v, 1) if v > 0 else (1, -v)
