"""``tavla-pi export`` of a tavli match played on the modelled board, and GNU Backgammon's
import of the file: the Portes games, their scores and plays, are the journal's.

A tavli match to 3 (Portes, a drawn Plakoto, a Fevga gammon, Portes again) and a
Plakoto match to 1 are played by hand (:mod:`tavli_match_support`), journaled, and
exported through the command line; gnubg (``import mat`` after ``set cube use off``)
must import the two Portes games without a word, at the scores they started from,
each turn leading to the journal's position.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from programs import PROGRAMS, needs
from tavli_match_support import play_match

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
from tavla_pi.reconcile.moves import apply, opposite
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position

GNUBG = PROGRAMS["gnubg"].path

pytestmark = pytest.mark.slow

TAVLI_SEED, PLAKOTO_SEED = 10, 2
"""Seeds whose matches the modelled board plays through (found by trying)."""

SCRIPT = """
import json, os, sys
import gnubg

gnubg.command("set jacoby off")
gnubg.command("set cube use off")
answers = []
for path in json.load(open(os.environ["JOBS"])):
    print("@@ " + path)
    sys.stdout.flush()
    gnubg.command("import mat " + path)
    match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    answers.append(None if match is None else {
        "length": match["match-info"]["match-length"],
        "comment": match["match-info"].get("comment", ""),
        "games": [{"info": g["info"], "turns": g["game"]} for g in match["games"]]})
json.dump(answers, open(os.environ["OUT"], "w"))
"""


def games_of(events: list[Event]) -> list[list[Event]]:
    """The events of each game, from its ``game_started`` to its ``game_over``."""
    starts = [i for i, e in enumerate(events) if e.type == EventType.GAME_STARTED]
    overs = [i for i, e in enumerate(events) if e.type == EventType.GAME_OVER]
    return [list(events[a:b + 1]) for a, b in zip(starts, overs, strict=True)]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The two matches journaled and exported with ``--all``; what the command said."""
    state, out = tmp_path_factory.mktemp("state"), tmp_path_factory.mktemp("out")
    _, tavli = play_match(TAVLI_SEED, "tavli", 3)
    _, plakoto = play_match(PLAKOTO_SEED, "plakoto", 1)
    with Journal.open(state) as journal:
        journal.append([*tavli, *plakoto])
    listed = run_cli(["export", "--state-dir", str(state), "--list"])
    written = run_cli(["export", "--state-dir", str(state), "--all", "--out", str(out)])
    return {"tavli": tavli, "plakoto": plakoto, "list": listed, "written": written,
            "files": [out / "tavla-match-1.mat", out / "tavla-match-2.mat"]}


def run_cli(args: list[str]) -> tuple[str, str]:
    """The command's standard output and error (run in this process)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(args) == 0
    return out.getvalue(), err.getvalue()


def test_the_match_is_the_one_the_test_is_about(exported: dict[str, Any]) -> None:
    games = [(g[0]["variant"], g[-1]["kind"]) for g in games_of(exported["tavli"])]
    assert games == [("portes", "single"), ("plakoto", "draw"), ("fevga", "gammon"),
                     ("portes", "gammon")]


def test_list_says_what_gnubg_imports_of_each_match(exported: dict[str, Any]) -> None:
    out, err = exported["list"]
    lines = out.splitlines()
    assert re.match(r"\s+1\s+3 pt\s+4\s+1-4\s+\S+.*\(tavli: gnubg imports games 1 and 4\)$",
                    lines[1])
    assert re.match(r"\s+2\s+1 pt\s+1\s+2-0\s+\S+.*\(plakoto: no game for gnubg\)$", lines[2])
    assert err == ""


def test_export_trusts_every_event_and_warns_of_the_match_gnubg_gets_nothing_from(
        exported: dict[str, Any]) -> None:
    out, err = exported["written"]
    assert out.split() == [str(p) for p in exported["files"]]
    assert err == ("tavla-pi: warning: match 2 has no game of Portes: gnubg finds no game "
                   "to import in its file\n")


def test_the_plakoto_and_fevga_rows_are_the_journal_s_plays_in_order(
        exported: dict[str, Any]) -> None:
    text = exported["files"][0].read_text()
    header = text.split(" 3 point match")[0]
    titles = [line for line in header.splitlines() if line.startswith("; Game ")]
    assert titles == ["; Game 1: Portes: White wins 1 point (below)", "; Game 2: Plakoto",
                      "; Game 3: Fevga", "; Game 4: Portes: Black wins 2 points (below)"]
    blocks = header.split("; Game ")[1:]
    for number, game in enumerate(games_of(exported["tavli"]), start=1):
        if game[0]["variant"] != "portes":
            assert cells(blocks[number - 1]) == turns(game), number
    assert blocks[1].splitlines()[-2] == ";      Draw"
    assert blocks[2].splitlines()[-2] == ";                                  Wins 2 points (gammon)"


def cells(block: str) -> list[str]:
    """A comment block's rows read cell by cell: left, then right, row by row."""
    rows = [line.split(")", 1)[1] for line in block.splitlines() if re.match(r";\s+\d+\)", line)]
    return [cell.strip() for row in rows for cell in re.split(r"\s{2,}", row) if cell.strip()]


def turns(game: list[Event]) -> list[str]:
    """Each turn of a game as the journal has it: the roll, high die first, and the play."""
    out = []
    for event in game:
        if event.type in (EventType.PLAYED, EventType.NO_LEGAL_MOVE):
            a, b = sorted(event["dice"], reverse=True)
            play = f" {event['play']}" if event.type == EventType.PLAYED else ""
            out.append(f"{a}{b}:{play}")
    return out


@needs("gnubg")
def test_gnubg_imports_the_portes_games_at_their_scores_with_the_journal_s_plays(
        exported: dict[str, Any], tmp_path: Path) -> None:
    answers, said = ask_gnubg(exported["files"], tmp_path)
    tavli, plakoto = answers
    for alarm in ("WARNING", "Unrecognised", "Illegal", "invalid", "not a valid"):
        assert alarm not in said, said[-2000:]
    portes = [g for g in games_of(exported["tavli"]) if g[0]["variant"] == "portes"]
    assert tavli["length"] == 3
    assert [g["info"] for g in tavli["games"]] == [expected_info(g) for g in portes]
    for game, answer in zip(portes, tavli["games"], strict=True):
        assert len(journal_positions(game)) > 10
        assert positions_of(answer["turns"]) == journal_positions(game)
    assert "Game 2: Plakoto" in tavli["comment"] and "Game 3: Fevga" in tavli["comment"]
    assert plakoto is None  # no game of Portes: gnubg has no match to show


def ask_gnubg(paths: list[Path], tmp: Path) -> tuple[list[Any], str]:
    """gnubg's account of each file, and all it printed."""
    assert GNUBG is not None
    script, jobs, out = tmp / "import.py", tmp / "jobs.json", tmp / "answers.json"
    script.write_text(SCRIPT)
    jobs.write_text(json.dumps([str(p) for p in paths]))
    run = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True,
                         text=True, timeout=300, check=False,
                         env=dict(os.environ, JOBS=str(jobs), OUT=str(out)))
    assert out.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads(out.read_text()), run.stdout


def expected_info(game: list[Event]) -> dict[str, Any]:
    """A Portes game as gnubg's game info puts it (X is White)."""
    start, over = MatchState.from_match_id(game[0]["match_id"]), game[-1]
    info = {"score-X": start.score[0], "score-O": start.score[1],
            "winner": "X" if over["winner"] == "white" else "O",
            "points-won": over["points"], "resigned": False}
    return {**info, "crawford": True} if start.match_length - 1 in start.score else info


def journal_positions(game: list[Event]) -> list[tuple[list[int], str]]:
    """The dice (high first) and the Position ID after each turn of a Portes game, as
    the journal has them."""
    out = []
    position = Position.initial()
    for event in game:
        if event.type == EventType.PLAYED:
            position = Position.from_position_id(event["position_id"])
        elif event.type == EventType.NO_LEGAL_MOVE:
            position = position.swap()
        else:
            continue
        out.append((sorted(event["dice"], reverse=True), position.position_id()))
    return out


def positions_of(moves: list[dict[str, Any]]) -> list[tuple[list[int], str]]:
    """The dice and the Position ID after each of gnubg's turns, its moves applied."""
    out = []
    position = Position.initial()
    for turn in moves:
        if turn["action"] != "move":
            continue
        mine, theirs = position.mine, position.theirs
        for src, dst in turn["move"]:
            hit = dst != 0 and theirs[opposite(dst)] == 1
            mine, theirs = apply(mine, theirs, (src, dst, hit))
        position = Position(theirs, mine)
        out.append((sorted(turn["dice"], reverse=True), position.position_id()))
    return out
