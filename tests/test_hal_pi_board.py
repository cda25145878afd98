"""Raspberry Pi model detection and the choice of pin factory, from files in tmp_path."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tavla_pi.errors import HardwareError
from tavla_pi.hal.pi.backend import open_pi_backend
from tavla_pi.hal.pi.board import PiModel, detect_model, open_pin_factory
from tavla_pi.testing.hal_models import RecordingWriter, reference_pinmap


def model_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "model"
    path.write_bytes(text.encode() + b"\x00")  # the device tree ends strings with NUL
    return path


@pytest.mark.parametrize(("text", "family"), [
    ("Raspberry Pi Zero 2 W Rev 1.0", 3),
    ("Raspberry Pi Zero W Rev 1.1", 1),
    ("Raspberry Pi Model B Plus Rev 1.2", 1),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", 3),
    ("Raspberry Pi 4 Model B Rev 1.4", 4),
    ("Raspberry Pi 400 Rev 1.0", 4),
    ("Raspberry Pi Compute Module 4 Rev 1.0", 4),
    ("Raspberry Pi 5 Model B Rev 1.0", 5),
    ("Raspberry Pi 500 Rev 1.0", 5),
    ("Raspberry Pi Compute Module 5 Rev 1.0", 5),
])
def test_the_model_and_its_family_come_from_the_device_tree(
        tmp_path: Path, text: str, family: int) -> None:
    model = detect_model(model_file(tmp_path, text))
    assert model == PiModel(text, family)
    assert model.has_rp1 == (family == 5)


def test_a_missing_device_tree_means_no_pi(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "model"
    with pytest.raises(HardwareError) as err:
        detect_model(path)
    assert str(err.value) == f"no Raspberry Pi found: {path} does not exist"


def test_another_board_is_not_taken_for_a_pi(tmp_path: Path) -> None:
    with pytest.raises(HardwareError, match=r"not a Raspberry Pi: .* says 'Pine64 RockPro64'"):
        detect_model(model_file(tmp_path, "Pine64 RockPro64"))
    with pytest.raises(HardwareError, match="unknown Raspberry Pi model 'Raspberry Pi Nano'"):
        detect_model(model_file(tmp_path, "Raspberry Pi Nano"))


@pytest.mark.skipif(importlib.util.find_spec("RPi") is not None, reason="RPi.GPIO is installed")
def test_pi_4_without_rpi_gpio_is_a_one_line_hardware_error() -> None:
    with pytest.raises(HardwareError) as err:
        open_pin_factory(PiModel("Raspberry Pi 4 Model B Rev 1.4", 4))
    assert str(err.value) == ("the RPi library is not installed, needed for GPIO on a Raspberry "
                              "Pi 4 Model B Rev 1.4 (pip install 'tavla-pi[pi]')")


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed")
def test_pi_5_without_lgpio_is_a_one_line_hardware_error() -> None:
    with pytest.raises(HardwareError) as err:
        open_pin_factory(PiModel("Raspberry Pi 5 Model B Rev 1.0", 5))
    assert "lgpio library is not installed" in str(err.value)
    assert "tavla-pi[pi5]" in str(err.value)


def test_the_backend_refuses_to_open_off_a_pi(tmp_path: Path) -> None:
    with pytest.raises(HardwareError, match="no Raspberry Pi found"):
        open_pi_backend(reference_pinmap(), model_path=tmp_path / "model")


@pytest.mark.skipif(importlib.util.find_spec("RPi") is not None, reason="RPi.GPIO is installed")
def test_the_backend_refuses_to_open_without_a_usable_pin_factory(tmp_path: Path) -> None:
    writer = RecordingWriter()
    with pytest.raises(HardwareError, match="RPi library is not installed"):
        open_pi_backend(reference_pinmap(), pixel_writer=writer,
                        model_path=model_file(tmp_path, "Raspberry Pi 3 Model B Rev 1.2"))
    assert writer.frames == [bytes(3 * 66)]  # blanked: the reference board's 66 LEDs
    assert writer.closes == 1
