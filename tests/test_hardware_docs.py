"""The generated wiring documents are current and say what the pin map says."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from tavla_pi.pinmap import load_pinmap

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
