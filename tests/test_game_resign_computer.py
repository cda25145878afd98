"""The computer's side of resignations: when it asks, what it offers, how it answers.

The decision functions of :mod:`tavla_pi.game.resign` with a scripted engine,
and the referee's hooks (``offer_resignation``, ``answer_resignation``) on
the modelled board: the computer (Black) offers, the human answers with the
buttons; the human offers, the computer's answer is carried out.
"""

from __future__ import annotations

from typing import Any

import pytest
from game_support import graded, press, replay
from sim_support import PINMAP

from tavla_pi.engine import EngineRequest, ResignAnswer
from tavla_pi.game.resign import answer_due, offer_due, offer_to_make
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.position import Position
from tavla_pi.testing.engine import ScriptedEngine

W, B = Color.WHITE, Color.BLACK
NONE, SINGLE, GAMMON, BACKGAMMON = tuple(Resignation)
# Black (the computer) has lost the race: White bears off its last checker next roll.
LOST = Board.from_counts({"1": 1}, {"19": 5, "17": 3, "12": 5, "13": 2})
RESIGN_EVENTS = ("resign_offered", "resign_accepted", "resign_declined", "game_over",
                 "rejected", "rolled")


def loaded(board: Board, on_roll: Color = B, **fields: Any) -> ScenarioRunner:
    runner = ScenarioRunner(PINMAP, GameSettings())
    match = MatchState(on_roll=on_roll, to_act=fields.pop("to_act", on_roll), **fields)
    position = Position.from_board(board, match.on_roll)
    replay({"load": {"position_id": position.position_id(), "match_id": match.match_id()}},
           runner=runner)
    return runner


def ask(runner: ScenarioRunner) -> EngineRequest:
    referee = runner.referee
    return EngineRequest(referee.position(), referee.match, referee.settings.rules)


def computer_offers(runner: ScenarioRunner, engine: ScriptedEngine) -> list[dict[str, Any]]:
    """What the computer's turn does before its cube decision, as events."""
    referee = runner.referee
    if not offer_due(referee.phase, referee.match, referee.position(), B,
                     referee.resign.declined):
        return []
    level = offer_to_make(engine.resign_offer(ask(runner)), referee.resign.declined)
    if level is None:
        return []
    now = runner.clock.now_ms()
    return [e.to_dict() for e in referee.offer_resignation(B, level, now)]


def test_the_computer_offers_what_the_engine_says_and_the_human_accepts_with_roll() -> None:
    runner = loaded(LOST)
    with ScriptedEngine([("offer", "gammon")]) as engine:
        offered = computer_offers(runner, engine)
    assert graded(offered, *RESIGN_EVENTS) == [("resign_offered", "black", 2)]
    assert runner.referee.phase is Phase.RESIGN_OFFERED
    assert runner.state()["resignation"] == {"player": "black", "points": 2, "state": "offered"}
    events = replay(press("white.roll"), runner=runner)
    assert graded(events, *RESIGN_EVENTS) == [
        ("resign_accepted", "white", 2), ("game_over", 1, "gammon", 2, [2, 0], "white")]


def test_declined_from_the_buttons_the_computer_plays_on_and_does_not_offer_it_again() -> None:
    runner = loaded(LOST)
    with ScriptedEngine([("offer", "single"), ("offer", "single"), ("offer", "gammon")]) as engine:
        computer_offers(runner, engine)
        events = replay(press("white.cube"), runner=runner)
        assert graded(events, *RESIGN_EVENTS) == [("resign_declined", "white", 1)]
        assert runner.referee.phase is Phase.AWAIT_ROLL
        assert runner.referee.match.on_roll is B  # Black goes on with its turn
        assert computer_offers(runner, engine) == []  # a single again: not above the declined
        offered = computer_offers(runner, engine)  # (gnubg would not change its mind; a
    assert graded(offered, *RESIGN_EVENTS) == [("resign_offered", "black", 2)]  # gammon may)


def test_the_human_cannot_answer_for_the_computer_nor_offer_while_it_decides() -> None:
    runner = loaded(LOST)
    with ScriptedEngine([("offer", "backgammon")]) as engine:
        computer_offers(runner, engine)
    events = replay(press("black.roll"), runner=runner)  # Black's button is the computer's
    assert [e["reason"] for e in events if e["type"] == "rejected"] == [
        "white must accept or decline the resignation"]


def test_no_question_in_contact_nor_when_everything_was_declined() -> None:
    start = Position.initial()
    assert not offer_due(Phase.AWAIT_ROLL, MatchState(), start, W, NONE)
    lost = Position.from_board(LOST, B)
    black = MatchState(on_roll=B, to_act=B)
    assert offer_due(Phase.AWAIT_ROLL, black, lost, B, GAMMON)
    assert not offer_due(Phase.AWAIT_ROLL, black, lost, B, BACKGAMMON)
    assert not offer_due(Phase.AWAIT_ROLL, black, lost, W, NONE)      # not its turn
    assert not offer_due(Phase.MOVING, black.replace(dice=(3, 1)), lost, B, NONE)
    doubled = black.replace(double_offered=True, to_act=W)
    assert not offer_due(Phase.DOUBLE_OFFERED, doubled, lost, B, NONE)


@pytest.mark.parametrize(("answer", "declined", "offered"), [
    (NONE, NONE, None), (SINGLE, NONE, SINGLE), (GAMMON, SINGLE, GAMMON),
    (GAMMON, GAMMON, None), (SINGLE, GAMMON, None), (BACKGAMMON, GAMMON, BACKGAMMON),
])
def test_the_computer_offers_only_above_what_was_declined(
        answer: Resignation, declined: Resignation, offered: Resignation | None) -> None:
    assert offer_to_make(answer, declined) is offered


@pytest.mark.parametrize(("answer", "expected"), [
    ("accept", [("resign_accepted", "black", 4), ("game_over", 2, "gammon", 4, [0, 4], "black")]),
    ("decline", [("resign_declined", "black", 4)]),
])
def test_the_computer_answers_a_human_offer_at_once(answer: str, expected: list[Any]) -> None:
    runner = loaded(Board.initial(), on_roll=W, cube=2, cube_owner=W)
    events = replay({"hold": "white.cube", "ms": 2000}, press("white.cube"), press("white.roll"),
                    runner=runner)
    referee = runner.referee
    assert answer_due(referee.phase, referee.match, B)
    assert not answer_due(referee.phase, referee.match, W)
    with ScriptedEngine([("resign", answer)]) as engine:
        decision = engine.resign_answer(ask(runner))
    accept = decision is ResignAnswer.ACCEPT
    events += [e.to_dict() for e in referee.answer_resignation(B, accept=accept, now=10_000)]
    assert graded(events, *RESIGN_EVENTS) == [("resign_offered", "white", 4), *expected]
    if not accept:
        assert referee.phase is Phase.AWAIT_ROLL and referee.match.on_roll is W


def test_a_hook_called_at_the_wrong_moment_is_refused_as_a_press_would_be() -> None:
    runner = loaded(LOST)
    referee = runner.referee
    refused = referee.answer_resignation(W, accept=True, now=1_000)
    assert [(e.type, e["reason"]) for e in refused] == [("rejected", "no resignation is offered")]
    replay({"dice": [6, 5]}, press("black.roll"), runner=runner)
    refused = referee.offer_resignation(B, SINGLE, 2_000)
    assert [(e.type, e["reason"]) for e in refused] == [
        ("rejected", "no resignation now (moving)")]
