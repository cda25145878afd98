"""Reading and checking ``pinout.toml`` (the file format is in the file itself).

Every fault raises :class:`tavla_pi.errors.PinMapError` whose ``where`` is
``"<file>: <key>"``, e.g. ``"pinout.toml: [[bank]] mux3 channels[5]"``.
Checked: the TOML itself; unknown, missing and ill-typed keys; values in
range; every point and bar slot wired exactly once; every button; every LED
feature exactly once on indices ``0..count-1``; no ADC channel or bank
channel used twice; no GPIO used twice (select lines, enable, buttons, bank
power, LED data and the pins of the SPI buses in use).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import NoReturn

from tavla_pi.bounded import LimitError, parse_toml, read_text
from tavla_pi.errors import PinMapError
from tavla_pi.hardware.pinmap import (
    ADC_CHANNELS,
    BUTTON_NAMES,
    LED_DRIVERS,
    MUX_CHANNELS,
    SELECT_LINES,
    SPI_BUSES,
    SPI_LED_DRIVERS,
    AdcChip,
    LedFeature,
    LedStrip,
    MuxBank,
    PinMap,
    SensorChannel,
    SensorSite,
    SpiBus,
    led_feature_names,
    sensor_sites,
)
from tavla_pi.rules.color import Color

PINOUT_FORMAT = 1
GPIO_MIN, GPIO_MAX = 2, 27
"""BCM GPIOs on the 40-pin header; 0 and 1 belong to the HAT ID EEPROM."""
MAX_PINOUT_BYTES = 256 * 1024
"""A pinout file is a few kB; anything past this is refused unread."""
PWM_PINS = frozenset({12, 13, 18, 19})
LED_ORDERS = ("RGB", "GRB", "RGBW", "GRBW")
ADC_PORT = 0
LED_SPI_PORT = 1



_POINT_SITE = re.compile(r"(\d{1,2})\.(\d)")
_BAR_SITE = re.compile(r"bar\.(white|black)\.(\d)")
_TOP_KEYS = {"format", "board", "mux", "adc", "bank", "buttons", "leds"}
_SITES = frozenset(sensor_sites())


class _Reader:
    """Typed access to the parsed TOML, raising errors that name file and key.

    It also keeps who uses which GPIO: a second claim of a pin is a fault.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.owner: dict[int, str] = {}

    def claim(self, pin: int, what: str) -> None:
        if pin in self.owner:
            self.fail(what, f"GPIO {pin} is already used by {self.owner[pin]}")
        self.owner[pin] = what

    def fail(self, key: str, problem: str) -> NoReturn:
        raise PinMapError(f"{self.source}: {key}", problem)

    def fail_file(self, problem: str) -> NoReturn:
        raise PinMapError(self.source, problem)

    def keys(self, table: Mapping[str, object], where: str, required: AbstractSet[str],
             optional: AbstractSet[str] = frozenset()) -> None:
        for key in table:
            if key not in required | optional:
                self.fail(f"{where} {key}".strip(), "unknown key")
        for key in sorted(required - set(table)):
            self.fail(f"{where} {key}".strip(), "missing")

    def table(self, value: object, where: str) -> Mapping[str, object]:
        if not isinstance(value, dict):
            self.fail(where, f"expected a table, got {value!r}")
        return value

    def array(self, value: object, where: str, length: int | None = None) -> Sequence[object]:
        if not isinstance(value, list):
            self.fail(where, f"expected an array, got {value!r}")
        if length is not None and len(value) != length:
            self.fail(where, f"expected {length} entries, got {len(value)}")
        return value

    def integer(self, value: object, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"expected an integer {low}..{high}, got {value!r}")
        if not low <= value <= high:
            self.fail(where, f"expected an integer {low}..{high}, got {value}")
        return value

    def gpio(self, value: object, where: str) -> int:
        if value in (0, 1) and not isinstance(value, bool):
            self.fail(where, f"GPIO {value} is reserved for the HAT ID EEPROM")
        return self.integer(value, where, GPIO_MIN, GPIO_MAX)

    def string(self, value: object, where: str, choices: Sequence[str] = ()) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a string, got {value!r}")
        if choices and value not in choices:
            self.fail(where, f"expected one of {', '.join(choices)}, got {value!r}")
        return value


def parse_pinout(path: Path) -> PinMap:
    """Read ``path`` and return its checked :class:`PinMap`."""
    text = read_text(path, MAX_PINOUT_BYTES, "a pinout file", PinMapError,
                     where="{path}: line {line}")
    return parse_pinout_text(text, str(path))


def parse_pinout_text(text: str, source: str) -> PinMap:
    """Parse and check the text of a pinout file; ``source`` names it in errors."""
    reader = _Reader(source)
    try:
        data = parse_toml(text)
    except (tomllib.TOMLDecodeError, LimitError) as exc:
        reader.fail_file(f"not valid TOML: {exc}")
    reader.keys(data, "", required=_TOP_KEYS - {"board"}, optional={"board"})
    reader.integer(data["format"], "format", PINOUT_FORMAT, PINOUT_FORMAT)
    reader.string(data.get("board", ""), "board")
    select, enable = _mux(reader, data["mux"])
    adcs = _adcs(reader, data["adc"])
    banks, sensors = _banks(reader, data["bank"], adcs)
    buttons = _buttons(reader, data["buttons"])
    leds, features = _leds(reader, data["leds"])
    return PinMap(select, enable, adcs, banks, sensors, buttons, leds, features, source)


def _mux(reader: _Reader, value: object) -> tuple[tuple[int, ...], int | None]:
    mux = reader.table(value, "[mux]")
    reader.keys(mux, "[mux]", required={"select"}, optional={"enable"})
    lines = reader.array(mux["select"], "[mux] select", SELECT_LINES)
    select = tuple(reader.gpio(pin, f"[mux] select[{i}]") for i, pin in enumerate(lines))
    for i, pin in enumerate(select):
        reader.claim(pin, f"[mux] select[{i}]")
    if "enable" not in mux:
        return select, None
    enable = reader.gpio(mux["enable"], "[mux] enable")
    reader.claim(enable, "[mux] enable")
    return select, enable


def _adcs(reader: _Reader, value: object) -> tuple[AdcChip, ...]:
    chips: list[AdcChip] = []
    for i, entry in enumerate(reader.array(value, "[[adc]]")):
        where = f"[[adc]] #{i}"
        table = reader.table(entry, where)
        reader.keys(table, where, required={"name", "spi_port", "spi_device"})
        name = reader.string(table["name"], f"{where} name")
        where = f"[[adc]] {name}"
        if any(chip.name == name for chip in chips):
            reader.fail(f"{where} name", "a second ADC with this name")
        port = reader.integer(table["spi_port"], f"{where} spi_port", 0, 1)
        if port != ADC_PORT:
            reader.fail(f"{where} spi_port", f"the ADCs must be on SPI{ADC_PORT}, "
                                            f"which the boot configuration enables for them")
        device = reader.integer(table["spi_device"], f"{where} spi_device", 0, 1)
        if any(chip.spi_device == device for chip in chips):
            reader.fail(f"{where} spi_device", f"SPI{port} CE{device} already has an ADC")
        chips.append(AdcChip(name, port, device))
        reader.claim(SPI_BUSES[port].ce[device], f"{where} (SPI{port} CE{device})")
    if not chips:
        reader.fail("[[adc]]", "no ADC")
    _claim_bus(reader, SPI_BUSES[ADC_PORT], "[[adc]]")
    return tuple(chips)


def _claim_bus(reader: _Reader, bus: SpiBus, user: str) -> None:
    for role in ("sclk", "mosi", "miso"):
        reader.claim(getattr(bus, role), f"{user} (SPI{bus.port} {role.upper()})")


def _banks(
    reader: _Reader, value: object, adcs: tuple[AdcChip, ...]
) -> tuple[tuple[MuxBank, ...], tuple[SensorChannel, ...]]:
    banks: list[MuxBank] = []
    wired: dict[SensorSite, tuple[SensorChannel, str]] = {}
    for i, entry in enumerate(reader.array(value, "[[bank]]")):
        bank, channels = _bank(reader, entry, i, adcs, banks)
        banks.append(bank)
        for where, channel in channels:
            if channel.site in wired:
                reader.fail(where, f"{channel.site.label} is already {wired[channel.site][1]}")
            wired[channel.site] = (channel, where)
    for site in sensor_sites():
        if site not in wired:
            reader.fail("[[bank]] channels", f"sensor {site.label} is not wired")
    return tuple(banks), tuple(wired[site][0] for site in sensor_sites())


def _bank(
    reader: _Reader, entry: object, i: int,
    adcs: tuple[AdcChip, ...], earlier: list[MuxBank],
) -> tuple[MuxBank, list[tuple[str, SensorChannel]]]:
    table = reader.table(entry, f"[[bank]] #{i}")
    reader.keys(table, f"[[bank]] #{i}", {"name", "adc", "adc_channel", "channels"},
                {"power_pin"})
    name = reader.string(table["name"], f"[[bank]] #{i} name")
    where = f"[[bank]] {name}"
    if any(bank.name == name for bank in earlier):
        reader.fail(f"{where} name", "a second bank with this name")
    adc_names = [chip.name for chip in adcs]
    adc = adc_names.index(reader.string(table["adc"], f"{where} adc", adc_names))
    adc_channel = reader.integer(table["adc_channel"], f"{where} adc_channel", 0, ADC_CHANNELS - 1)
    for other in earlier:
        if (other.adc, other.adc_channel) == (adc, adc_channel):
            reader.fail(f"{where} adc_channel",
                        f"{adc_names[adc]} channel {adc_channel} already reads {other.name}")
    power = None
    if "power_pin" in table:
        power = reader.gpio(table["power_pin"], f"{where} power_pin")
        reader.claim(power, f"{where} power_pin")
    entries = reader.array(table["channels"], f"{where} channels", MUX_CHANNELS)
    channels, spare = [], []
    for k, text in enumerate(entries):
        site = _site(reader, text, f"{where} channels[{k}]")
        if site is None:
            spare.append(k)
        else:
            channels.append((f"{where} channels[{k}]", SensorChannel(site, adc, adc_channel, k)))
    return MuxBank(name, adc, adc_channel, power, tuple(spare)), channels


def _site(reader: _Reader, value: object, where: str) -> SensorSite | None:
    text = reader.string(value, where)
    if text == "-":
        return None
    site: SensorSite | None = None
    if match := _POINT_SITE.fullmatch(text):
        site = SensorSite(str(int(match[1])), int(match[2]))
    elif match := _BAR_SITE.fullmatch(text):
        site = SensorSite("bar", int(match[2]), Color(match[1]))
    if site is None or site not in _SITES:
        reader.fail(where, f"expected \"P.S\" (point 1..24, slot 0..5), \"bar.C.S\" "
                           f"(colour, slot 0..3) or \"-\", got {text!r}")
    return site


def _buttons(reader: _Reader, value: object) -> dict[str, int]:
    table = reader.table(value, "[buttons]")
    reader.keys(table, "[buttons]", required=set(BUTTON_NAMES))
    buttons: dict[str, int] = {}
    for name in BUTTON_NAMES:
        pin = reader.gpio(table[name], f"[buttons] {name}")
        reader.claim(pin, f"[buttons] {name}")
        buttons[name] = pin
    return buttons


def _leds(
    reader: _Reader, value: object
) -> tuple[LedStrip, tuple[LedFeature, ...]]:
    table = reader.table(value, "[leds]")
    reader.keys(table, "[leds]", {"driver", "pin", "count", "index"}, {"order", "spi_port"})
    driver = reader.string(table["driver"], "[leds] driver", LED_DRIVERS)
    pin = reader.gpio(table["pin"], "[leds] pin")
    count = reader.integer(table["count"], "[leds] count", 1, 1024)
    order = reader.string(table.get("order", "GRB"), "[leds] order", LED_ORDERS)
    spi_port = _led_bus(reader, driver, pin, table.get("spi_port"))
    if driver == "pwm" and pin not in PWM_PINS:
        reader.fail("[leds] pin", f"driver {driver!r} needs a PWM pin "
                                  f"({', '.join(map(str, sorted(PWM_PINS)))}), got {pin}")
    if spi_port is None:
        reader.claim(pin, "[leds] pin")
    features = _features(reader, table["index"], count)
    return LedStrip(driver, pin, count, order, spi_port), features


def _led_bus(
    reader: _Reader, driver: str, pin: int, port: object
) -> int | None:
    if driver not in SPI_LED_DRIVERS:
        if port is not None:
            reader.fail("[leds] spi_port", f"only for driver \"auto\" or \"spi\", "
                                           f"not {driver!r}")
        return None
    if port is None:
        reader.fail("[leds] spi_port", f"missing (driver \"{driver}\" needs it)")
    spi_port = reader.integer(port, "[leds] spi_port", 0, 1)
    if spi_port != LED_SPI_PORT:
        reader.fail("[leds] spi_port", f"the LED chain must be on SPI{LED_SPI_PORT} "
                                       f"(SPI{ADC_PORT} serves the ADCs)")
    bus = SPI_BUSES[spi_port]
    if pin != bus.mosi:
        hint = " (driver \"pwm\" drives a PWM pin, as root)" if pin in PWM_PINS else ""
        reader.fail("[leds] pin", f"driver \"{driver}\" sends on SPI{spi_port} MOSI, "
                                  f"GPIO {bus.mosi}, got {pin}{hint}")
    _claim_bus(reader, bus, "[leds]")
    reader.claim(bus.ce[0], f"[leds] (SPI{spi_port} CE0, claimed by spi1-1cs)")
    return spi_port


def _features(reader: _Reader, value: object, count: int) -> tuple[LedFeature, ...]:
    table = reader.table(value, "[leds.index]")
    known = set(led_feature_names())
    by_name: dict[str, int] = {}
    for key, name in table.items():
        where = f"[leds.index] {key}"
        if not key.isdigit() or str(int(key)) != key or int(key) >= count:
            reader.fail(where, f"expected an LED index 0..{count - 1} as the key")
        feature = reader.string(name, where)
        if feature not in known:
            reader.fail(where, f"unknown LED feature {feature!r}")
        if feature in by_name:
            reader.fail(where, f"{feature} is already LED {by_name[feature]}")
        by_name[feature] = int(key)
    present = set(by_name.values())
    for i in range(count):
        if i not in present:
            reader.fail(f"[leds.index] {i}", f"missing (indices must run 0..{count - 1})")
    for feature in led_feature_names():
        if feature not in by_name:
            reader.fail("[leds.index]", f"no LED shows {feature}")
    return tuple(sorted((LedFeature(n, i) for n, i in by_name.items()), key=lambda f: f.index))
