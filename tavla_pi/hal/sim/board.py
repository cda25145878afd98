"""The modelled physical board: checkers in pockets over Hall sensors.

A person's actions (lift a checker into the hand, place it, leave one
between two pockets) change where the magnets are; ``scan()`` computes what
every sensor reads from all the magnets near it, with the parts' tolerances
and noise.  It is the ``sim`` backend's :class:`~tavla_pi.hal.base.SensorGrid`
and the ground truth tests and the simulator page compare against.

Locations and colours follow docs/CONTRACTS.md section 1: ``"1"``..``"24"``,
``"bar"`` (each colour has its own half) and ``"off"`` (the colour's tray,
not sensed).  An empty board has all 30 checkers in the trays.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Concatenate, ParamSpec, TypeVar

from tavla_pi.clock import Clock
from tavla_pi.errors import HardwareError
from tavla_pi.hal.base import RawFrame
from tavla_pi.hal.sim.places import BoardActionError, Checker, Place
from tavla_pi.hal.sim.sensors import Magnet, SensorModel, truncated_normal
from tavla_pi.hardware.geometry import slot_xy
from tavla_pi.hardware.physics import REFERENCE, BoardDesign
from tavla_pi.hardware.pinmap import BAR_SLOTS_PER_COLOR, POINT_SLOTS, PinMap
from tavla_pi.rules.board import LOCATIONS, POINTS, Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS

Counts = Mapping[tuple[str, Color], int]
P = ParamSpec("P")
T = TypeVar("T")

START: dict[tuple[str, Color], int] = {
    ("24", Color.WHITE): 2, ("13", Color.WHITE): 5, ("8", Color.WHITE): 3,
    ("6", Color.WHITE): 5, ("1", Color.BLACK): 2, ("12", Color.BLACK): 5,
    ("17", Color.BLACK): 3, ("19", Color.BLACK): 5,
}
"""The starting position as checkers per (location, colour)."""


def counts_of(board: Board) -> dict[tuple[str, Color], int]:
    """The checkers on ``board`` per (location, colour), as :meth:`SimBoard.lay_out` takes
    them (the trays left out: what is not on the board is off)."""
    return {(loc, color): n for loc, color, n in board.items() if loc != "off"}


def _locked(method: Callable[Concatenate[SimBoard, P], T]) -> Callable[Concatenate[SimBoard, P], T]:
    """Run ``method`` holding the board's lock (the page and the scanner share it)."""
    @functools.wraps(method)
    def run(self: SimBoard, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with self._lock:
            return method(self, *args, **kwargs)

    return run


@dataclass(frozen=True, slots=True)
class _Glitch:
    start_ms: int
    end_ms: int
    magnet: Magnet


class SimBoard:
    """A modelled board: actions in, raw sensor frames out, truth on request.

    ``rng`` draws the parts' tolerances once (sensors, then magnets) and the
    noise of every scan; ``clock`` times glitches.  ``design`` sets the
    physics (``IDEAL`` for a board of perfect parts).  ``pin_on_top``: a
    checker put on a point whose only checker is the other colour's goes on
    top of it, in its pocket (Plakoto's pin, hardware/GEOMETRY.md); else it
    goes in the next free pocket, beside it.
    """

    def __init__(self, pinmap: PinMap, clock: Clock, rng: random.Random | None = None,
                 design: BoardDesign = REFERENCE, *, pin_on_top: bool = False) -> None:
        self.design = design
        self.pin_on_top = pin_on_top
        self._clock = clock
        self._rng = rng if rng is not None else random.Random(0)
        self.sensors = SensorModel(design, [c.site for c in pinmap.sensors], self._rng)
        self._places: dict[tuple[str, Color | None], Place] = {
            (p, None): Place(p, None, POINT_SLOTS) for p in POINTS
        }
        for color in Color:
            self._places[("bar", color)] = Place("bar", color, BAR_SLOTS_PER_COLOR)
        self._trays = {c: [self._new_checker(c) for _ in range(CHECKERS)] for c in Color}
        self._hands: dict[Color, list[Checker]] = {c: [] for c in Color}
        self._glitches: list[_Glitch] = []
        self._stuck: dict[int, int] = {}
        self._field: list[float] | None = None
        self._closed = False
        self._lock = threading.RLock()

    def _new_checker(self, color: Color) -> Checker:
        return Checker(color, 1.0 + truncated_normal(self._rng, self.design.br_tol))

    # -- a person's actions ---------------------------------------------------

    @_locked
    def lift(self, location: str, color: Color, pocket: int | None = None) -> None:
        """One checker of ``color`` leaves ``location`` into that colour's hand: the one
        placed last, or the top of ``pocket``'s stack."""
        if location == "off":
            if not self._trays[color]:
                raise BoardActionError(f"no {color.value} checker in the tray")
            checker = self._trays[color].pop()
        else:
            checker = self._place(location, color).take(color, pocket)
        self._hands[color].append(checker)
        self._field = None

    @_locked
    def place(self, location: str, color: Color, pocket: int | None = None) -> None:
        """Put one checker from ``color``'s hand on ``location``: in the next free pocket
        (on a lone checker of the other colour with ``pin_on_top``), or on ``pocket``."""
        checker = self._from_hand(color)
        if location == "off":
            self._trays[color].append(checker)
            self._field = None
            return
        place = self._place(location, color)
        if pocket is None and self.pin_on_top:
            pocket = place.lone_other(color)
        place.add(checker, pocket)
        self._field = None

    @_locked
    def place_between(self, location: str, color: Color, slot_a: int,
                      fraction: float = 0.5) -> None:
        """Leave a checker from the hand between pockets ``slot_a`` and ``slot_a + 1``.

        ``fraction`` is how far towards the second pocket it lies; a checker
        resting on the ridge between two pockets lies near 0.5.
        """
        place = self._place(location, color)
        checker = self._from_hand(color)
        try:
            place.add_between(checker, slot_a, fraction)
        except BoardActionError:
            self._hands[color].append(checker)
            raise
        self._field = None

    @_locked
    def clear(self) -> None:
        """Every checker back into its tray (hands emptied too)."""
        for place in self._places.values():
            for checker in place.take_all():
                self._trays[checker.color].append(checker)
        for color, hand in self._hands.items():
            self._trays[color].extend(hand)
            hand.clear()
        self._field = None

    def setup_start(self) -> None:
        """Lay out the starting position (docs/CONTRACTS.md section 1)."""
        self.lay_out(START)

    @_locked
    def lay_out(self, counts: Counts, pinned: Mapping[str, Color] | None = None) -> None:
        """Empty the board, then put ``counts`` checkers per (location, colour).

        Checkers not given stay in their tray; an explicit ``"off"`` count
        must equal what is left over.  ``pinned`` maps a point to the colour
        of a checker pinned there: that one goes in the first pocket and one
        of the other colour on top of it, the rest in the free pockets.
        """
        _check_counts(counts)
        pins = dict(pinned or {})
        _check_pins(counts, pins)
        self.clear()
        for location, color in pins.items():
            place = self._place(location, color)
            place.add(self._trays[color].pop())
            place.add(self._trays[color.opponent].pop(), 0)
        for (location, color), n in sorted(counts.items(), key=_layout_order):
            if location == "off":
                continue
            place = self._place(location, color)
            for _ in range(n - (location in pins)):  # a pin laid one of each colour
                place.add(self._trays[color].pop())
        self._field = None

    def _from_hand(self, color: Color) -> Checker:
        if not self._hands[color]:
            raise BoardActionError(f"no {color.value} checker in the hand")
        return self._hands[color].pop()

    def _place(self, location: str, color: Color) -> Place:
        half = color if location == "bar" else None
        place = self._places.get((location, half))
        if place is None:
            raise BoardActionError(f"unknown location {location!r} (1..24, bar, off)")
        return place

    # -- faults, for tests ------------------------------------------------------

    @_locked
    def glitch(self, location: str, color: Color, ms: int) -> None:
        """A phantom checker reading at ``location`` for the next ``ms`` milliseconds."""
        if location == "off":
            raise BoardActionError("the trays are not sensed: no glitch at 'off'")
        place = self._place(location, color)
        slot, layer = place.next_free()
        x, y = slot_xy(self.design, place.location, slot, place.half)
        sign = 1.0 if color is Color.WHITE else -1.0
        now = self._clock.now_ms()
        magnet = Magnet(x, y, self.design.layer_height_mm(layer), sign)
        self._glitches.append(_Glitch(now, now + ms, magnet))

    @_locked
    def stick_sensor(self, index: int, value: int) -> None:
        """Make sensor ``index`` read ``value`` from now on (a dead or stuck sensor)."""
        if not 0 <= index < len(self.sensors.positions):
            raise BoardActionError(f"no sensor {index}")
        if not 0 <= value <= self.design.adc_max:
            raise BoardActionError(f"sensor value {value} outside 0..{self.design.adc_max}")
        self._stuck[index] = value

    @_locked
    def unstick_sensor(self, index: int) -> None:
        """Let sensor ``index`` read the field again."""
        self._stuck.pop(index, None)

    # -- the sensor grid -------------------------------------------------------

    @_locked
    def scan(self) -> RawFrame:
        """Read every sensor once (one value per ``PinMap.sensors`` entry)."""
        if self._closed:
            raise HardwareError("the simulated sensor grid is closed")
        if self._field is None:
            self._field = self.sensors.field_counts(self._magnets())
        field = self._field
        now = self._clock.now_ms()
        self._glitches = [g for g in self._glitches if g.end_ms > now]
        active = [g.magnet for g in self._glitches if g.start_ms <= now]
        if active:
            extra = self.sensors.field_counts(active)
            field = [a + b for a, b in zip(field, extra, strict=True)]
        return self.sensors.read(field, self._rng, self._stuck)

    @_locked
    def skip_scans(self, scans: int) -> None:
        """Let ``scans`` scans pass unread: the noise moves on exactly as if they had
        been read, so a replay that skips a still stretch stays the same run."""
        self.sensors.skip_noise(self._rng, scans)

    @_locked
    def next_change_ms(self) -> int | None:
        """When a glitch next starts or ends (None: none is due); until then every scan
        reads the same field, give or take the noise."""
        now = self._clock.now_ms()
        times = [t for g in self._glitches for t in (g.start_ms, g.end_ms) if t > now]
        return min(times, default=None)

    def close(self) -> None:
        """Stop scanning; safe to call twice."""
        self._closed = True

    def _magnets(self) -> Iterator[Magnet]:
        for place in self._places.values():
            yield from place.magnets(self.design)

    # -- ground truth ----------------------------------------------------------

    @_locked
    def count(self, location: str, color: Color) -> int:
        """Checkers of ``color`` at ``location`` (the bar: both halves; off: the tray)."""
        if location == "off":
            return len(self._trays[color])
        if location == "bar":
            return sum(self._places[("bar", h)].count(color) for h in Color)
        return self._place(location, color).count(color)

    @_locked
    def counts(self) -> dict[tuple[str, Color], int]:
        """Every non-zero count per (location, colour), trays included."""
        found = {(loc, c): self.count(loc, c) for loc in LOCATIONS for c in Color}
        return {key: n for key, n in found.items() if n}

    @_locked
    def in_hand(self, color: Color) -> int:
        """Checkers of ``color`` currently held (lifted, not yet placed)."""
        return len(self._hands[color])

    @_locked
    def pockets(self, location: str, half: Color | None = None) -> tuple[tuple[Color, ...], ...]:
        """Colours stacked in each pocket of a point or bar half, bottom first."""
        place = self._half_place(location, half)
        return tuple(tuple(c.color for c in stack) for stack in place.stacks)

    @_locked
    def strays(self, location: str, half: Color | None = None) -> tuple[tuple[float, Color], ...]:
        """Checkers lying between pockets: (fractional slot, colour)."""
        place = self._half_place(location, half)
        return tuple((s.slot, s.checker.color) for s in place.strays)

    def _half_place(self, location: str, half: Color | None) -> Place:
        if location == "bar" and half is None:
            raise BoardActionError("the bar has two halves: say which (half=Color...)")
        return self._place(location, half or Color.WHITE)


def _layout_order(item: tuple[tuple[str, Color], int]) -> tuple[int, str]:
    (location, color), _ = item
    return LOCATIONS.index(location), color.value


def _check_pins(counts: Counts, pins: Mapping[str, Color]) -> None:
    for location, color in pins.items():
        if location not in POINTS:
            raise BoardActionError(f"pinned at {location!r}: only a point (1..24) holds a pin")
        if counts.get((location, color), 0) != 1 or not counts.get((location, color.opponent)):
            raise BoardActionError(
                f"pinned {color.value} at {location}: needs exactly one {color.value} "
                f"checker there and one or more of the other colour"
            )


def _check_counts(counts: Counts) -> None:
    totals = dict.fromkeys(Color, 0)
    for (location, color), n in counts.items():
        if location not in LOCATIONS:
            raise BoardActionError(f"unknown location {location!r} (1..24, bar, off)")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BoardActionError(f"{location}/{color.value}: count {n!r} is not a count")
        if location != "off":
            totals[color] += n
    for color, total in totals.items():
        if total > CHECKERS:
            raise BoardActionError(f"{total} {color.value} checkers on the board (at most 15)")
        off = counts.get(("off", color))
        if off is not None and off != CHECKERS - total:
            raise BoardActionError(
                f"off/{color.value}: {off} given, but {CHECKERS - total} are left over"
            )
