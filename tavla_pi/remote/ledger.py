"""The bound remote match's record, changed only together with the journal's events.

Every change to the :class:`~tavla_pi.remote.record.RemoteRecord` of the match (a message
of this board's sent, one of the peer's taken, a commitment or contribution of the dice)
is made here with the event that records it (:mod:`tavla_pi.remote.record` folds those
events back), so the record and the journal never disagree.  The session
(:mod:`tavla_pi.remote.session`) decides what to do; this writes it down.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.remote.dice import commitment, new_contribution
from tavla_pi.remote.messages import Body, GameMessage, MatchBody, RevealBody
from tavla_pi.remote.outgoing import Outbox
from tavla_pi.remote.record import RemoteRecord
from tavla_pi.rules.color import Color


class Ledger:
    """Board ``board``'s record of its bound match (``record``, None while unbound) and the
    events of its changes (and of the connection), collected until :meth:`flush`; its
    messages go to ``out``."""

    def __init__(self, board: str, out: Outbox) -> None:
        self.board, self.out = board, out
        self.record: RemoteRecord | None = None
        self.now = 0
        """The time of the events emitted (the scan's, or the batch's latest)."""
        self._events: list[Event] = []

    def bound(self) -> RemoteRecord:
        """The record of the bound match (the caller knows one is bound)."""
        record = self.record
        assert record is not None
        return record

    def connection(self, peer: str, *, connected: bool) -> None:
        """Journal whether both boards are on the broker now (``remote_status``)."""
        self._emit(EventType.REMOTE_STATUS, peer=peer, connected=connected)

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        """Collect an event of ``kind`` at :attr:`now`."""
        self._events.append(Event(kind, self.now, fields))

    def flush(self) -> list[Event]:
        """The events collected since the last flush."""
        out, self._events = self._events, []
        return out

    # -- the match and its messages ------------------------------------------------------

    def bind(self, uid: str, peer: str, color: Color, length: int) -> None:
        """Play match ``uid`` (``length`` points, ``color`` for this board's player) with
        ``peer`` from now on; send it this board's first commitment."""
        self.record = RemoteRecord(uid, self.board, peer, color)
        self._emit(EventType.REMOTE_MATCH, **{
            "match_uid": uid, "peer": peer, "color": color.value})
        digest = self.commit(0)
        self.send(MatchBody(length, color.opponent, digest))
        self.out.sync_due = True

    def send(self, body: Body) -> None:
        """Number ``body`` as this board's next message, queue it and journal it sent."""
        record = self.bound()
        message = GameMessage(self.board, record.match_uid, len(record.sent) + 1, body)
        self.out.add(message)
        record.sent.append(message)
        self._emit(EventType.REMOTE_SENT, **{
            "match_uid": record.match_uid, "seq": message.seq, "message": message.to_json()})

    def take(self, seq: int) -> None:
        """The peer's message ``seq`` is applied: journal it taken."""
        record = self.bound()
        record.taken = seq
        self._emit(EventType.REMOTE_TAKEN, **{"match_uid": record.match_uid, "seq": seq})
        self.out.sync_due = True

    def rolled(self) -> None:
        """A roll of the match is made (the first: the match is no longer fresh)."""
        record = self.bound()
        record.rolls_made += 1
        self.out.sync_due = self.out.sync_due or record.rolls_made == 1

    # -- the dice ------------------------------------------------------------------------

    def commit(self, roll: int) -> str:
        """Choose and commit this board's contribution to ``roll``; its digest."""
        record = self.bound()
        contribution = new_contribution()
        digest = commitment(record.match_uid, roll, self.board, contribution)
        record.check.commit(self.board, roll, digest)
        record.own[roll] = contribution
        self._emit(EventType.DICE_COMMIT, **{
            "match_uid": record.match_uid, "roll": roll, "board": self.board,
            "digest": digest, "contribution": contribution})
        return digest

    def reveal(self, roll: int) -> None:
        """Reveal this board's contribution to ``roll`` and commit to the next one."""
        record = self.bound()
        contribution = record.own[roll]
        record.check.reveal(self.board, roll, contribution)
        self._emit(EventType.DICE_REVEAL, **{
            "match_uid": record.match_uid, "roll": roll, "board": self.board,
            "contribution": contribution})
        self.send(RevealBody(roll, contribution, self.commit(roll + 1)))

    def note_commit(self, board: str, roll: int, digest: str) -> None:
        """``board``'s commitment ``digest`` to ``roll`` (DiceError if it contradicts one)."""
        record = self.bound()
        record.check.commit(board, roll, digest)
        self._emit(EventType.DICE_COMMIT, **{
            "match_uid": record.match_uid, "roll": roll, "board": board, "digest": digest})

    def peer_reveal(self, peer: str, body: RevealBody) -> None:
        """The peer's contribution and next commitment (DiceError if they do not check);
        this board's own share follows if it was not revealed yet."""
        record = self.bound()
        record.check.reveal(peer, body.roll, body.contribution)
        self._emit(EventType.DICE_REVEAL, **{
            "match_uid": record.match_uid, "roll": body.roll, "board": peer,
            "contribution": body.contribution})
        self.note_commit(peer, body.roll + 1, body.commit)
        if not record.check.revealed(self.board, body.roll):
            self.reveal(body.roll)
