"""The background front: submit and poll from the caller, the engine on a worker thread.

The engine is the scripted fake, held at a gate where a test needs it busy;
time is a VirtualClock.  Tests wait on the jobs' events, never sleep.
"""

from __future__ import annotations

import threading

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import BackgroundEngine, CubeAction, EnginePlay, EngineRequest, TakeDecision
from tavla_pi.errors import EngineError
from tavla_pi.rules import Color, MatchState, Position
from tavla_pi.testing.engine import ScriptedEngine

WAIT_S = 10.0  # upper bound for events that come at once; never reached when all is well
ROLLED = EngineRequest(Position.initial(), MatchState(dice=(3, 1)))
DOUBLED = EngineRequest(Position.initial(), MatchState(double_offered=True, to_act=Color.BLACK))


class GatedEngine(ScriptedEngine):
    """The scripted engine, but each play waits at a gate the test opens."""

    def __init__(self, script: list[tuple[str, object]]) -> None:
        super().__init__(script)
        self.gate = threading.Event()
        self.thinking = threading.Event()

    def play(self, request: EngineRequest) -> EnginePlay:
        self.thinking.set()
        assert self.gate.wait(WAIT_S)
        return super().play(request)


def test_answers_are_polled_without_waiting() -> None:
    engine = GatedEngine([("play", "8/5 6/5"), ("take", "drop")])
    background = BackgroundEngine(engine, VirtualClock())
    assert background.start().wait(WAIT_S)
    assert engine.started
    job = background.play(ROLLED)
    assert engine.thinking.wait(WAIT_S)
    assert background.poll(job) is None  # still thinking: the caller goes on
    engine.gate.set()
    assert job.wait(WAIT_S)
    answer = background.poll(job)
    assert answer is not None and answer.play is not None
    assert answer.play.notation == "8/5 6/5"
    take = background.take_decision(DOUBLED)
    assert take.wait(WAIT_S)
    assert background.poll(take) is TakeDecision.DROP
    background.close()


def test_an_engine_error_reaches_the_caller_through_poll() -> None:
    engine = ScriptedEngine([("play", EngineError("gnubg failed twice on 'hint'"))])
    background = BackgroundEngine(engine, VirtualClock())
    background.start()
    job = background.play(ROLLED)
    assert job.wait(WAIT_S)
    with pytest.raises(EngineError, match="failed twice"):
        background.poll(job)
    background.close()


def test_a_question_past_its_deadline_is_an_engine_error_and_the_worker_goes_on() -> None:
    clock = VirtualClock()
    engine = GatedEngine([("play", "8/5 6/5"), ("cube", "double")])
    background = BackgroundEngine(engine, clock, deadline_ms=5_000)
    background.start()
    job = background.play(ROLLED)
    assert engine.thinking.wait(WAIT_S)
    clock.advance(4_999)
    assert background.poll(job) is None
    clock.advance(1)
    with pytest.raises(EngineError, match="no play answer within 5000 ms"):
        background.poll(job)
    engine.gate.set()  # the late answer comes and is thrown away
    cube = background.cube_action(EngineRequest(Position.initial(), MatchState()))
    assert cube.wait(WAIT_S)
    assert background.poll(cube) is CubeAction.DOUBLE
    assert job.cancelled
    background.close()


def test_a_cancelled_question_is_never_asked() -> None:
    engine = GatedEngine([("play", "8/5 6/5")])
    background = BackgroundEngine(engine, VirtualClock())
    background.start()
    first = background.play(ROLLED)
    assert engine.thinking.wait(WAIT_S)
    second = background.take_decision(DOUBLED)
    background.cancel(second)
    engine.gate.set()
    assert first.wait(WAIT_S)
    background.close()  # would raise if the take question had used up an answer it lacks
    assert not second.done()
    assert [question for question, _ in engine.asked] == ["play"]


def test_close_checks_the_scripted_answers_were_all_used() -> None:
    background = BackgroundEngine(ScriptedEngine([("play", "8/5 6/5")]), VirtualClock())
    background.start()
    with pytest.raises(EngineError, match="left unused"):
        background.close()


def test_result_before_the_answer_is_a_programming_error() -> None:
    engine = GatedEngine([("play", "8/5 6/5")])
    background = BackgroundEngine(engine, VirtualClock())
    background.start()
    job = background.play(ROLLED)
    with pytest.raises(RuntimeError, match="the play job is not done yet"):
        job.result()
    engine.gate.set()
    assert job.wait(WAIT_S)
    background.close()
