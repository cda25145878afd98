"""The remote board's seat: a friend at another board plays one colour through the broker.

The remote side of the match (:mod:`tavla_pi.remote.session`) hands this seat
the friend's decisions one at a time, in the order the friend made them
(:meth:`FriendSeat.offer`), each with its ticket (the message's number).  The
seat acts on a decision once the game here has come to the point where it
fits (:func:`fit`): a play once the friend's roll is shown, an answer once the
double is offered, and so on; until then it waits (the hand here may still be
carrying out the friend's last play, or setting up the next game).  A decision
that cannot fit, a play that is not legal with the roll, is refused with the
reason and never changes the game.  The dice of a remote match come from both
boards (:mod:`tavla_pi.remote.dice`): a ROLL here asks for them
(:meth:`FriendSeat.ask_roll`) and they come back as a :class:`FriendRoll`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tavla_pi.events.types import EventType
from tavla_pi.game.carry import Undo
from tavla_pi.game.deciding import (
    AnswersResignation,
    Chooses,
    KeepsPlay,
    LosesOnTime,
    OffersResignation,
    Press,
    SeatAction,
    Table,
    TakesBack,
    Throws,
)
from tavla_pi.game.resign import answer_due
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, Resignation


@dataclass(frozen=True)
class FriendPlay:
    """The friend's play: its dice (high first), its notation and the Position ID after it."""

    dice: tuple[int, int]
    play: str
    position_id: str


@dataclass(frozen=True)
class FriendCube:
    """The friend's cube action: ``double``, ``take``, ``drop`` or ``beaver``."""

    action: str


@dataclass(frozen=True)
class FriendResign:
    """The friend offers to resign (``offer``, with its ``level``), or answers an offer
    (``accept``, ``decline``)."""

    action: str
    level: Resignation | None = None


@dataclass(frozen=True)
class FriendFlag:
    """The friend's flag fell on the tournament clock (the friend's board runs it)."""


@dataclass(frozen=True)
class FriendTakeback:
    """A takeback between the boards: the friend takes its last play back (``ask``), or
    its board lets this board's player take theirs back (``accept``) or not
    (``decline``); ``position_id``: the position the play is taken back to."""

    action: str
    position_id: str


@dataclass(frozen=True)
class FriendRoll:
    """The dice of roll number ``roll`` of the match, made by both boards."""

    roll: int
    dice: tuple[int, int]


FriendDecision = (FriendPlay | FriendCube | FriendResign | FriendRoll | FriendFlag
                  | FriendTakeback)
"""What the remote side hands the seat, once per decision of the friend's (or roll)."""


class Waits:
    """The decision does not fit the game yet: it is offered again on the next tick."""


WAITS: Final = Waits()


class Declined:
    """The friend's ask for a takeback came too late here: this board says no."""


DECLINED: Final = Declined()
BEHIND = (Phase.SETUP, Phase.GAME_OVER, Phase.NO_MOVE)
"""The phases in which this board is behind the friend's (a game to set up, a pass to
show): every decision waits."""
ROLLING = (Phase.OPENING, Phase.AWAIT_ROLL)
"""The phases in which a roll may be asked for."""
CUBE_PRESSES = {"double": Press("cube"), "take": Press("roll"), "drop": Press("cube"),
                "beaver": Press("cube", long=True)}
"""A cube action as the press of the friend's button that makes it here."""


def fit(decision: FriendDecision, table: Table,
        color: Color) -> SeatAction | Waits | Declined | str:
    """``decision`` of the friend (playing ``color``) as the seat's action at ``table``;
    :data:`WAITS` while the game here has not come to it; else why it cannot be."""
    phase = table.phase
    if phase is Phase.MATCH_OVER:
        return "the match is over"
    if isinstance(decision, FriendFlag):  # whatever the game here is doing, it is over
        return LosesOnTime() if table.clock is not None else \
            "this match has no clock here: give both boards the same [clock]"
    if phase in BEHIND:
        return WAITS
    if isinstance(decision, FriendTakeback):
        return _fit_takeback(decision, table, color)
    if isinstance(decision, FriendRoll):
        return _fit_roll(decision, phase)
    return _fit_decision(decision, table, color)


def _fit_decision(decision: FriendPlay | FriendCube | FriendResign, table: Table,
                  color: Color) -> SeatAction | str:
    """A play, cube action or resignation of the friend's in a game under way here."""
    if table.match.game_state is not GameState.PLAYING or table.phase is Phase.OPENING:
        return f"no {_what(decision)} before the game's opening roll"
    if isinstance(decision, FriendPlay):
        return _fit_play(decision, table, color)
    if isinstance(decision, FriendCube):
        return _fit_cube(decision, table, color)
    return _fit_resign(decision, table, color)


def _what(decision: FriendDecision) -> str:
    return {FriendPlay: "play", FriendCube: "cube action", FriendResign: "resignation",
            FriendRoll: "roll", FriendFlag: "flag", FriendTakeback: "takeback"}[type(decision)]


def _fit_takeback(takeback: FriendTakeback, table: Table,
                  color: Color) -> SeatAction | Waits | Declined | str:
    """The friend's ask, or its board's answer to this board's ask."""
    if takeback.action == "ask":
        return _fit_ask(takeback, table, color)
    undo = table.undo
    if undo is None or undo.player is color:  # closed since: the friend's turn went on
        return KeepsPlay() if takeback.action == "decline" else \
            "no takeback of this board's play is open for the friend's accept"
    return _same_start(takeback, undo) or (
        TakesBack() if takeback.action == "accept" else KeepsPlay())


def _fit_ask(takeback: FriendTakeback, table: Table,
             color: Color) -> SeatAction | Waits | Declined | str:
    """The friend takes its last play back, while this board's player has not begun its
    turn (no ROLL, double or resignation: a roll made is never made again); until the
    hand here has carried the play out, the ask waits."""
    undo = table.undo
    if table.phase is Phase.MOVING and table.match.on_roll is color:
        return WAITS
    if undo is None or undo.player is not color or table.phase is not Phase.AWAIT_ROLL:
        return DECLINED
    return _same_start(takeback, undo) or TakesBack()


def _same_start(takeback: FriendTakeback, undo: Undo) -> str | None:
    """Why ``takeback`` is not of ``undo``'s play (None: it is)."""
    shown = undo.start.position_id()
    if takeback.position_id != shown:
        return f"the takeback goes back to {takeback.position_id}, not to {shown}"
    return None


def _fit_roll(roll: FriendRoll, phase: Phase) -> SeatAction | Waits | str:
    if phase in (Phase.OPENING, Phase.AWAIT_ROLL):
        return Throws(roll.dice)
    if phase is Phase.MOVING:
        return WAITS  # the last play is still being carried out here
    return f"no roll now ({phase.value})"


def _fit_play(friend: FriendPlay, table: Table, color: Color) -> SeatAction | str:
    match, turn = table.match, table.turn
    if table.phase is not Phase.MOVING or match.on_roll is not color or turn is not None:
        return f"a play of {color.value}'s is not due ({table.phase.value}, " \
               f"{match.on_roll.value} on roll)"
    if match.dice is None or tuple(friend.dice) != (max(match.dice), min(match.dice)):
        shown = "none" if match.dice is None else f"{match.dice[0]}-{match.dice[1]}"
        return f"the play's dice {friend.dice[0]}-{friend.dice[1]} are not the roll ({shown})"
    for play in table.position().legal_plays(match.dice):
        if play.notation == friend.play and play.result.position_id() == friend.position_id:
            return Chooses(play, EventType.REMOTE_PLAY)
    return f"{friend.play} to {friend.position_id} is no legal play of " \
           f"{match.dice[0]}-{match.dice[1]}"


def _fit_cube(cube: FriendCube, table: Table, color: Color) -> SeatAction | str:
    phase, match = table.phase, table.match
    if cube.action == "double" and phase is Phase.AWAIT_ROLL and match.on_roll is color:
        return CUBE_PRESSES["double"]
    if cube.action != "double" and phase is Phase.DOUBLE_OFFERED and match.to_act is color:
        return CUBE_PRESSES[cube.action]
    return f"no {cube.action} by {color.value} now ({phase.value})"


def _fit_resign(resign: FriendResign, table: Table, color: Color) -> SeatAction | str:
    phase, match = table.phase, table.match
    if resign.action == "offer" and resign.level is not None \
            and phase is Phase.AWAIT_ROLL and match.on_roll is color:
        return OffersResignation(resign.level)
    if resign.action in ("accept", "decline") and answer_due(phase, match, color):
        return AnswersResignation(accept=resign.action == "accept")
    return f"no resignation {resign.action} by {color.value} now ({phase.value})"


class FriendSeat:
    """The colour a friend's board plays: its decisions as they come, the rolls asked."""

    pending = False

    def __init__(self, peer: str, color: Color) -> None:
        self.peer = peer
        self._color = color
        self.trouble: str | None = None
        """Why the friend's board cannot play now (out of sync, or not reached)."""
        self.offered: tuple[FriendDecision, int | None] | None = None
        """The friend's next decision and its ticket (None: a roll, not a message)."""
        self.taken: int | None = None
        """The ticket of the last decision acted on (the remote side journals it)."""
        self.refused: tuple[int | None, str] | None = None
        """The ticket of a decision that cannot fit, and why."""
        self.roll_asked = False
        """True once the hand here asked for a roll (the remote side reveals its share)."""
        self.asking: str | None = None
        """The position this board's player took its last play back to, while the
        friend's board is asked (its answer comes as a :class:`FriendTakeback`)."""
        self.to_send: FriendTakeback | None = None
        """A takeback message due to the friend's board: this board's ask or answer."""
        self._waiting = False

    @property
    def name(self) -> str:
        """The board as a refused press names it."""
        return f"the board {self.peer}"

    @property
    def color(self) -> Color:
        """The colour the friend plays."""
        return self._color

    @property
    def thinking(self) -> bool:
        """True while the game waits on the friend (the lights show it waiting)."""
        return self._waiting

    def plays(self, color: Color) -> bool:
        """Whether the friend plays ``color``."""
        return color is self._color

    def refuses(self, color: Color, phase: Phase) -> bool:
        """The friend's colour's buttons here do nothing; nor do this board's while the
        dice it asked for are on their way."""
        return self.plays(color) or (self.roll_asked and phase in ROLLING)

    def undoes(self, player: Color) -> bool:
        """Either player's last play may be taken back, the friend's at its board's word
        and this board's player's once the friend's board agrees."""
        return True

    def ask_takeback(self, undo: Undo) -> bool:
        """This board's player took its last play back on the board: ask the friend's
        board (once); the game here waits for its answer."""
        position_id = undo.start.position_id()
        if self.asking != position_id:
            self.asking = position_id
            self.to_send = FriendTakeback("ask", position_id)
        return True

    def offer(self, decision: FriendDecision, ticket: int | None) -> None:
        """Hand the seat the friend's next decision (one at a time)."""
        self.offered, self.refused = (decision, ticket), None

    def ask_roll(self, now: int) -> bool:
        """A ROLL here: both boards make the dice; they come back as a :class:`FriendRoll`."""
        self.roll_asked = True
        return True

    def update(self, table: Table, now: int) -> SeatAction | None:
        """The decision on offer as the seat's action, once it fits the game here."""
        self._waiting = _friend_to_act(table, self._color) or self.asking is not None
        if self.offered is None:
            return None
        decision, ticket = self.offered
        begun = self.roll_asked and isinstance(decision, FriendTakeback) \
            and decision.action == "ask"  # this board's player asked for the dice
        fitted = DECLINED if begun else fit(decision, table, self._color)
        if isinstance(fitted, Waits):
            return None
        self.offered = None
        if isinstance(fitted, str):
            self.refused = (ticket, fitted)
            return None
        self.taken = ticket if ticket is not None else self.taken
        self.asking = None  # answered, or the friend moved on: the ask is over
        if isinstance(fitted, Declined):
            assert isinstance(decision, FriendTakeback)
            self.to_send = FriendTakeback("decline", decision.position_id)
            return None  # taken: nothing changes here
        if isinstance(fitted, TakesBack) and isinstance(decision, FriendTakeback) \
                and decision.action == "ask":
            self.to_send = FriendTakeback("accept", decision.position_id)
        if isinstance(fitted, Throws):
            self.roll_asked = False
        return fitted

    def withdraw(self) -> None:
        """The game moved on here (a new match): nothing is kept on offer."""
        self.offered, self.roll_asked = None, False
        self.asking = self.to_send = None

    def wait(self, timeout_s: float) -> bool:
        """Nothing to wait for in real time: the friend's decisions come by message."""
        return True


def _friend_to_act(table: Table, color: Color) -> bool:
    """Whether the game waits on the friend's decision."""
    phase, match = table.phase, table.match
    if phase in (Phase.AWAIT_ROLL, Phase.MOVING):
        return match.on_roll is color and table.turn is None
    if phase is Phase.DOUBLE_OFFERED:
        return match.to_act is color
    return answer_due(phase, match, color)
