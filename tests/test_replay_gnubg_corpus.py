"""The gnubg-refereed scenarios themselves: well formed, and the hands really play gnubg's plays.

These checks need no game: they follow each scenario's checker movements on a
plain model of the board and compare it, at every DONE that commits, with the
Position ID gnubg reported for that play.  With gnubg installed, the expected
events are also refereed again by gnubg (tools/gen_gnubg_scenarios.py verify).
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from programs import PROGRAMS, needs
from scenario_compare import COMPARED, load_events, plays_tavli

from tavla_pi.replay.actions import read_scenario
from tavla_pi.rules import MatchState, Position

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "scenarios" / "gnubg"
EXAMPLES = ROOT / "examples"
# more folders (soak runs of the generator) may be named in TAVLA_SCENARIOS, os.pathsep apart
EXTRA = [Path(p) for p in os.environ.get("TAVLA_SCENARIOS", "").split(os.pathsep) if p]
SCENARIOS = sorted(
    path for folder in (CORPUS, EXAMPLES, *EXTRA) for path in folder.glob("*.jsonl")
    if not path.name.endswith(".expected.jsonl") and not plays_tavli(path)
)  # the tavli games are in tests/test_replay_tavli_scenarios.py
LOCATIONS = {str(n) for n in range(1, 25)} | {"bar", "off"}
BUTTONS = {"white.roll", "white.cube", "black.roll", "black.cube", "menu"}
START = {"24": 2, "13": 5, "8": 3, "6": 5}

Table = Counter[tuple[str, str]]


def expected_path(scenario: Path) -> Path:
    return scenario.with_name(scenario.name.removesuffix(".jsonl") + ".expected.jsonl")


def other(color: str) -> str:
    return "black" if color == "white" else "white"


def absolute(color: str, own: int) -> str:
    """The location of a checker on its owner's point ``own`` (25: the bar)."""
    if own == 25:
        return "bar"
    return str(own if color == "white" else 25 - own)


def decode_position_id(position_id: str) -> tuple[list[int], list[int]]:
    """gnubg's Position ID: (player not on roll, player on roll), each points 1..24 then the bar."""
    bits = int.from_bytes(base64.b64decode(position_id + "=="), "little")
    sides: tuple[list[int], list[int]] = ([0] * 25, [0] * 25)
    at = 0
    for side in sides:
        for point in range(25):
            while bits >> at & 1:
                side[point] += 1
                at += 1
            at += 1
    return sides


def on_roll(match_id: str) -> str:
    """Whose roll a Match ID says it is (its dice owner bit)."""
    return ("white", "black")[int.from_bytes(base64.b64decode(match_id), "little") >> 6 & 1]


def position(position_id: str, roller: str) -> Table:
    """Checkers per (colour, location) on the points and bars of a Position ID."""
    table: Table = Counter()
    for color, side in zip((other(roller), roller), decode_position_id(position_id), strict=True):
        for index, n in enumerate(side):
            if n:
                table[color, absolute(color, index + 1)] = n
    return table


def start_table() -> Table:
    table: Table = Counter()
    for color in ("white", "black"):
        for own, n in START.items():
            table[color, absolute(color, int(own))] = n
    return table


def on_board(table: Table) -> Table:
    return Counter({key: n for key, n in table.items() if n and key[1] != "off"})


def scenario_lines(path: Path) -> list[dict[str, Any]]:
    return load_events(path)


def test_decode_position_id_reads_gnubg() -> None:
    start = decode_position_id("4HPwATDgc/ABMA")
    assert start[0] == start[1]
    assert [start[1][5], start[1][7], start[1][12], start[1][23]] == [5, 3, 5, 2]
    # after White's opening 8/5 6/5 (Black on roll): White's side is the first
    assert position("sGfwATDgc/ABMA", "black") == (
        start_table()
        - Counter({("white", "8"): 1, ("white", "6"): 1})
        + Counter({("white", "5"): 2})
    )


def test_the_corpus_is_there_with_its_expected_events() -> None:
    corpus = [p for p in SCENARIOS if p.parent == CORPUS]
    assert len(corpus) >= 18
    assert {p.name.rsplit("_", 1)[-1] for p in corpus} == {"clean.jsonl", "clumsy.jsonl"}
    for folder in (CORPUS, EXAMPLES):
        for sidecar in folder.glob("*.expected.jsonl"):
            assert sidecar.with_name(sidecar.name.replace(".expected", "")).exists(), sidecar
    for scenario in SCENARIOS:
        assert expected_path(scenario).exists(), scenario


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_lines_are_scenario_actions(path: Path) -> None:
    for number, line in enumerate(scenario_lines(path), 1):
        where = f"{path.name}:{number}: {line}"
        action = next(iter(line))
        assert action in {"setup", "load", "dice", "press", "lift", "place", "move", "glitch",
                          "wait"}, where
        if action in ("lift", "place"):
            assert line[action] in LOCATIONS and line["color"] in ("white", "black"), where
        elif action == "move":
            frm, to = line["move"].split("/")
            assert {frm, to} <= LOCATIONS and frm != to, where
        elif action == "glitch":
            assert line["glitch"]["at"] in LOCATIONS and 0 < line["glitch"]["ms"] < 150, where
        elif action == "press":
            assert line["press"] in BUTTONS, where
        elif action == "dice":
            assert len(line["dice"]) == 2 and all(1 <= d <= 6 for d in line["dice"]), where
        elif action == "wait":
            assert isinstance(line["wait"], int) and line["wait"] > 0, where
        else:
            setup = line.get("setup") == "start" and set(line) <= {"setup", "match_length"}
            assert setup or set(line["load"]) == {"position_id", "match_id"}, where


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_product_reads_every_line(path: Path) -> None:
    assert len(list(read_scenario(path))) == len(scenario_lines(path))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_rules_engine_agrees_with_every_play(path: Path) -> None:
    """Each play is one of tavla_pi.rules' legal plays, with gnubg's notation and result."""
    start = next(line for line in scenario_lines(path) if "setup" in line or "load" in line)
    before = Position.initial() if "setup" in start else Position.from_position_id(
        start["load"]["position_id"])
    for event in load_events(expected_path(path)):
        if event.get("starter"):
            before = Position.initial()
        if "match_id" in event:
            assert MatchState.from_match_id(event["match_id"]).match_id() == event["match_id"]
        if event["type"] not in ("played", "no_legal_move"):
            continue
        plays = {play.notation: play for play in before.legal_plays(tuple(event["dice"]))}
        if event["type"] == "no_legal_move":
            assert not plays, event
            before = before.swap()
            continue
        assert event["play"] in plays, (before.position_id(), event, sorted(plays))
        assert plays[event["play"]].result.position_id() == event["position_id"], event
        before = plays[event["play"]].result


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_expected_events_are_of_the_compared_types(path: Path) -> None:
    events = load_events(expected_path(path))
    assert events, path
    assert {event["type"] for event in events} <= COMPARED


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_hands_play_exactly_gnubgs_plays(path: Path) -> None:
    """At every DONE that commits, the board is gnubg's position after the play."""
    events = load_events(expected_path(path))
    commits = iter([e for e in events if e["type"] in ("played", "rejected")])
    played = sum(1 for e in events if e["type"] == "played")
    checked = sum(1 for _ in _follow(path, commits))
    assert checked == played
    assert next(commits, None) is None, "expected plays the scenario never commits"


def _follow(path: Path, commits: Iterator[dict[str, Any]]) -> Iterator[str]:
    """Follow the scenario's hands; yield at each committed play, having checked the board."""
    table: Table = Counter()
    hands: Counter[str] = Counter()
    rolling = False  # a dice line is waiting for its ROLL press
    offered_by: str | None = None
    for number, line in enumerate(scenario_lines(path), 1):
        where = f"{path.name} action {number} {line}"
        if "setup" in line:
            table = start_table()
        elif "load" in line:
            ids = line["load"]
            table = position(ids["position_id"], on_roll(ids["match_id"]))
        elif "dice" in line:
            rolling = True
        elif "lift" in line or "place" in line or "move" in line:
            _handle(table, hands, line, where)
        elif "press" in line:
            color, button = line["press"].split(".")
            if offered_by:
                assert color == other(offered_by), where
                offered_by = None
            elif button == "cube":
                offered_by = color
            elif rolling:
                rolling = False
            else:
                event = next(commits, None)
                assert event is not None and event["player"] == color, f"{where}: DONE, {event}"
                assert not +hands, f"{where}: DONE with checkers in hand"
                if event["type"] == "played":
                    want = position(event["position_id"], other(color))
                    assert on_board(table) == want, f"{where}: not gnubg's {event['play']}"
                    yield event["play"]


def _handle(table: Table, hands: Counter[str], line: dict[str, Any], where: str) -> None:
    color = line["color"]
    if "move" in line:
        frm, to = line["move"].split("/")
        steps = [("lift", frm), ("place", to)]
    else:
        steps = [("lift", line["lift"])] if "lift" in line else [("place", line["place"])]
    for kind, loc in steps:
        if kind == "lift":
            assert table[color, loc] > 0, f"{where}: no {color} checker on {loc}"
            table[color, loc] -= 1
            hands[color] += 1
        else:
            assert hands[color] > 0, f"{where}: no {color} checker in hand"
            table[color, loc] += 1
            hands[color] -= 1


GNUBG = PROGRAMS["gnubg"].path


@pytest.mark.slow
@needs("gnubg")
def test_gnubg_referees_the_expected_events_again() -> None:
    """Every expected event (IDs, plays, scores) is what gnubg says when the game is replayed."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_gnubg_scenarios.py"), "verify",
         "--gnubg", str(GNUBG), str(CORPUS), str(EXAMPLES), *map(str, EXTRA)],
        capture_output=True, text=True, check=False, timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(SCENARIOS)} scenarios refereed again by gnubg, 0 differ" in run.stdout
