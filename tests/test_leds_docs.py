"""The pictures in docs/leds are what the renderer draws today, and docs/PLAYING.md
shows every one of them."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    path = ROOT / "tools" / "render_led_patterns.py"
    spec = importlib.util.spec_from_file_location("render_led_patterns", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def test_committed_pictures_are_current() -> None:
    pictures: dict[str, str] = TOOL.render_all()
    stale = [
        name for name, text in pictures.items()
        if not (ROOT / "docs" / "leds" / name).exists()
        or (ROOT / "docs" / "leds" / name).read_text(encoding="utf-8") != text
    ]
    assert not stale, f"run: .venv/bin/python tools/render_led_patterns.py  (stale: {stale})"
    on_disk = {p.name for p in (ROOT / "docs" / "leds").glob("*.svg")}
    assert on_disk == set(pictures), "docs/leds holds pictures no scene draws"


def test_pictures_are_deterministic_and_show_the_renderers_colours() -> None:
    first = TOOL.render_all()
    assert TOOL.render_all() == first
    assert 'fill="#0050ff"' in first["out_of_sync.svg"]   # palette.ADD, from the renderer
    assert 'fill="#ff3200"' in first["out_of_sync.svg"]   # palette.REMOVE
    assert "every LED is steady" in first["turn.svg"]


def test_the_check_mode_spots_a_stale_picture(tmp_path: Path) -> None:
    assert TOOL.main(["--out", str(tmp_path)]) == 0
    assert TOOL.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "cube.svg").write_text("<svg/>", encoding="utf-8")
    assert TOOL.main(["--out", str(tmp_path), "--check"]) == 1


def test_the_playing_page_shows_every_picture() -> None:
    page = (ROOT / "docs" / "PLAYING.md").read_text(encoding="utf-8")
    section = page.split("## What the lights mean", 1)[1]
    shown = set(re.findall(r'src="leds/([a-z_]+\.svg)"', section))
    assert shown == set(TOOL.render_all())
