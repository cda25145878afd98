"""GNU Backgammon imports what ``tavla-pi export`` writes, and agrees on every result.

Matches are played (through the scenario runner on the modelled board, and
on a bare referee for many more), journaled, exported to ``.mat`` and
imported with ``gnubg -t -q -p script.py`` (``import mat FILE``).  gnubg
must read every game without a warning and report the same winner, points
and starting score per game, the same final position ID, and the same final
Match ID (score, cube, who is on roll, game state).

One field of the final Match ID is left out: the Crawford flag.  An imported
match file carries no match state between games, so gnubg leaves the flag
of the last game's header in place (it marks the Crawford game when it
reads each game's scores); played live, gnubg updates it when a game ends,
as this board does.  Each game's Crawford flag (gnubg's game info holds it
once a player is one point away) is checked against the journal instead.
And when the last game ended by a resignation, gnubg's import leaves the
resigner to act (it reads "Wins" as the resignation and its acceptance at
once), where gnubg played live (and this board) hands the turn to act to
the player who accepts: the opponent is compared there.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from game_support import scenario
from journal_support import B, DirectMatch, W, direct_match, runner_actions
from programs import PROGRAMS, needs

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
from tavla_pi.export import format_match, record_match
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.match import GameState, MatchState

GNUBG = PROGRAMS["gnubg"].path

pytestmark = [pytest.mark.slow, needs("gnubg")]

SCRIPT = """
import json, os, sys
import gnubg

gnubg.command("set jacoby off")  # the board's default rules (MatchRules: no Jacoby)
answers = []
for path in json.load(open(os.environ["JOBS"])):
    print("@@ " + path)
    sys.stdout.flush()
    gnubg.command("import mat " + path)
    match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    answers.append({"match_id": gnubg.matchid(), "position_id": gnubg.positionid(),
                    "length": match["match-info"]["match-length"],
                    "games": [game["info"] for game in match["games"]]})
json.dump(answers, open(os.environ["OUT"], "w"))
"""

GRADED = ("game_started", "opening_roll", "rolled", "played", "no_legal_move", "double_offered",
          "double_taken", "double_dropped", "game_over", "match_over")


@dataclass
class Case:
    """An exported match and what gnubg must say about it."""

    name: str
    path: Path
    events: list[Event]
    final: MatchState
    position_id: str


def ask_gnubg(paths: list[Path], tmp: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """gnubg's account of each file, and what it printed while importing each."""
    assert GNUBG is not None
    script, jobs, out = tmp / "import.py", tmp / "jobs.json", tmp / "answers.json"
    script.write_text(SCRIPT)
    jobs.write_text(json.dumps([str(p) for p in paths]))
    run = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                         timeout=300, check=False,
                         env=dict(os.environ, JOBS=str(jobs), OUT=str(out)))
    assert out.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    said = {chunk.split("\n", 1)[0]: chunk for chunk in run.stdout.split("@@ ")[1:]}
    return json.loads(out.read_text()), said


def expected_games(events: list[Event]) -> list[dict[str, Any]]:
    """Per finished game, as gnubg's match info puts it (X is player 0, White)."""
    games, start = [], MatchState()
    for before, event in zip([None, *events], events, strict=False):
        if event.type == "game_started":
            start = MatchState.from_match_id(event["match_id"])
        elif event.type == "game_over":
            resigned = before is not None and before.type == "resign_accepted"
            game = {"score-X": start.score[0], "score-O": start.score[1],
                    "winner": "X" if event["winner"] == "white" else "O",
                    "points-won": event["points"], "resigned": resigned}
            away_one = start.match_length > 0 and start.match_length - 1 in start.score
            games.append({**game, "crawford": start.crawford} if away_one else game)
    return games


def check(case: Case, answer: dict[str, Any], said: str) -> None:
    for alarm in ("WARNING", "Unrecognised", "Illegal", "invalid", "not a valid"):
        assert alarm not in said, f"{case.name}: {said[-2000:]}"
    assert answer["length"] == case.final.match_length, case.name
    assert answer["games"] == expected_games(case.events), case.name
    assert answer["position_id"] == case.position_id, case.name
    theirs = MatchState.from_match_id(answer["match_id"])
    ours = case.final.replace(crawford=False)
    if ours.game_state is GameState.RESIGNED:  # imported, the resigner is still to act
        ours = ours.replace(to_act=ours.to_act.opponent)
    assert theirs.replace(crawford=False) == ours, case.name


def crawford_games(events: list[Event]) -> list[int]:
    """The numbers of the games the journal marks as Crawford games."""
    starts = [e for e in events if e.type == "game_started"]
    return [n for n, e in enumerate(starts, 1) if MatchState.from_match_id(e["match_id"]).crawford]


# -- many matches on a bare referee --------------------------------------------------------


def find(what: Callable[[DirectMatch], bool], length: int, games: int = 1,
         **policy: Any) -> DirectMatch:
    """The first seeded match with the wanted feature."""
    for seed in range(300):
        match = direct_match(seed, length, games=games, **policy)
        if what(match):
            return match
    raise AssertionError("no seed gives the wanted match")


def ended(kind: str, *, dropped: bool = False) -> Callable[[DirectMatch], bool]:
    def test(match: DirectMatch) -> bool:
        events = match.events
        return any(e.type == "game_over" and e["kind"] == kind
                   and (events[i - 1].type == "double_dropped") == dropped
                   for i, e in enumerate(events))
    return test


def has(event_type: str) -> Callable[[DirectMatch], bool]:
    return lambda match: any(e.type == event_type for e in match.events)


def named_matches() -> dict[str, DirectMatch]:
    rng = random.Random(5)
    matches = {
        "single": find(ended("single"), 0),
        "gammon": find(ended("gammon"), 0, laggard=B),
        "backgammon": find(ended("backgammon"), 0, laggard=W),
        "double taken": find(has("double_taken"), 0, doubles=0.2, takes=1.0),
        "double dropped": find(ended("single", dropped=True), 0, doubles=0.2, takes=0.0),
        "3-point Crawford": find(lambda m: bool(crawford_games(m.events)), 3, games=9,
                                 doubles=0.1, takes=0.7),
        "resigned": find(has("resign_accepted"), 0, games=2, resigns=0.05, accepts=1.0,
                         doubles=0.1),
        "resigned in a match": find(has("resign_accepted"), 5, games=4, resigns=0.03,
                                    accepts=0.5, doubles=0.1),
    }
    for n in range(16):
        length = rng.choice([0, 1, 2, 3, 5, 7, 11])
        matches[f"random {n}"] = direct_match(
            1000 + n, length, games=rng.randint(1, 3), doubles=rng.choice([0.0, 0.05, 0.2]),
            takes=rng.choice([0.3, 0.8, 1.0]), laggard=rng.choice([None, W, B]))
    return matches


@pytest.fixture(scope="module")
def direct_cases(tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    folder = tmp_path_factory.mktemp("direct")
    cases = []
    for n, (name, match) in enumerate(named_matches().items()):
        path = folder / f"{n}.mat"
        path.write_text(format_match(record_match(match.events, str)))
        cases.append(Case(name, path, match.events, match.referee.match,
                          match.referee.position().position_id()))
    return cases


@pytest.fixture(scope="module")
def direct_answers(direct_cases: list[Case], tmp_path_factory: pytest.TempPathFactory
                   ) -> tuple[list[dict[str, Any]], dict[str, str]]:
    return ask_gnubg([c.path for c in direct_cases], tmp_path_factory.mktemp("gnubg"))


def test_every_named_case_is_there(direct_cases: list[Case]) -> None:
    names = {c.name for c in direct_cases}
    assert {"single", "gammon", "backgammon", "double taken", "double dropped",
            "3-point Crawford", "resigned", "resigned in a match"} <= names
    crawford = next(c for c in direct_cases if c.name == "3-point Crawford")
    assert crawford.final.match_winner is not None


def test_gnubg_reads_every_exported_match_as_played(
        direct_cases: list[Case], direct_answers: tuple[list[dict[str, Any]], dict[str, str]]
) -> None:
    answers, said = direct_answers
    assert len(answers) == len(direct_cases)
    for case, answer in zip(direct_cases, answers, strict=True):
        check(case, answer, said[str(case.path)])


# -- whole matches through the scenario runner, the journal and the command line ---------


RUNNER_MATCHES: dict[str, Callable[[], DirectMatch]] = {
    # a money game won single by bearing off (seeds found to suit the modelled board:
    # players who avoid stacks taller than the sensors can count)
    "money single": lambda: direct_match(41, 0, games=1, spread=True),
    # 3 points: a dropped double, a gammon after a take, the Crawford game, a backgammon
    "3-point match": lambda: direct_match(77, 3, games=10, doubles=0.15, takes=0.6,
                                          laggard=W, spread=True),
}


def on_the_board(match: DirectMatch) -> tuple[list[Event], ScenarioRunner]:
    """The match played by hand on the modelled board; its events and the runner."""
    runner = ScenarioRunner(load_pinmap(), match.settings, seed=0)
    events = list(runner.run(scenario(*runner_actions(match))))
    graded = [(e.type, e.fields) for e in events if e.type in GRADED]
    assert graded == [(e.type, e.fields) for e in match.events if e.type in GRADED]
    return events, runner


@pytest.fixture(scope="module")
def runner_cases(tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    state = tmp_path_factory.mktemp("state")
    out = tmp_path_factory.mktemp("out")
    played = []
    with Journal.open(state) as journal:
        for name, make in RUNNER_MATCHES.items():
            match = make()
            events, runner = on_the_board(match)
            journal.append([Event(EventType.NEW_MATCH, 0,
                                  {"match_length": match.settings.match_length}),
                            *events])
            played.append((name, events, runner))
    assert main(["export", "--state-dir", str(state), "--all", "--out", str(out)]) == 0
    return [Case(name, out / f"tavla-match-{n}.mat", events, runner.referee.match,
                 runner.referee.position().position_id())
            for n, (name, events, runner) in enumerate(played, 1)]


@pytest.mark.slow
def test_matches_played_on_the_board_are_imported_by_gnubg(
        runner_cases: list[Case], tmp_path_factory: pytest.TempPathFactory) -> None:
    answers, said = ask_gnubg([c.path for c in runner_cases], tmp_path_factory.mktemp("gnubg"))
    for case, answer in zip(runner_cases, answers, strict=True):
        check(case, answer, said[str(case.path)])
    kinds = {e["kind"] for c in runner_cases for e in c.events if e.type == "game_over"}
    assert kinds == {"single", "gammon", "backgammon"}
    types = {e.type for c in runner_cases for e in c.events}
    assert {"double_taken", "double_dropped", "match_over"} <= types
    assert crawford_games(runner_cases[1].events)
