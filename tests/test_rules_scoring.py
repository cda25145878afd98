"""Single, gammon, backgammon; points; the match score and every Crawford transition."""

from __future__ import annotations

import pytest

from tavla_pi.errors import IllegalPlayError, InvalidPositionError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, Resignation, WinKind
from tavla_pi.rules.match import MAX_SCORE
from tavla_pi.rules.scoring import (
    GameResult,
    accept_resignation,
    end_game,
    is_post_crawford,
    result_of_drop,
    result_of_play,
    result_of_resignation,
    win_by_play,
    win_kind,
)
from tavla_pi.rules.side import BAR_INDEX

W, B = Color.WHITE, Color.BLACK
RULES = MatchRules()


def loser(**points: int) -> list[int]:
    """25 counts in the loser's numbering: p1..p24 by name, 'bar' for the bar."""
    counts = [0] * 25
    for name, n in points.items():
        counts[BAR_INDEX if name == "bar" else int(name[1:]) - 1] = n
    return counts


# -- the kind of win ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "kind"),
    [
        (loser(p1=1), WinKind.SINGLE),
        (loser(p6=14), WinKind.SINGLE),  # one checker borne off
        (loser(p20=1, p1=13), WinKind.SINGLE),  # borne off one: no gammon, whatever is left
        (loser(p6=15), WinKind.GAMMON),
        (loser(p18=1, p7=14), WinKind.GAMMON),  # point 18 is outside the winner's home
        (loser(p19=1, p6=14), WinKind.BACKGAMMON),
        (loser(p24=2, p1=13), WinKind.BACKGAMMON),
        (loser(bar=1, p6=14), WinKind.BACKGAMMON),
    ],
)
def test_the_kind_of_win(counts: list[int], kind: WinKind) -> None:
    assert win_kind(counts) is kind


@pytest.mark.parametrize(
    ("counts", "problem"),
    [
        ([0] * 24, "the loser's checkers are 25 counts, got 24"),
        (loser(p1=16), "the loser has 16 checkers, more than 15"),
        (loser(p1=-1, p2=3), "negative checker count"),
        (loser(), "the loser has borne off all 15 checkers: that is a win"),
    ],
)
def test_impossible_losers_are_refused(counts: list[int], problem: str) -> None:
    with pytest.raises(InvalidPositionError, match=problem):
        win_kind(counts)


def test_kinds_have_their_event_names_and_values() -> None:
    assert [(k.value, k.multiplier) for k in WinKind] == [
        ("single", 1),
        ("gammon", 2),
        ("backgammon", 3),
    ]


# -- points ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cube", "counts", "points"),
    [(1, loser(p1=1), 1), (4, loser(p1=1), 4), (2, loser(p6=15), 4), (8, loser(bar=1, p6=14), 24)],
)
def test_points_are_the_kind_times_the_cube(cube: int, counts: list[int], points: int) -> None:
    state = MatchState(cube=cube, cube_owner=None if cube == 1 else B, match_length=0)
    assert result_of_play(state, W, counts).points == points


def test_under_jacoby_a_gammon_counts_single_until_the_cube_is_turned() -> None:
    centred = MatchState(jacoby=True)
    result = result_of_play(centred, W, loser(p6=15))
    assert (result.kind, result.points) == (WinKind.SINGLE, 1)
    turned = MatchState(cube=2, cube_owner=B, jacoby=True)
    result = result_of_play(turned, W, loser(bar=1, p6=14))
    assert (result.kind, result.points) == (WinKind.BACKGAMMON, 6)


def test_jacoby_does_not_apply_in_match_play() -> None:
    state = MatchState(match_length=7, jacoby=True)
    assert result_of_play(state, W, loser(p6=15)).points == 2


def test_a_dropped_double_scores_the_cube_before_it_single() -> None:
    state = MatchState(cube=4, cube_owner=W, double_offered=True, to_act=B, jacoby=True)
    assert result_of_drop(state, B) == GameResult(W, WinKind.SINGLE, 4, GameState.DROPPED)


def test_a_resignation_scores_what_was_resigned_times_the_cube() -> None:
    state = MatchState(
        cube=2, cube_owner=B, on_roll=B, to_act=W, resignation=Resignation.GAMMON, match_length=7
    )
    assert result_of_resignation(state) == GameResult(W, WinKind.GAMMON, 4, GameState.RESIGNED)
    after, _ = accept_resignation(state, RULES)
    assert after.score == (4, 0)
    assert after.game_state is GameState.RESIGNED
    assert after.resignation is Resignation.GAMMON  # kept, as gnubg keeps it
    with pytest.raises(IllegalPlayError, match="no resignation is offered"):
        result_of_resignation(MatchState())


def test_a_win_by_play_leaves_the_loser_on_roll_without_dice() -> None:
    state = MatchState(on_roll=W, to_act=W, dice=(2, 1), match_length=7, score=(1, 2))
    after, result = win_by_play(state, W, loser(p6=15), RULES)
    assert result == GameResult(W, WinKind.GAMMON, 2, GameState.OVER)
    assert after == MatchState(
        on_roll=B, to_act=B, match_length=7, score=(3, 2), game_state=GameState.OVER
    )


def test_a_game_ends_only_once() -> None:
    over = MatchState(game_state=GameState.OVER)
    with pytest.raises(IllegalPlayError, match="no game in progress to end"):
        end_game(over, GameResult(W, WinKind.SINGLE, 1, GameState.OVER), RULES)


def test_a_money_score_stops_at_what_a_match_id_holds() -> None:
    rich = MatchState(cube=64, cube_owner=B, score=(MAX_SCORE - 10, 0))
    after = end_game(rich, GameResult(W, WinKind.BACKGAMMON, 192, GameState.OVER), RULES)
    assert after.score == (MAX_SCORE, 0)
    assert after.match_id() == MatchState.from_match_id(after.match_id()).match_id()


# -- the match: score, match over, Crawford -----------------------------------------------


def after_game(
    length: int,
    score: tuple[int, int],
    winner: Color,
    points: int,
    *,
    crawford: bool = False,
    rules: MatchRules = RULES,
) -> MatchState:
    state = MatchState(match_length=length, score=score, crawford=crawford)
    return end_game(state, GameResult(winner, WinKind.SINGLE, points, GameState.OVER), rules)


Before = tuple[int, tuple[int, int], bool]  # match length, score, Crawford game
Game = tuple[Color, int]  # winner, points
After = tuple[tuple[int, int], bool, Color | None]  # score, next is Crawford, match winner


@pytest.mark.parametrize(
    ("before", "game", "after"),
    [
        # an ordinary game
        ((5, (0, 0), False), (W, 1), ((1, 0), False, None)),
        # a player first reaches one point from the end: the next game is the Crawford game
        ((5, (3, 2), False), (W, 1), ((4, 2), True, None)),
        ((5, (2, 3), False), (W, 2), ((4, 3), True, None)),
        ((2, (0, 0), False), (B, 1), ((0, 1), True, None)),
        # the Crawford game won by the trailer: post-Crawford from now on
        ((5, (4, 2), True), (B, 2), ((4, 4), False, None)),
        ((5, (4, 2), True), (B, 1), ((4, 3), False, None)),
        # the Crawford game won by the leader: the match is over
        ((5, (4, 2), True), (W, 1), ((5, 2), False, W)),
        # post-Crawford games: no new Crawford game, even on reaching one away
        ((5, (4, 3), False), (B, 1), ((4, 4), False, None)),
        ((5, (4, 1), False), (B, 2), ((4, 3), False, None)),
        ((5, (4, 3), False), (B, 2), ((4, 5), False, B)),
        # jumping past one away straight to the end
        ((5, (2, 2), False), (W, 4), ((6, 2), False, W)),
        # a one-point match has no Crawford game
        ((1, (0, 0), False), (B, 1), ((0, 1), False, B)),
    ],
)
def test_every_match_transition(before: Before, game: Game, after: After) -> None:
    length, score, crawford = before
    winner, points = game
    new_score, next_crawford, over = after
    state = after_game(length, score, winner, points, crawford=crawford)
    assert state.score == new_score
    assert state.crawford is next_crawford
    assert state.match_winner is over
    assert state.game_state is GameState.OVER


def test_without_the_crawford_rule_there_is_no_crawford_game() -> None:
    rules = MatchRules(crawford=False)
    after = after_game(5, (3, 2), W, 1, rules=rules)
    assert not after.crawford
    assert not is_post_crawford(after, rules)


def test_money_play_has_no_crawford_game() -> None:
    money = end_game(MatchState(), GameResult(W, WinKind.SINGLE, 1, GameState.OVER), RULES)
    assert (money.score, money.crawford, money.match_winner) == ((1, 0), False, None)
    assert not is_post_crawford(money, RULES)


def test_post_crawford_is_the_games_after_the_crawford_game() -> None:
    crawford_game = MatchState(match_length=5, score=(4, 2), crawford=True)
    assert not is_post_crawford(crawford_game, RULES)
    post = after_game(5, (4, 2), B, 1, crawford=True)
    assert is_post_crawford(post, RULES)
    assert not is_post_crawford(MatchState(match_length=5, score=(3, 2)), RULES)
    won = MatchState(match_length=5, score=(4, 5), game_state=GameState.OVER)
    assert not is_post_crawford(won, RULES)
