"""The package imports anywhere, with no hardware library installed."""

import subprocess
import sys

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import BadInputError, TavlaError


def test_import_pulls_no_hardware_library() -> None:
    code = (
        "import sys, tavla_pi, tavla_pi.cli, tavla_pi.hal, tavla_pi.rules, tavla_pi.decode;"
        "bad = {'RPi', 'lgpio', 'board', 'neopixel', 'rpi_ws281x', 'busio', 'digitalio'};"
        "print(sorted(bad & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_bad_input_error_names_the_place() -> None:
    err = BadInputError("config.toml: [leds] brightness", "expected a number 0..1, got 'high'")
    assert isinstance(err, TavlaError)
    assert isinstance(err, ValueError)
    assert str(err) == "config.toml: [leds] brightness: expected a number 0..1, got 'high'"


def test_virtual_clock_moves_only_forward() -> None:
    clock = VirtualClock()
    clock.advance(150)
    assert clock.now_ms() == 150
    try:
        clock.advance(-1)
    except ValueError:
        pass
    else:
        raise AssertionError("a clock must not go backwards")
