"""The computer resigns, and answers resignations, on the modelled board.

The computer plays Black (tavla_pi/game/computer.py): before its cube
decision, out of contact, it asks whether to resign, as gnubg's ComputerTurn
does; offered a resignation, it asks for its answer.  The engine is the
scripted fake, and the real GNU Backgammon where it is installed; the human
answers with the buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from game_support import graded, press, replay
from programs import needs
from sim_support import PINMAP

from tavla_pi.engine import BackgroundEngine, Engine, GnubgEngine
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position
from tavla_pi.testing.engine import ScriptedEngine

W, B = Color.WHITE, Color.BLACK
SETTINGS = GameSettings(opponent=OpponentSettings(color=B))
# Black, the computer, has lost the race: White bears off its last checker next roll,
# and none of Black's fifteen is off: a gammon for sure.
LOST = Board.from_counts({"1": 1}, {"19": 5, "17": 3, "12": 5, "13": 2})
EVENTS = ("resign_offered", "resign_accepted", "resign_declined", "game_over", "rolled")
WAIT_S = 30.0


def board_with(engine: Engine) -> tuple[ScenarioRunner, BackgroundEngine]:
    runner = ScenarioRunner(PINMAP, SETTINGS, engine=engine)
    background = runner.engine
    assert background is not None and background.start().wait(WAIT_S)
    return runner, background


def load(runner: ScenarioRunner, board: Board, match: MatchState) -> list[dict[str, Any]]:
    position = Position.from_board(board, match.on_roll)
    return replay({"load": {"position_id": position.position_id(),
                            "match_id": match.match_id()}}, runner=runner)


def settle(runner: ScenarioRunner) -> list[dict[str, Any]]:
    """Let the engine answer, then a scan carries the answer out."""
    assert runner.referee.wait_engine(WAIT_S)
    return replay({"wait": 20}, runner=runner)


ENGINES = ["scripted", pytest.param("gnubg", marks=needs("gnubg"))]


def engine_for(kind: str, tmp_path: Path, *script: tuple[str, Any]) -> Engine:
    if kind == "gnubg":
        return GnubgEngine.launch(tmp_path / "prefs")
    return ScriptedEngine(script)


@pytest.mark.parametrize("kind", ENGINES)
def test_the_computer_resigns_and_the_human_accepts_from_the_buttons(
        kind: str, tmp_path: Path) -> None:
    runner, background = board_with(engine_for(kind, tmp_path, ("offer", "gammon")))
    try:
        events = load(runner, LOST, MatchState(on_roll=B, to_act=B))
        events += settle(runner)
        assert graded(events, *EVENTS) == [("resign_offered", "black", 2)]
        assert runner.state()["resignation"] == {"player": "black", "points": 2,
                                                 "state": "offered"}
        events = replay(press("white.roll"), runner=runner)
        assert graded(events, *EVENTS) == [
            ("resign_accepted", "white", 2), ("game_over", 1, "gammon", 2, [2, 0], "white")]
    finally:
        background.close()


@pytest.mark.parametrize("kind", ENGINES)
def test_declined_from_the_buttons_the_computer_goes_on_with_its_turn(
        kind: str, tmp_path: Path) -> None:
    script = (("offer", "gammon"), ("cube", "no double"))  # not asked again: on to its cube
    runner, background = board_with(engine_for(kind, tmp_path, *script))
    try:
        load(runner, LOST, MatchState(on_roll=B, to_act=B))
        settle(runner)
        events = replay({"dice": [6, 5]}, press("white.cube"), runner=runner)
        for _ in range(3):
            events += settle(runner)
        assert graded(events, *EVENTS) == [
            ("resign_declined", "white", 2), ("rolled", [6, 5], "black")]
    finally:
        background.close()


@pytest.mark.parametrize(("answer", "expected"), [
    ("accept", [("resign_accepted", "black", 1), ("game_over", 1, "single", 1, [0, 1], "black")]),
    ("decline", [("resign_declined", "black", 1)]),
])
def test_the_computer_answers_the_humans_offer(answer: str, expected: list[Any]) -> None:
    runner, background = board_with(ScriptedEngine([("resign", answer)]))
    try:
        load(runner, Board.initial(), MatchState(on_roll=W, to_act=W))
        events = replay({"hold": "white.cube", "ms": 2000}, press("white.roll"), runner=runner)
        events += settle(runner)
        assert graded(events, *EVENTS) == [("resign_offered", "white", 1), *expected]
    finally:
        background.close()


def test_in_contact_the_computer_is_not_asked_to_resign() -> None:
    engine = ScriptedEngine([("cube", "no double")])
    runner, background = board_with(engine)
    try:
        load(runner, Board.initial(), MatchState(on_roll=B, to_act=B))
        settle(runner)
        assert [question for question, _ in engine.asked] == ["cube"]
    finally:
        background.close()
