"""The match's clock alone, on injected times: the delay first, then the reserve; a switch
gives a fresh delay; the flag falls when a reserve is gone; a resume counts the time that
ran through a power cut (docs/CLOCK.md)."""

from __future__ import annotations

import pytest

from tavla_pi.game.matchclock import ClockRules, MatchClock, timed_colors
from tavla_pi.game.transitions import clock_side
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState

W, B = Color.WHITE, Color.BLACK
BOTH = frozenset(Color)
RULES = ClockRules(delay_s=12, reserve_s_per_point=120)


def started(length: int = 5, timed: frozenset[Color] = BOTH) -> MatchClock:
    return MatchClock.started(RULES, length, timed, now=0)


def test_a_match_starts_with_the_reserve_per_point_standing() -> None:
    clock = started(5)
    assert clock.reserve == (600_000, 600_000)
    assert clock.running is None and clock.flag is None
    assert clock.at(999_999).reserve == (600_000, 600_000)  # nobody's time runs


def test_money_play_has_no_clock() -> None:
    with pytest.raises(ValueError, match="1 point or more"):
        MatchClock.started(RULES, 0, BOTH, 0)


def test_the_delay_is_used_first_and_the_reserve_after_it() -> None:
    clock = started().switched(W, 1000)
    within = clock.at(1000 + 11_000)
    assert within.reserve == (600_000, 600_000) and within.delay == 1000
    beyond = clock.at(1000 + 20_000)
    assert beyond.reserve == (592_000, 600_000) and beyond.delay == 0


def test_each_switch_gives_the_new_runner_a_fresh_delay() -> None:
    clock = started().switched(W, 1000).switched(B, 1000 + 15_000)  # W used 3 s of reserve
    assert clock.reserve == (597_000, 600_000)
    assert clock.running is B and clock.delay == 12_000
    clock = clock.switched(W, 1000 + 15_000 + 5_000)  # B within its delay
    assert clock.reserve == (597_000, 600_000) and clock.delay == 12_000


def test_the_cube_decision_runs_the_answerers_time() -> None:
    offered = MatchState(on_roll=W, to_act=B, match_length=5, game_state=GameState.PLAYING,
                         double_offered=True)
    assert clock_side(Phase.DOUBLE_OFFERED, offered) is B
    assert clock_side(Phase.AWAIT_ROLL, offered) is W
    assert clock_side(Phase.GAME_OVER, offered) is None
    assert clock_side(Phase.OPENING, offered) is None
    clock = started().switched(W, 0).switched(B, 2_000)  # W doubles within its delay
    clock = clock.switched(W, 2_000 + 42_000)  # B thinks 42 s, then takes
    assert clock.reserve == (600_000, 570_000) and clock.running is W


def test_the_flag_falls_when_the_reserve_is_gone() -> None:
    clock = started(1).switched(B, 0)  # 120 s of reserve and 12 s of delay
    assert clock.at(131_999).flag is None
    fallen = clock.at(132_000)
    assert fallen.flag is B and fallen.running is None and fallen.reserve == (120_000, 0)
    assert fallen.switched(W, 140_000) == fallen.at(140_000)  # a fallen clock stands


def test_a_colour_not_timed_here_runs_no_clock() -> None:
    assert timed_colors(B) == frozenset({W})
    assert timed_colors(None) == BOTH
    clock = started(timed=timed_colors(B)).switched(B, 0)
    assert clock.running is None
    assert clock.at(10_000_000).reserve == (600_000, 600_000)


def test_a_power_cut_in_the_middle_of_a_move_counts_the_time_that_ran() -> None:
    clock = started().switched(W, 1000).at(6000)  # 5 s of the delay used
    saved = MatchClock.from_fields(RULES, BOTH, clock.fields(wall_ms=50_000), t=6000)
    assert saved == clock
    # the power comes back 30 s later (wall clock); the new run's monotonic clock is 7
    resumed = saved.resumed(80_000 - 50_000, now=7).at(7)
    assert resumed.reserve == (577_000, 600_000) and resumed.running is W
    assert resumed.since == 7 and resumed.at(7 + 1000).reserve == (576_000, 600_000)


def test_a_wall_clock_that_went_backwards_counts_nothing() -> None:
    clock = started().switched(W, 0)
    assert clock.resumed(-3_600_000, now=0).at(0) == clock


def test_the_event_fields() -> None:
    clock = started().switched(W, 1000).at(21_000)
    assert clock.fields(123) == {"reserve_ms": {"white": 592_000, "black": 600_000},
                                 "running": "white", "delay_ms": 0, "flag": None,
                                 "wall_ms": 123}
    assert MatchClock.from_fields(RULES, BOTH, clock.fields(123), t=21_000) == clock


def test_the_state_in_seconds() -> None:
    clock = started().switched(B, 0)
    assert clock.state(5_050) == {
        "delay_s": 12, "reserve_s_per_point": 120,
        "reserve_s": {"white": 600.0, "black": 600.0}, "delay_left_s": 7.0,
        "running": "black", "flag": None, "timed": ["white", "black"]}


def test_the_bar_shows_the_reserve_left_once_the_delay_is_spent() -> None:
    clock = started(1).switched(W, 0)  # 120 s reserve
    assert clock.bar(11_000, 1) is None  # the delay runs
    assert clock.bar(12_000, 1) == (W, 6, False)
    assert clock.bar(12_000 + 61_000, 1) == (W, 3, False)  # 59 s left of 120
    assert clock.bar(12_000 + 91_000, 1) == (W, 2, True)  # 29 s left: the last 30 s blink
    assert clock.bar(12_000 + 119_999, 1) == (W, 1, True)


def test_rules_are_checked_and_read_from_json() -> None:
    assert ClockRules.from_fields({}) == ClockRules()
    assert ClockRules.from_fields({"delay_s": 10}).fields() == {
        "delay_s": 10, "reserve_s_per_point": 120}
    with pytest.raises(ValueError, match="reserve_s_per_point"):
        ClockRules.from_fields({"reserve_s_per_point": 0})
    with pytest.raises(ValueError, match="unknown key 'delay'"):
        ClockRules.from_fields({"delay": 12})
    with pytest.raises(ValueError, match="whole seconds"):
        ClockRules.from_fields({"delay_s": 1.5})
