"""The scripted engine fake (tavla_pi.testing.engine): answers in order, all used, plays legal."""

from __future__ import annotations

import pytest

from tavla_pi.engine import (
    CubeAction,
    Engine,
    EngineRequest,
    Evaluation,
    ResignAnswer,
    TakeDecision,
)
from tavla_pi.errors import EngineError, IllegalPlayError
from tavla_pi.rules import Color, MatchState, Position, Resignation
from tavla_pi.testing.engine import ScriptedEngine

START = Position.initial()
ROLLED = EngineRequest(START, MatchState(dice=(3, 1)))
BEFORE_ROLL = EngineRequest(START, MatchState())
EVALUATION = Evaluation(0.5, 0.1, 0.0, 0.1, 0.0, 0.0, 0.05, 0.05, -0.2, 1.0, "No double, take")


def test_answers_come_in_order_as_the_interfaces_values() -> None:
    script = [
        ("cube", "no double"),
        ("play", "8/5 6/5"),
        ("hint", [("8/5 6/5", 0.22), ("24/23 13/10", -0.01)]),
        ("take", "beaver"),
        ("resign", "accept"),
        ("evaluate", EVALUATION),
    ]
    doubled = EngineRequest(START, MatchState(double_offered=True, to_act=Color.BLACK))
    offered = EngineRequest(START, MatchState(resignation=Resignation.SINGLE, to_act=Color.BLACK))
    with ScriptedEngine(script) as engine:
        taken: Engine = engine  # it is an Engine
        assert taken.cube_action(BEFORE_ROLL) is CubeAction.NO_DOUBLE
        play = taken.play(ROLLED).play
        assert play is not None and play in START.legal_plays((3, 1))
        assert play.notation == "8/5 6/5"
        hint = taken.hint(ROLLED, 1)
        assert [(h.play.notation, h.equity) for h in hint] == [("8/5 6/5", 0.22)]
        assert taken.take_decision(doubled) is TakeDecision.BEAVER
        assert taken.resign_answer(offered) is ResignAnswer.ACCEPT
        assert taken.evaluate(BEFORE_ROLL) is EVALUATION
    assert [question for question, _ in engine.asked] == [q for q, _ in script]
    assert engine.asked[1][1] is ROLLED


def test_a_scripted_play_must_be_legal() -> None:
    engine = ScriptedEngine([("play", "8/3")])
    with pytest.raises(EngineError, match=r"'8/3' is not legal for 3-1 .*legal: .*8/5 6/5"):
        engine.play(ROLLED)


def test_the_question_must_be_the_scripts_next() -> None:
    engine = ScriptedEngine([("take", "drop")])
    with pytest.raises(EngineError, match="asked for a play, its script has a take next"):
        engine.play(ROLLED)


def test_running_dry_and_answers_left_over_are_errors() -> None:
    with pytest.raises(EngineError, match="ran out: asked for a play"):
        ScriptedEngine([]).play(ROLLED)
    with pytest.raises(EngineError, match=r"left unused: play: '8/5 6/5'"):
        ScriptedEngine([("play", "8/5 6/5")]).close()
    with pytest.raises(EngineError, match="unknown question 'double'"):
        ScriptedEngine([("double", "yes")])


def test_an_error_on_its_way_out_is_not_hidden_by_the_unused_check() -> None:
    with pytest.raises(ZeroDivisionError), ScriptedEngine([("play", "8/5 6/5")]):
        raise ZeroDivisionError


def test_a_scripted_failure_is_raised_in_its_turn() -> None:
    with ScriptedEngine([("play", EngineError("gnubg died")), ("play", "8/5 6/5")]) as engine:
        with pytest.raises(EngineError, match="gnubg died"):
            engine.play(ROLLED)
        assert engine.play(ROLLED).play is not None


def test_no_answer_is_used_where_gnubg_would_not_be_asked() -> None:
    dance = Position([0] * 24 + [1], [2] * 6 + [0] * 19)
    crawford = MatchState(match_length=5, score=(4, 2), crawford=True)
    with ScriptedEngine([]) as engine:
        assert engine.play(EngineRequest(dance, MatchState(dice=(6, 6)))).play is None
        assert engine.hint(EngineRequest(dance, MatchState(dice=(6, 6)))) == []
        assert engine.cube_action(EngineRequest(START, crawford)) is CubeAction.NO_DOUBLE
    assert engine.asked == []


def test_questions_at_the_wrong_moment_fail_as_with_gnubg() -> None:
    with ScriptedEngine([]) as engine:
        with pytest.raises(IllegalPlayError, match="white has not rolled"):
            engine.play(BEFORE_ROLL)
        with pytest.raises(IllegalPlayError, match="the dice are already rolled"):
            engine.cube_action(ROLLED)
