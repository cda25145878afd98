"""Live checks against GNU Backgammon (skipped when gnubg is not installed).

Two ways, in one gnubg run:

* gnubg writes the ID: for random valid states gnubg builds a Match ID from
  the fields (``gnubg.matchid(cubeinfo, posinfo)``, its own MatchID()) and it
  must equal ours.  gnubg's cube info keeps no score in money play and
  refuses a score at or past the match length, so those states use score 0-0
  and scores below the length.
* gnubg reads the ID: our IDs are loaded with ``set matchid`` and gnubg's
  account of them (its Match ID, ``posinfo``, ``cubeinfo``) must agree.  That
  command rebuilds a game in progress from the ID and cannot hold a pending
  double or resignation, an ended game, or a Crawford flag without a player
  one point away (nor a cube above 1 in the Crawford game), so those states
  are left to the recorded fixtures (test_rules_match.py and
  test_rules_match_transitions.py).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from programs import PROGRAMS, needs

from tavla_pi.rules import GameState, MatchState, Resignation
from tavla_pi.rules.match import MAX_MATCH_LENGTH, PLAYERS

GNUBG = PROGRAMS["gnubg"].path

pytestmark = needs("gnubg")

SCRIPT = """
import json, os
import gnubg

for command in ("set player 0 human", "set player 1 human", "set display off",
                "set automatic game off", "set automatic roll off"):
    gnubg.command(command)
gnubg.command("new match 7")
jobs = json.load(open(os.environ["JOBS"]))
written = []
for f in jobs["write"]:
    cube = gnubg.cubeinfo(f["cube"], f["owner"], f["move"], f["length"], tuple(f["score"]),
                          f["crawford"], 0)
    cube["jacoby"] = f["jacoby"]
    pos = gnubg.posinfo(f["turn"], f["resigned"], f["doubled"], f["state"], tuple(f["dice"]))
    written.append(gnubg.matchid(cube, pos))
read = []
for match_id in jobs["read"]:
    gnubg.command("new match 7")
    gnubg.command("set matchid " + match_id)
    row = {"out": gnubg.matchid(), "pos": gnubg.posinfo()}
    try:
        row["cube"] = gnubg.cubeinfo()
    except Exception:
        row["cube"] = None
    read.append(row)
json.dump({"write": written, "read": read}, open(os.environ["OUT"], "w"))
"""

N_STATES = 400


def any_state(rng: random.Random) -> MatchState:
    """A valid state gnubg's cube info can describe (see the module docstring)."""
    length = rng.choice([0, 1, 2, 3, 5, 7, 11, 25, MAX_MATCH_LENGTH])
    score = (0, 0) if length == 0 else (rng.randrange(length), rng.randrange(length))
    return MatchState(
        cube=1 << rng.randrange(7),
        cube_owner=rng.choice([None, *PLAYERS]),
        on_roll=rng.choice(PLAYERS),
        to_act=rng.choice(PLAYERS),
        double_offered=rng.random() < 0.3,
        resignation=rng.choice(list(Resignation)),
        dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
        match_length=length,
        score=score,
        crawford=length > 0 and rng.random() < 0.3,
        jacoby=rng.random() < 0.5,
        game_state=rng.choice(list(GameState)),
    )


def loadable_state(rng: random.Random) -> MatchState:
    """A valid state that gnubg's set matchid can hold (see the module docstring)."""
    length = rng.choice([0, 1, 2, 3, 5, 7, 11, 25, MAX_MATCH_LENGTH])
    if length == 0:
        score = (rng.randrange(5000), rng.randrange(5000))
    else:
        score = (rng.randrange(length), rng.randrange(length))
    crawford = length > 1 and length - 1 in score and rng.random() < 0.5
    on_roll = rng.choice(PLAYERS)
    return MatchState(
        cube=1 if crawford else 1 << rng.randrange(7),
        cube_owner=rng.choice([None, *PLAYERS]),
        on_roll=on_roll,
        to_act=on_roll,
        dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
        match_length=length,
        score=score,
        crawford=crawford,
        jacoby=rng.random() < 0.5,
        game_state=GameState.PLAYING,
    )


def gnubg_fields(state: MatchState) -> dict[str, Any]:
    """The arguments gnubg's cubeinfo() and posinfo() take for ``state``."""
    return {
        "cube": state.cube,
        "owner": -1 if state.cube_owner is None else PLAYERS.index(state.cube_owner),
        "move": PLAYERS.index(state.on_roll),
        "length": state.match_length,
        "score": list(state.score),
        "crawford": int(state.crawford),
        "jacoby": int(state.jacoby),
        "turn": PLAYERS.index(state.to_act),
        "resigned": int(state.resignation),
        "doubled": int(state.double_offered),
        "state": int(state.game_state),
        "dice": list(state.dice or (0, 0)),
    }


def ask_gnubg(jobs: dict[str, list[Any]], tmp: Path) -> dict[str, list[Any]]:
    """Run SCRIPT in gnubg on ``jobs``; its answers."""
    assert GNUBG is not None
    script = tmp / "match_ids.py"
    script.write_text(SCRIPT)
    jobs_file, out = tmp / "jobs.json", tmp / "out.json"
    jobs_file.write_text(json.dumps(jobs))
    env = dict(os.environ, JOBS=str(jobs_file), OUT=str(out))
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    answers: dict[str, list[Any]] = json.loads(out.read_text())
    return answers


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    rng = random.Random(20240611)
    written = [any_state(rng) for _ in range(N_STATES)]
    read = [loadable_state(rng) for _ in range(N_STATES)]
    jobs: dict[str, list[Any]] = {
        "write": [gnubg_fields(state) for state in written],
        "read": [state.match_id() for state in read],
    }
    answers = ask_gnubg(jobs, tmp_path_factory.mktemp("gnubg"))
    return {
        "written": written,
        "write": answers["write"],
        "read": read,
        "read_rows": answers["read"],
    }


def test_gnubg_writes_the_same_match_ids(checked: dict[str, Any]) -> None:
    assert len(checked["write"]) == N_STATES
    for state, gnubg_id in zip(checked["written"], checked["write"], strict=True):
        assert gnubg_id == state.match_id(), state
        assert MatchState.from_match_id(gnubg_id) == state


def test_gnubg_reads_our_match_ids_as_we_mean_them(checked: dict[str, Any]) -> None:
    assert len(checked["read_rows"]) == N_STATES
    for state, row in zip(checked["read"], checked["read_rows"], strict=True):
        assert row["out"] == state.match_id(), state  # gnubg writes back what it read
        pos = row["pos"]
        assert pos["dice"] == list(state.dice or (0, 0))
        assert pos["turn"] == PLAYERS.index(state.to_act)
        assert pos["resigned"] == state.resignation
        assert pos["gamestate"] == state.game_state
        cube = row["cube"]
        owner = -1 if state.cube_owner is None else PLAYERS.index(state.cube_owner)
        assert cube["cube"] == state.cube
        assert cube["cubeowner"] == owner
        assert cube["move"] == PLAYERS.index(state.on_roll)
        assert cube["matchto"] == state.match_length
        assert cube["crawford"] == state.crawford
        assert cube["jacoby"] == (state.jacoby and state.is_money)
        if state.match_length:
            assert cube["score"] == list(state.score)
