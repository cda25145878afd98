"""A hostile copy of pinout.toml for each fault: one clear error naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavla_pi.errors import ConfigError, PinMapError
from tavla_pi.hardware.pinmap import load_pinmap

PINOUT = Path(__file__).resolve().parent.parent / "hardware" / "pinout.toml"
BUTTONS = """[buttons]
"white.roll" = 22
"white.cube" = 23
"black.roll" = 24
"black.cube" = 25
"menu" = 27
"""

LEDS = 'driver = "auto"\nspi_port = 1\npin = 20\n'
"""The reference chain's driver, bus and data pin (SPI1 MOSI)."""
S3 = "select = [5, 6, 13, 16]"
"""The reference select lines: S3 on GPIO 16, as GPIO 19 belongs to SPI1."""

# (name, [(old, new), ...], key expected in `where`, words expected in the problem)
FAULTS: list[tuple[str, list[tuple[str, str]], str, str]] = [
    ("unknown top key", [("format = 1", "format = 1\nfromat = 1")], "fromat", "unknown key"),
    ("wrong format", [("format = 1", "format = 2")], "format", "expected an integer 1..1"),
    ("renamed buttons", [("[buttons]", "[knobs]")], "knobs", "unknown key"),
    ("missing buttons", [(BUTTONS, "")], "buttons", "missing"),
    ("three select lines", [("select = [5, 6, 13, 16]", "select = [5, 6, 13]")],
     "[mux] select", "expected 4 entries"),
    ("select not a list", [("select = [5, 6, 13, 16]", 'select = "5,6,13,16"')],
     "[mux] select", "expected an array"),
    ("reserved pin", [("select = [5, 6, 13, 16]", "select = [5, 0, 13, 16]")],
     "[mux] select[1]", "HAT ID EEPROM"),
    ("pin out of range", [("enable = 26", "enable = 28")], "[mux] enable", "2..27"),
    ("boolean pin", [("enable = 26", "enable = true")], "[mux] enable", "got True"),
    ("select on a button", [("select = [5, 6, 13, 16]", "select = [5, 6, 13, 22]")],
     "[buttons] white.roll", "GPIO 22 is already used by [mux] select[3]"),
    ("enable on SPI0 MISO", [("enable = 26", "enable = 9")],
     "SPI0 MISO", "GPIO 9 is already used by [mux] enable"),
    ("button on SPI0 CE1", [('"menu" = 27', '"menu" = 7')],
     "[buttons] menu", "GPIO 7 is already used by [[adc]] adc1 (SPI0 CE1)"),
    ("power pin on the enable", [("adc_channel = 3\n", "adc_channel = 3\npower_pin = 26\n")],
     "[[bank]] mux3 power_pin", "GPIO 26 is already used by [mux] enable"),
    ("two power pins alike", [("adc_channel = 3\n", "adc_channel = 3\npower_pin = 4\n"),
                              ("adc_channel = 4\n", "adc_channel = 4\npower_pin = 4\n")],
     "[[bank]] mux4 power_pin", "GPIO 4 is already used by [[bank]] mux3 power_pin"),
    ("LED data on a button", [(LEDS, 'driver = "pio"\npin = 25\n')],
     "[leds] pin", "GPIO 25 is already used by [buttons] black.cube"),
    ("PWM driver on a plain pin", [(LEDS, 'driver = "pwm"\npin = 4\n')],
     "[leds] pin", "needs a PWM pin"),
    ("SPI LEDs clash with select S3", [(S3, "select = [5, 6, 13, 19]"),
                                        ('driver = "auto"', 'driver = "spi"')],
     "[leds] (SPI1 MISO)", "GPIO 19 is already used by [mux] select[3]"),
    ("auto LEDs clash with rev A's select S3", [(S3, "select = [5, 6, 13, 19]")],
     "[leds] (SPI1 MISO)", "GPIO 19 is already used by [mux] select[3]"),
    ("SPI LEDs off MOSI", [('driver = "auto"', 'driver = "spi"'), ("pin = 20", "pin = 18")],
     "[leds] pin", "SPI1 MOSI, GPIO 20, got 18"),
    ("auto LEDs on rev A's PWM pin", [("pin = 20", "pin = 18")],
     "[leds] pin", 'driver "auto" sends on SPI1 MOSI, GPIO 20, got 18 (driver "pwm" drives'),
    ("SPI LEDs without a port", [('driver = "auto"', 'driver = "spi"'), ("spi_port = 1\n", "")],
     "[leds] spi_port", "missing"),
    ("auto LEDs without a port", [("spi_port = 1\n", "")],
     "[leds] spi_port", 'missing (driver "auto" needs it)'),
    ("SPI LEDs on the ADC bus", [('driver = "auto"', 'driver = "spi"'),
                                  ("spi_port = 1\npin = 20", "spi_port = 0\npin = 10")],
     "[leds] spi_port", "SPI0 serves the ADCs"),
    ("port for a PWM chain", [(LEDS, 'driver = "pwm"\nspi_port = 1\npin = 18\n')],
     "[leds] spi_port", "only for driver"),
    ("unknown driver", [('driver = "auto"', 'driver = "bitbang"')],
     "[leds] driver", "expected one of auto, pwm, spi, pio"),
    ("unknown colour order", [('order = "GRB"', 'order = "BGR"')], "[leds] order", "BGR"),
    ("ADCs on one chip select", [("spi_device = 1    # CE1, GPIO 7", "spi_device = 0")],
     "[[adc]] adc1 spi_device", "SPI0 CE0 already has an ADC"),
    ("ADC on SPI1", [("spi_port = 0\nspi_device = 1", "spi_port = 1\nspi_device = 1")],
     "[[adc]] adc1 spi_port", "must be on SPI0"),
    ("two ADCs alike", [('name = "adc1"', 'name = "adc0"')],
     "[[adc]] adc0 name", "a second ADC"),
    ("unknown ADC of a bank", [('name = "mux3"\nadc = "adc0"', 'name = "mux3"\nadc = "adc7"')],
     "[[bank]] mux3 adc", "expected one of adc0, adc1"),
    ("ADC channel 8", [("adc_channel = 3\n", "adc_channel = 8\n")],
     "[[bank]] mux3 adc_channel", "0..7"),
    ("ADC channel read twice", [('name = "mux9"\nadc = "adc1"\nadc_channel = 1',
                                 'name = "mux9"\nadc = "adc1"\nadc_channel = 0')],
     "[[bank]] mux9 adc_channel", "adc1 channel 0 already reads mux8"),
    ("two banks alike", [('name = "mux9"', 'name = "mux8"')],
     "[[bank]] mux8 name", "a second bank"),
    ("slot wired twice", [('"3.2", "3.3",', '"3.2", "3.2",')],
     "[[bank]] mux0 channels[15]", "3.2 is already [[bank]] mux0 channels[14]"),
    ("slot not wired", [('"24.5"', '"-"')], "[[bank]] channels", "sensor 24.5 is not wired"),
    ("point 25", [('"24.5"', '"25.0"')], "[[bank]] mux8 channels[15]", "got '25.0'"),
    ("slot 6", [('"24.5"', '"24.6"')], "[[bank]] mux8 channels[15]", "got '24.6'"),
    ("bar slot 4", [('"bar.black.3"', '"bar.black.4"')], "[[bank]] mux9 channels[7]",
     "got 'bar.black.4'"),
    ("bar of no colour", [('"bar.black.3"', '"bar.red.3"')], "[[bank]] mux9 channels[7]",
     "got 'bar.red.3'"),
    ("short channel list", [('"-", "-", "-", "-", "-", "-", "-", "-",', '"-", "-"')],
     "[[bank]] mux9 channels", "expected 16 entries, got 10"),
    ("missing button", [('"menu" = 27\n', "")], "[buttons] menu", "missing"),
    ("unknown button", [('"menu" = 27', '"menu" = 27\n"white.undo" = 4')],
     "[buttons] white.undo", "unknown key"),
    ("unknown LED feature", [('65 = "turn.black"', '65 = "turn.grey"')],
     "[leds.index] 65", "unknown LED feature 'turn.grey'"),
    ("LED feature twice", [('65 = "turn.black"', '65 = "turn.white"')],
     "[leds.index] 65", "turn.white is already LED 64"),
    ("LED index gap", [('65 = "turn.black"', '66 = "turn.black"'), ("count = 66", "count = 67")],
     "[leds.index] 65", "missing"),
    ("LED index past the count", [("count = 66", "count = 65")],
     "[leds.index] 65", "0..64"),
    ("LED index not canonical", [('65 = "turn.black"', '065 = "turn.black"')],
     "[leds.index] 065", "LED index"),
    ("LED feature missing", [('65 = "turn.black"', ""), ("count = 66", "count = 65")],
     "[leds.index]", "no LED shows turn.black"),
]


def hostile(tmp_path: Path, edits: list[tuple[str, str]]) -> Path:
    text = PINOUT.read_text()
    for old, new in edits:
        assert text.count(old) == 1, f"edit target not unique: {old!r}"
        text = text.replace(old, new)
    path = tmp_path / "pinout.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("edits", "key", "problem"),
                         [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS])
def test_fault_is_named(tmp_path: Path, edits: list[tuple[str, str]], key: str,
                        problem: str) -> None:
    path = hostile(tmp_path, edits)
    with pytest.raises(PinMapError) as caught:
        load_pinmap(path)
    assert caught.value.where.startswith(f"{path}: ")
    assert key in caught.value.where
    assert problem in caught.value.problem
    assert "\n" not in str(caught.value)


def test_errors_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_pinmap(tmp_path / "absent.toml")


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    path = hostile(tmp_path, [("enable = 26", "enable = = 26")])
    line = PINOUT.read_text().splitlines().index("enable = 26") + 1
    with pytest.raises(PinMapError, match=rf"pinout.toml: not valid TOML: .*line {line}\b"):
        load_pinmap(path)


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "pinout.toml"
    path.write_bytes(b"format = 1\n\xff\xfe")
    with pytest.raises(PinMapError, match="not UTF-8"):
        load_pinmap(path)


def test_spi_led_variant_loads(tmp_path: Path) -> None:
    """Driver "spi": the same wiring on SPI1 on every model, the Pi 5 too."""
    path = hostile(tmp_path, [('driver = "auto"', 'driver = "spi"')])
    pm = load_pinmap(path)
    assert (pm.leds.driver, pm.leds.pin, pm.leds.spi_port) == ("spi", 20, 1)
    assert pm.leds.resolve_driver(pi5=True) == "spi"
    roles = pm.gpio_roles()
    assert roles[20] == "SPI1 MOSI LED data" and roles[16] == "mux S3" and 18 in roles


def test_pwm_opt_in_loads(tmp_path: Path) -> None:
    """The PWM opt-in of hardware/README.md: data wire on GPIO 18, no SPI1 to claim pins."""
    pm = load_pinmap(hostile(tmp_path, [(LEDS, 'driver = "pwm"\npin = 18\n')]))
    assert (pm.leds.driver, pm.leds.pin, pm.leds.spi_port) == ("pwm", 18, None)
    assert pm.leds.resolve_driver(pi5=False) == "pwm"
    roles = pm.gpio_roles()
    assert roles[18] == "LED data" and not {19, 20, 21} & set(roles)


def test_power_pins_load(tmp_path: Path) -> None:
    path = hostile(tmp_path, [("adc_channel = 3\n", "adc_channel = 3\npower_pin = 4\n")])
    assert [b.power_pin for b in load_pinmap(path).banks].count(4) == 1
