"""Test support for the modelled board: the reference pin map built in code, truth.

The real one is ``hardware/pinout.toml``; this builder follows the same
design (152 sensors on ten 16-channel multiplexers into two MCP3208s, points
1..24 slot by slot, then the bar halves) so tests need no file.
"""

from __future__ import annotations

import random

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Calibration, CountRange, Decoder, Observation, Reading, calibrate
from tavla_pi.hal.sim import SimBoard
from tavla_pi.hardware.physics import REFERENCE, BoardDesign
from tavla_pi.hardware.pinmap import (
    BAR_SLOTS_PER_COLOR,
    BUTTON_NAMES,
    POINT_SLOTS,
    AdcChip,
    LedFeature,
    LedStrip,
    MuxBank,
    PinMap,
    SensorChannel,
    SensorSite,
)
from tavla_pi.rules.color import Color


def sensor_sites() -> list[SensorSite]:
    """Every sensor site in frame order."""
    sites = [SensorSite(str(p), s) for p in range(1, 25) for s in range(POINT_SLOTS)]
    for color in (Color.WHITE, Color.BLACK):
        sites += [SensorSite("bar", s, color) for s in range(BAR_SLOTS_PER_COLOR)]
    return sites


def led_names() -> list[str]:
    """Every LED feature, in chain order."""
    names = [f"point.{p}" for p in range(1, 25)]
    names += ["bar.white", "bar.black", "tray.white", "tray.black"]
    names += [f"cube.{2 ** k}" for k in range(1, 7)] + ["cube.owner.white", "cube.owner.black"]
    for color in ("white", "black"):
        names += [f"die.{color}.{d}.pip.{k}" for d in (0, 1) for k in range(7)]
    return [*names, "turn.white", "turn.black"]


def default_pinmap() -> PinMap:
    """The reference board's wiring as a value."""
    sites = sensor_sites()
    banks = tuple(MuxBank(f"mux{n}", n // 8, n % 8) for n in range(10))
    sensors = tuple(
        SensorChannel(site, adc=(i // 16) // 8, adc_channel=(i // 16) % 8, mux_channel=i % 16)
        for i, site in enumerate(sites)
    )
    names = led_names()
    return PinMap(
        mux_select=(5, 6, 13, 19),
        mux_enable=26,
        adcs=(AdcChip("adc0", 0, 0), AdcChip("adc1", 0, 1)),
        banks=banks,
        sensors=sensors,
        buttons=dict(zip(BUTTON_NAMES, (17, 27, 22, 23, 24), strict=True)),
        leds=LedStrip("pwm", 18, len(names)),
        led_features=tuple(LedFeature(name, i) for i, name in enumerate(names)),
    )


PINMAP = default_pinmap()


def truth_of(board: SimBoard, location: str, half: Color | None, color: Color) -> int:
    """How many ``color`` checkers the board really holds at a point or bar half."""
    if half is None:
        return board.count(location, color)
    return sum(stack.count(color) for stack in board.pockets("bar", half))


def calibrated(seed: int, design: BoardDesign = REFERENCE,
               frames: int = 50) -> tuple[SimBoard, Decoder, VirtualClock]:
    """A modelled board (empty, seeded) and a decoder calibrated on it.

    A board of perfect parts has no noise to measure: its decoder takes the
    (exact) datasheet figures instead.
    """
    clock = VirtualClock()
    board = SimBoard(PINMAP, clock, random.Random(seed), design)
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
