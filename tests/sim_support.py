"""Test support for the modelled board: the reference pin map, truth, calibrated decoders.

``PINMAP`` is the reference board's real wiring (``hardware/pinout.toml``), the
one pin map the tests share (``tests/conftest.py`` hands it out as the
``pinmap`` fixture).  A test that needs other wiring derives it from this one
with ``dataclasses.replace`` and says why.
"""

from __future__ import annotations

import random

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Calibration, CountRange, Decoder, Observation, Reading, calibrate
from tavla_pi.hal.sim import SimBoard
from tavla_pi.hardware.physics import REFERENCE, BoardDesign
from tavla_pi.hardware.pinmap import PinMap, load_pinmap
from tavla_pi.rules.color import Color

PINMAP: PinMap = load_pinmap()
"""The reference board's wiring, read once from ``hardware/pinout.toml``."""


def truth_of(board: SimBoard, location: str, half: Color | None, color: Color) -> int:
    """How many ``color`` checkers the board really holds at a point or bar half."""
    if half is None:
        return board.count(location, color)
    return sum(stack.count(color) for stack in board.pockets("bar", half))


def calibrated(seed: int, design: BoardDesign = REFERENCE, frames: int = 50,
               *, pin_on_top: bool = False) -> tuple[SimBoard, Decoder, VirtualClock]:
    """A modelled board (empty, seeded; ``pin_on_top`` as :class:`SimBoard`'s) and a
    decoder calibrated on it.

    A board of perfect parts has no noise to measure: its decoder takes the
    (exact) datasheet figures instead.
    """
    clock = VirtualClock()
    board = SimBoard(PINMAP, clock, random.Random(seed), design, pin_on_top=pin_on_top)
    if design.noise_counts == 0:
        calibration = Calibration.datasheet(PINMAP, design)
    else:
        calibration = calibrate([board.scan() for _ in range(frames)], PINMAP, design)
    return board, Decoder(calibration, PINMAP, design), clock


def settle(board: SimBoard, decoder: Decoder, frames: int = 20,
           clock: VirtualClock | None = None) -> Observation:
    """Scan and decode ``frames`` times (20 ms apart on ``clock``); the last observation."""
    observation = decoder.decode(board.scan())
    for _ in range(frames - 1):
        if clock is not None:
            clock.advance(20)
        observation = decoder.decode(board.scan())
    return observation


def places() -> list[tuple[str, Color | None]]:
    """Every sensed place: the 24 points and both bar halves."""
    return [(str(p), None) for p in range(1, 25)] + [("bar", c) for c in Color]


def reading_at(observation: Observation, location: str, half: Color | None) -> Reading:
    """The observation's reading of a point or bar half."""
    return observation.point(int(location)) if half is None else observation.bar(half)


def count_range_for(reading: Reading, color: Color) -> CountRange:
    """What ``reading`` says about ``color``'s count there (both colours' ranges)."""
    if reading.color is None:
        return reading.count
    return reading.count if reading.color is color else reading.other
