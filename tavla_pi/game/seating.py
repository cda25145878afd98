"""The seat as a value: who plays the colour the hand at the board does not.

A match is between two players at the board (:class:`TwoPlayers`), against the
computer at a level (:class:`ComputerPlays`), against a friend's board through the
broker (:class:`FriendPlays`), or against an opponent on the online server
(:class:`OnlinePlays`): one sum type, :data:`Seating`.  The config and the page keep
the opponent in its flat form (:class:`~tavla_pi.game.settings.OpponentSettings`:
``color``, ``level``, ``remote``, ``online``); :func:`seating` is its one reading.
Whatever asks about the seat asks the value for what it needs (its colour, the colour
GNU Backgammon plays, the friend's board, whether it is played online, whether it plays
Portes only, whether a roll closes a takeback, what a drop counts, how a sentence
names it, its
``new_match`` fields), never which kind it is; :mod:`tavla_pi.game.seat` makes the seat
that decides for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tavla_pi.engine.levels import Level
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import TavliMatch


@dataclass(frozen=True, slots=True)
class TwoPlayers:
    """Two players at the board: the hand plays both colours."""

    color: None = None
    level: None = None
    engine_color: None = None
    friend: None = None
    online = False
    portes_only = False
    rolls_close_takeback = False
    drops_count_the_board = False
    who = "two players"

    def new_match_fields(self, tavli: TavliMatch) -> dict[str, Any]:
        """Its ``new_match`` fields: the game, when it is not Portes."""
        return {} if tavli.is_backgammon else {"variant": tavli.name}


@dataclass(frozen=True, slots=True)
class ComputerPlays:
    """GNU Backgammon plays ``color`` at ``level`` (Portes only)."""

    color: Color
    level: Level
    friend: None = None
    online = False
    portes_only = True
    rolls_close_takeback = False
    drops_count_the_board = False
    who = "the computer"

    @property
    def engine_color(self) -> Color:
        """The colour GNU Backgammon plays."""
        return self.color

    def new_match_fields(self, tavli: TavliMatch) -> dict[str, Any]:
        """Its ``new_match`` fields: the computer's colour and level."""
        return {"opponent": self.color.value, "level": self.level.value}


@dataclass(frozen=True, slots=True)
class FriendPlays:
    """A friend's board, ``friend``, plays ``color`` through the broker (Portes only)."""

    color: Color
    friend: str
    level: None = None
    engine_color: None = None
    online = False
    portes_only = True
    rolls_close_takeback = True
    """Both boards made the dice: a roll made is never made again (docs/REMOTE.md)."""
    drops_count_the_board = False

    @property
    def who(self) -> str:
        """The seat as a sentence names it."""
        return f"the board {self.friend}"

    def new_match_fields(self, tavli: TavliMatch) -> dict[str, Any]:
        """Its ``new_match`` fields: the friend's colour and board."""
        return {"opponent": self.color.value, "remote": self.friend}


@dataclass(frozen=True, slots=True)
class OnlinePlays:
    """An opponent on the online server plays ``color`` (Portes only; docs/ONLINE.md)."""

    color: Color
    level: None = None
    engine_color: None = None
    friend: None = None
    online = True
    portes_only = True
    rolls_close_takeback = True
    """The server made the dice: a roll made is never made again."""
    drops_count_the_board = True
    """The server counts a drop as a resignation at the board's level (docs/ONLINE.md)."""
    who = "the online opponent"

    def new_match_fields(self, tavli: TavliMatch) -> dict[str, Any]:
        """Its ``new_match`` fields: the online opponent's colour."""
        return {"opponent": self.color.value, "online": True}


Seating = TwoPlayers | ComputerPlays | FriendPlays | OnlinePlays
"""Who plays the colour the hand does not (:data:`Seating.color`; None: nobody)."""


def seating(opponent: OpponentSettings) -> Seating:
    """The seat ``opponent`` names (its one reading): a friend's board, the online
    opponent, the computer, or (no colour) two players."""
    if opponent.color is None:
        return TwoPlayers()
    if opponent.remote is not None:
        return FriendPlays(opponent.color, opponent.remote)
    if opponent.online:
        return OnlinePlays(opponent.color)
    return ComputerPlays(opponent.color, opponent.level)


def friend_boards(seats: Iterable[Seating]) -> dict[str, Color]:
    """The friends' boards among ``seats``: name -> the colour it plays."""
    return {seat.friend: seat.color for seat in seats if isinstance(seat, FriendPlays)}
