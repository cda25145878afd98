"""``tavla-pi diag`` and ``tavla-pi calibrate``, headless on the modelled board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sim_support import PINMAP

import tavla_pi.hardware.pinmap
from tavla_pi.cli import main
from tavla_pi.cli.calibrate import measure, summary
from tavla_pi.cli.diag import DiagSession, led_pattern
from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Calibration, Decoder, load_calibration
from tavla_pi.hal.sim import START, SimBackend, open_sim_backend

needs_pinout = pytest.mark.skipif(
    not hasattr(tavla_pi.hardware.pinmap, "load_pinmap"),
    reason="the pinout loader (hardware.pinmap.load_pinmap) lands with the hardware branch",
)


def sim_backend(seed: int = 1) -> SimBackend:
    return open_sim_backend(PINMAP, VirtualClock(), random.Random(seed))


def test_the_led_test_shows_solid_colours_then_each_led_by_name() -> None:
    name, pixels = led_pattern(0, PINMAP)
    assert name == "all red"
    assert set(pixels) == {(64, 0, 0)}
    assert len(pixels) == PINMAP.leds.count
    name, pixels = led_pattern(4 + 7, PINMAP)
    assert name == "LED 7 (point.8)"
    assert [i for i, p in enumerate(pixels) if p != (0, 0, 0)] == [7]
    assert led_pattern(4 + PINMAP.leds.count, PINMAP)[0] == "LED 0 (point.1)"


def test_a_diag_step_maps_every_sensor_and_the_decoded_board() -> None:
    with sim_backend() as backend:
        backend.board.lay_out(START)
        session = DiagSession(backend, PINMAP, Decoder(Calibration.datasheet(PINMAP), PINMAP))
        text = session.step(0)
    lines = text.splitlines()
    assert lines[0].startswith("tavla-pi diag: frame 1, backend sim, uncalibrated")
    raw_rows = [line for line in lines if line.startswith("s")]
    assert len(raw_rows) == 12
    assert all(len(row.split()) >= 13 for row in raw_rows)
    decoded = lines[lines.index(next(x for x in lines if x.startswith("decoded"))) + 2]
    assert decoded.split() == ["W5", ".", ".", ".", "B3", ".", ".", "B5", ".", ".", ".", ".",
                               "W2"]


def test_diag_drives_the_leds_and_reports_button_presses() -> None:
    with sim_backend() as backend:
        session = DiagSession(backend, PINMAP, Decoder(Calibration.datasheet(PINMAP), PINMAP),
                              leds=True, buttons=True)
        first = session.step(0)
        assert "leds: all red" in first
        assert backend.sim_pixels.frame[0] == (64, 0, 0)
        assert "white.roll=up" in first
        backend.sim_buttons.press("white.roll")
        second = session.step(1)
        assert "white.roll=down" in second
        assert "white.roll pressed" in second
        backend.sim_buttons.release("white.roll")
        assert "white.roll released" in session.step(2)
    assert backend.sim_pixels.frame[0] == (0, 0, 0)


def test_measure_empties_a_modelled_board_first() -> None:
    with sim_backend(3) as backend:
        backend.board.lay_out(START)
        calibration = measure(backend, PINMAP, 20)
    assert calibration.frames == 20
    assert calibration.faults == ()
    assert summary(calibration).startswith("152 sensors from 20 frames: offsets ")


@pytest.mark.parametrize("argv", [["diag", "--frames", "0"], ["calibrate", "--frames", "1"],
                                  ["diag", "--backend", "mock"]])
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "tavla-pi" in capsys.readouterr().err


@needs_pinout
def test_calibrate_on_the_modelled_board_saves_a_calibration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--backend", "sim", "--state-dir", str(tmp_path),
                 "--frames", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("calibrated 152 sensors from 20 frames")
    assert load_calibration(tmp_path / "calibration.json").frames == 20


@needs_pinout
def test_diag_once_on_the_modelled_board(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diag", "--backend", "sim", "--once", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("tavla-pi diag: frame") == 1
    assert "W5" in out
    assert "fault:" not in out


@needs_pinout
def test_diag_reads_the_saved_calibration(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    main(["calibrate", "--backend", "sim", "--state-dir", str(tmp_path), "--frames", "10"])
    assert main(["diag", "--backend", "sim", "--frames", "2", "--interval", "0",
                 "--state-dir", str(tmp_path)]) == 0
    assert "calibrated from 10 frames" in capsys.readouterr().out


@needs_pinout
def test_diag_with_a_corrupt_calibration_exits_2_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "calibration.json").write_text("{]")
    assert main(["diag", "--backend", "sim", "--once", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'calibration.json'}: line 1: " in err
