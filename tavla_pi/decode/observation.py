"""What the sensors say about the board, per location: the decoder's output.

An observation never claims more than the sensors can know: a colour and an
interval of checker counts per sensed location (a slot sees 0, 1 or "2 or
more", so tall stacks read as "at least n"), plus any sensor faults.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.rules.color import Color


@dataclass(frozen=True, slots=True)
class CountRange:
    """An inclusive interval of checker counts, ``low`` <= n <= ``high``."""

    low: int
    high: int

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.low <= n <= self.high

    @property
    def exact(self) -> bool:
        """True when the sensors pin the count down to one value."""
        return self.low == self.high


ZERO = CountRange(0, 0)
"""Exactly no checkers."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One sensed location: the colour seen (``None`` when empty) and the count.

    ``other`` is the count of the opposite colour at the same location: empty
    unless both colours are sensed there (a hit in progress, with a
    ``mixed_colors`` fault; ``color`` is then the one nearer the point's base)
    or a sensor there is in doubt.  ``color`` is ``None`` with a non-empty
    ``count`` when only doubtful sensors see something (colour unknown).

    ``covered`` is the colour of a lone checker in one of the place's pockets
    that has one or more of the other colour laid on it (a Plakoto pin, or a
    checker put on a point the opponent holds): that pocket reads weaker by
    the field of the one on top, which its history tells (hardware/GEOMETRY.md).
    It counts one of ``covered``'s colour and at least one of the other.

    ``maybe_covered`` is True when one of ``color``'s checkers here may have one of
    the other colour on it, unseen: a pocket read as one checker without its
    history, no stronger than a pin can read (a pin laid before the decoder
    started, a resume).  The counts say what is seen; whether a pin is there is
    the rules' to say (the matching takes a pin there as read).
    """

    color: Color | None
    count: CountRange
    other: CountRange = ZERO
    covered: Color | None = None
    maybe_covered: bool = False


NOTHING = Reading(None, ZERO)


@dataclass(frozen=True, slots=True)
class SensorFault:
    """A sensor the decoder does not trust, and why.

    ``kind`` is one of ``"stuck"``, ``"out_of_range"``, ``"between_slots"``,
    ``"mixed_colors"``; ``location`` is the board location it belongs to.
    """

    sensor: int
    location: str
    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Observation:
    """The board as sensed: 24 points, the two bar halves, and faults.

    ``points[i]`` is point ``i + 1`` in the board numbering of docs/CONTRACTS.md §1.
    """

    points: tuple[Reading, ...]
    bar_white: Reading
    bar_black: Reading
    faults: tuple[SensorFault, ...] = ()

    def point(self, n: int) -> Reading:
        """The reading of point ``n`` (1..24)."""
        return self.points[n - 1]

    def bar(self, color: Color) -> Reading:
        """The reading of ``color``'s half of the bar."""
        return self.bar_white if color is Color.WHITE else self.bar_black
