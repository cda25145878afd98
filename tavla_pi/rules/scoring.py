"""How a game ends and what it scores: single, gammon, backgammon, and the match score.

A game won by playing out scores the kind's value (single 1, gammon 2,
backgammon 3) times the cube; under the Jacoby rule in money play a gammon or
backgammon counts single while the cube is centred (GNU Backgammon's rule:
the cube has not been turned).  A dropped double scores the cube's value
before the double, single.  An accepted resignation scores what was resigned
times the cube.

The board is taken as plain data so this module does not need a Position:
the loser's checkers as 25 counts in the loser's own numbering (index 0..23
are the loser's points 1..24, index 24 the loser's bar; the rest are borne
off), so the winner's home board is the loser's points 19..24.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from tavla_pi.errors import IllegalPlayError, InvalidPositionError
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import (
    MAX_SCORE,
    GameState,
    MatchRules,
    MatchState,
    Resignation,
    player_index,
)
from tavla_pi.rules.side import BAR_INDEX, CHECKERS, SLOTS

_WINNERS_HOME = range(18, 24)  # the loser's points 19..24


class WinKind(enum.Enum):
    """How big a win is: its name as the events say it, and its value per cube."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        """Points per cube value: 1, 2 or 3."""
        return {WinKind.SINGLE: 1, WinKind.GAMMON: 2, WinKind.BACKGAMMON: 3}[self]

    def __repr__(self) -> str:
        return f"WinKind.{self.name}"


def win_kind(loser_checkers: Sequence[int]) -> WinKind:
    """The kind of win over a loser with these checkers (25 counts, loser's numbering).

    Gammon: the loser has borne off nothing.  Backgammon: in addition the
    loser has a checker on the bar or in the winner's home board.
    """
    _check_loser(loser_checkers)
    if sum(loser_checkers) < CHECKERS:
        return WinKind.SINGLE
    if loser_checkers[BAR_INDEX] or any(loser_checkers[i] for i in _WINNERS_HOME):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON


def _check_loser(counts: Sequence[int]) -> None:
    if len(counts) != SLOTS:
        raise InvalidPositionError(f"the loser's checkers are 25 counts, got {len(counts)}")
    if any(n < 0 for n in counts):
        raise InvalidPositionError(f"negative checker count in {list(counts)}")
    total = sum(counts)
    if total > CHECKERS:
        raise InvalidPositionError(f"the loser has {total} checkers, more than {CHECKERS}")
    if total == 0:
        raise InvalidPositionError("the loser has borne off all 15 checkers: that is a win")


@dataclass(frozen=True)
class GameResult:
    """The end of a game: who won, the kind as scored, the points, and how it ended."""

    winner: Color
    kind: WinKind
    points: int
    how: GameState


def scored_kind(state: MatchState, kind: WinKind) -> WinKind:
    """The kind that counts: single under the Jacoby rule while the money cube is centred."""
    if state.jacoby and state.is_money and state.cube_owner is None:
        return WinKind.SINGLE
    return kind


def result_of_play(state: MatchState, winner: Color, loser_checkers: Sequence[int]) -> GameResult:
    """The result when ``winner`` bears off the last checker."""
    kind = scored_kind(state, win_kind(loser_checkers))
    return GameResult(winner, kind, kind.multiplier * state.cube, GameState.OVER)


def result_of_drop(state: MatchState, dropper: Color,
                   level: Resignation = Resignation.SINGLE) -> GameResult:
    """The result when ``dropper`` refuses a double: the cube before the double, single;
    where the drop counts as a resignation of ``level`` (the online server's rule,
    docs/ONLINE.md), that many times the cube."""
    kind = _conceded(max(level, Resignation.SINGLE))
    return GameResult(dropper.opponent, kind, kind.multiplier * state.cube, GameState.DROPPED)


def result_of_resignation(state: MatchState) -> GameResult:
    """The result when the offered resignation is accepted (by ``state.to_act``)."""
    if not state.resignation:
        raise IllegalPlayError("no resignation is offered")
    kind = _conceded(state.resignation)
    return GameResult(state.to_act, kind, state.resignation * state.cube, GameState.RESIGNED)


def _conceded(level: Resignation) -> WinKind:
    """The kind of win a resignation of ``level`` (not NONE) concedes."""
    return (WinKind.SINGLE, WinKind.GAMMON, WinKind.BACKGAMMON)[level - 1]


def end_game(state: MatchState, result: GameResult, rules: MatchRules) -> MatchState:
    """The state after ``result``: score added, game over, Crawford flag for the next game.

    As in GNU Backgammon the Crawford flag is updated when a game ends: it
    is set for the game that follows a player's first reaching one point
    from the match length, and cleared once that game is over.  A money
    score stops at the most a Match ID can hold.
    """
    if state.game_state is not GameState.PLAYING:
        raise IllegalPlayError("no game in progress to end")
    score = list(state.score)
    i = player_index(result.winner)
    score[i] = min(score[i] + result.points, MAX_SCORE)
    new_score = (score[0], score[1])
    return state.replace(
        score=new_score,
        crawford=_next_is_crawford(state, result.winner, new_score, rules),
        double_offered=False,
        game_state=result.how,
    )


def _next_is_crawford(
    state: MatchState, winner: Color, new_score: tuple[int, int], rules: MatchRules
) -> bool:
    if state.is_money or not rules.crawford or state.crawford:
        return False
    away_one = state.match_length - 1
    if max(state.score) >= away_one:  # post-Crawford already (or a 1-point match)
        return False
    return new_score[player_index(winner)] == away_one


def win_by_play(
    state: MatchState, winner: Color, loser_checkers: Sequence[int], rules: MatchRules
) -> tuple[MatchState, GameResult]:
    """The game won by ``winner`` bearing off: the new state and the result.

    As GNU Backgammon records it, the loser is then on roll with no dice.
    """
    result = result_of_play(state, winner, loser_checkers)
    loser = winner.opponent
    moved = state.replace(on_roll=loser, to_act=loser, dice=None)
    return end_game(moved, result, rules), result


def accept_resignation(state: MatchState, rules: MatchRules) -> tuple[MatchState, GameResult]:
    """The game ended by the offered resignation being accepted."""
    result = result_of_resignation(state)
    return end_game(state, result, rules), result


def is_post_crawford(state: MatchState, rules: MatchRules) -> bool:
    """True in the games after the Crawford game (doubling allowed again)."""
    if state.is_money or not rules.crawford or state.crawford or state.match_winner:
        return False
    return max(state.score) == state.match_length - 1
