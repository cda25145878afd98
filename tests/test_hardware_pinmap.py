"""The shipped pin map is complete and its lookups agree with the file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla_pi.hardware.pinmap import (
    BUTTON_NAMES,
    MUX_CHANNELS,
    SPI_BUSES,
    SensorSite,
    default_pinout_path,
    led_feature_names,
    load_pinmap,
    sensor_sites,
)
from tavla_pi.hardware.pinout import parse_pinout_text
from tavla_pi.rules.color import Color

ROOT = Path(__file__).resolve().parent.parent
PINOUT = ROOT / "hardware" / "pinout.toml"
CHANNELS = re.compile(r"channels = \[\n(.*?)\]", re.S)


def test_default_path_is_the_checkout_file() -> None:
    assert default_pinout_path() == PINOUT
    assert load_pinmap() == load_pinmap(PINOUT)


def test_package_copy_is_identical() -> None:
    copy = ROOT / "tavla_pi" / "pinout.toml"
    assert copy.read_bytes() == PINOUT.read_bytes(), "run `make hardware` to refresh the copy"


def test_every_site_is_wired_once_in_frame_order() -> None:
    pm = load_pinmap()
    assert [s.site for s in pm.sensors] == list(sensor_sites())
    assert len(pm.sensors) == 24 * 6 + 2 * 4 == 152
    reached = {(s.adc, s.adc_channel, s.mux_channel) for s in pm.sensors}
    assert len(reached) == 152


def test_reference_numbers() -> None:
    pm = load_pinmap()
    assert pm.mux_select == (5, 6, 13, 16)
    assert pm.mux_enable == 26
    assert [(a.name, a.spi_port, a.spi_device) for a in pm.adcs] == [("adc0", 0, 0), ("adc1", 0, 1)]
    feeds = [(pm.adcs[b.adc].name, b.adc_channel) for b in pm.banks]
    assert feeds == [("adc0", c) for c in range(8)] + [("adc1", 0), ("adc1", 1)]
    assert pm.leds.pin == 20 and pm.leds.count == 66 and pm.leds.driver == "auto"
    assert pm.leds.spi_port == 1, "the LEDs hang on SPI1 MOSI: no root on any model"
    assert set(pm.buttons) == set(BUTTON_NAMES)


def test_banks_account_for_every_channel() -> None:
    pm = load_pinmap()
    for i, bank in enumerate(pm.banks):
        used = sorted(s.mux_channel for s in pm.sensors if pm.bank_of(s) == i)
        assert sorted([*used, *bank.spare]) == list(range(MUX_CHANNELS))
    assert sum(len(b.spare) for b in pm.banks) == 160 - 152


def test_no_gpio_is_used_twice() -> None:
    pm = load_pinmap()
    spi0, spi1 = SPI_BUSES[0], SPI_BUSES[1]
    pins = [*pm.mux_select, pm.mux_enable, *pm.buttons.values(), pm.leds.pin,
            spi0.sclk, spi0.mosi, spi0.miso, *(spi0.ce[a.spi_device] for a in pm.adcs),
            spi1.sclk, spi1.miso, spi1.ce[0],  # taken by the spi1-1cs overlay beside MOSI
            *(b.power_pin for b in pm.banks if b.power_pin is not None)]
    assert len(pins) == len(set(pins))
    assert not set(pins) & {0, 1, 2, 3}, "HAT EEPROM and I2C stay free"
    roles = pm.gpio_roles()
    assert set(roles) == set(pins)
    assert roles[16] == "mux S3" and roles[8] == "SPI0 CE0 adc0" and roles[27] == "button menu"
    assert roles[20] == "SPI1 MOSI LED data"


def test_every_led_feature_once_on_contiguous_indices() -> None:
    pm = load_pinmap()
    assert [f.index for f in pm.led_features] == list(range(pm.leds.count))
    assert sorted(f.name for f in pm.led_features) == sorted(led_feature_names())
    assert len(led_feature_names()) == 66


def test_lookups() -> None:
    pm = load_pinmap()
    assert pm.point_sensor(1, 0) == 0
    assert pm.point_sensor(12, 3) == 11 * 6 + 3
    assert pm.bar_sensor(Color.WHITE, 0) == 144
    assert pm.bar_sensor(Color.BLACK, 3) == 151
    site = SensorSite("bar", 2, Color.BLACK)
    assert pm.sensors[pm.sensor_index(site)].site == site
    assert site.label == "bar.black.2" and SensorSite("7", 5).label == "7.5"
    assert pm.led_index("point.1") == 0
    assert pm.led_features[pm.led_index("die.black.1.pip.6")].name == "die.black.1.pip.6"
    assert pm.bank_of(pm.sensors[pm.point_sensor(24, 5)]) == 8
    assert pm.source == str(PINOUT)


def test_auto_led_driver_follows_the_model() -> None:
    strip = load_pinmap().leds
    assert strip.resolve_driver(pi5=False) == "spi", "SPI1 on a Pi Zero 2 W, 3 or 4: no root"
    assert strip.resolve_driver(pi5=True) == "pio"


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(160)))
def test_any_rewiring_keeps_frame_order(order: list[int]) -> None:
    """Shuffle which bank channel carries which sensor: frames stay in site order."""
    text = PINOUT.read_text()
    labels = [m for block in CHANNELS.findall(text) for m in re.findall(r'"([^"]+)"', block)]
    shuffled = [labels[i] for i in order]
    blocks = iter(shuffled[k:k + 16] for k in range(0, 160, 16))
    rewired = CHANNELS.sub(
        lambda _: "channels = [\n" + ", ".join(f'"{x}"' for x in next(blocks)) + "\n]", text
    )
    pm = parse_pinout_text(rewired, "rewired.toml")
    assert [s.site for s in pm.sensors] == list(sensor_sites())
    for sensor in pm.sensors:
        position = pm.bank_of(sensor) * 16 + sensor.mux_channel
        assert shuffled[position] == sensor.site.label


def test_installed_package_uses_its_copy(tmp_path: Path) -> None:
    """Without a checkout around it, the package falls back to the pinout it ships."""
    shutil.copytree(ROOT / "tavla_pi", tmp_path / "tavla_pi",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("from tavla_pi.hardware.pinmap import default_pinout_path, load_pinmap;"
            "print(default_pinout_path()); print(len(load_pinmap().sensors))")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tmp_path, env=env).stdout.split()
    assert out == [str(tmp_path / "tavla_pi" / "pinout.toml"), "152"]
