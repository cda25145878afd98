"""The config's ``[clock]`` (the tournament clock, docs/CLOCK.md) and ``[players]`` tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavla_pi.config import load_config
from tavla_pi.errors import ConfigError
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.players import PlayerNames

MATCH = "[game]\nmatch_length = 5\n"


def load(tmp_path: Path, text: str) -> tuple[ClockRules | None, PlayerNames]:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    return config.clock, config.players


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    return str(info.value).removeprefix(f"{tmp_path / 'config.toml'}: ")


def test_the_clock_is_off_unless_enabled(tmp_path: Path) -> None:
    assert load(tmp_path, MATCH + "[clock]\ndelay_s = 10\n")[0] is None
    assert load(tmp_path, MATCH)[0] is None


def test_an_enabled_clock_has_the_federations_defaults(tmp_path: Path) -> None:
    assert load(tmp_path, MATCH + "[clock]\nenabled = true\n")[0] == ClockRules(12, 120)
    text = MATCH + "[clock]\nenabled = true\ndelay_s = 0\nreserve_s_per_point = 90\n"
    assert load(tmp_path, text)[0] == ClockRules(0, 90)


@pytest.mark.parametrize(("text", "problem"), [
    ("[clock]\nenabled = true\n",
     "[clock] enabled: needs [game] match_length of 1 point or more (money play has no clock)"),
    (MATCH + "[clock]\ndelay_s = 601\n", "[clock] delay_s: expected a whole number 0..600, "
                                         "got 601"),
    (MATCH + "[clock]\nreserve_s_per_point = 0\n",
     "[clock] reserve_s_per_point: expected a whole number 1..3600, got 0"),
    (MATCH + '[clock]\nenabled = "yes"\n', "[clock] enabled: expected true or false, got 'yes'"),
    (MATCH + "[clock]\ndelay = 12\n",
     "[clock] delay: unknown key (known: enabled, delay_s, reserve_s_per_point); "
     "did you mean 'delay_s'?"),
])
def test_a_bad_clock_is_named(tmp_path: Path, text: str, problem: str) -> None:
    assert error_of(tmp_path, text) == problem


def test_the_players_names(tmp_path: Path) -> None:
    assert load(tmp_path, "")[1] == PlayerNames("White", "Black")
    assert load(tmp_path, '[players]\nwhite = "Ayşe"\n')[1] == PlayerNames("Ayşe", "Black")
    assert error_of(tmp_path, '[players]\nblack = "  "\n').startswith("[players] black: ")
    assert error_of(tmp_path, f'[players]\nblack = "{"x" * 33}"\n').startswith(
        "[players] black: expected a name of 1 to 32 printable characters")
