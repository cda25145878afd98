"""The sensing soak of 15-checker starts and pins: the modelled board and the decoder alone.

A :class:`StackRun` lays out a Plakoto or Fevga start (15 checkers of each
colour on one point), then moves random checkers the way hands do: a lift
from the top of a pocket (mostly the tallest, the one laid last; now and
then any), a pause with the checker in the hand, a placement on an empty
point, the mover's own, a lone opposing checker (Plakoto: a pin, laid on
top of it; more pinners beside it or piled on it) or the tray.  After every
lift and every placement the decoder settles and the run checks that the
observation contains the truth (each colour's count at every place lies in
its range) and tallies what it could and could not see: lifts the
observation did not change with, pins read as pins (``Reading.covered``),
pins read only as an open count (a weak pocket), pins missed.

No rules of play: any checker moves anywhere a hand may put it, so the run
covers far more stacks and pins than real games make.  ``tools/stack_soak.py``
runs many seeds and prints the tallies (hardware/GEOMETRY.md quotes them).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from tavla_pi.clock import VirtualClock
from tavla_pi.decode.calibration import calibrate
from tavla_pi.decode.decoder import Decoder
from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.rules.board import POINTS
from tavla_pi.rules.color import Color
from tavla_pi.rules.variants import variant as game

W, B = Color.WHITE, Color.BLACK
STARTS = {"plakoto": {W: "24", B: "1"}, "fevga": {W: "24", B: "12"}}
"""Where each colour's 15 checkers start (docs/CONTRACTS.md numbering)."""
SETTLE_FRAMES = 20
"""Scans the decoder gets after each action (20 ms apart: 400 ms, past the stability time)."""
PIN_WEIGHT = 4
"""How much likelier a pin, or a placement on one's own pin, is than any other point."""
PLACES = [(p, None) for p in POINTS] + [("bar", W), ("bar", B)]
"""Every sensed place: the points, then the bar halves."""


@dataclass(frozen=True, slots=True)
class StackStyle:
    """How the run's hand moves, each a probability per movement."""

    any_pocket: float = 0.3
    """Lift from any pocket with the mover's checker on top, not the tallest."""
    pile_on_pin: float = 0.3
    """A pinner's partner goes on top of the pin's pocket, not in a free one."""
    tray: float = 0.05
    """The checker goes to the tray (borne off), not onto a point."""
    restart: float = 0.5
    """(per run) The decoder starts on the laid-out start, with no history of it."""


class StackRun:
    """One seeded run of ``moves`` movements of a ``variant`` start."""

    def __init__(self, pinmap: PinMap, seed: int, variant: str = "plakoto", moves: int = 60,
                 style: StackStyle = StackStyle()) -> None:
        self.seed, self.variant, self.moves, self.style = seed, variant, moves, style
        self.pins = game(variant).pins
        self.tally: Counter[str] = Counter()
        self.wrong: list[str] = []
        self._rng, self._clock = random.Random(seed), VirtualClock()
        self.board = SimBoard(pinmap, self._clock, random.Random(seed),
                              pin_on_top=game(variant).pins)
        frames = [self.board.scan() for _ in range(50)]
        self.decoder = Decoder(calibrate(frames, pinmap), pinmap)

    def run(self) -> StackRun:
        """Lay out, move, check; the tallies and any reading that left the truth out."""
        self._lay_start(restart=self._rng.random() < self.style.restart)
        for move in range(self.moves):
            self._move(move)
        return self

    # -- the hand -----------------------------------------------------------------------

    def _lay_start(self, *, restart: bool) -> None:
        starts = STARTS[self.variant]
        if restart:
            self.board.lay_out({(p, c): 15 for c, p in starts.items()})
            self.tally["start_without_history"] += 1
        else:
            self._settle()
            for _ in range(15):
                for color, point in starts.items():
                    self.board.lift("off", color)
                    self.board.place(point, color)
                    self._settle()
            self.tally["start_laid_one_by_one"] += 1
        observation = self._check("start")
        for color, point in starts.items():
            reading = observation.point(int(point))
            self.tally[f"start_reads_{_text(reading, color)}"] += 1

    def _move(self, move: int) -> None:
        color = W if move % 2 == 0 else B
        source = self._source(color)
        if source is None:
            return
        location, pocket = source
        height = len(self.board.pockets(location)[pocket])
        pile = self.board.count(location, color)
        before = self._settle().point(int(location))
        self.board.lift(location, color, pocket)
        after = self._check("lift").point(int(location))
        kind = "third_layer" if height >= 3 else f"layer_{height}"
        self.tally[f"lift_{kind}"] += 1
        if after == before:
            self.tally[f"lift_{kind}_unseen"] += 1
        if move < 2 and pile == 15:
            self.tally[f"first_lift_reads_{_text(after, color)}"] += 1
        self._put(color, location)

    def _source(self, color: Color) -> tuple[str, int] | None:
        """A pocket whose top checker is ``color``'s: the tallest (the last laid), or any."""
        tops = [(len(stack), slot, loc) for loc in POINTS
                for slot, stack in enumerate(self.board.pockets(loc))
                if stack and stack[-1] is color]
        if not tops:
            return None
        if self._rng.random() < self.style.any_pocket:
            _, slot, loc = self._rng.choice(tops)
        else:
            _, slot, loc = max(tops, key=lambda t: (t[0], t[1], -int(t[2])))
        return loc, slot

    def _put(self, color: Color, origin: str) -> None:
        rng = self._rng
        if rng.random() < self.style.tray:
            self.board.place("off", color)
            self.tally["put_tray"] += 1
            self._check("tray")
            return
        target, pocket, kind = self._target(color, origin)
        self.board.place(target, color, pocket)
        self.tally[f"put_{kind}"] += 1
        self._check(kind)

    def _target(self, color: Color, origin: str) -> tuple[str, int | None, str]:
        """Where the checker goes: a point the opponent does not hold with two or more."""
        choices: list[tuple[str, int | None, str]] = []
        for loc in POINTS:
            if loc == origin:
                continue
            theirs, mine = self.board.count(loc, color.opponent), self.board.count(loc, color)
            pin = self._pin_pocket(loc, color)
            if pin is not None and self.pins:
                piled = self._rng.random() < self.style.pile_on_pin
                choices += [(loc, pin if piled else None, "pile_on_pin" if piled
                             else "beside_pin")] * PIN_WEIGHT
            elif theirs == 1 and mine == 0 and self.pins:
                choices += [(loc, None, "pin")] * PIN_WEIGHT
            elif theirs == 0:
                choices.append((loc, None, "own" if mine else "empty"))
        return self._rng.choice(choices)

    def _pin_pocket(self, location: str, color: Color) -> int | None:
        """The pocket where ``color`` pins a checker at ``location``, if it does."""
        for slot, stack in enumerate(self.board.pockets(location)):
            if len(stack) >= 2 and stack[0] is color.opponent and stack[1] is color:
                return slot
        return None

    # -- the checks ---------------------------------------------------------------------

    def _settle(self) -> Observation:
        observation = self.decoder.decode(self.board.scan())
        for _ in range(SETTLE_FRAMES - 1):
            self._clock.advance(20)
            observation = self.decoder.decode(self.board.scan())
        return observation

    def _check(self, after: str) -> Observation:
        """Settle; every place's truth within its ranges, every pin tallied."""
        observation = self._settle()
        self.tally["checks"] += 1
        for location, half in PLACES:
            reading = observation.point(int(location)) if half is None else observation.bar(half)
            for color in Color:
                truth = self._truth(location, half, color)
                if truth not in _range(reading, color):
                    self.wrong.append(f"seed {self.seed} after {after}: {location} "
                                      f"{color.value} {truth} read {reading}")
                    self.tally["wrong"] += 1
            if half is None:
                self._tally_pins(location, reading)
        return observation

    def _truth(self, location: str, half: Color | None, color: Color) -> int:
        if half is None:
            return self.board.count(location, color)
        return sum(stack.count(color) for stack in self.board.pockets("bar", half))

    def _tally_pins(self, location: str, reading: Reading) -> None:
        for stack in self.board.pockets(location):
            if len(stack) < 2 or stack[1] is stack[0]:
                continue
            pile = "pin" if len(stack) == 2 else "pin_piled"
            self.tally[pile] += 1
            if reading.covered is stack[0]:
                self.tally[f"{pile}_seen"] += 1
            elif reading.color is None or reading.count.high > reading.count.low:
                self.tally[f"{pile}_open"] += 1
            else:
                self.tally[f"{pile}_missed"] += 1


def _range(reading: Reading, color: Color) -> range:
    """What ``reading`` says of ``color``'s count, as a range of counts."""
    if reading.color is None:
        count = reading.count
    else:
        count = reading.count if reading.color is color else reading.other
    return range(count.low, count.high + 1)


def _text(reading: Reading, color: Color) -> str:
    """``"12-15"``: the count ``reading`` gives ``color``."""
    count = _range(reading, color)
    return f"{count.start}-{count.stop - 1}"
