"""The computer's own resignation, ``resign_offer``, without gnubg: the wire, the scripted
engine, the background front and the process (the fake gnubg of tests/fake_gnubg.py).

The real gnubg's answers are in tests/test_engine_gnubg.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import BackgroundEngine, EngineRequest, GnubgEngine, wire
from tavla_pi.engine.process import Supervisor
from tavla_pi.errors import EngineError, IllegalPlayError
from tavla_pi.rules import Color, GameState, MatchState, Position, Resignation
from tavla_pi.testing.engine import ScriptedEngine

FAKE = Path(__file__).with_name("fake_gnubg.py")
WAIT_S = 10.0


def side(points: dict[int, int]) -> list[int]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return counts


LOST = Position(side({6: 5, 8: 3, 13: 5, 12: 2}), side({1: 1}))  # a race White cannot win
BEFORE_ROLL = MatchState(on_roll=Color.BLACK, to_act=Color.BLACK, match_length=7, score=(2, 5))


def test_an_offer_request_asks_for_the_player_on_roll_in_the_exact_context() -> None:
    fields = wire.resign_offer_request(EngineRequest(LOST, BEFORE_ROLL, seed=4))
    assert fields["op"] == "offer"
    assert MatchState.from_match_id(fields["match_id"]) == BEFORE_ROLL
    assert (fields["player"], fields["position_id"], fields["seed"]) == (1, LOST.position_id(), 4)


@pytest.mark.parametrize(("state", "reason"), [
    (MatchState(game_state=GameState.NONE), "no game is in progress"),
    (MatchState(double_offered=True, to_act=Color.BLACK), "an offer waits for an answer"),
    (MatchState(resignation=Resignation.SINGLE, to_act=Color.BLACK), "an offer waits"),
    (MatchState(to_act=Color.BLACK), "white is not to act"),
])
def test_an_offer_question_at_the_wrong_moment_is_refused(state: MatchState, reason: str) -> None:
    request = EngineRequest(LOST, state)
    with pytest.raises(IllegalPlayError, match=reason):
        wire.resign_offer_request(request)
    with pytest.raises(IllegalPlayError, match=reason), ScriptedEngine([]) as engine:
        engine.resign_offer(request)


def test_offer_answers() -> None:
    assert [wire.resign_offer_answer({"resign": n}) for n in range(4)] == list(Resignation)
    for bad in ({}, {"resign": 4}, {"resign": True}, {"resign": "gammon"}):
        with pytest.raises(EngineError, match="resign"):
            wire.resign_offer_answer(bad)


def test_the_scripted_engine_answers_offers_and_none_in_contact() -> None:
    script = [("offer", "gammon"), ("offer", "none"), ("offer", Resignation.BACKGAMMON)]
    with ScriptedEngine(script) as engine:
        assert engine.resign_offer(EngineRequest(Position.initial(), MatchState())) \
            is Resignation.NONE  # contact: gnubg is not asked, no answer used
        answers = [engine.resign_offer(EngineRequest(LOST, MatchState())) for _ in range(3)]
    assert answers == [Resignation.GAMMON, Resignation.NONE, Resignation.BACKGAMMON]
    assert [question for question, _ in engine.asked] == ["offer"] * 3


def test_the_background_front_submits_an_offer_question() -> None:
    background = BackgroundEngine(ScriptedEngine([("offer", "single")]), VirtualClock())
    background.start()
    job = background.resign_offer(EngineRequest(LOST, MatchState()))
    assert job.wait(WAIT_S)
    assert background.poll(job) is Resignation.SINGLE
    background.close()


def test_the_offer_goes_to_the_process_and_contact_asks_nothing(tmp_path: Path) -> None:
    config: dict[str, Any] = {"state": str(tmp_path), "answers": {"offer": {"resign": 3}}}
    argv = [sys.executable, str(FAKE), json.dumps(config)]
    engine = GnubgEngine(Supervisor(argv, start_timeout_s=10.0), timeout_s=10.0)
    engine.start()
    try:
        assert engine.resign_offer(EngineRequest(Position.initial(), MatchState())) \
            is Resignation.NONE
        assert engine.resign_offer(EngineRequest(LOST, MatchState())) is Resignation.BACKGAMMON
    finally:
        engine.close()
    sent = [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text().splitlines()]
    assert [line["op"] for line in sent] == ["offer"]
