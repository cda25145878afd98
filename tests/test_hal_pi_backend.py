"""The whole Pi backend on MockFactory: buttons, a board scan, LEDs, closing."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import HardwareError, PinMapError
from tavla_pi.hal.base import Backend
from tavla_pi.hal.buttons import ButtonDecoder, ButtonEvent
from tavla_pi.hal.pi import PiButtons, open_pi_backend
from tavla_pi.hardware.pinmap import BUTTON_NAMES, SensorSite
from tavla_pi.rules.color import Color
from tavla_pi.testing.hal_models import (
    BUTTONS,
    HallField,
    ModelledBoard,
    RecordingWriter,
    board_sites,
    reference_pinmap,
)


def test_buttons_read_low_as_pressed(factory: MockFactory) -> None:
    with PiButtons(BUTTONS, pin_factory=factory) as buttons:
        assert buttons.levels() == dict.fromkeys(BUTTON_NAMES, False)
        factory.pin(BUTTONS["black.cube"]).drive_low()
        assert buttons.levels() == {**dict.fromkeys(BUTTON_NAMES, False), "black.cube": True}
        factory.pin(BUTTONS["black.cube"]).drive_high()
        assert not any(buttons.levels().values())
    assert buttons.closed
    buttons.close()


def test_button_pins_feed_the_decoder(factory: MockFactory) -> None:
    clock = VirtualClock()
    decoder = ButtonDecoder()
    events: list[ButtonEvent] = []
    menu = factory.pin(BUTTONS["menu"])
    with PiButtons(BUTTONS, pin_factory=factory) as buttons:
        def run(ms: int) -> None:
            for _ in range(ms // 10):
                events.extend(decoder.update(buttons.levels(), clock.now_ms()))
                clock.advance(10)
        menu.drive_low()
        run(100)
        menu.drive_high()
        run(100)
        menu.drive_low()
        run(2000)
        menu.drive_high()
        run(100)
    assert [(e.name, e.long) for e in events] == [("menu", False), ("menu", True)]


def test_button_names_are_checked(factory: MockFactory) -> None:
    with pytest.raises(PinMapError, match=r"buttons\.white\.undo: unknown button"):
        PiButtons({**BUTTONS, "white.undo": 4}, pin_factory=factory)
    with pytest.raises(PinMapError, match="buttons: no pin for 'menu'"):
        PiButtons({k: v for k, v in BUTTONS.items() if k != "menu"}, pin_factory=factory)


class BoardRig:
    def __init__(self, factory: MockFactory) -> None:
        self.pinmap = reference_pinmap(shuffle_seed=4)
        self.field = HallField(board_sites())
        self.model = ModelledBoard(self.pinmap, factory, self.field)
        self.writer = RecordingWriter()
        self.backend = open_pi_backend(self.pinmap, pin_factory=factory,
                                       pixel_writer=self.writer, delay=lambda us: None, spi=None)


@pytest.fixture
def rig(factory: MockFactory) -> Iterator[BoardRig]:
    r = BoardRig(factory)
    yield r
    r.backend.close()
    r.model.close()


def test_the_backend_scans_shows_and_reads_buttons(rig: BoardRig, factory: MockFactory) -> None:
    backend = rig.backend
    assert isinstance(backend, Backend) and backend.name == "pi"
    rig.field.lay(SensorSite("6", 0), Color.WHITE)
    assert backend.sensors.scan() == rig.model.expected_frame()
    backend.pixels.show([(0, 0, 0)] * (rig.pinmap.leds.count - 1) + [(255, 128, 1)])
    assert rig.writer.frames[-1][-3:] == bytes([128, 255, 1])
    factory.pin(BUTTONS["white.roll"]).drive_low()
    assert backend.buttons.levels()["white.roll"]


def test_closing_the_backend_blanks_the_leds_and_frees_every_pin(
        rig: BoardRig, factory: MockFactory) -> None:
    rig.backend.pixels.show([(50, 50, 50)] * rig.pinmap.leds.count)
    with rig.backend:
        pass
    assert rig.backend.closed and repr(rig.backend) == "<Backend 'pi' closed>"
    assert rig.writer.frames[-1] == bytes(3 * rig.pinmap.leds.count)
    assert rig.writer.closes == 1
    rig.backend.close()
    assert rig.writer.closes == 1
    again = open_pi_backend(rig.pinmap, pin_factory=factory, pixel_writer=RecordingWriter(),
                            delay=lambda us: None, spi=None)
    with again:
        assert again.sensors.scan() == rig.model.expected_frame()


def test_a_pin_claimed_twice_is_a_hardware_error_and_nothing_stays_open(
        factory: MockFactory) -> None:
    good = reference_pinmap()
    clash = dataclasses.replace(good, buttons={**BUTTONS, "menu": good.mux_select[0]})
    model = ModelledBoard(good, factory, HallField(board_sites()))
    writer = RecordingWriter()
    with pytest.raises(HardwareError, match="cannot claim the board's pins: pin GPIO5"):
        open_pi_backend(clash, pin_factory=factory, pixel_writer=writer, delay=lambda us: None,
                        spi=None)
    assert writer.frames == [bytes(3 * good.leds.count)] and writer.closes == 1
    with open_pi_backend(good, pin_factory=factory, pixel_writer=RecordingWriter(),
                         delay=lambda us: None, spi=None) as backend:
        assert backend.sensors.scan() == model.expected_frame()
    model.close()


def test_importing_the_pi_backend_loads_no_hardware_library() -> None:
    code = (
        "import sys, tavla_pi.hal.pi, tavla_pi.hal.buttons;"
        "bad = {'RPi', 'lgpio', 'spidev', 'board', 'busio', 'digitalio', 'neopixel',"
        " 'neopixel_spi', 'rpi_ws281x', 'adafruit_raspberry_pi5_neopixel_write',"
        " 'gpiozero.pins.rpigpio', 'gpiozero.pins.lgpio'};"
        "print(sorted(bad & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_failing_led_blank_still_releases_the_pins(factory: MockFactory) -> None:
    pinmap = reference_pinmap()
    model = ModelledBoard(pinmap, factory, HallField(board_sites()))
    writer = RecordingWriter()
    backend = open_pi_backend(pinmap, pin_factory=factory, pixel_writer=writer,
                              delay=lambda us: None, spi=None)
    writer.fail_on_write = True
    with pytest.raises(OSError, match="unplugged"):
        backend.close()
    assert backend.closed and writer.closes == 1
    with open_pi_backend(pinmap, pin_factory=factory, pixel_writer=RecordingWriter(),
                         delay=lambda us: None, spi=None) as again:
        assert again.sensors.scan() == model.expected_frame()
    model.close()
