"""The remote side of a match: one game on two boards, kept one through the broker.

The daemon calls :meth:`RemoteGame.before` at each scan, before the referee
decides: what came from the peer is read, checked and handed on in order
(the friend's decisions to its seat, :class:`~tavla_pi.game.friend.FriendSeat`;
the dice's commitments and contributions to the match's
:class:`~tavla_pi.remote.dice.RollCheck`).  It calls :meth:`RemoteGame.after`
with every batch of events before they are journaled: this board's own
decisions become messages (:mod:`tavla_pi.remote.outgoing`), journaled as
``remote_sent`` in the same batch, and published only once the batch is on
disk (:meth:`RemoteGame.publish`).  A peer's message is applied exactly once:
its ``remote_taken`` is journaled in the batch of its effects.

What the peer says is believed only when it is signed by its key and new
(:mod:`tavla_pi.remote.peer`); what comes ahead of its turn is held, the next few
only (:mod:`tavla_pi.remote.window`).

Catching up: each board publishes its sync state (retained: the match, how
many messages it sent and took) when it took messages, when it connects, when it
sees a gap and when the peer comes back on a new connection.  A board that sees the
peer took fewer than it sent sends the rest again, once for each sync of the peer's:
resends answer the peer's signed syncs only, and an old sync (sent again by anyone)
is not answered.  A message that is not a legal continuation is refused, logged with
the reason, and the board shows the remote side out of sync (``trouble``); the game
here never changes by it.  The match's id binds both boards: a board adopts the
peer's new match only while neither has rolled (the smaller id wins when both
started one); otherwise it says so, and neither guesses.

The session decides; two parts do the rest: :class:`~tavla_pi.remote.inbound.Inbound`
takes each arrival in (the link's changes, the peer's presence, its syncs answered with
resends, its messages held), and :class:`~tavla_pi.remote.ledger.Ledger` writes every
change to the match's record (messages sent and taken, the dice) with its event.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tavla_pi.errors import DiceError
from tavla_pi.events.event import Event
from tavla_pi.events.types import ROLL_EVENTS, EventType
from tavla_pi.game.friend import (
    FriendCube,
    FriendDecision,
    FriendFlag,
    FriendPlay,
    FriendResign,
    FriendRoll,
    FriendSeat,
    FriendTakeback,
)
from tavla_pi.game.referee import Referee
from tavla_pi.game.seat import friend_seat
from tavla_pi.game.view import Phase
from tavla_pi.remote.inbound import Inbound
from tavla_pi.remote.ledger import Ledger
from tavla_pi.remote.messages import (
    Body,
    CubeBody,
    GameMessage,
    MatchBody,
    PlayBody,
    ResignBody,
    RevealBody,
    Sync,
    TakebackBody,
    TimeBody,
)
from tavla_pi.remote.outgoing import Connection, Outbox, own_body
from tavla_pi.remote.peer import PeerWord
from tavla_pi.remote.record import RemoteRecord, record_of
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import Resignation

log = logging.getLogger("tavla_pi.remote")



@dataclass(frozen=True)
class RemoteStatus:
    """``/api/state`` ``remote``: the peer, whether both are on the broker, who is awaited."""

    peer: str
    connected: bool
    waiting_for: str | None
    trouble: str | None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``/api/state`` (``trouble``: out of sync, and why)."""
        return {"peer": self.peer, "connected": self.connected,
                "waiting_for": self.waiting_for, "trouble": self.trouble}


class RemoteGame:
    """The remote side of the daemon: the peer's messages in (``word``: the peer, its key,
    the log of refusals; :class:`~tavla_pi.remote.inbound.Inbound`), this board's out
    through ``link``, the match's record kept (:class:`~tavla_pi.remote.ledger.Ledger`)."""

    def __init__(self, board: str, color: Color, link: Connection, word: PeerWord) -> None:
        self.board, self.peer, self.color = board, word.peer, color
        self.link = link
        self.trouble: str | None = None
        self.connected = False
        """As last journaled (``remote_status``)."""
        self.word, self.refusals = word, word.refusals
        self.out = Outbox(board, link)
        self.inbound = Inbound(word, link, self.out)
        self.ledger = Ledger(board, self.out)
        self._said: set[str] = set()

    @property
    def record(self) -> RemoteRecord | None:
        """The bound match as the journal records it (None: no match is bound)."""
        return self.ledger.record

    # -- the journal -------------------------------------------------------------------

    def load(self, events: Sequence[Event]) -> None:
        """Go on from the journal: the bound match, its messages and its dice."""
        self.ledger.record = record_of(events, self.board)
        last = next((e for e in reversed(events) if e.type is EventType.REMOTE_STATUS), None)
        self.connected = bool(last is not None and last["connected"])

    # -- the daemon's hooks --------------------------------------------------------------

    def before(self, referee: Referee, now: int) -> list[Event]:
        """Read what came from the peer and hand it on; the events that records."""
        self.ledger.now = now
        seat = friend_seat(referee.seat, self.peer)
        if seat is not None and self.record is None:
            self._bind(_new_uid(), referee)
        for arrival in self.link.arrivals():
            other = self.inbound.arrived(arrival, self.record)
            if other is not None:
                self._other_match(other, referee)
        self.refusals.flush()
        self._report_connection()
        if seat is not None:
            self._hand_on(referee, seat)
            seat.trouble = self.trouble
        return self.ledger.flush()

    def after(self, referee: Referee, events: Sequence[Event]) -> list[Event]:
        """The events that tell the peer of this batch's own decisions (journaled with it)."""
        self.ledger.now = max((e.t for e in events), default=self.ledger.now)
        for event in events:
            self._follow(event, referee)
        seat = friend_seat(referee.seat, self.peer)
        if seat is not None and self.record is not None:
            self._seat_done(seat)
            self._dice_step(seat)
            seat.trouble = self.trouble
        return self.ledger.flush()

    def publish(self) -> None:
        """Send what the journal now holds (after :meth:`after`'s batch is on disk)."""
        self.out.publish(self.record, link_up=self.inbound.link_up)

    def status(self, referee: Referee) -> RemoteStatus | None:
        """The remote side as ``/api/state`` shows it (None: this match is not with it)."""
        seat = friend_seat(referee.seat, self.peer)
        if seat is None:
            return None
        waiting = not self.connected or seat.thinking
        return RemoteStatus(self.peer, self.connected, self.peer if waiting else None,
                            self.trouble)

    # -- binding a match -----------------------------------------------------------------

    def _other_match(self, sync: Sync, referee: Referee) -> None:
        """The peer's sync is of another match than the bound one: adopt it while neither
        board has rolled (the smaller id wins), else say so."""
        record = self.record
        if sync.match_uid is None or friend_seat(referee.seat, self.peer) is None:
            return
        if record is not None and sync.fresh and self._fresh(referee) \
                and sync.match_uid < record.match_uid:
            log.info("%s started match %s too: this board plays it", self.peer, sync.match_uid)
            self._bind(sync.match_uid, referee)
        elif record is not None and not (sync.fresh and self._fresh(referee)):
            self._say(f"{self.peer} plays match {sync.match_uid}, this board "
                      f"{record.match_uid}: start a new match on both boards")

    def _bind(self, uid: str, referee: Referee) -> None:
        """Play match ``uid`` with the peer from now on; send it our first commitment."""
        self.inbound.held.clear()
        self.trouble = None
        self.ledger.bind(uid, self.peer, self.color, referee.match.match_length)

    def _fresh(self, referee: Referee) -> bool:
        record = self.record
        return (record is None or record.fresh) and referee.match.score == (0, 0) \
            and referee.phase in (Phase.SETUP, Phase.OPENING)

    # -- the peer's messages, in order ---------------------------------------------------

    def _hand_on(self, referee: Referee, seat: FriendSeat) -> None:
        """Apply the peer's next messages while the seat has nothing on offer."""
        record = self.ledger.bound()
        while seat.offered is None:
            if self._offer_roll(record, seat):
                return
            message = self.inbound.held.next(record.taken)
            if message is None:
                return
            self._apply(message, referee, seat)

    def _apply(self, message: GameMessage, referee: Referee, seat: FriendSeat) -> None:
        body = message.body
        decision = friend_decision(body)
        if decision is not None:
            seat.offer(decision, message.seq)
            return
        try:
            if isinstance(body, MatchBody):
                self._peer_match(body, referee)
                self.ledger.note_commit(self.peer, 0, body.commit)
            elif isinstance(body, RevealBody):
                self.ledger.peer_reveal(self.peer, body)
        except (DiceError, ValueError) as exc:
            self._refuse(message.seq, str(exc))
            return
        self._take(message.seq)
        self._dice_step(seat)

    def _peer_match(self, body: MatchBody, referee: Referee) -> None:
        if body.color is self.color.opponent:
            raise ValueError(f"{self.peer} plays {body.color.value} as this board does: "
                             "[opponent] color must be the other board's colour")
        length = referee.match.match_length
        if body.length != length:
            raise ValueError(f"{self.peer} plays a {body.length}-point match, this board "
                             f"{length} ([game] match_length)")

    def _offer_roll(self, record: RemoteRecord, seat: FriendSeat) -> bool:
        dice = record.check.dice(record.rolls_made)
        if dice is None:
            return False
        seat.offer(FriendRoll(record.rolls_made, dice), None)
        return True

    # -- after the referee ---------------------------------------------------------------

    def _follow(self, event: Event, referee: Referee) -> None:
        """Keep up with one of the referee's events; send what is this board's own."""
        if event.type is EventType.NEW_MATCH:
            self.ledger.record = None
            if event.fields.get("remote") == self.peer:
                self._bind(_new_uid(), referee)
            return
        if self.record is None or friend_seat(referee.seat, self.peer) is None:
            return
        if event.type in ROLL_EVENTS:
            self.ledger.rolled()
        body = own_body(event, self.color.opponent, referee.match.cube)
        if body is not None:
            self.ledger.send(body)

    def _seat_done(self, seat: FriendSeat) -> None:
        """The seat acted on the peer's decision (journal it taken), or refused it."""
        record = self.ledger.bound()
        if seat.taken is not None and seat.taken == record.taken + 1:
            self._take(seat.taken)
        if seat.refused is not None:
            ticket, reason = seat.refused
            seat.refused = None
            self._refuse(ticket, reason)
        if seat.to_send is not None:  # this board's ask for a takeback, or its answer
            self.ledger.send(TakebackBody(seat.to_send.action, seat.to_send.position_id))
            seat.to_send = None

    def _dice_step(self, seat: FriendSeat) -> None:
        """The hand here asked for the next roll: reveal this board's share (once the
        peer's commitment to it is in)."""
        record = self.ledger.bound()
        roll = record.rolls_made
        if seat.roll_asked and record.check.committed(self.peer, roll) \
                and not record.check.revealed(self.board, roll):
            self.ledger.reveal(roll)

    def _take(self, seq: int) -> None:
        """The peer's message ``seq`` applied: journaled taken, and in sync again."""
        self.ledger.take(seq)
        self.trouble = None

    # -- what is said --------------------------------------------------------------------

    def _refuse(self, seq: int | None, reason: str) -> None:
        """The peer's message ``seq`` cannot be applied: it is dropped (its number is not
        spent: the peer's own message of that number is still taken when it comes) and the
        board shows the remote side out of sync until a message applies again."""
        what = f"{self.peer}'s message {seq}" if seq is not None else f"{self.peer}'s roll"
        self.trouble = f"out of sync with {self.peer}: {reason}"
        self.refusals.refuse(f"{what} refused", f"refused {what}: {reason}; this board is "
                             f"out of sync with {self.peer}")

    def _say(self, line: str) -> None:
        """Show ``line`` as the trouble; log it the first time only."""
        self.trouble = line
        if line not in self._said:
            self._said.add(line)
            log.warning("%s", line)

    def _report_connection(self) -> None:
        connected = self.inbound.link_up and self.word.online
        if connected != self.connected:
            self.connected = connected
            self.ledger.connection(self.peer, connected=connected)
            if not connected:
                log.warning("waiting for %s: the %s", self.peer, "broker is not reached"
                            if not self.inbound.link_up else "board is away")


def _new_uid() -> str:
    return secrets.token_hex(16)


def friend_decision(body: Body) -> FriendDecision | None:
    """A body the friend's seat acts on; None for the dice's and the match's own."""
    if isinstance(body, PlayBody):
        return FriendPlay(body.dice, body.play, body.position_id)
    if isinstance(body, CubeBody):
        return FriendCube(body.action)
    if isinstance(body, ResignBody):
        level = None if body.level is None else Resignation(body.level)
        return FriendResign(body.action, level)
    if isinstance(body, TimeBody):
        return FriendFlag()
    if isinstance(body, TakebackBody):
        return FriendTakeback(body.action, body.position_id)
    return None
