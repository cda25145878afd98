"""The tournament clock in the referee, through scenarios on the modelled board: the
delay and the reserve, the cube decision on the answerer's time, a flag fall losing the
match, the journal folding it all back, and a power cut in the middle of a move counting
the time that ran (docs/CLOCK.md).  The scenarios' wall clock is their virtual clock."""

from __future__ import annotations

from typing import Any

import pytest
from game_support import dice, move, press, replay, scenario
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import ScenarioError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.dice import ScriptedDice

OPENING = (dice(3, 1), press("white.roll"), move("8/5", "white"), move("6/5", "white"))


def clock_events(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The clock events as (t, White's reserve, Black's, running, delay, flag)."""
    return [(e["t"], e["reserve_ms"]["white"], e["reserve_ms"]["black"], e["running"],
             e["delay_ms"], e["flag"]) for e in events if e["type"] == "clock"]


def folded(events: list[dict[str, Any]]) -> Any:
    checked = verify([Event.from_dict(e) for e in events], GameSettings())
    assert checked.reason == "" and checked.trusted == len(events)
    return checked.state


def test_the_clock_starts_when_the_opening_roll_decides_and_switches_at_done() -> None:
    events = replay({"setup": "start", "match_length": 1,
                     "clock": {"delay_s": 12, "reserve_s_per_point": 60}},
                    *OPENING, {"wait": 20_000}, press("white.roll"))
    assert events[0]["clock"] == {"delay_s": 12, "reserve_s_per_point": 60}
    (start, opened), switched = clock_events(events)[:1] * 2, clock_events(events)[1]
    assert opened[1:] == (60_000, 60_000, "white", 12_000, None)
    played = next(e for e in events if e["type"] == "played")
    assert start[0] == next(e["t"] for e in events if e["type"] == "opening_roll")
    used = played["t"] - start[0]  # about 21 s: 12 s of delay, then the reserve
    assert switched == (played["t"], 60_000 - (used - 12_000), 60_000, "black", 12_000, None)
    assert folded(events).clock.reserve == (60_000 - (used - 12_000), 60_000)


def test_a_cube_decision_runs_on_the_answerers_time() -> None:
    events = replay({"setup": "start", "match_length": 3, "clock": {}}, *OPENING,
                    press("white.roll"), {"wait": 3000}, press("black.cube"),
                    {"wait": 40_000}, press("white.roll"))
    offered = next(e["t"] for e in events if e["type"] == "double_offered")
    taken = next(e["t"] for e in events if e["type"] == "double_taken")
    ticks = clock_events(events)
    assert ticks[2] == (offered, 360_000, 360_000, "white", 12_000, None)
    thought = taken - offered - 12_000  # White's reserve pays what the delay did not
    assert ticks[3] == (taken, 360_000 - thought, 360_000, "black", 12_000, None)
    assert folded(events).phase is Phase.AWAIT_ROLL


def test_a_flag_fall_loses_the_match_at_the_score_standing() -> None:
    events = replay({"setup": "start", "match_length": 1,
                     "clock": {"delay_s": 12, "reserve_s_per_point": 60}},
                    *OPENING, press("white.roll"), {"wait": 80_000})
    played = next(e["t"] for e in events if e["type"] == "played")
    flag = clock_events(events)[-1]
    assert flag == (played + 72_000, 60_000, 0, None, 0, "black")
    assert events[-1] == {"t": played + 72_000, "type": "match_over", "winner": "white",
                          "score": [0, 0], "reason": "time"}
    state = folded(events)
    assert state.phase is Phase.MATCH_OVER and state.clock.flag is not None
    assert state.result is not None and state.result.winner is not None
    assert state.result.winner.value == "white"


def test_the_page_shows_the_clock_and_a_flag() -> None:
    runner = ScenarioRunner(PINMAP, GameSettings())
    list(runner.run(replay_lines({"setup": "start", "match_length": 1,
                                  "clock": {"reserve_s_per_point": 60}}, *OPENING)))
    shown = runner.state()["clock"]
    assert shown["running"] == "white" and shown["timed"] == ["white", "black"]
    assert shown["reserve_s"] == {"white": 60.0, "black": 60.0}
    assert shown["delay_s"] == 12 and shown["flag"] is None
    assert 0 < shown["delay_left_s"] <= 12


def replay_lines(*actions: dict[str, Any]) -> Any:
    from game_support import scenario
    return scenario(*actions)


def test_a_power_cut_in_the_middle_of_a_move_counts_the_time_that_ran() -> None:
    events = replay({"setup": "start", "match_length": 3, "clock": {}},
                    dice(3, 1), press("white.roll"), move("8/5", "white"), {"wait": 5000})
    state = folded(events)
    assert state.phase is Phase.MOVING
    last_clock = next(e for e in reversed(events) if e["type"] == "clock")
    # the power comes back 40 s (wall clock) after the clock started White's time
    wall = VirtualClock(last_clock["wall_ms"] + 40_000)
    referee = Referee(GameSettings(), ScriptedDice([]), wall=wall)
    now = events[-1]["t"] + 1
    referee.resume(state, now)
    assert referee.clock is not None and referee.clock.running is not None
    assert referee.clock.at(now).reserve == (360_000 - 28_000, 360_000)  # 12 s delay, 28 s
    shown = referee.clock_state(now + 2000)
    assert shown is not None and shown["reserve_s"]["white"] == 330.0


def test_a_wall_clock_gone_backwards_on_resume_counts_nothing() -> None:
    events = replay({"setup": "start", "match_length": 3, "clock": {}},
                    dice(3, 1), press("white.roll"), {"wait": 1000})
    referee = Referee(GameSettings(), ScriptedDice([]), wall=VirtualClock(0))
    referee.resume(folded(events), events[-1]["t"] + 1)
    assert referee.clock is not None
    assert referee.clock.at(events[-1]["t"] + 1).reserve == (360_000, 360_000)


def test_a_flag_falls_through_a_power_cut_at_the_next_tick() -> None:
    events = replay({"setup": "start", "match_length": 1,
                     "clock": {"delay_s": 12, "reserve_s_per_point": 60}},
                    dice(3, 1), press("white.roll"), {"wait": 1000})
    last_clock = next(e for e in reversed(events) if e["type"] == "clock")
    referee = Referee(GameSettings(), ScriptedDice([]),
                      wall=VirtualClock(last_clock["wall_ms"] + 600_000))
    now = events[-1]["t"] + 1
    referee.resume(folded(events), now)
    out = [e.to_dict() for e in referee.tick(now, settled=True)]
    assert [e["type"] for e in out] == ["clock", "match_over"]
    assert out[1]["winner"] == "black" and out[1]["reason"] == "time"
    assert folded(events + out).phase is Phase.MATCH_OVER


def test_money_play_has_no_clock() -> None:
    with pytest.raises(ScenarioError, match="money play has none"):
        replay({"setup": "start", "match_length": 0, "clock": {}})
    with pytest.raises(ScenarioError, match="1 point or more"):
        replay({"setup": "start", "clock": {}})
    events = replay({"setup": "start", "match_length": 3}, *OPENING)
    assert not clock_events(events) and "clock" not in events[0]


def test_a_clock_chosen_for_the_next_match_starts_a_new_one_while_set_up() -> None:
    referee = Referee(GameSettings(match_length=5), ScriptedDice([]))
    out = referee.choose_clock(ClockRules(10, 60), 100)
    assert [e.to_dict() for e in out] == [
        {"t": 100, "type": "new_match", "match_length": 5,
         "clock": {"delay_s": 10, "reserve_s_per_point": 60}}]
    assert referee.clock_state(100) is not None
    assert referee.choose_clock(ClockRules(10, 60), 200) == []
    assert [e.type for e in referee.choose_clock(None, 300)] == ["new_match"]
    assert referee.clock is None


def hold_menu() -> dict[str, Any]:
    return {"hold": "menu", "ms": 1600}


def test_menu_and_a_cube_press_start_a_match_on_the_clock_and_off_it() -> None:
    events = replay({"setup": "start"}, hold_menu(), press("white.cube"), hold_menu(),
                    {"wait": 400}, match_length=3)
    started = [e for e in events if e["type"] == "new_match"]
    assert started[-1] == {"t": started[-1]["t"], "type": "new_match", "match_length": 3,
                           "clock": {"delay_s": 12, "reserve_s_per_point": 120}}
    assert not [e for e in events if e["type"] == "rejected"]
    events = replay({"setup": "start", "clock": {"delay_s": 5}}, hold_menu(),
                    press("black.cube"), hold_menu(), {"wait": 400}, match_length=3)
    started = [e for e in events if e["type"] == "new_match"]
    assert started[0]["clock"] == {"delay_s": 5, "reserve_s_per_point": 120}
    assert "clock" not in started[-1]


def test_menu_on_the_clock_again_keeps_the_rules_and_shows_them_on_the_trays() -> None:
    runner = ScenarioRunner(PINMAP, GameSettings(match_length=3, clock=ClockRules(5, 60)))
    list(runner.run(scenario({"setup": "start"}, hold_menu(), {"wait": 100})))
    state = runner.state()
    assert state["menu"]["clock"] is True
    tray = state["led_features"].index("tray.white")
    assert state["leds"][tray] != "#000000"
    list(runner.run(scenario(press("white.cube"), {"wait": 100})))
    state = runner.state()
    assert state["menu"]["clock"] is False and state["leds"][tray] == "#000000"
    events = list(runner.run(scenario(press("white.cube"), hold_menu(), {"wait": 400})))
    assert [e.fields.get("clock") for e in events if e.type == EventType.NEW_MATCH] == [
        {"delay_s": 5, "reserve_s_per_point": 60}]


def test_money_play_refuses_the_clock_in_the_menu() -> None:
    events = replay({"setup": "start"}, hold_menu(), press("white.cube"), hold_menu())
    assert [e["reason"] for e in events if e["type"] == "rejected"] == [
        "money play has no clock: play a match of 1 point or more"]
    assert all("clock" not in e for e in events if e["type"] == "new_match")
