"""Malformed raw frames are bad input: one clear error naming the sensor."""

from __future__ import annotations

import pytest
from sim_support import PINMAP

from tavla_pi.decode import Calibration, Decoder, SensorFrameError, decode
from tavla_pi.errors import BadInputError

GOOD = (2048,) * len(PINMAP.sensors)


def with_value(index: int, value: object) -> tuple[object, ...]:
    frame: list[object] = list(GOOD)
    frame[index] = value
    return tuple(frame)


@pytest.mark.parametrize(
    ("frame", "where", "problem"),
    [
        (GOOD[:-1], "sensor frame", "151 readings for 152 sensors"),
        ((*GOOD, 2048), "sensor frame", "153 readings for 152 sensors"),
        (with_value(17, 4096), "sensor frame: sensor 17 (point 3 slot 5)", "reading 4096"),
        (with_value(0, -1), "sensor frame: sensor 0 (point 1 slot 0)", "reading -1"),
        (with_value(150, 2048.0), "sensor frame: sensor 150 (bar (black half) slot 2)",
         "reading 2048.0 is not an integer 0..4095"),
        (with_value(3, value=True), "sensor frame: sensor 3 (point 1 slot 3)", "reading True"),
        (with_value(9, "2048"), "sensor frame: sensor 9 (point 2 slot 3)", "reading '2048'"),
    ],
)
def test_a_bad_frame_names_the_sensor(frame: tuple[object, ...], where: str, problem: str) -> None:
    decoder = Decoder(Calibration.datasheet(PINMAP), PINMAP)
    with pytest.raises(SensorFrameError) as caught:
        decoder.decode(frame)  # type: ignore[arg-type]
    assert isinstance(caught.value, BadInputError)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_a_quiet_frame_decodes_to_an_empty_board() -> None:
    observation = decode(GOOD, Calibration.datasheet(PINMAP), PINMAP)
    assert observation.faults == ()
    assert all(r.color is None and r.count.high == 0 for r in observation.points)


def test_a_rail_reading_is_a_fault_not_an_error() -> None:
    observation = decode(with_value(30, 0), Calibration.datasheet(PINMAP), PINMAP)  # type: ignore[arg-type]
    assert [(f.sensor, f.kind, f.location) for f in observation.faults] == [
        (30, "out_of_range", "6")
    ]
    reading = observation.point(6)
    assert reading.color is None
    assert reading.count.low == 0
    assert reading.count.high == 15
