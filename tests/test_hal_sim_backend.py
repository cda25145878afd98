"""The sim backend bundle: pixels, buttons, and opening backends by name."""

from __future__ import annotations

import random

import pytest
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import ConfigError, HardwareError
from tavla_pi.hal.backends import open_backend
from tavla_pi.hal.sim import SimBackend, SimButtons, SimPixels, open_sim_backend
from tavla_pi.hardware.pinmap import BUTTON_NAMES


def test_pixels_keep_the_last_frame_and_close_blanks_them() -> None:
    pixels = SimPixels(3)
    pixels.show([(1, 2, 3), (0, 0, 0), (255, 255, 255)])
    assert pixels.frame == ((1, 2, 3), (0, 0, 0), (255, 255, 255))
    pixels.close()
    pixels.close()
    assert pixels.frame == ((0, 0, 0),) * 3
    with pytest.raises(HardwareError):
        pixels.show([(0, 0, 0)] * 3)


@pytest.mark.parametrize(
    ("frame", "message"),
    [([(0, 0, 0)] * 2, "a frame of 2 pixels"), ([(0, 0, 0), (0, 256, 0), (0, 0, 0)], "pixel 1")],
)
def test_pixels_refuse_a_wrong_frame(frame: list[tuple[int, int, int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SimPixels(3).show(frame)


def test_buttons_report_levels_set_by_press_and_release() -> None:
    buttons = SimButtons()
    assert set(buttons.levels()) == set(BUTTON_NAMES)
    buttons.press("white.roll")
    assert buttons.levels()["white.roll"] is True
    buttons.release("white.roll")
    assert buttons.levels()["white.roll"] is False
    with pytest.raises(ValueError, match=r"unknown button 'white\.done'"):
        buttons.press("white.done")
    buttons.close()
    buttons.close()
    with pytest.raises(HardwareError):
        buttons.levels()


def test_open_sim_backend_bundles_the_board_and_closes_everything() -> None:
    with open_sim_backend(PINMAP, VirtualClock(), random.Random(1)) as backend:
        assert isinstance(backend, SimBackend)
        assert backend.sensors is backend.board
        assert len(backend.sensors.scan()) == len(PINMAP.sensors)
        backend.pixels.show([(9, 9, 9)] * PINMAP.leds.count)
    assert backend.closed
    assert backend.sim_pixels.frame[0] == (0, 0, 0)
    with pytest.raises(HardwareError):
        backend.board.scan()


def test_open_backend_by_name() -> None:
    backend = open_backend("sim", PINMAP, VirtualClock(), random.Random(2))
    assert backend.name == "sim"
    backend.close()
    with pytest.raises(ConfigError, match="backend: unknown backend 'mock'"):
        open_backend("mock", PINMAP, VirtualClock())
