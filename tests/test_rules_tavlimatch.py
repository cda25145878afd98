"""The tavli match (rules.tavlimatch): the cycle, who starts, the points, the end."""

from __future__ import annotations

import pytest

from tavla_pi.errors import IllegalPlayError, UnknownVariantError
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import Ending, Outcome
from tavla_pi.rules.tavlimatch import TavliMatch, TavliRules

WHITE_SINGLE = Outcome(Color.WHITE, Ending.SINGLE, 1)
BLACK_GAMMON = Outcome(Color.BLACK, Ending.GAMMON, 2)
DRAW = Outcome(None, Ending.DRAW, 0)


def test_tavli_match_cycles_portes_plakoto_fevga() -> None:
    match = TavliMatch.new("tavli", 7)
    seen = []
    for _ in range(4):
        seen.append(match.variant)
        match = match.after(WHITE_SINGLE)
    assert seen == ["portes", "plakoto", "fevga", "portes"]
    assert match.cycle == ("portes", "plakoto", "fevga")
    assert match.game == 5


def test_single_variant_match_repeats_its_game() -> None:
    match = TavliMatch.new("plakoto", 5).after(WHITE_SINGLE).after(WHITE_SINGLE)
    assert match.cycle == ("plakoto",)
    assert match.variant == "plakoto"


def test_first_game_starts_with_the_opening_roll() -> None:
    match = TavliMatch.new("tavli", 5)
    assert match.starter is None and match.opening_roll


def test_winner_starts_next_game_rolling_both_dice() -> None:
    match = TavliMatch.new("tavli", 5).opened_by(Color.WHITE).after(BLACK_GAMMON)
    assert match.starter is Color.BLACK
    assert not match.opening_roll


def test_later_plakoto_games_are_started_by_the_previous_winner() -> None:
    match = TavliMatch.new("fevga", 3).opened_by(Color.BLACK).after(WHITE_SINGLE)
    assert match.starter is Color.WHITE and not match.opening_roll


def test_every_portes_match_game_starts_with_the_opening_roll() -> None:
    match = TavliMatch.new("portes", 5).opened_by(Color.WHITE).after(WHITE_SINGLE)
    assert match.opening_roll


def test_opening_dice_are_played_in_portes_only() -> None:
    match = TavliMatch.new("tavli", 5)
    assert match.opening_dice_played
    assert not TavliMatch.new("plakoto", 5).opening_dice_played


def test_draw_scores_nothing_and_the_same_starter_starts_again() -> None:
    match = TavliMatch.new("plakoto", 5).opened_by(Color.BLACK).after(DRAW)
    assert match.score == (0, 0)
    assert match.starter is Color.BLACK and match.game == 2


def test_no_cube_in_tavli_portes_by_default() -> None:
    assert not TavliMatch.new("tavli", 5).cube_allowed
    assert TavliMatch.new("tavli", 5, TavliRules(cube_in_portes=True)).cube_allowed
    assert TavliMatch.new("portes", 5).cube_allowed


def test_no_cube_in_plakoto_or_fevga() -> None:
    with_cube = TavliRules(cube_in_portes=True)
    assert not TavliMatch.new("plakoto", 5, with_cube).cube_allowed
    assert not TavliMatch.new("tavli", 5, with_cube).after(WHITE_SINGLE).cube_allowed


def test_backgammon_counts_two_by_default_in_tavli() -> None:
    backgammon = Outcome(Color.WHITE, Ending.BACKGAMMON, 3)
    assert TavliMatch.new("tavli", 5).after(backgammon).score == (2, 0)
    three = TavliMatch.new("tavli", 5, TavliRules(backgammon_points=3))
    assert three.after(backgammon).score == (3, 0)
    assert TavliMatch.new("portes", 5).after(backgammon).score == (3, 0)


def test_backgammon_points_setting_is_two_or_three() -> None:
    with pytest.raises(ValueError):
        TavliRules(backgammon_points=4)


def test_match_to_n_ends_when_a_player_reaches_n() -> None:
    match = TavliMatch.new("tavli", 3).after(WHITE_SINGLE).after(BLACK_GAMMON)
    assert match.match_winner is None
    match = match.after(WHITE_SINGLE).after(WHITE_SINGLE)
    assert match.score == (3, 2) and match.match_winner is Color.WHITE
    with pytest.raises(IllegalPlayError):
        match.after(WHITE_SINGLE)


def test_money_tavli_never_ends() -> None:
    match = TavliMatch.new("tavli", 0)
    for _ in range(10):
        match = match.after(BLACK_GAMMON)
    assert match.match_winner is None


def test_unknown_match_is_refused() -> None:
    with pytest.raises(UnknownVariantError):
        TavliMatch.new("tavla", 5)
