"""The game's transitions are one for every game: a play committed, a turn passed, and the
board a new match shows, as the referee and the journal's fold both take them."""

from __future__ import annotations

import pytest
from variants_support import position

from tavla_pi.game.tavli import EndOfGame, between_matches
from tavla_pi.game.transitions import after_pass, after_play
from tavla_pi.rules import Color, variant
from tavla_pi.rules.match import GameState, MatchRules, MatchState
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.scoring import WinKind
from tavla_pi.rules.tavlimatch import TavliMatch

W, B = Color.WHITE, Color.BLACK
PLAYING = MatchState(on_roll=W, to_act=W, match_length=7, game_state=GameState.PLAYING,
                     dice=(6, 5))


@pytest.mark.parametrize("name", ["portes", "plakoto", "fevga"])
def test_a_play_that_does_not_end_the_game_passes_the_roll(name: str) -> None:
    play = variant(name).initial().legal_plays((6, 5))[0]
    match, result = after_play(PLAYING, play, MatchRules(), TavliMatch.new(name, 7))
    assert result is None
    assert (match.on_roll, match.dice, match.score) == (B, None, (0, 0))


@pytest.mark.parametrize("name", ["portes", "plakoto", "fevga"])
def test_bearing_off_the_last_checker_ends_any_game_with_its_scoring(name: str) -> None:
    last = position(name, {1: 1}, {24: 15})
    play = next(p for p in last.legal_plays((6, 5)) if p.result.is_game_over())
    match, result = after_play(PLAYING, play, MatchRules(), TavliMatch.new(name, 7))
    assert result is not None and result.winner is W and result.points == 2
    assert match.score == (2, 0) and match.game_state is GameState.OVER
    if last.has_cube:  # Portes: scored by the cube and the match's rules
        assert result == EndOfGame(W, WinKind.GAMMON.value, 2)
    else:
        assert result == EndOfGame(W, "gammon", 2)


def test_a_pass_gives_the_roll_to_the_opponent() -> None:
    assert after_pass(PLAYING.replace(dice=(6, 6))).on_roll is B


def test_a_new_match_shows_the_last_portes_board_else_portes_start() -> None:
    portes = position("portes", {1: 1}, {24: 15})
    assert between_matches(portes) is portes
    for name in ("plakoto", "fevga"):
        assert between_matches(variant(name).initial()) == PortesPosition.initial()
