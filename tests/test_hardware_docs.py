"""The generated wiring documents are current and say what the pin map says."""

from __future__ import annotations

import csv
import importlib.util
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from tavla_pi.hardware.pinmap import load_pinmap

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"


def load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_wiring = load_tool("gen_wiring")


@pytest.mark.parametrize("name", ["wiring.svg", "WIRING.md"])
def test_generated_file_is_current(name: str) -> None:
    expected = gen_wiring.outputs(load_pinmap(HARDWARE / "pinout.toml"))[name]
    actual = (HARDWARE / name).read_text(encoding="utf-8")
    assert actual == expected, f"hardware/{name} is stale: run `make hardware`"


def test_check_mode_reports_stale_and_fresh(tmp_path: Path) -> None:
    argv = ["--out", str(tmp_path), "--check"]
    assert gen_wiring.main(argv) == 1
    assert not list(tmp_path.iterdir()), "--check writes nothing"
    assert gen_wiring.main(["--out", str(tmp_path)]) == 0
    assert gen_wiring.main(argv) == 0
    (tmp_path / "WIRING.md").write_text("edited by hand\n")
    assert gen_wiring.main(argv) == 1


def test_bad_pinout_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "pinout.toml"
    bad.write_text((HARDWARE / "pinout.toml").read_text().replace('"menu" = 27', '"menu" = 5'))
    assert gen_wiring.main(["--pinout", str(bad), "--out", str(tmp_path)]) == 2
    assert "[buttons] menu: GPIO 5 is already used by [mux] select[0]" in capsys.readouterr().err


def test_header_pins() -> None:
    assert gen_wiring.header_pin(18) == 12
    assert gen_wiring.header_pin(2) == 3
    assert gen_wiring.header_pin(21) == 40
    gpios = sorted(int(n[4:]) for n in gen_wiring.HEADER if n.startswith("GPIO"))
    assert gpios == list(range(28))


def test_svg_is_well_formed_and_names_every_part() -> None:
    pm = load_pinmap()
    svg = ET.parse(HARDWARE / "wiring.svg").getroot()
    texts = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    for bank in pm.banks:
        assert f"{bank.name}: CD74HC4067" in texts
    for adc in pm.adcs:
        assert f"{adc.name}: MCP3208" in texts
    for name, pin in pm.buttons.items():
        assert name in texts and f"GPIO {pin} " in texts
    assert f"{pm.leds.count} x WS2812B" in texts


def test_wiring_md_lists_every_gpio_and_led() -> None:
    pm = load_pinmap()
    text = (HARDWARE / "WIRING.md").read_text()
    for pin, role in pm.gpio_roles().items():
        assert f"| GPIO{pin} | {role} |" in text
    for feature in pm.led_features:
        assert f"| {feature.index} | `{feature.name}` |" in text


def test_led_groups_cover_the_chain() -> None:
    groups = list(gen_wiring.led_groups(load_pinmap()))
    assert groups[0] == (0, 23, "point")
    assert ("die.white" in [g[2] for g in groups]) and groups[-1] == (64, 65, "turn")
    covered = [i for first, last, _ in groups for i in range(first, last + 1)]
    assert covered == list(range(66))


def bom() -> dict[str, dict[str, str]]:
    with (HARDWARE / "BOM.csv").open(newline="") as handle:
        return {row["part_number"]: row for row in csv.DictReader(handle)}


def specs(row: dict[str, str]) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in row["specs"].split(";") if pair)


def test_bom_quantities_match_the_pin_map() -> None:
    pm, parts = load_pinmap(), bom()
    assert int(parts["DRV5055A2QDBZR"]["qty"]) == len(pm.sensors) == 152
    assert int(parts["CD74HC4067M96"]["qty"]) == len(pm.banks)
    assert int(parts["MCP3208-CI/SL"]["qty"]) == len(pm.adcs)
    assert int(parts["WS2812B"]["qty"]) == pm.leds.count
    assert specs(parts["WS2812B"])["count"] == str(pm.leds.count)
    buttons = sum(int(r["qty"]) for r in parts.values() if r["part"].startswith("push button"))
    assert buttons == len(pm.buttons)
    magnets = [r for r in parts.values() if r["part"] == "magnet"]
    assert int(magnets[0]["qty"]) >= 30


def test_bom_states_the_tolerances_the_simulator_uses() -> None:
    parts = bom()
    sensor = specs(parts["DRV5055A2QDBZR"])
    assert (sensor["sensitivity_mv_per_mt"], sensor["sensitivity_tol_pct"]) == ("30", "5")
    assert (sensor["quiescent"], sensor["quiescent_tol_pct_vcc"]) == ("vcc/2", "1")
    assert (sensor["range_mt"], sensor["noise_counts_rms"]) == ("42", "6")
    [magnet] = [specs(r) for r in parts.values() if r["part"] == "magnet"]
    assert (magnet["grade"], magnet["diameter_mm"], magnet["thickness_mm"]) == ("N42", "10", "3")
    assert (magnet["br_t_min"], magnet["br_t_max"], magnet["br_tol_pct"]) == ("1.29", "1.32", "5")


def disc_field_mt(z_mm: float, br_t: float) -> float:
    """Axial field of the 10 x 3 mm disc at ``z_mm`` below its near face (GEOMETRY.md)."""
    radius, length = 5.0, 3.0
    far = (z_mm + length) / math.hypot(radius, z_mm + length)
    return br_t / 2 * (far - z_mm / math.hypot(radius, z_mm)) * 1000


def test_geometry_figures_follow_from_its_formula() -> None:
    text = (HARDWARE / "GEOMETRY.md").read_text()
    stack = [sum(disc_field_mt(8.0 + 9.0 * k, 1.30) for k in range(n)) for n in (1, 2, 3)]
    for field in stack:
        assert f"| {field:.1f} mT |" in text
    counts_per_mt = 0.030 / 3.3 * 4096
    clip = round(3.1 / 3.3 * 4096)
    white = [min(clip, round(2048 + field * counts_per_mt)) for field in stack]
    black = [max(4096 - clip, round(2048 - field * counts_per_mt)) for field in stack]
    assert white == [3558, 3818, 3848] and black == [538, 278, 248]
    for w, b in zip(white, black, strict=True):
        assert f"| {w}" in text and f"| {b}" in text
    assert f"484 .. {round(2048 + 42 * counts_per_mt)}" in text
    assert stack[0] < 42 < stack[1], "one checker stays linear, two may clip"


def test_readme_pin_table_matches_the_pin_map() -> None:
    pm = load_pinmap()
    text = (HARDWARE / "README.md").read_text()
    select = ", ".join(map(str, pm.mux_select))
    assert f"| multiplexer select S0, S1, S2, S3 | {select} |" in text
    assert f"| multiplexer enable /E (active low) | {pm.mux_enable} |" in text
    names = ", ".join(pm.buttons)
    pins = ", ".join(str(pm.buttons[n]) for n in pm.buttons)
    assert f"| buttons {names} | {pins} |" in text
    assert f"| LED data (SPI1 MOSI on Pi 0-4, PIO on Pi 5) | {pm.leds.pin} |" in text
    free = sorted(set(range(2, 28)) - set(pm.gpio_roles()) - {2, 3, 14, 15})
    assert f"| free | {', '.join(map(str, free))} (and 2, 3 = I2C; 14, 15 = UART) |" in text


def test_readme_names_existing_boot_configs() -> None:
    text = (HARDWARE / "README.md").read_text()
    for name in re.findall(r"`(?:firmware/config/)?(pi\d-\w+\.txt)`", text):
        assert (ROOT / "firmware" / "config" / name).is_file(), name
    for model in ("Zero 2 W", "3 B", "4 B", "5 / 500"):
        assert f"| {model}" in text
