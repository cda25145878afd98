"""Every string of the page in English, Greek and Turkish: the same keys in the three
tables of i18n.js, every key the page's files ask for in them, the same placeholders,
and the games under their real names (read from the files, no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavla_pi.decode.observation import SensorFault

STATIC = Path(__file__).resolve().parent.parent / "tavla_pi" / "web" / "static"
LANGS = ("en", "el", "tr")
_ENTRY = re.compile(r'^ {4}([a-z][a-z0-9_]*): "((?:[^"\\]|\\.)*)",$')


def tables() -> dict[str, dict[str, str]]:
    """The message tables of i18n.js, language -> key -> text."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    body = text.split("export const MESSAGES = {", 1)[1].split("\n};", 1)[0]
    out: dict[str, dict[str, str]] = {}
    for block in re.split(r"^  (?=[a-z]{2}: \{$)", body, flags=re.M)[1:]:
        lang, rest = block.split(": {", 1)
        lines = [line for line in rest.splitlines()
                 if line.strip() and not line.strip().startswith(("//", "},"))]
        entries = [_ENTRY.match(line) for line in lines]
        assert all(entries), [line for line, e in zip(lines, entries, strict=True) if not e]
        out[lang] = {e.group(1): e.group(2) for e in entries if e}
    return out


TABLES = tables()


def asked_for() -> set[str]:
    """The keys the page's files name literally: t("key"), data-i18n and -title."""
    keys: set[str] = set()
    for path in STATIC.glob("*.js"):
        keys |= set(re.findall(r'\bt\("([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-title)?="([a-z0-9_]+)"', html))
    return keys


def test_the_three_languages_have_the_same_keys() -> None:
    assert set(TABLES) == set(LANGS)
    assert len(TABLES["en"]) > 200
    for lang in ("el", "tr"):
        assert set(TABLES[lang]) == set(TABLES["en"]), lang


def test_every_key_the_page_asks_for_is_in_every_language() -> None:
    for lang in LANGS:
        missing = asked_for() - set(TABLES[lang])
        assert not missing, (lang, sorted(missing))


@pytest.mark.parametrize("lang", ["el", "tr"])
def test_a_translation_fills_only_the_placeholders_english_has(lang: str) -> None:
    for key, english in TABLES["en"].items():
        names = set(re.findall(r"\{(\w+)\}", english)) | {"color_many"}
        extra = set(re.findall(r"\{(\w+)\}", TABLES[lang][key])) - names
        assert not extra, (lang, key, extra)


def test_the_games_under_their_real_names() -> None:
    names = {lang: [TABLES[lang][f"game_{g}"] for g in ("portes", "plakoto", "fevga", "tavli")]
             for lang in LANGS}
    assert names["el"][:3] == ["Πόρτες", "Πλακωτό", "Φεύγα"]
    assert names["el"][3].startswith("Τάβλι")
    assert names["tr"][0] == "Tavla" and names["tr"][1].startswith("Tapa")
    assert names["tr"][2].startswith("Mültezim")
    assert names["en"][:3] == ["Portes", "Plakoto", "Fevga"]


def test_the_tavli_strings_of_the_page_are_there() -> None:
    for key in ("label_game", "game_of_tavli", "set_variant", "pinned_list", "pinned_title",
                "hint_first_checker", "legend_pinned", "kind_mother", "kind_draw",
                "ev_game_drawn", "ev_game_started_variant", "set_variant_computer"):
        assert all(TABLES[lang][key] for lang in LANGS), key


def test_one_point_is_said_in_the_singular() -> None:
    for key, english in TABLES["en"].items():
        if re.search(r"\{(points|n)\} points", english):
            assert TABLES["en"][f"{key}_one"] == re.sub(
                r"\{(points|n)\} points", r"{\1} point", english), key
            assert "πόντοι" not in TABLES["el"][f"{key}_one"], key


def test_every_kind_of_sensor_fault_is_said_in_every_language() -> None:
    kinds = re.findall(r'``"(\w+)"``', SensorFault.__doc__ or "")
    assert kinds == ["stuck", "out_of_range", "between_slots", "mixed_colors"]
    for lang in LANGS:
        assert all(TABLES[lang].get(f"fault_{kind}") for kind in kinds), lang
