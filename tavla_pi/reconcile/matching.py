"""Does a board fit what the sensors read?  Cell by cell, against intervals.

:class:`Sensed` turns an :class:`~tavla_pi.decode.Observation` into one signed
interval per cell (White +, Black -, as in :mod:`tavla_pi.reconcile.layout`),
so that checking a board is a few comparisons on the cells a play changed.

A location the decoder flags ``mixed_colors`` (a hitter placed on a blot not
yet lifted) may hold both colours: it fits a board that has both there, or
one with just the colour the decoder saw as dominant.
"""

from __future__ import annotations

from collections.abc import Iterable

from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.reconcile.layout import N_LOCS, N_POINTS, Cells, location_name
from tavla_pi.rules.color import Color

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


def interval(reading: Reading, mixed: bool) -> tuple[int, int]:
    """The signed counts a single-coloured location may hold and still read as ``reading``."""
    low, high = reading.count.low, reading.count.high
    if mixed:
        low = max(low, 1)
    if reading.color is None:
        return (-high, high) if low == 0 else (1, 0)
    if reading.color is Color.WHITE:
        return low, high
    return -high, -low


class Sensed:
    """One observation, ready for matching boards against it."""

    __slots__ = ("hi", "lo", "mixed", "readings")

    def __init__(self, obs: Observation) -> None:
        self.readings = readings_of(obs)
        self.mixed = mixed_cells(obs)
        bounds = [interval(r, i in self.mixed) for i, r in enumerate(self.readings)]
        self.lo = tuple(b[0] for b in bounds)
        self.hi = tuple(b[1] for b in bounds)

    def fits_cell(self, i: int, v: int) -> bool:
        """True if cell ``i`` holding signed count ``v`` reads as observed."""
        return self.lo[i] <= v <= self.hi[i]

    def fits(self, cells: Cells, where: Iterable[int]) -> bool:
        """True if ``cells`` read as observed on every cell in ``where``."""
        lo, hi = self.lo, self.hi
        return all(lo[i] <= cells[i] <= hi[i] for i in where)

    def mismatches(self, cells: Cells) -> frozenset[int]:
        """The cells where ``cells`` do not read as observed."""
        lo, hi = self.lo, self.hi
        return frozenset(i for i in range(N_LOCS) if not lo[i] <= cells[i] <= hi[i])

    def fits_content(self, i: int, content: Content) -> bool:
        """True if location ``i`` holding ``content`` (white, black) reads as observed."""
        white, black = content
        if not (white and black):
            return self.fits_cell(i, white - black)
        reading = self.readings[i]
        seen = reading.color
        if seen is None:
            return False
        ours = white if seen is Color.WHITE else black
        return ours in reading.count or white + black in reading.count
