"""Resignations between two humans, through the real pipeline on the modelled board.

The player on roll, before rolling, holds CUBE to choose (a single shown),
presses CUBE for the next level and ROLL to offer; the opponent presses ROLL
to accept or CUBE to decline.  Scored as GNU Backgammon scores it (see
tests/test_rules_resign_gnubg.py): the level times the cube.
"""

from __future__ import annotations

from typing import Any

import pytest
from game_support import dice, graded, move, press, replay
from sim_support import PINMAP

from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchRules, MatchState, Resignation
from tavla_pi.rules.position import Position

W, B = Color.WHITE, Color.BLACK
RESIGN_EVENTS = ("resign_offered", "resign_accepted", "resign_declined", "game_over",
                 "match_over", "rejected", "rolled", "double_offered")

# Black far behind in a race: White has borne in, Black still has checkers back.
RACE = Board.from_counts({"6": 3, "5": 3, "4": 3, "3": 3, "2": 3},
                         {"1": 2, "12": 5, "17": 3, "19": 5})


def load(board: Board = RACE, **fields: Any) -> dict[str, Any]:
    """A ``load`` of ``board`` with Black on roll before rolling (``fields``: the match)."""
    fields.setdefault("on_roll", B)
    fields.setdefault("to_act", fields["on_roll"])
    match = MatchState(**fields)
    position = Position.from_board(board, match.on_roll)
    return {"load": {"position_id": position.position_id(), "match_id": match.match_id()}}


def hold(button: str) -> dict[str, Any]:
    """A long press."""
    return {"hold": button, "ms": 2000}


def resign(color: str, level: int) -> list[dict[str, Any]]:
    """Choose ``level`` (1 single, 2 gammon, 3 backgammon) and offer it."""
    return [hold(f"{color}.cube"), *[press(f"{color}.cube")] * (level - 1),
            press(f"{color}.roll")]


def runner(**settings: Any) -> ScenarioRunner:
    return ScenarioRunner(PINMAP, GameSettings(**settings))


def outcome(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return graded(events, *RESIGN_EVENTS)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize(("cube", "owner"), [(1, None), (2, W), (4, B)])
def test_each_level_is_accepted_for_the_level_times_the_cube(
        level: int, cube: int, owner: Color | None) -> None:
    events = replay(load(cube=cube, cube_owner=owner), *resign("black", level),
                    press("white.roll"))
    kind = ("single", "gammon", "backgammon")[level - 1]
    points = level * cube
    assert outcome(events) == [
        ("resign_offered", "black", points),
        ("resign_accepted", "white", points),
        ("game_over", cube, kind, points, [points, 0], "white"),
    ]


def test_declined_play_goes_on_and_only_more_may_be_offered_this_turn() -> None:
    run = runner()
    events = replay(load(cube=2, cube_owner=B), *resign("black", 1), press("white.cube"),
                    hold("black.cube"), runner=run)
    assert outcome(events) == [("resign_offered", "black", 2),
                               ("resign_declined", "white", 2)]
    declined = run.referee.phase
    assert declined is Phase.AWAIT_ROLL  # Black goes on, before rolling
    assert run.state()["resignation"] == {"player": "black", "points": 4, "state": "choosing"}
    events = replay(press("black.cube"), press("black.cube"), press("black.roll"),  # 6, 4
                    press("white.cube"), hold("black.cube"), hold("black.cube"),
                    dice(6, 5), press("black.roll"), runner=run)
    assert outcome(events) == [("resign_offered", "black", 4),
                               ("resign_declined", "white", 4),
                               ("rolled", [6, 5], "black")]
    assert run.referee.phase is Phase.MOVING


def test_the_choice_cycles_through_the_levels_left() -> None:
    run = runner()
    replay(load(), hold("black.cube"), runner=run)
    shown = [run.state()["resignation"]["points"]]
    for _ in range(3):
        replay(press("black.cube"), runner=run)
        shown.append(run.state()["resignation"]["points"])
    assert shown == [1, 2, 3, 1]
    replay(press("black.cube"), press("black.roll"), press("white.cube"), runner=run)
    replay(hold("black.cube"), runner=run)  # gammon declined: backgammon is left, alone
    assert run.state()["resignation"]["points"] == 3
    replay(press("black.cube"), runner=run)
    assert run.state()["resignation"]["points"] == 3


def test_after_a_declined_backgammon_nothing_is_left_to_offer_before_rolling() -> None:
    events = replay(load(), *resign("black", 3), press("white.cube"), hold("black.cube"),
                    dice(6, 5), press("black.roll"))
    assert outcome(events) == [("resign_offered", "black", 3),
                               ("resign_declined", "white", 3),
                               ("rejected", "black"),
                               ("rolled", [6, 5], "black")]
    rejected = next(e for e in events if e["type"] == "rejected")
    assert rejected["reason"] == "white has already declined a backgammon"


def test_what_was_declined_is_forgotten_once_the_turn_moves_on() -> None:
    # Black declines White's single, then doubles; White takes; Black offers a single again
    start = Board.initial()
    events = replay(load(start, on_roll=W), *resign("white", 1), press("black.cube"),
                    press("white.cube"), press("black.roll"), *resign("white", 1))
    assert outcome(events) == [("resign_offered", "white", 1),
                               ("resign_declined", "black", 1),
                               ("double_offered", 2, "white"),
                               ("resign_offered", "white", 2)]


def test_withdrawing_offers_nothing_and_the_buttons_mean_what_they_did() -> None:
    run = runner()
    events = replay(load(), hold("black.cube"), press("black.cube"), hold("black.cube"),
                    runner=run)
    assert outcome(events) == []
    assert run.state()["resignation"] is None
    events = replay(press("black.cube"), runner=run)  # CUBE doubles again
    assert outcome(events) == [("double_offered", 2, "black")]


def test_the_other_player_cannot_act_while_one_chooses_or_offers() -> None:
    events = replay(load(), hold("black.cube"), press("white.roll"), press("white.cube"),
                    press("black.roll"), press("black.roll"), press("black.cube"))
    rejected = [(e["player"], e["reason"]) for e in events if e["type"] == "rejected"]
    assert rejected == [
        ("white", "it is black's turn"),
        ("white", "it is black's turn"),
        ("black", "white must accept or decline the resignation"),
        ("black", "white must accept or decline the resignation"),
    ]
    assert [e["type"] for e in events if e["type"].startswith("resign")] == ["resign_offered"]


def test_a_long_cube_after_rolling_is_not_a_resignation() -> None:
    events = replay(load(), dice(6, 5), press("black.roll"), hold("black.cube"))
    assert [e["type"] for e in events if e["type"].startswith("resign")] == []


def test_a_resignation_reaching_one_away_makes_the_next_game_crawford() -> None:
    events = replay(load(match_length=5, score=(2, 0), cube=2, cube_owner=W),
                    *resign("black", 1), press("white.roll"), {"setup": "start"})
    assert outcome(events) == [("resign_offered", "black", 2),
                               ("resign_accepted", "white", 2),
                               ("game_over", 2, "single", 2, [4, 0], "white")]
    started = [e for e in events if e["type"] == "game_started"][-1]
    following = MatchState.from_match_id(started["match_id"])
    assert (following.score, following.crawford) == ((4, 0), True)


def test_a_resignation_in_the_crawford_game_and_one_that_wins_the_match() -> None:
    crawford = replay(load(match_length=5, score=(4, 2), crawford=True),
                      *resign("black", 2), press("white.roll"))
    assert outcome(crawford) == [("resign_offered", "black", 2),
                                 ("resign_accepted", "white", 2),
                                 ("game_over", 1, "gammon", 2, [6, 2], "white"),
                                 ("match_over", [6, 2], "white")]


def test_a_resigned_gammon_counts_two_under_jacoby_on_a_centred_cube() -> None:
    events = replay(load(jacoby=True), *resign("black", 2), press("white.roll"),
                    runner=runner(rules=MatchRules(jacoby=True)))
    assert outcome(events)[-1] == ("game_over", 1, "gammon", 2, [2, 0], "white")


def test_a_loaded_match_id_with_an_offer_waits_for_the_answer() -> None:
    run = runner()
    offered = load(resignation=Resignation.GAMMON, to_act=W, cube=2, cube_owner=W)
    replay(offered, runner=run)
    assert run.referee.phase is Phase.RESIGN_OFFERED
    assert run.state()["resignation"] == {"player": "black", "points": 4, "state": "offered"}
    events = replay(press("white.cube"), runner=run)
    assert outcome(events) == [("resign_declined", "white", 4)]


def test_a_resignation_after_the_opening_play() -> None:
    events = replay({"setup": "start"}, dice(3, 1), press("white.roll"),
                    move("8/5", "white"), move("6/5", "white"), press("white.roll"),
                    *resign("black", 1), press("white.roll"))
    assert outcome(events) == [("resign_offered", "black", 1),
                               ("resign_accepted", "white", 1),
                               ("game_over", 1, "single", 1, [1, 0], "white")]
