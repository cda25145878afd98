"""What an online game server says to the board, whatever its protocol, and what a
protocol module provides.

Each event the board needs is one frozen dataclass; a protocol module (bgammon.org's is
:mod:`tavla_pi.online.protocol`) reads its server's lines into them and formats the
commands the board sends (:class:`Dialect`), so that a second server protocol is one
more module and the connection and the seat stay as they are.

The board is seen as bgammon.org shows it to a player, from the side of the board's
player (the server's player number 1): :data:`SPACES` signed counts, the board's
player's checkers positive and moving from space 24 down to 1, the opponent's negative
and moving from 1 up to 24; space :data:`MY_OFF` (0) holds the player's borne-off
checkers, :data:`THEIR_OFF` (25) the opponent's (negative), :data:`MY_BAR` (26) and
:data:`THEIR_BAR` (27) the bars.  A move is ``(from, to)`` in that numbering: the
player's from 1..24 or 26 to 0..24, the opponent's from 1..24 or 27 to 1..25.
:mod:`tavla_pi.online.board` converts both to the rules' Position and Play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

SPACES = 28
"""Spaces of a server board: 0 and 25 the trays, 1..24 the points, 26 and 27 the bars."""
MY_OFF = 0
"""The board's player's borne-off checkers (and where the player bears off to)."""
THEIR_OFF = 25
"""The opponent's borne-off checkers, counted negative."""
MY_BAR = 26
"""The board's player's bar."""
THEIR_BAR = 27
"""The opponent's bar, counted negative."""
ME = 1
"""The board's player, as a board's ``turn``, ``winner`` and ``cube_owner`` name it."""
OPPONENT = 2
"""The opponent, as a board's ``turn``, ``winner`` and ``cube_owner`` name it."""
NOBODY = 0
"""No player: the opening roll's ``turn``, no ``winner`` yet, a centred cube."""
CRAWFORD_PENDING = 0
"""The Crawford game has not come yet (doubling allowed)."""
CRAWFORD_ACTIVE = 1
"""This game is the Crawford game (no doubling)."""
CRAWFORD_EXPIRED = 2
"""The Crawford game is past (doubling allowed again)."""

ServerMove = tuple[int, int]
"""One checker's move ``(from, to)`` in the server board's numbering (see the module)."""


@dataclass(frozen=True, slots=True)
class Hello:
    """The server's greeting before login (bgammon.org says it over TCP only)."""

    message: str


@dataclass(frozen=True, slots=True)
class Welcome:
    """Logged in: ``name`` is the name the server gives the board (a guest's is made up)."""

    name: str
    clients: int
    matches: int


@dataclass(frozen=True, slots=True)
class MatchListing:
    """One match on the server's list: ``players`` in it (2: full), its length in points."""

    match_id: int
    points: int
    players: int
    password: bool
    name: str


@dataclass(frozen=True, slots=True)
class MatchList:
    """The server's matches, as it lists them."""

    matches: tuple[MatchListing, ...]


@dataclass(frozen=True, slots=True)
class Joined:
    """``player`` joined match ``match_id``: the board's player (``player_number`` 1) or
    the opponent (2)."""

    match_id: int
    player_number: int
    player: str


@dataclass(frozen=True, slots=True)
class Left:
    """``player`` left the match (the board's player or the opponent)."""

    player: str


@dataclass(frozen=True, slots=True)
class CommandRefused:
    """The server refused a command: ``command`` is what was refused ("create", "join",
    "leave", "roll", "move", "ok"), ``reason`` the server's words; a refused move names
    its ``move`` where the server does."""

    command: str
    reason: str
    move: ServerMove | None = None


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player of a match as the board event shows it: name ("" while the seat is
    empty) and match score."""

    name: str
    score: int


@dataclass(frozen=True, slots=True)
class GameBoard:
    """The match's state, from the side of the board's player (see the module).

    ``turn``, ``winner`` and ``cube_owner`` are :data:`ME`, :data:`OPPONENT` or
    :data:`NOBODY`; ``dice`` are (0, 0) before a roll (in the opening, the board's
    player's die first); ``pending`` are the moves made so far this turn and
    ``available`` the single moves the server allows the player on roll now.
    """

    spaces: tuple[int, ...]
    turn: int
    dice: tuple[int, int]
    pending: tuple[ServerMove, ...]
    available: tuple[ServerMove, ...]
    winner: int
    points: int
    crawford: int
    cube_value: int
    cube_owner: int
    double_offered: bool
    me: PlayerInfo
    opponent: PlayerInfo
    variant: int
    spectating: bool

    @property
    def is_crawford(self) -> bool:
        """Whether this game is the Crawford game (no doubling)."""
        return self.crawford == CRAWFORD_ACTIVE


@dataclass(frozen=True, slots=True)
class Rolled:
    """``player`` rolled ``dice`` (in the opening one die each, the other 0: the board's
    player's die first)."""

    player: str
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Moved:
    """``player`` moved checkers: ``moves`` in the server board's numbering, in order (an
    undone move comes back as its reverse)."""

    player: str
    moves: tuple[ServerMove, ...]


@dataclass(frozen=True, slots=True)
class Said:
    """A chat message from ``player`` (control characters replaced by U+FFFD)."""

    player: str
    message: str


@dataclass(frozen=True, slots=True)
class GameWon:
    """``player`` won the game, for ``points`` (0 where the server gives none: a 1-point
    match); ``resigned`` names who resigned or dropped, "" if nobody did."""

    player: str
    points: int
    resigned: str


@dataclass(frozen=True, slots=True)
class Notice:
    """A message from the server to show the player (control characters replaced)."""

    message: str


@dataclass(frozen=True, slots=True)
class Ping:
    """The server checks the link; any command answers it."""

    message: str


ServerEvent = (Hello | Welcome | MatchList | Joined | Left | CommandRefused | GameBoard | Rolled
               | Moved | Said | GameWon | Notice | Ping)
"""Every event a server's line can be."""


class Dialect(Protocol):
    """One server protocol: reads the server's lines into events, formats the board's
    commands (each one line, without its newline).  A formatting method raises
    ValueError for an argument the protocol cannot carry."""

    max_line_bytes: int
    """The longest line read; a longer one is dropped unread."""

    def read(self, line: bytes) -> ServerEvent | None:
        """The event of one line (None: nothing the board needs); ProtocolError if the
        line breaks the protocol."""
        ...

    def login(self, username: str | None, password: str | None) -> str:
        """Log in as ``username`` (None: a guest, named by the server)."""
        ...

    def keepalive(self) -> str:
        """A command that changes nothing: the link's heartbeat."""
        ...

    def list_matches(self) -> str:
        """Ask for the list of matches."""
        ...

    def create_match(self, points: int, name: str) -> str:
        """Open a public match of ``points`` named ``name``."""
        ...

    def join_match(self, match_id: int) -> str:
        """Join the match ``match_id``."""
        ...

    def join_player(self, player: str) -> str:
        """Join the match ``player`` is in."""
        ...

    def request_board(self) -> str:
        """Ask for the current match's state (a :class:`GameBoard`)."""
        ...

    def roll(self) -> str:
        """Roll the dice."""
        ...

    def move(self, moves: tuple[ServerMove, ...]) -> str:
        """Move the board's player's checkers (server numbering)."""
        ...

    def play(self, moves: tuple[ServerMove, ...]) -> tuple[str, ...]:
        """The commands that make a whole play, in order (server numbering)."""
        ...

    def undo(self) -> str:
        """Take back the moves made so far this turn."""
        ...

    def ok(self) -> str:
        """End the turn, or take the double offered."""
        ...

    def double(self) -> str:
        """Offer a double."""
        ...

    def resign(self) -> str:
        """Resign the game, or drop the double offered."""
        ...

    def say(self, text: str) -> str:
        """Send a chat message to the opponent."""
        ...

    def leave(self) -> str:
        """Leave the match."""
        ...
