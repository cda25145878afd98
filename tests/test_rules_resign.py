"""Resignations by the rules: who may offer and answer, and what an accepted one scores.

The live comparison with GNU Backgammon is tests/test_rules_resign_gnubg.py;
here every refusal has its reason, and the scoring its cases by name.
"""

from __future__ import annotations

import pytest

from tavla_pi.errors import IllegalPlayError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, Position, Resignation
from tavla_pi.rules.resign import (
    decline_resignation,
    in_contact,
    level_name,
    level_of_points,
    levels_above,
    may_answer_resignation,
    may_resign,
    offer_resignation,
    resignation_points,
    take_resignation,
)
from tavla_pi.rules.scoring import WinKind

W, B = Color.WHITE, Color.BLACK
SINGLE, GAMMON, BACKGAMMON = Resignation.SINGLE, Resignation.GAMMON, Resignation.BACKGAMMON
MONEY = MatchState()


def side(points: dict[int, int]) -> list[int]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return counts


@pytest.mark.parametrize(("state", "player", "level", "declined", "reason"), [
    (MONEY.replace(game_state=GameState.NONE), W, SINGLE, Resignation.NONE,
     "no game in progress"),
    (MONEY, B, SINGLE, Resignation.NONE, "only the player on roll (white) may resign"),
    (MONEY.replace(double_offered=True, to_act=B), W, SINGLE, Resignation.NONE,
     "a double is waiting for an answer"),
    (MONEY.replace(resignation=SINGLE, to_act=B), W, GAMMON, Resignation.NONE,
     "a resignation is waiting for an answer"),
    (MONEY, W, Resignation.NONE, Resignation.NONE,
     "a resignation is single, gammon or backgammon"),
    (MONEY, W, SINGLE, SINGLE, "black has already declined a single"),
    (MONEY, W, GAMMON, BACKGAMMON, "black has already declined a backgammon"),
])
def test_who_may_resign_and_why_not(state: MatchState, player: Color, level: Resignation,
                                    declined: Resignation, reason: str) -> None:
    verdict = may_resign(state, player, level, declined)
    assert not verdict
    assert reason in verdict.reason
    with pytest.raises(IllegalPlayError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        offer_resignation(state, player, level, declined)


def test_an_offer_hands_the_turn_to_act_to_the_opponent_and_a_decline_back() -> None:
    rolled = MONEY.replace(dice=(6, 1))  # gnubg lets one resign after rolling too
    offered = offer_resignation(rolled, W, GAMMON, declined=SINGLE)
    assert (offered.resignation, offered.to_act, offered.on_roll) == (GAMMON, B, W)
    assert not may_answer_resignation(offered, W)
    assert "black must accept or decline" in may_answer_resignation(offered, W).reason
    assert decline_resignation(offered, B) == rolled
    with pytest.raises(IllegalPlayError, match="black must accept or decline"):
        take_resignation(offered, W, MatchRules())
    assert not may_answer_resignation(MONEY, B)


@pytest.mark.parametrize(("state", "level", "kind", "points", "score"), [
    (MONEY, SINGLE, WinKind.SINGLE, 1, (0, 1)),
    (MONEY.replace(cube=4, cube_owner=B), BACKGAMMON, WinKind.BACKGAMMON, 12, (0, 12)),
    (MONEY.replace(jacoby=True), GAMMON, WinKind.GAMMON, 2, (0, 2)),  # no Jacoby rule here
    (MatchState(match_length=1), GAMMON, WinKind.GAMMON, 2, (0, 2)),
    (MatchState(match_length=7, score=(3, 5), cube=2, cube_owner=W), GAMMON, WinKind.GAMMON,
     4, (3, 9)),
])
def test_an_accepted_resignation_scores_the_level_times_the_cube(
        state: MatchState, level: Resignation, kind: WinKind, points: int,
        score: tuple[int, int]) -> None:
    offered = offer_resignation(state, W, level)
    assert resignation_points(offered, level) == points
    after, result = take_resignation(offered, B, MatchRules(jacoby=state.jacoby))
    assert (result.winner, result.kind, result.points) == (B, kind, points)
    assert after.score == score
    assert after.game_state is GameState.RESIGNED


def test_reaching_one_away_by_a_resignation_makes_the_next_game_crawford() -> None:
    state = MatchState(match_length=5, score=(1, 2), on_roll=B, to_act=B)
    after, _ = take_resignation(offer_resignation(state, B, GAMMON), W, MatchRules())
    assert (after.score, after.crawford) == ((3, 2), False)
    after, _ = take_resignation(offer_resignation(state, B, BACKGAMMON), W, MatchRules())
    assert (after.score, after.crawford) == ((4, 2), True)
    no_crawford = MatchRules(crawford=False)
    after, _ = take_resignation(offer_resignation(state, B, BACKGAMMON), W, no_crawford)
    assert after.crawford is False


def test_levels_and_points() -> None:
    assert levels_above(Resignation.NONE) == (SINGLE, GAMMON, BACKGAMMON)
    assert levels_above(GAMMON) == (BACKGAMMON,)
    assert levels_above(BACKGAMMON) == ()
    assert [level_name(level) for level in levels_above(Resignation.NONE)] == [
        "single", "gammon", "backgammon"]
    cube8 = MONEY.replace(cube=8, cube_owner=W)
    assert [level_of_points(cube8, n) for n in (8, 16, 24, 12, 0)] == [
        SINGLE, GAMMON, BACKGAMMON, None, None]


def test_contact_is_gone_once_the_back_checkers_have_passed() -> None:
    assert in_contact(Position.initial())
    race = Position(side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), side({6: 5, 5: 5, 13: 5}))
    assert not in_contact(race)  # both sides have passed each other: nobody can hit
    behind = Position(side({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}), side({24: 2, 13: 5, 6: 8}))
    assert in_contact(behind)  # the opponent's back checkers still face White's
    touching = Position(side({13: 15}), side({13: 15}))  # 12 + 12 > 22: still contact
    assert in_contact(touching)
    passed = Position(side({12: 15}), side({12: 15}))  # 11 + 11 = 22: a race
    assert not in_contact(passed)
    on_bar = Position(side({25: 1, 6: 14}), side({1: 15}))
    assert in_contact(on_bar)
