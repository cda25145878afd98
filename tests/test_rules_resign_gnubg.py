"""Resignations scored as the real GNU Backgammon scores them (skipped where gnubg is absent).

For each case gnubg is put in the state (``set matchid``, both players
human), then the player on roll resigns, the opponent rejects, the same
level is offered again (gnubg refuses it: already declined) and a higher one
(where there is one); then, from the same state again, the level is offered
and accepted, and a new game starts.
gnubg's Match ID after each step, the points it records for the game and
the score and Crawford flag of the next game must be ours: money play with
the Jacoby rule off and on (centred and turned cubes), matches at several
scores, the Crawford game and the games after it, a 1-point match where
gammons cannot matter, cube values up to 64.

And the positions in which the computer considers resigning: for every
position of tests/fixtures/movegen.jsonl, ``in_contact`` must be gnubg's
own ClassifyPosition (``gnubg.classifypos``) saying more than a race.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from programs import needs

from tavla_pi.engine import find_gnubg
from tavla_pi.rules import Color, MatchRules, MatchState, Position, Resignation
from tavla_pi.rules.resign import (
    decline_resignation,
    in_contact,
    may_resign,
    offer_resignation,
    take_resignation,
)

GNUBG = find_gnubg()

pytestmark = needs("gnubg")

SCRIPT = """
import json, os
import gnubg

for command in ("set player 0 human", "set player 1 human", "set display off",
                "set automatic game off", "set automatic roll off"):
    gnubg.command(command)
rows = []


def set_up(case):
    gnubg.command("set jacoby " + ("on" if case["jacoby"] else "off"))
    gnubg.command("new match %d" % case["length"] if case["length"] else "new session")
    gnubg.command("set matchid " + case["match_id"])


for case in json.load(open(os.environ["JOBS"])):
    level = case["level"]
    set_up(case)
    row = {"in": gnubg.matchid()}
    gnubg.command("resign %d" % level)
    row["offered"] = gnubg.matchid()
    gnubg.command("reject")
    row["declined"] = gnubg.matchid()
    gnubg.command("resign %d" % level)
    row["again"] = gnubg.matchid()
    if level < 3:
        gnubg.command("resign %d" % (level + 1))
        row["higher"] = gnubg.matchid()
    set_up(case)
    gnubg.command("resign %d" % level)
    gnubg.command("accept")
    row["accepted"] = gnubg.matchid()
    row["points"] = gnubg.match(0, 0, 0, 0)["games"][-1]["info"]["points-won"]
    gnubg.command("new game")
    row["next"] = gnubg.matchid()
    rows.append(row)
classes = [gnubg.classifypos(gnubg.positionfromid(pid))
           for pid in json.load(open(os.environ["POSITIONS"]))]
json.dump({"rows": rows, "classes": classes}, open(os.environ["OUT"], "w"))
"""

CLASS_RACE = 8
"""gnubg's CLASS_RACE (eval.h): the classes above it are contact positions."""
FIXTURE = Path(__file__).parent / "fixtures" / "movegen.jsonl"

W, B = Color.WHITE, Color.BLACK


def money(*, jacoby: bool, **fields: Any) -> MatchState:
    return MatchState(jacoby=jacoby, **fields)


def match(length: int, score: tuple[int, int], **fields: Any) -> MatchState:
    return MatchState(match_length=length, score=score, **fields)


CASES: list[tuple[MatchState, Resignation]] = [
    # money: Jacoby off and on, the cube centred, owned, high; White and Black resigning
    (money(jacoby=False), Resignation.SINGLE),
    (money(jacoby=False, on_roll=B, to_act=B), Resignation.GAMMON),
    (money(jacoby=True), Resignation.GAMMON),  # Jacoby does not shrink a resigned gammon
    (money(jacoby=True, on_roll=B, to_act=B), Resignation.BACKGAMMON),
    (money(jacoby=True, cube=2, cube_owner=W), Resignation.GAMMON),
    (money(jacoby=False, cube=4, cube_owner=B, on_roll=B, to_act=B), Resignation.SINGLE),
    (money(jacoby=False, cube=64, cube_owner=W), Resignation.BACKGAMMON),
    (money(jacoby=False, score=(12, 30)), Resignation.GAMMON),
    (money(jacoby=False, dice=(6, 2)), Resignation.SINGLE),  # gnubg allows it after the roll too
    # matches: ordinary scores, reaching 1-away (the next game is Crawford), winning it
    (match(5, (0, 0)), Resignation.SINGLE),
    (match(5, (2, 0)), Resignation.GAMMON),
    (match(5, (3, 1), on_roll=B, to_act=B), Resignation.SINGLE),
    (match(5, (1, 3), cube=2, cube_owner=W), Resignation.SINGLE),
    (match(7, (2, 2), cube=4, cube_owner=B), Resignation.GAMMON),
    (match(7, (0, 0), cube=2, cube_owner=B, on_roll=B, to_act=B), Resignation.BACKGAMMON),
    # the Crawford game (no cube), the game after it, a 1-point match
    (match(5, (4, 2), crawford=True), Resignation.SINGLE),
    (match(5, (4, 2), crawford=True, on_roll=B, to_act=B), Resignation.GAMMON),
    (match(5, (3, 4), cube=2, cube_owner=W), Resignation.SINGLE),
    (match(5, (4, 4)), Resignation.BACKGAMMON),
    (match(1, (0, 0)), Resignation.GAMMON),
    (match(1, (0, 0), on_roll=B, to_act=B), Resignation.SINGLE),
]


def fixture_positions() -> list[str]:
    """Every distinct Position ID of the move generation fixture, in order."""
    ids = (json.loads(line)["position_id"] for line in FIXTURE.open() if line.strip())
    return list(dict.fromkeys(ids))


def ask_gnubg(cases: list[tuple[MatchState, Resignation]], positions: list[str],
              tmp: Path) -> dict[str, Any]:
    assert GNUBG is not None
    jobs = [{"match_id": state.match_id(), "length": state.match_length,
             "jacoby": state.jacoby, "level": int(level)} for state, level in cases]
    script, jobs_file, out = tmp / "resign.py", tmp / "jobs.json", tmp / "out.json"
    script.write_text(SCRIPT)
    jobs_file.write_text(json.dumps(jobs))
    (tmp / "positions.json").write_text(json.dumps(positions))
    env = {**os.environ, "JOBS": str(jobs_file), "OUT": str(out), "HOME": str(tmp),
           "POSITIONS": str(tmp / "positions.json")}
    run = subprocess.run([str(GNUBG), "-t", "-q", "-r", "-s", str(tmp), "-p", str(script)],
                         env=env, capture_output=True, text=True, timeout=120, check=False)
    assert out.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    answers: dict[str, Any] = json.loads(out.read_text())
    return answers


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return ask_gnubg(CASES, fixture_positions(), tmp_path_factory.mktemp("gnubg"))


@pytest.fixture(scope="module")
def rows(answers: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = answers["rows"]
    return found


@pytest.mark.parametrize("index", range(len(CASES)))
def test_a_resignation_goes_as_in_gnubg(rows: list[dict[str, Any]], index: int) -> None:
    state, level = CASES[index]
    row, rules = rows[index], MatchRules(jacoby=state.jacoby)
    resigner = state.on_roll
    assert row["in"] == state.match_id(), "gnubg did not take the state"
    offered = offer_resignation(state, resigner, level)
    assert row["offered"] == offered.match_id()
    declined = decline_resignation(offered, resigner.opponent)
    assert row["declined"] == declined.match_id() == state.match_id()
    assert row["again"] == declined.match_id()  # gnubg: "has already declined"
    assert not may_resign(declined, resigner, level, declined=level)
    if level < Resignation.BACKGAMMON:
        higher = offer_resignation(declined, resigner, Resignation(level + 1), declined=level)
        assert row["higher"] == higher.match_id()
    after, result = take_resignation(offered, resigner.opponent, rules)
    assert row["accepted"] == after.match_id()
    assert result.winner is resigner.opponent
    assert row["points"] == result.points == int(level) * state.cube
    following = MatchState.from_match_id(row["next"])
    if after.match_winner is None:
        assert following.score == after.score
        assert following.crawford == after.crawford
        assert following.cube == 1
    else:  # gnubg starts no game once the match is won
        assert row["next"] == row["accepted"]


def test_contact_is_gnubgs_classification(answers: dict[str, Any]) -> None:
    positions = fixture_positions()
    classes = answers["classes"]
    assert len(classes) == len(positions)
    wrong = [pid for pid, cls in zip(positions, classes, strict=True)
             if in_contact(Position.from_position_id(pid)) != (cls > CLASS_RACE)]
    assert not wrong, wrong[:5]
    assert sum(cls <= CLASS_RACE for cls in classes) > 300  # races and bear-offs among them
