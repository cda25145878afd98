"""The engine's requests and answers, without a process: what gnubg is told, what comes back."""

from __future__ import annotations

from typing import Any

import pytest

from tavla_pi.engine import Level, wire
from tavla_pi.engine.interface import CubeAction, EngineRequest, ResignAnswer, TakeDecision
from tavla_pi.engine.levels import NORMAL_FILTER
from tavla_pi.errors import BadInputError, EngineError, IllegalPlayError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, Position, Resignation

START = Position.initial()


def told(fields: dict[str, Any]) -> MatchState:
    """The match state a request tells gnubg to set up."""
    return MatchState.from_match_id(fields["match_id"])


# -- levels ---------------------------------------------------------------------------------


def test_levels_are_gnubgs_presets() -> None:
    table = {level.value: level.settings for level in Level}
    assert list(table) == [
        "beginner", "casual", "intermediate", "advanced", "expert", "world class",
    ]  # fmt: skip
    assert [table[name].noise for name in table] == pytest.approx(
        [0.060, 0.050, 0.040, 0.015, 0.0, 0.0]
    )
    assert [table[name].plies for name in table] == [0, 0, 0, 0, 0, 2]
    assert all(s.cubeful and s.deterministic for s in table.values())
    assert [s.prune for s in table.values()] == [False] * 5 + [True]
    assert table["world class"].movefilter == NORMAL_FILTER
    rows = table["world class"].to_wire()["movefilter"]
    assert isinstance(rows, list) and rows[1] == [[0, 8, 0.16], [-1, 0, 0.0]]


def test_a_level_is_named_as_in_the_contracts() -> None:
    assert Level.named("world class") is Level.WORLD_CLASS
    with pytest.raises(BadInputError, match=r"unknown level 'grandmaster'.*expert, world class"):
        Level.named("grandmaster")


# -- requests ------------------------------------------------------------------------------


def test_a_play_request_holds_the_exact_context() -> None:
    state = MatchState(
        dice=(5, 2), match_length=9, score=(7, 8), crawford=True,
        on_roll=Color.BLACK, to_act=Color.BLACK,
    )  # fmt: skip
    request = EngineRequest(START, state, MatchRules(beavers=True), Level.CASUAL, seed=99)
    fields = wire.hint_request(request, 5)
    assert told(fields) == state
    assert fields["position_id"] == START.position_id()
    assert (fields["op"], fields["n"], fields["player"], fields["seed"]) == ("hint", 5, 1, 99)
    assert (fields["jacoby"], fields["beavers"]) == (False, True)
    assert fields["eval"] == Level.CASUAL.settings.to_wire()


def test_jacoby_travels_in_the_match_id_and_beside_it() -> None:
    state = MatchState(jacoby=True)
    fields = wire.double_request(EngineRequest(START, state, MatchRules(jacoby=True)))
    assert told(fields).jacoby is True
    assert fields["jacoby"] is True


def test_a_take_question_is_sent_as_the_state_before_the_double() -> None:
    state = MatchState(cube=2, cube_owner=Color.BLACK, double_offered=True, to_act=Color.BLACK)
    fields = wire.take_request(EngineRequest(START, state))
    assert told(fields) == state.replace(double_offered=False, to_act=Color.WHITE)
    assert (fields["player"], fields["beavered"]) == (1, False)


def test_answering_a_beaver_is_sent_as_the_double_before_it() -> None:
    # White doubled at 1, Black beavered (cube 2, Black's), White must answer.
    state = MatchState(cube=2, cube_owner=Color.BLACK, double_offered=True)
    fields = wire.take_request(EngineRequest(START, state, MatchRules(beavers=True)))
    assert told(fields) == MatchState()
    assert (fields["player"], fields["beavered"]) == (0, True)
    # White doubled at 4 (its cube), Black beavered to 8.
    state = MatchState(cube=8, cube_owner=Color.BLACK, double_offered=True)
    fields = wire.take_request(EngineRequest(START, state, MatchRules(beavers=True)))
    assert told(fields) == MatchState(cube=4, cube_owner=Color.WHITE)


def test_a_resignation_is_sent_as_the_state_before_the_offer() -> None:
    state = MatchState(dice=(3, 3), resignation=Resignation.GAMMON, to_act=Color.BLACK)
    fields = wire.resign_request(EngineRequest(START, state))
    assert told(fields) == MatchState(dice=(3, 3))
    assert (fields["player"], fields["points"]) == (1, 2)


def test_an_evaluation_is_of_the_position_before_the_roll() -> None:
    fields = wire.evaluate_request(EngineRequest(START, MatchState(dice=(6, 1))))
    assert told(fields) == MatchState()


@pytest.mark.parametrize(
    ("build", "state", "reason"),
    [
        (lambda r: wire.hint_request(r, 1), MatchState(), "white has not rolled"),
        (lambda r: wire.hint_request(r, 1), MatchState(dice=(2, 1), double_offered=True,
                                                       to_act=Color.BLACK), "an offer waits"),
        (wire.take_request, MatchState(), "no double is offered"),
        (wire.take_request, MatchState(double_offered=True), "white doubled and must not answer"),
        (wire.take_request, MatchState(cube=2, cube_owner=Color.BLACK, double_offered=True),
         "beavers are not in use"),
        (wire.resign_request, MatchState(), "no resignation is offered"),
        (wire.resign_request, MatchState(resignation=Resignation.SINGLE),
         "not offered by the player on roll"),
        (wire.evaluate_request, MatchState(game_state=GameState.NONE), "no game is in progress"),
    ],
)  # fmt: skip
def test_a_question_at_the_wrong_moment_is_refused(
    build: Any, state: MatchState, reason: str
) -> None:
    with pytest.raises(IllegalPlayError, match=reason):
        build(EngineRequest(START, state))


# -- answers -------------------------------------------------------------------------------


def test_plays_come_back_as_the_rules_own_plays() -> None:
    request = EngineRequest(START, MatchState(dice=(3, 1)))
    legal = {p.notation: p for p in START.legal_plays((3, 1))}
    best = legal["8/5 6/5"]
    answer = {"plays": [{"notation": "8/5 6/5", "position_id": best.result.position_id(),
                         "equity": 0.218}]}  # fmt: skip
    (ranked,) = wire.hint_answer(request, answer)
    assert ranked.play == best
    assert ranked.equity == pytest.approx(0.218)


def test_a_play_that_is_not_legal_is_refused() -> None:
    request = EngineRequest(START, MatchState(dice=(3, 1)))
    answer = {"plays": [{"notation": "8/4", "position_id": START.position_id(), "equity": 0.0}]}
    with pytest.raises(EngineError, match=r"'8/4' .* not a legal play of 3-1"):
        wire.hint_answer(request, answer)


@pytest.mark.parametrize(
    "answer",
    [{}, {"plays": "no"}, {"plays": [{"equity": 1.0}]},
     {"plays": [{"position_id": "sGfwATDgc/ABMA", "equity": True}]}],
)  # fmt: skip
def test_a_malformed_answer_is_an_engine_error(answer: dict[str, Any]) -> None:
    with pytest.raises(EngineError, match="no usable"):
        wire.hint_answer(EngineRequest(START, MatchState(dice=(3, 1))), answer)


def test_cube_and_resignation_answers() -> None:
    assert wire.double_answer({"double": True}) is CubeAction.DOUBLE
    assert wire.double_answer({"double": False, "resign": 2}) is CubeAction.NO_DOUBLE
    assert wire.resign_answer({"accept": True}) is ResignAnswer.ACCEPT
    with pytest.raises(EngineError, match="no usable 'double'"):
        wire.double_answer({"double": 1})


def test_a_beaver_the_rules_forbid_becomes_a_take() -> None:
    doubled = MatchState(double_offered=True, to_act=Color.BLACK)
    on = EngineRequest(START, doubled, MatchRules(beavers=True))
    off = EngineRequest(START, doubled, MatchRules(beavers=False))
    high = EngineRequest(START, doubled.replace(cube=32, cube_owner=Color.WHITE),
                         MatchRules(beavers=True))  # fmt: skip
    assert wire.take_answer(on, {"take": "beaver"}) is TakeDecision.BEAVER
    assert wire.take_answer(off, {"take": "beaver"}) is TakeDecision.TAKE
    assert wire.take_answer(high, {"take": "beaver"}) is TakeDecision.TAKE  # past the 64 cube
    assert wire.take_answer(off, {"take": "drop"}) is TakeDecision.DROP
    with pytest.raises(EngineError, match="not take, drop or beaver"):
        wire.take_answer(off, {"take": "raccoon"})


def test_an_evaluation_answer() -> None:
    answer = {"probs": [0.5, 0.15, 0.01, 0.13, 0.01], "cubeless": 0.07,
              "cube": [0.09, 0.09, -0.19, 1.0], "advice": "No double, take"}  # fmt: skip
    evaluation = wire.evaluate_answer(answer)
    assert (evaluation.win, evaluation.lose_backgammon) == (0.5, 0.01)
    cube = (evaluation.cubeful, evaluation.double_take, evaluation.double_drop)
    assert cube == (0.09, -0.19, 1.0)
    assert evaluation.advice == "No double, take"
    with pytest.raises(EngineError, match="wrong number of figures"):
        wire.evaluate_answer({**answer, "cube": [0.1]})
