"""Hints and the blunder warning on the modelled board, with the scripted engine.

White moves 3-1 from the start; the script ranks its plays (best first) with
made-up equities: 8/5 6/5 is best, 13/10 6/5 loses 0.046 (under the 0.08
threshold), 13/9 loses 0.216 (a blunder).  Against the computer the ranking is
asked when White's turn begins; between two humans only when a hint is asked.
"""

from __future__ import annotations

import logging
import threading

import pytest
from coach_support import START, coached, hold, of_type, opponent
from game_support import dice, move, press, replay

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import BackgroundEngine, EngineRequest, Level, RankedPlay
from tavla_pi.errors import EngineError
from tavla_pi.events.event import Event
from tavla_pi.events.schema import event_problem
from tavla_pi.game.coach import WAIT_MS, Coach, NoCoach, play_steps
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import restore, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules import Position
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.testing.engine import ScriptedEngine

W, B = Color.WHITE, Color.BLACK
RANKING = [("8/5 6/5", 0.166), ("13/10 6/5", 0.12), ("24/23 13/10", 0.1), ("24/21 6/5", 0.07),
           ("13/10 8/7", 0.05), ("24/23 24/21", 0.02), ("13/9", -0.05), ("8/4", -0.25)]
OPENING = (*START, dice(3, 1), press("white.roll"))
BLUNDER = (move("13/9", "white"),)
GOOD = (move("13/10", "white"), move("6/5", "white"))
BEST_STEPS = (("8", "5"), ("6", "5"))
COACHED = ("hint", "blunder_warning", "played", "rejected")


def hint_event(n: int = 5) -> dict[str, object]:
    position = Position.initial()
    plays = {p.notation: p for p in position.legal_plays((3, 1))}
    return {"type": "hint", "player": "white", "dice": [3, 1], "plays": [
        {"play": notation, "position_id": plays[notation].result.position_id(),
         "equity": equity} for notation, equity in RANKING[:n]]}


def test_a_long_cube_after_rolling_emits_the_hint_and_lights_the_best_play() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(None)) as run:
        run.play(*OPENING)
        assert engine.asked == []  # two humans: nothing is asked before a hint
        events = run.play(hold("white.cube"))
        assert of_type(events, *COACHED) == [hint_event()]
        question, request = engine.asked[0]
        assert question == "hint" and request.state.dice == (3, 1)
        view = run.runner.referee.view()
        assert view.suggested == BEST_STEPS
        # the walk: 8 lights, then 5; then 6, then 5 again (1.2 s a checker)
        assert run.lit("point.8", 100) and not run.lit("point.5", 100)
        assert run.lit("point.5", 600) and not run.lit("point.8", 600)
        assert run.lit("point.6", 1300) and run.lit("point.5", 1900)
        assert not run.lit("point.6", 1100)
        state = run.runner.state()
        assert state["hint"] == {k: v for k, v in hint_event().items() if k != "type"}
        assert state["suggested"] == [{"from": "8", "to": "5"}, {"from": "6", "to": "5"}]
        assert state["blunder_warning"] is None


def test_a_second_hint_uses_the_answer_already_in_and_moving_puts_the_lights_out() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(None)) as run:
        run.play(*OPENING, hold("white.cube"))
        run.play(move("24/23", "white"))
        assert run.runner.referee.view().suggested == ()
        assert run.runner.state()["hint"] is not None  # the list stays for the turn
        again = run.play(hold("white.cube"))
        assert of_type(again, "hint") == [hint_event()]
        assert len(engine.asked) == 1
        run.play(move("13/10", "white"), press("white.roll"))
        assert run.runner.state()["hint"] is None and run.runner.referee.view().suggested == ()


def test_without_an_engine_a_long_cube_does_what_it_did() -> None:
    events = replay(*OPENING, hold("white.cube"))
    assert [(e["type"], e.get("reason")) for e in events if e["type"] == "rejected"] == [
        ("rejected", "the cube is offered before rolling")]


def test_done_on_a_blunder_warns_and_lights_the_better_play() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B)) as run:
        run.play(*OPENING)
        assert [q for q, _ in engine.asked] == ["hint"]  # asked as White's turn begins
        events = run.play(*BLUNDER, press("white.roll"))
        assert of_type(events, *COACHED) == [{
            "type": "blunder_warning", "player": "white", "play": "13/9", "best": "8/5 6/5",
            "loss": 0.216}]
        assert run.runner.referee.phase.value == "moving"
        assert run.runner.referee.view().suggested == BEST_STEPS
        assert run.lit("point.8", 100) and run.lit("point.5", 600)
        state = run.runner.state()
        assert state["blunder_warning"] == {"player": "white", "play": "13/9",
                                            "best": "8/5 6/5", "loss": 0.216}
        assert state["hint"] is None  # no hint was asked for


def test_a_second_done_commits_the_blunder_anyway() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B)) as run:
        run.play(*OPENING, *BLUNDER, press("white.roll"))
        events = run.play(press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", "13/9")]
        assert run.runner.referee.view().suggested == ()
        assert run.runner.state()["blunder_warning"] is None


def test_a_change_of_the_board_withdraws_the_warning_and_done_checks_again() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B)) as run:
        run.play(*OPENING, *BLUNDER, press("white.roll"))
        run.play({"lift": "9", "color": "white"}, {"wait": 300})
        assert run.runner.state()["blunder_warning"] is None
        assert run.runner.referee.view().suggested == ()
        events = run.play({"place": "9", "color": "white"}, {"wait": 300},
                          press("white.roll"))
        assert [e["type"] for e in of_type(events, *COACHED)] == ["blunder_warning"]
        events = run.play(move("9/13", "white"), *GOOD, press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", "13/10 6/5")]
        assert len(engine.asked) == 1  # one question for the whole turn


def test_done_on_a_good_play_commits_at_once() -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B)) as run:
        events = run.play(*OPENING, *GOOD, press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", "13/10 6/5")]


def test_the_warning_obeys_the_threshold_and_the_coach_setting() -> None:
    strict = ScriptedEngine([("hint", RANKING)])
    with coached(strict, opponent(B, threshold=0.04)) as run:
        events = run.play(*OPENING, *GOOD, press("white.roll"))
        assert of_type(events, "blunder_warning")[0]["loss"] == 0.046
    off = ScriptedEngine([])
    with coached(off, opponent(B, coach=False)) as run:
        events = run.play(*OPENING, *BLUNDER, press("white.roll"))
        assert [e["type"] for e in of_type(events, *COACHED)] == ["played"]
    humans = ScriptedEngine([])
    with coached(humans, opponent(None)) as run:  # two humans: no warning
        events = run.play(*OPENING, *BLUNDER, press("white.roll"))
        assert [e["type"] for e in of_type(events, *COACHED)] == ["played"]


@pytest.mark.parametrize(("level", "asked_at"), [
    (Level.BEGINNER, Level.EXPERT), (Level.EXPERT, Level.EXPERT),
    (Level.WORLD_CLASS, Level.WORLD_CLASS)])
def test_against_the_computer_the_hint_needs_no_second_question(level: Level,
                                                                 asked_at: Level) -> None:
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B, level=level)) as run:
        events = run.play(*OPENING, hold("white.cube"))
        assert of_type(events, *COACHED) == [hint_event()]
        assert len(engine.asked) == 1
        request = engine.asked[0][1]
        assert request.level is asked_at and request.player is W  # expert or better
        assert request.position == Position.initial() and request.state.dice == (3, 1)


def test_an_engine_that_fails_never_blocks_the_commit(caplog: pytest.LogCaptureFixture) -> None:
    engine = ScriptedEngine([("hint", EngineError("gnubg died"))])
    with caplog.at_level(logging.WARNING, "tavla_pi.game"), coached(engine, opponent(B)) as run:
        events = run.play(*OPENING, *BLUNDER, press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", "13/9")]
    assert "could not rank the plays: gnubg died" in caplog.text


def test_a_failed_hint_is_refused_and_asked_again_at_the_next_press() -> None:
    engine = ScriptedEngine([("hint", EngineError("gnubg died")), ("hint", RANKING)])
    with coached(engine, opponent(None)) as run:
        events = run.play(*OPENING, hold("white.cube"))
        assert [(e["type"], e.get("reason")) for e in of_type(events, *COACHED)] == [
            ("rejected", "no hint: the engine did not answer")]
        assert of_type(run.play(hold("white.cube")), *COACHED) == [hint_event()]


class SilentEngine(ScriptedEngine):
    """Ranks nothing until the test lets it: the engine that hangs."""

    def __init__(self) -> None:
        super().__init__([])
        self.gate = threading.Event()

    def hint(self, request: EngineRequest, n: int = 5) -> list[RankedPlay]:
        assert self.gate.wait(10.0)
        return []


def test_an_engine_that_does_not_answer_holds_done_back_for_the_wait_at_most(
        caplog: pytest.LogCaptureFixture) -> None:
    engine = SilentEngine()
    with caplog.at_level(logging.WARNING, "tavla_pi.game"), coached(engine, opponent(B)) as run:
        run.runner.engine_wait_s = 0.0  # the answer never comes: do not wait for it
        try:
            events = run.play(*OPENING, *BLUNDER, press("white.roll"))
            events += run.play({"wait": WAIT_MS})
        finally:
            engine.gate.set()
        done = next(e for e in events if e["type"] == "rejected" or e["type"] == "played")
        assert done["type"] == "played" and done["play"] == "13/9"
        assert of_type(events, "blunder_warning") == []
        coach = run.runner.referee.coach
        assert isinstance(coach, Coach) and not coach.thinking
    assert "committed without the blunder check" in caplog.text


def test_no_engine_and_no_coach_leave_replay_as_it_was() -> None:
    actions = (*OPENING, *BLUNDER, press("white.roll"))
    plain = replay(*actions)
    engine = ScriptedEngine([])
    with coached(engine, opponent(None)) as run:
        coached_events = run.play(*actions) + run.settle()
    assert coached_events == plain


def test_without_an_engine_the_referee_has_a_coach_that_lets_every_done_commit() -> None:
    referee = Referee(opponent(None), ScriptedDice())
    coach = referee.coach
    assert isinstance(coach, NoCoach) and not coach.gives_hints
    assert coach.tick(0) is None and coach.wait(0.0) and not referee.thinking
    assert (coach.hint, coach.warning, coach.suggested) == (None, None, ())


# -- the journal --------------------------------------------------------------------------


def coached_journal() -> list[dict[str, object]]:
    """A hint, a blunder warning and the blunder committed anyway, as the journal has them."""
    engine = ScriptedEngine([("hint", RANKING)])
    with coached(engine, opponent(B)) as run:
        run.play(*OPENING, hold("white.cube"), *BLUNDER, press("white.roll"),
                 press("white.roll"), {"wait": 300})
    return run.events


def test_the_journal_folds_hints_and_warnings_in_and_checks_them() -> None:
    journal = coached_journal()
    assert [e["type"] for e in of_type(journal, *COACHED)] == [
        "hint", "blunder_warning", "played"]
    assert all(event_problem(e) == "" for e in journal)
    events = [Event.from_dict(e) for e in journal]
    settings = GameSettings()
    assert verify(events, settings).trusted == len(events)
    plain = [e for e in events if e.type not in ("hint", "blunder_warning")]
    assert restore(events, settings) == restore(plain, settings)


@pytest.mark.parametrize(("kind", "field", "value", "why"), [
    ("hint", "plays", [{"play": "8/5 6/5", "position_id": "4HPwATDgc/ABMA", "equity": 0.1}],
     "no legal play of 3-1 leads"),
    ("hint", "dice", [4, 2], "dice is (3, 1)"),
    ("blunder_warning", "best", "8/4 6/2", "no legal play of 3-1"),
    ("blunder_warning", "player", "black", "black is not on roll"),
])
def test_a_hint_or_warning_that_does_not_fit_the_turn_is_not_trusted(
        kind: str, field: str, value: object, why: str) -> None:
    journal = coached_journal()
    at = next(n for n, e in enumerate(journal) if e["type"] == kind)
    journal[at] = {**journal[at], field: value}
    verified = verify([Event.from_dict(e) for e in journal], GameSettings())
    assert verified.trusted == at and why in verified.reason, verified.reason


def test_the_journal_refuses_a_hint_without_plays_or_a_loss_that_is_no_number() -> None:
    assert "plays" in event_problem({"t": 1, "type": "hint", "player": "white",
                                     "dice": [3, 1], "plays": []})
    assert "loss" in event_problem({"t": 1, "type": "blunder_warning", "player": "white",
                                    "play": "13/9", "best": "8/5 6/5", "loss": "big"})


def test_a_resumed_turn_starts_afresh_and_its_warning_is_not_resumed() -> None:
    journal = coached_journal()
    warned = next(n for n, e in enumerate(journal) if e["type"] == "blunder_warning")
    events = [Event.from_dict(e) for e in journal[: warned + 1]]
    settings = opponent(B)
    engine = ScriptedEngine([("hint", RANKING)])
    background = BackgroundEngine(engine, VirtualClock())
    background.start()
    referee = Referee(settings, ScriptedDice(), engine=background)
    referee.resume(restore(events, settings), events[-1].t + 1)
    try:
        assert referee.phase.value == "moving" and isinstance(referee.coach, Coach)
        assert referee.coach.warning is None and referee.view().suggested == ()
        asked = referee.thinking
        assert asked  # the new turn asks the engine again
        assert referee.wait_engine(10.0)
        referee.tick(events[-1].t + 20, settled=True)
        assert not referee.thinking and [q for q, _ in engine.asked] == ["hint"]
    finally:
        background.close()


# -- the steps a suggestion lights ------------------------------------------------------


def steps(position: Position, roll: tuple[int, int], notation: str,
          mover: Color = W) -> tuple[tuple[str, str], ...]:
    play = next(p for p in position.legal_plays(roll) if p.notation == notation)
    return play_steps(play, mover)


def test_a_checkers_moves_are_one_step_but_a_hit_stops_the_hand() -> None:
    start = Position.initial()
    assert steps(start, (3, 1), "13/9") == (("13", "9"),)
    assert steps(start, (6, 4), "24/14") == (("24", "14"),)
    assert steps(start, (3, 3), "8/5(2) 6/3(2)") == (
        ("8", "5"), ("8", "5"), ("6", "3"), ("6", "3"))
    # an opponent's blot on White's 19 (their 6), their 7 open
    blot = Position(_side({24: 2, 13: 5, 8: 3, 6: 5}), _side({24: 2, 13: 5, 8: 3, 6: 1, 5: 4}))
    assert steps(blot, (5, 1), "24/23 24/19*") == (("24", "23"), ("24", "19"))
    assert steps(blot, (5, 1), "24/19*/18") == (("24", "19"), ("19", "18"))
    assert steps(start, (6, 4), "24/14", B) == (("1", "11"),)


def _side(points: dict[int, int]) -> list[int]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return counts
