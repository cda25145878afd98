"""The seat's factory and its one encoding in the journal.

:func:`seat_for` makes the seat that decides for the seat value
(:data:`~tavla_pi.game.seating.Seating`): the hand between two players, the computer
on its engine, the friend's board (:mod:`tavla_pi.game.deciding`).  A ``new_match``
names the seat in one encoding (:func:`seat_fields`) that the journal's fold reads in
one place (:func:`seat_of_fields`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tavla_pi.engine.background import BackgroundEngine
from tavla_pi.engine.levels import Level
from tavla_pi.errors import RefusedEventError
from tavla_pi.game.computer import Computer
from tavla_pi.game.deciding import HandSeat, Seat
from tavla_pi.game.friend import FriendSeat
from tavla_pi.game.online import OnlineSeat, server_level
from tavla_pi.game.seating import ComputerPlays, FriendPlays, OnlinePlays, seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import Resignation
from tavla_pi.rules.tavlimatch import TavliMatch


def seat_for(opponent: OpponentSettings, engine: BackgroundEngine | None) -> Seat:
    """The seat that decides for ``opponent`` (the factory): the hand between two players
    or with no engine to play, the computer on ``engine``, the friend's board, or the
    online opponent."""
    match seating(opponent):
        case FriendPlays(color=color, friend=friend):
            return FriendSeat(friend, color)
        case OnlinePlays(color=color):
            return OnlineSeat(color)
        case ComputerPlays() if engine is not None:
            return Computer(opponent, engine)
        case _:
            return HandSeat()


def seat_fields(opponent: OpponentSettings, tavli: TavliMatch) -> dict[str, Any]:
    """The seat as a ``new_match`` names it (its one encoding): the friend's board's
    colour and name, the computer's colour and level, or nothing for two players (with
    the match's game when it is not Portes: only two players play the others)."""
    return seating(opponent).new_match_fields(tavli)


def seat_of_fields(fields: Mapping[str, Any], configured: OpponentSettings) -> OpponentSettings:
    """The seat a ``new_match``'s ``fields`` name (its one reading): the friend's board,
    the online opponent, the computer, or (no ``opponent``, or null) two players.
    Coaching stays as ``configured``.  :class:`RefusedEventError` when the fields name
    no seat."""
    color = fields.get("opponent")
    if color is None:
        return replace(configured, color=None, remote=None, online=False)
    remote = fields.get("remote")
    if remote is not None:
        return replace(configured, color=Color(color), remote=remote, online=False)
    if fields.get("online") is True:
        return replace(configured, color=Color(color), remote=None, online=True)
    if "level" not in fields:
        raise RefusedEventError("field 'level' is missing")
    if fields["level"] not in {level.value for level in Level}:
        raise RefusedEventError(f"no level {fields['level']!r}")
    return replace(configured, color=Color(color), level=Level(fields["level"]), remote=None,
                   online=False)


def roll_closes_takeback(opponent: OpponentSettings) -> bool:
    """Whether a roll closes the last play to a takeback: with a friend's board, where both
    boards make the dice, and online, where the server does: a roll made is never made
    again; against the computer a roll taken back is harmless (docs/REMOTE.md)."""
    return seating(opponent).rolls_close_takeback


def drop_level(opponent: OpponentSettings, dropper: tuple[int, ...]) -> Resignation:
    """What a drop counts per cube, the dropper's side (own numbering) standing as
    ``dropper``: a single, except online, where the server counts a drop as a resignation
    at the board's level (:func:`~tavla_pi.game.online.server_level`, docs/ONLINE.md)."""
    if seating(opponent).drops_count_the_board:
        return server_level(dropper)
    return Resignation.SINGLE


def friend_seat(seat: Seat, peer: str) -> FriendSeat | None:
    """``seat`` when it is the friend's board ``peer``'s (the remote session offers it
    that board's decisions); None otherwise."""
    return seat if isinstance(seat, FriendSeat) and seat.peer == peer else None
