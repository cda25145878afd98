"""What the server's boards say, as the online seat's facts: each board against the last.

A :class:`ServerView` is a server's game in the rules' terms: the absolute board, the
colours (the board's player plays ``hand``, the online opponent the other), the dice
high first, the cube, the score.  :func:`view_of` reads the server's board
(:class:`~tavla_pi.online.model.GameBoard`), :func:`view_here` the game here (after a
restart, the last board known is the journal's).  :func:`facts` says what happened
between two views as the facts the seat fits to the game here
(:mod:`tavla_pi.game.online`): the opening throw that decided, a play (the mover's turn
ended: the board after it), a roll, a cube action, a resignation or a drop (from the
``win`` between them), the score after a game.  :func:`followed` is the whole game to
follow where the board and the server disagree, and :func:`settle` logs a disagreement
and has the seat follow the server.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tavla_pi.errors import TavlaError
from tavla_pi.game.deciding import Table
from tavla_pi.game.online import (
    OnlineSeat,
    ServerCube,
    ServerFact,
    ServerGame,
    ServerOpening,
    ServerPlay,
    ServerResign,
    ServerRoll,
    ServerScore,
    server_level,
)
from tavla_pi.game.view import Phase
from tavla_pi.online.board import to_board
from tavla_pi.online.model import ME, NOBODY, OPPONENT, GameBoard
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState, Resignation
from tavla_pi.rules.position import Position

log = logging.getLogger("tavla_pi.online")

NOT_UNDER_WAY = (Phase.SETUP, Phase.OPENING, Phase.GAME_OVER, Phase.MATCH_OVER)
"""The phases here in which no game is under way (the server's turn is nobody's)."""


@dataclass(frozen=True, slots=True)
class ServerView:
    """A server's game in the rules' terms: the board, who is on roll (None: no game
    under way, the opening to throw), the dice (None: not rolled), the cube, the match,
    the winner of the game just ended, and whether moves of this turn are pending."""

    board: Board
    on_roll: Color | None
    dice: tuple[int, int] | None
    cube: int
    cube_owner: Color | None
    double_offered: bool
    score: tuple[int, int]
    points: int
    crawford: bool
    winner: Color | None = None
    pending: bool = False


def view_of(server: GameBoard, hand: Color) -> ServerView:
    """The server's board, the board's player playing ``hand``."""
    seats = {ME: hand, OPPONENT: hand.opponent, NOBODY: None}
    dice = None if 0 in server.dice else (max(server.dice), min(server.dice))
    scores = {hand: server.me.score, hand.opponent: server.opponent.score}
    return ServerView(
        board=to_board(server.spaces, hand.opponent), on_roll=seats[server.turn],
        dice=dice if server.turn != NOBODY else None, cube=server.cube_value,
        cube_owner=seats[server.cube_owner], double_offered=server.double_offered,
        score=(scores[Color.WHITE], scores[Color.BLACK]), points=server.points,
        crawford=server.is_crawford, winner=seats[server.winner],
        pending=bool(server.pending))


def view_here(table: Table, committed: Board) -> ServerView:
    """The game here as the server would show it (after a restart, the last board the
    board knows): ``committed`` is the board of its committed position."""
    match = table.match
    on_roll = None if table.phase in NOT_UNDER_WAY else match.on_roll
    return ServerView(
        board=committed, on_roll=on_roll, dice=match.dice if on_roll else None,
        cube=match.cube, cube_owner=match.cube_owner, double_offered=match.double_offered,
        score=(match.score[0], match.score[1]), points=match.match_length,
        crawford=match.crawford)


def facts(last: ServerView, now: ServerView, resigned: Color | None = None,
          points: int = 0) -> list[ServerFact]:
    """What happened between ``last`` and ``now``, in order; ``resigned``: who resigned
    (or dropped) in between (the server's ``win``), for ``points`` (0: not given)."""
    if last.on_roll is None:
        opening = [_opening(now)] if now.on_roll is not None and now.dice is not None \
            and now.winner is None and resigned is None else []
        return opening + _score(last, now)
    out: list[ServerFact] = []
    if last.winner is None:
        out += _turn_ended(last, now, resigned, points)
    out += _cube(last, now)
    rolled = now.on_roll is not None and now.dice is not None and now.winner is None \
        and (now.on_roll is not last.on_roll or last.dice is None)
    if rolled:
        assert now.on_roll is not None and now.dice is not None
        out.append(ServerRoll(now.on_roll, now.dice))
    return out + _score(last, now)


def _opening(now: ServerView) -> ServerOpening:
    """The opening throw that decided: the starter's die is the higher."""
    assert now.on_roll is not None and now.dice is not None
    high, low = now.dice
    return ServerOpening(high, low) if now.on_roll is Color.WHITE else ServerOpening(low, high)


def _turn_ended(last: ServerView, now: ServerView, resigned: Color | None,
                points: int) -> list[ServerFact]:
    """A drop or a resignation in between; else the play of the player on roll, once the
    turn passed or the game was won."""
    if resigned is not None:
        if last.double_offered:
            return [ServerCube(resigned, "drop")]
        return [ServerResign(resigned, _level(last, resigned, points))]
    mover = last.on_roll
    ended = now.winner is not None or (now.on_roll is not None and now.on_roll is not mover)
    if mover is None or last.dice is None or not ended:
        return []
    return [ServerPlay(mover, last.dice, now.board)]


def _level(last: ServerView, loser: Color, points: int) -> Resignation:
    """What a resignation counts: the server's points per cube, else as the board stands."""
    if points and 1 <= points // last.cube <= 3:
        return Resignation(points // last.cube)
    return server_level(last.board.side(loser))


def _cube(last: ServerView, now: ServerView) -> list[ServerFact]:
    if not last.double_offered and now.double_offered and now.on_roll is not None:
        return [ServerCube(now.on_roll, "double")]
    if last.double_offered and not now.double_offered and now.winner is None \
            and last.on_roll is not None and now.cube == 2 * last.cube:
        return [ServerCube(last.on_roll.opponent, "take")]
    return []


def _score(last: ServerView, now: ServerView) -> list[ServerFact]:
    return [ServerScore(now.score)] if now.score != last.score else []


def followed(view: ServerView, why: str) -> ServerGame | None:
    """The server's whole game, for the board to follow: a game under way as it stands
    (the player on roll's side), else the start of the next game at the server's score;
    None when there is none to follow (the server's match is decided, or its state is
    not one the rules can hold)."""
    if view.points and max(view.score) >= view.points:
        return None
    on_roll = view.on_roll
    try:
        if on_roll is None or view.winner is not None:
            match = MatchState(match_length=view.points, score=view.score,
                               crawford=view.crawford, game_state=GameState.NONE)
            return ServerGame(Position.initial(), match, why)
        to_act = on_roll.opponent if view.double_offered else on_roll
        playing = MatchState(cube=view.cube, cube_owner=view.cube_owner, on_roll=on_roll,
                             to_act=to_act, double_offered=view.double_offered,
                             dice=view.dice, match_length=view.points, score=view.score,
                             crawford=view.crawford, game_state=GameState.PLAYING)
    except TavlaError as exc:
        log.warning("the server's game cannot be followed: %s", exc)
        return None
    return ServerGame(Position.from_board(view.board, on_roll), playing, why)


def settle(table: Table, seat: OnlineSeat, last: ServerView | None) -> None:
    """A fact the game here could not follow (``seat.disagreed``): both games logged, and
    the server's (``last``, its board last read) told to the seat to follow, where it
    can be (not once the match is over here)."""
    why, seat.disagreed = seat.disagreed, None
    if why is None or last is None:
        return
    game = None if table.phase is Phase.MATCH_OVER else followed(last, why)
    log.warning("the server and this board disagree: %s; here %s %s, the server %s "
                "(%s on roll, dice %s, score %s): %s", why, table.position().position_id(),
                table.match.match_id(), last.board.as_dict(), last.on_roll, last.dice,
                last.score, "the board follows the server" if game is not None
                else "the game here stands")
    if game is not None:
        seat.tell(game)
