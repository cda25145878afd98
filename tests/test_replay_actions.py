"""Scenario lines parse into actions, and every bad line names file, line and field."""

from pathlib import Path

import pytest

from tavla_pi.engine.levels import Level
from tavla_pi.errors import ScenarioError
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.replay.actions import (
    DiceAction,
    GlitchAction,
    LiftAction,
    LoadAction,
    MoveAction,
    PlaceAction,
    PressAction,
    SetupAction,
    WaitAction,
    parse_line,
    read_scenario,
)
from tavla_pi.rules.color import Color

GOOD = [
    ('{"setup": "start"}', SetupAction()),
    ('{"load": {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}}',
     LoadAction("4HPwATDgc/ABMA", "cAkAAAAAAAAA")),
    ('{"dice": [6, 1]}', DiceAction(6, 1)),
    ('{"press": "white.roll"}', PressAction("white.roll", 100, long=False)),
    ('{"hold": "menu", "ms": 2000}', PressAction("menu", 2000, long=True)),
    ('{"lift": "13", "color": "white"}', LiftAction("13", Color.WHITE)),
    ('{"place": "bar", "color": "black"}', PlaceAction("bar", Color.BLACK)),
    ('{"move": "6/off", "color": "white"}', MoveAction("6", "off", Color.WHITE)),
    ('{"glitch": {"at": "5", "color": "black", "ms": 40}}', GlitchAction("5", Color.BLACK, 40)),
    ('{"wait": 300}', WaitAction(300)),
    ('{"setup": "start", "opponent": {"color": "black", "level": "world class"}}',
     SetupAction(opponent=OpponentSettings(color=Color.BLACK, level=Level.WORLD_CLASS,
                                           coach=False))),
    ('{"setup": "start", "opponent": {"color": "white", "level": "expert", "coach": true}}',
     SetupAction(opponent=OpponentSettings(color=Color.WHITE, coach=True))),
    ('{"setup": "start", "match_length": 1, "opponent": null}',
     SetupAction(1, OpponentSettings())),
]


@pytest.mark.parametrize(("line", "action"), GOOD)
def test_good_lines(line: str, action: object) -> None:
    assert parse_line(line, "s.jsonl:1") == action


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  # indented comment"])
def test_blank_and_comment_lines_are_skipped(line: str) -> None:
    assert parse_line(line, "s.jsonl:1") is None


BAD = [
    ('{"dice": [7, 1]}', 's.jsonl:3: field "dice": expected two dice [a, b], each 1..6'),
    ('{"lift": "25", "color": "white"}', 's.jsonl:3: field "lift": expected a location'),
    ('{"lift": "13", "color": "red"}', 's.jsonl:3: field "color": expected "white" or "black"'),
    ('{"press": "white.done"}', 's.jsonl:3: field "press": expected one of white.roll'),
    ('{"hold": "menu"}', 's.jsonl:3: field "ms": expected a whole number'),
    ('{"wait": -5}', 's.jsonl:3: field "wait": expected a whole number'),
    ('{"wait": true}', 's.jsonl:3: field "wait": expected a whole number'),
    ('{"move": "13-8", "color": "white"}', 's.jsonl:3: field "move": expected two different'),
    ('{"move": "8/8", "color": "white"}', 's.jsonl:3: field "move": expected two different'),
    ('{"glitch": {"at": "5", "color": "black"}}', 's.jsonl:3: field "glitch.ms": expected'),
    ('{"setup": "random"}', 's.jsonl:3: field "setup": expected "start"'),
    ('{"setup": "start", "opponent": "gnubg"}', 's.jsonl:3: field "opponent": expected an object'),
    ('{"setup": "start", "opponent": {"color": "red", "level": "expert"}}',
     's.jsonl:3: field "opponent.color": expected "white" or "black", got "red"'),
    ('{"setup": "start", "opponent": {"color": "black"}}',
     's.jsonl:3: field "opponent.level": expected one of "beginner", "casual"'),
    ('{"setup": "start", "opponent": {"color": "black", "level": "pro"}}',
     's.jsonl:3: field "opponent.level": expected one of'),
    ('{"setup": "start", "opponent": {"color": "black", "level": "expert", "seed": 1}}',
     's.jsonl:3: field "opponent.seed": unknown field'),
    ('{"setup": "start", "opponent": {"color": "black", "level": "expert", "coach": 1}}',
     's.jsonl:3: field "opponent.coach": expected true or false'),
    ('{"load": {"position_id": ""}}', 's.jsonl:3: field "load.position_id": expected a non-empty'),
    ('{"jump": 3}', "s.jsonl:3: expected exactly one action key"),
    ('{"wait": 3, "press": "menu"}', "s.jsonl:3: expected exactly one action key"),
    ("[1, 2]", "s.jsonl:3: expected a JSON object"),
    ('{"wait": 3', "s.jsonl:3: not valid JSON"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_bad_lines_name_the_place(line: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_line(line, "s.jsonl:3")
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_read_scenario_numbers_lines(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('# header\n\n{"wait": 10}\n{"press": "menu"}\n', encoding="utf-8")
    lines = list(read_scenario(path))
    assert [line.where for line in lines] == [f"{path}:3", f"{path}:4"]
    assert lines[0].action == WaitAction(10)


def test_unreadable_scenario(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        list(read_scenario(tmp_path / "missing.jsonl"))
