"""The doubling cube: each reason a double is refused, take, drop, beaver, the 64 limit."""

from __future__ import annotations

import re

import pytest

from tavla_pi.errors import IllegalPlayError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, Resignation, WinKind
from tavla_pi.rules.cube import (
    OK,
    CubeVerdict,
    beaver,
    drop,
    may_beaver,
    may_double,
    may_drop,
    may_take,
    offer_double,
    take,
)
from tavla_pi.rules.match import MAX_CUBE

W, B = Color.WHITE, Color.BLACK
RULES = MatchRules()
BEAVERS = MatchRules(beavers=True)

MONEY = MatchState(on_roll=W, to_act=W)
MATCH = MatchState(on_roll=W, to_act=W, match_length=7, score=(2, 3))


def test_a_verdict_is_true_when_allowed_and_carries_the_reason_when_not() -> None:
    assert OK and OK.ok and OK.reason == ""
    refused = CubeVerdict("no doubling in the Crawford game")
    assert not refused and not refused.ok


def test_the_player_on_roll_may_double_a_centred_cube_before_rolling() -> None:
    assert may_double(MONEY, W, RULES)
    assert may_double(MATCH, W, RULES)


@pytest.mark.parametrize(
    ("state", "player", "reason"),
    [
        (MONEY.replace(game_state=GameState.OVER), W, "no game in progress"),
        (MONEY.replace(game_state=GameState.NONE), W, "no game in progress"),
        (
            MONEY.replace(resignation=Resignation.SINGLE, to_act=B),
            W,
            "a resignation is waiting for an answer",
        ),
        (MONEY.replace(double_offered=True, to_act=B), W, "a double is already offered"),
        (MONEY, B, "only the player on roll (white) may double"),
        (MONEY.replace(dice=(3, 1)), W, "the dice are rolled: double before rolling"),
        (
            MATCH.replace(score=(6, 3), crawford=True),
            W,
            "no doubling in the Crawford game",
        ),
        (MONEY.replace(cube=2, cube_owner=B), W, "the cube belongs to black"),
        (MONEY.replace(cube=64, cube_owner=W), W, "the cube is at 64, its highest value"),
        (
            MATCH.replace(cube=8, cube_owner=W),
            W,
            "the cube is dead: a single game at 8 wins white the match",
        ),
    ],
)
def test_a_double_is_refused_with_the_reason(state: MatchState, player: Color, reason: str) -> None:
    verdict = may_double(state, player, RULES)
    assert not verdict
    assert verdict.reason == reason
    with pytest.raises(IllegalPlayError) as caught:
        offer_double(state, player, RULES)
    assert str(caught.value) == reason


def test_the_owner_may_redouble() -> None:
    assert may_double(MONEY.replace(cube=4, cube_owner=W), W, RULES)


def test_the_cube_at_32_may_still_go_to_64_but_no_further() -> None:
    at_32 = MONEY.replace(cube=32, cube_owner=W)
    offered = offer_double(at_32, W, RULES)
    taken = take(offered, B)
    assert taken.cube == MAX_CUBE == 64
    at_64_on_roll = taken.replace(on_roll=B, to_act=B)
    assert may_double(at_64_on_roll, B, RULES).reason == "the cube is at 64, its highest value"


def test_the_cube_is_live_while_it_does_not_decide_the_match() -> None:
    # white needs 5 points: a 4 cube may still be doubled, an 8 cube would be dead
    assert may_double(MATCH.replace(cube=4, cube_owner=W), W, RULES)
    assert not may_double(MATCH.replace(cube=8, cube_owner=W), W, RULES)


def test_post_crawford_the_trailer_may_double() -> None:
    post = MATCH.replace(score=(2, 6), on_roll=W, to_act=W)
    assert may_double(post, W, RULES)


def test_a_double_hands_the_decision_to_the_opponent_with_the_cube_unchanged() -> None:
    offered = offer_double(MATCH, W, RULES)
    assert offered == MATCH.replace(double_offered=True, to_act=B)
    assert offered.cube == 1


def test_a_take_doubles_the_cube_gives_it_to_the_taker_and_the_doubler_rolls() -> None:
    offered = offer_double(MATCH, W, RULES)
    assert may_take(offered, B)
    assert take(offered, B) == MATCH.replace(cube=2, cube_owner=B)


def test_a_redouble_passes_the_cube() -> None:
    owned_by_black = MONEY.replace(cube=2, cube_owner=B, on_roll=B, to_act=B)
    taken = take(offer_double(owned_by_black, B, RULES), W)
    assert (taken.cube, taken.cube_owner) == (4, W)


def test_a_drop_ends_the_game_for_the_cube_before_the_double() -> None:
    redoubled = offer_double(MATCH.replace(cube=2, cube_owner=W), W, RULES)
    assert may_drop(redoubled, B)
    after, result = drop(redoubled, B, RULES)
    assert (result.winner, result.kind, result.points) == (W, WinKind.SINGLE, 2)
    assert result.how is GameState.DROPPED
    assert after.score == (4, 3)
    assert after.game_state is GameState.DROPPED
    assert not after.double_offered
    assert after.cube == 2


@pytest.mark.parametrize("answer", [may_take, may_drop])
def test_only_the_player_doubled_answers(answer: object) -> None:
    offered = offer_double(MATCH, W, RULES)
    assert callable(answer)
    assert answer(offered, W).reason == "the double is black's to answer"
    assert answer(MATCH, B).reason == "no double is offered"
    with pytest.raises(IllegalPlayError, match="no double is offered"):
        take(MATCH, B)
    with pytest.raises(IllegalPlayError, match="no double is offered"):
        drop(MATCH, B, RULES)


# -- beavers ------------------------------------------------------------------------


def test_a_beaver_doubles_again_and_keeps_the_cube_for_the_beaverer() -> None:
    offered = offer_double(MONEY, W, BEAVERS)
    assert may_beaver(offered, B, BEAVERS)
    beavered = beaver(offered, B, BEAVERS)
    # as gnubg records it: cube 2 owned by black, white to take or drop the beaver
    assert beavered == MONEY.replace(cube=2, cube_owner=B, double_offered=True, to_act=W)
    assert take(beavered, W) == MONEY.replace(cube=4, cube_owner=B)


def test_a_dropped_beaver_costs_the_doubler_the_beavered_cube() -> None:
    beavered = beaver(offer_double(MONEY, W, BEAVERS), B, BEAVERS)
    after, result = drop(beavered, W, BEAVERS)
    assert (result.winner, result.points) == (B, 2)
    assert after.score == (0, 2)


@pytest.mark.parametrize(
    ("state", "rules", "reason"),
    [
        (offer_double(MONEY, W, RULES), RULES, "beavers are not in use"),
        (offer_double(MATCH, W, BEAVERS), BEAVERS, "beavers are for money play only"),
        (
            beaver(offer_double(MONEY, W, BEAVERS), B, BEAVERS),
            BEAVERS,
            "the double is already beavered (no raccoons)",
        ),
        (
            offer_double(MONEY.replace(cube=32, cube_owner=W), W, BEAVERS),
            BEAVERS,
            "a beaver would take the cube past 64",
        ),
        (MONEY, BEAVERS, "no double is offered"),
    ],
)
def test_a_beaver_is_refused_with_the_reason(
    state: MatchState, rules: MatchRules, reason: str
) -> None:
    player = state.to_act if state.double_offered else B
    assert may_beaver(state, player, rules).reason == reason
    with pytest.raises(IllegalPlayError, match=re.escape(reason)):
        beaver(state, player, rules)


def test_a_beaver_up_to_64_is_allowed() -> None:
    offered = offer_double(MONEY.replace(cube=16, cube_owner=W), W, BEAVERS)
    beavered = beaver(offered, B, BEAVERS)
    assert take(beavered, W).cube == 64
