"""Seats: whoever decides for a colour besides the hand at the board.

The referee asks its seat every tick what it decides (:meth:`Seat.update`)
and carries the answer out as a :data:`SeatAction`: a press of the seat's own
button, a resignation offered or answered, or the play it chose, which the
hand at the board carries out from -> to (:mod:`tavla_pi.game.carry`).  The
computer (:class:`~tavla_pi.game.computer.Computer`) is one seat; a
:class:`HandSeat` is the match between two players at the board, where the
hand decides for both colours; the remote board (:class:`~tavla_pi.game.friend.FriendSeat`)
is the third, whose seat also makes the dice (:meth:`Seat.ask_roll`); the online opponent
(:class:`~tavla_pi.game.online.OnlineSeat`) the fourth, whose server is the authority for
the dice and the game (it may refuse this board's play, end a game by a resignation, or
have the board follow its game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tavla_pi.events.types import EventType
from tavla_pi.game.carry import Undo
from tavla_pi.game.matchclock import MatchClock
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position


class Table(Protocol):
    """What a seat reads of the game (the referee's state)."""

    @property
    def phase(self) -> Phase:
        """The game's phase (the referee's state)."""
        ...

    @property
    def match(self) -> MatchState:
        """The game's match (the referee's state)."""
        ...

    resign: ResignDesk

    @property
    def settings(self) -> GameSettings:
        """The match's settings."""
        ...

    @property
    def turn(self) -> Turn | None:
        """The turn being moved (the referee's)."""
        ...
    @property
    def clock(self) -> MatchClock | None:
        """The game's clock (the referee's state)."""
        ...

    @property
    def undo(self) -> Undo | None:
        """The last play while it may be taken back."""
        ...

    def position(self) -> Position:
        """The committed position from the side of the player on roll."""
        ...


@dataclass(frozen=True)
class Press:
    """The seat presses its own button ``role`` (``roll``, ``cube``), long or short."""

    role: str
    long: bool = False


@dataclass(frozen=True)
class OffersResignation:
    """The seat offers to resign ``level`` before its roll."""

    level: Resignation


@dataclass(frozen=True)
class AnswersResignation:
    """The seat accepts (or declines) the resignation on offer."""

    accept: bool


@dataclass(frozen=True)
class Chooses:
    """The seat's play of the roll being moved, for the hand to carry out; None: the
    hand plays the roll itself.  ``kind``: the event that shows it (the computer's
    ``engine_play``, the remote board's ``remote_play``)."""

    play: Play | None
    kind: EventType = EventType.ENGINE_PLAY


@dataclass(frozen=True)
class Throws:
    """The dice of the roll the seat was asked for (:meth:`Seat.ask_roll`): an opening
    throw (white's die, black's die) or the roll of the player on roll."""

    dice: tuple[int, int]


@dataclass(frozen=True)
class LosesOnTime:
    """The seat's player's flag fell on the tournament clock its own board runs (a
    friend's board): the match is lost (docs/CLOCK.md)."""


@dataclass(frozen=True)
class TakesBack:
    """The last play is taken back (:attr:`Table.undo`): the friend's, at its board's
    word, or this board's, once the friend's board let it."""


@dataclass(frozen=True)
class KeepsPlay:
    """The friend's board declined this board's takeback (the friend's turn had begun):
    the play stands, and the board is to be put back to it."""


@dataclass(frozen=True)
class Concedes:
    """The seat's player resigned ``level`` where the game is kept (the online server):
    the offer is made and accepted at once."""

    level: Resignation


@dataclass(frozen=True)
class Refuses:
    """The authority over the game (the online server) refused the hand's last play, for
    ``reason``: the play is taken back, and the turn is open again."""

    reason: str


@dataclass(frozen=True)
class Follows:
    """The board follows the game as its authority (the online server) keeps it: this
    position (the player on roll's side) and match, whatever the game here was."""

    position: Position
    match: MatchState


SeatAction = (Press | OffersResignation | AnswersResignation | Chooses | Throws | LosesOnTime
              | TakesBack | KeepsPlay | Concedes | Refuses | Follows)
"""What a seat decides, once per decision."""


class Seat(Protocol):
    """Whoever decides for the colour the hand at the board does not play."""

    @property
    def name(self) -> str:
        """Who the seat is, as a refused press names it ("the computer")."""
        ...

    @property
    def color(self) -> Color | None:
        """The colour the seat plays (None: the hand plays both)."""
        ...

    @property
    def trouble(self) -> str | None:
        """Why the seat cannot decide now (None while it can)."""
        ...

    def undoes(self, player: Color) -> bool:
        """Whether a play of ``player``'s may be taken back until the other side moves
        (against the computer, the human's; with a friend's board, either's)."""
        ...

    def ask_takeback(self, undo: Undo) -> bool:
        """The board shows the hand's last play taken back: True when the seat must agree
        first (it answers with :class:`TakesBack`), False to take it back now."""
        ...

    @property
    def thinking(self) -> bool:
        """True while the seat weighs a decision (the view shows it)."""
        ...

    @property
    def pending(self) -> bool:
        """True while the seat's decision waits on time."""
        ...

    def plays(self, color: Color) -> bool:
        """Whether the seat decides for ``color``."""
        ...

    def refuses(self, color: Color, phase: Phase) -> bool:
        """Whether a press of ``color``'s button by the hand is refused in ``phase``."""
        ...

    def update(self, table: Table, now: int) -> SeatAction | None:
        """The seat's next decision at ``table``, once it is made."""
        ...

    def ask_roll(self, now: int) -> bool:
        """The hand asks for a roll: True when the seat makes the dice (they come later as
        :class:`Throws`), False when the board's own dice roll them now."""
        ...

    def withdraw(self) -> None:
        """Forget the decision under way (the game moved on)."""
        ...

    def wait(self, timeout_s: float) -> bool:
        """Block until the decision under way is made (replay and tests); False on timeout."""
        ...


class HandSeat:
    """Two players at the board: the hand decides for both colours."""

    name = "the hand"
    color: Color | None = None
    trouble: str | None = None
    thinking = False
    pending = False

    def plays(self, color: Color) -> bool:
        """The hand plays every colour."""
        return False

    def undoes(self, player: Color) -> bool:
        """Two players at the board agree on a takeback without it."""
        return False

    def ask_takeback(self, undo: Undo) -> bool:
        """Never asked (no play is left open to a takeback)."""
        return False

    def refuses(self, color: Color, phase: Phase) -> bool:
        """Every press is the hand's."""
        return False

    def update(self, table: Table, now: int) -> SeatAction | None:
        """Nothing to decide."""
        return None

    def ask_roll(self, now: int) -> bool:
        """The board's dice roll."""
        return False

    def withdraw(self) -> None:
        """Nothing under way."""

    def wait(self, timeout_s: float) -> bool:
        """Nothing under way."""
        return True

