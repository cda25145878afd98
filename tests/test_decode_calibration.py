"""Calibration: the empty-board pass, its file, and what a corrupt file says."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import (
    Calibration,
    CalibrationError,
    CalibrationFileError,
    calibrate,
    calibration_for,
    default_state_dir,
    load_calibration,
    save_calibration,
)
from tavla_pi.decode.calibration import site_name
from tavla_pi.errors import BadInputError
from tavla_pi.hal.sim import SimBoard
from tavla_pi.rules.color import Color


def empty_pass(seed: int = 1, frames: int = 60) -> tuple[SimBoard, Calibration]:
    board = SimBoard(PINMAP, VirtualClock(), random.Random(seed))
    return board, calibrate([board.scan() for _ in range(frames)], PINMAP)


def test_the_empty_pass_measures_each_sensors_offset_and_noise() -> None:
    board, calibration = empty_pass()
    assert calibration.calibrated
    assert calibration.frames == 60
    for measured, true in zip(calibration.offsets, board.sensors.offset, strict=True):
        assert measured - 2048 == pytest.approx(true, abs=3.0)
    assert all(4.0 < n < 8.0 for n in calibration.noise)
    assert calibration.faults == ()
    assert calibration.sites[0] == "1.0"
    assert calibration.sites[-1] == "bar.black.3"


def test_a_checker_left_on_the_board_refuses_the_calibration() -> None:
    board = SimBoard(PINMAP, VirtualClock(), random.Random(2))
    board.lay_out({("13", Color.WHITE): 1})
    with pytest.raises(CalibrationError, match=r"not empty: a magnet over 13\.0 \(\+1"):
        calibrate([board.scan() for _ in range(10)], PINMAP)


def test_dead_sensors_are_flagged_not_refused() -> None:
    board = SimBoard(PINMAP, VirtualClock(), random.Random(3))
    board.stick_sensor(5, 4095)
    board.stick_sensor(6, 2100)
    calibration = calibrate([board.scan() for _ in range(10)], PINMAP)
    assert calibration.faults == ((5, "out_of_range"), (6, "stuck"))


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    _, calibration = empty_pass(4)
    calibration = Calibration(calibration.sites, calibration.offsets, calibration.noise,
                              calibration.frames, ((9, "stuck"),))
    path = tmp_path / "state" / "calibration.json"
    save_calibration(calibration, path)
    assert load_calibration(path) == calibration
    assert calibration_for(tmp_path / "state", PINMAP) == calibration
    assert not (tmp_path / "state" / "calibration.json.tmp").exists()


def test_without_a_file_the_datasheet_defaults_apply(tmp_path: Path) -> None:
    calibration = calibration_for(tmp_path, PINMAP)
    assert not calibration.calibrated
    assert calibration == Calibration.datasheet(PINMAP)
    assert calibration.offset_uncertainty(0) == pytest.approx(40.96)


def _corrupt(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    _, calibration = empty_pass(5, frames=4)
    path = tmp_path / "calibration.json"
    save_calibration(calibration, path)
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("edit", "where", "problem"),
    [
        (lambda d: d.update(format="other"), "format", "expected 'tavla-pi calibration'"),
        (lambda d: d.update(version=7), "version", "expected 1"),
        (lambda d: d.update(frames="many"), "frames", "expected a count >= 2"),
        (lambda d: d.update(sensors={}), "sensors", "expected a non-empty list"),
        (lambda d: d["sensors"].__setitem__(17, 3), "sensors[17]", "expected an object"),
        (lambda d: d["sensors"][17].update(offset="x"), "sensors[17].offset", "expected a number"),
        (lambda d: d["sensors"][3].update(offset=5000), "sensors[3].offset", "outside 0..4095"),
        (lambda d: d["sensors"][4].pop("noise"), "sensors[4].noise", "expected a number"),
        (lambda d: d["sensors"][2].update(site=""), "sensors[2].site", "expected a site name"),
        (lambda d: d.update(faults={"999": "stuck"}), "faults.999", "no sensor '999'"),
        (lambda d: d.update(faults={"3": "melted"}), "faults.3", "unknown fault 'melted'"),
    ],
)
def test_a_corrupt_file_names_the_file_and_field(tmp_path: Path, edit, where: str,  # type: ignore[no-untyped-def]
                                                 problem: str) -> None:
    path = _corrupt(tmp_path, edit)
    with pytest.raises(CalibrationFileError) as caught:
        load_calibration(path)
    assert isinstance(caught.value, BadInputError)
    assert caught.value.where == f"{path}: {where}"
    assert problem in caught.value.problem


def test_a_file_that_is_not_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text('{\n "format": "tavla-pi calibration",\n oops\n}\n')
    with pytest.raises(CalibrationFileError, match=r"calibration\.json: line 3: "):
        load_calibration(path)


def test_a_calibration_for_other_wiring_is_refused(tmp_path: Path) -> None:
    _, calibration = empty_pass(6, frames=4)
    shorter = Calibration(calibration.sites[:-1], calibration.offsets[:-1],
                          calibration.noise[:-1], 4)
    save_calibration(shorter, tmp_path / "calibration.json")
    with pytest.raises(CalibrationFileError, match="151 sensors, but the pin map has 152"):
        calibration_for(tmp_path, PINMAP)
    swapped = Calibration(("1.1", "1.0", *calibration.sites[2:]), calibration.offsets,
                          calibration.noise, 4)
    save_calibration(swapped, tmp_path / "calibration.json")
    with pytest.raises(CalibrationFileError, match=r"sensors\[0\]\.site: '1\.1'"):
        calibration_for(tmp_path, PINMAP)


def test_site_names_follow_the_pinout() -> None:
    assert [site_name(c.site) for c in PINMAP.sensors[:2]] == ["1.0", "1.1"]
    assert site_name(PINMAP.sensors[144].site) == "bar.white.0"


def test_the_default_state_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/srv/state")
    assert default_state_dir() == Path("/srv/state/tavla-pi")
    monkeypatch.delenv("XDG_STATE_HOME")
    assert default_state_dir() == Path.home() / ".local" / "state" / "tavla-pi"
