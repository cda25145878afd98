"""What comes through the link from the friend's board, taken in one arrival at a time.

The link's own changes (up, down) are noted; the peer's payloads are believed only as
:class:`~tavla_pi.remote.peer.PeerWord` says.  A new connection of the peer's is greeted
(this board says who it is again, and its sync is due).  A sync of the peer's for the
bound match is answered here: the messages it did not take are sent again, once for
each of its syncs, and this board's sync is due when the peer sent more than it took.
A sync for another match is handed back to the session, which decides on the match
(:mod:`tavla_pi.remote.session`).  The peer's game messages of the bound match wait in
their window (:mod:`tavla_pi.remote.window`) until their turn.
"""

from __future__ import annotations

import logging

from tavla_pi.remote.link import Arrival, LinkChange
from tavla_pi.remote.messages import GameMessage, Status, Sync
from tavla_pi.remote.outgoing import Connection, Outbox
from tavla_pi.remote.peer import PeerWord
from tavla_pi.remote.record import RemoteRecord
from tavla_pi.remote.window import Held

log = logging.getLogger("tavla_pi.remote")


class Inbound:
    """The peer's word in (``word``), through ``link``, answered through ``out``; the
    peer's messages ``held`` until their turn (see the module)."""

    def __init__(self, word: PeerWord, link: Connection, out: Outbox) -> None:
        self.peer, self.word, self.link, self.out = word.peer, word, link, out
        self.refusals = word.refusals
        self.held = Held(word.refusals)
        self.link_up = False
        """Whether the link is connected to the broker (as it last said)."""
        self._said: set[str] = set()

    def arrived(self, arrival: Arrival, record: RemoteRecord | None) -> Sync | None:
        """Take ``arrival`` in (``record``: the bound match); a new sync of the peer's for
        another match, which the session decides on, else None."""
        if isinstance(arrival, LinkChange):
            self.link_up = arrival.connected
            self.out.sync_due = self.out.sync_due or self.link_up
            return None
        message = self.word.read(arrival)
        if isinstance(message, Status):
            return self._status(message, record)
        if isinstance(message, Sync):
            fresh = self.word.sync(message)
            return None if fresh is None else self._sync(fresh, record)
        if message is not None:
            self._message(message, record)
        return None

    def _status(self, status: Status, record: RemoteRecord | None) -> Sync | None:
        was = self.word.online
        presence = self.word.status(status)
        if was and not presence.online:
            log.warning("the board %s is gone (its last will, or it closed)", self.peer)
        if presence.new:  # the peer is back: say who this board is again, and where it is
            self.link.announce()
            self.out.sync_due = True
        return None if presence.sync is None else self._sync(presence.sync, record)

    def _sync(self, sync: Sync, record: RemoteRecord | None) -> Sync | None:
        """Answer the peer's sync (a new one) of the bound match; one of another match
        is returned."""
        if record is None or sync.match_uid != record.match_uid:
            return sync
        if sync.taken < len(record.sent):
            self.out.again(record, sync.taken)
        if sync.sent > record.taken and not self.held:
            self.out.sync_due = True
        return None

    def _message(self, message: GameMessage, record: RemoteRecord | None) -> None:
        if message.board != self.peer:
            self.refusals.refuse(f"{self.peer} other board", "ignored: a message from the "
                                 f"board {message.board}, not {self.peer}")
        elif record is None or message.match_uid != record.match_uid:
            self.refusals.refuse(f"{self.peer} other match", f"ignored: {self.peer}'s message "
                                 f"{message.seq} is for match {message.match_uid}, not "
                                 "this board's", level=logging.INFO)
        elif message.seq <= record.taken or message.seq in self.held:
            self._ignore(f"{self.peer}'s message {message.seq} again (already applied or held)")
        elif self.held.hold(message, record.taken):
            self.out.sync_due = self.out.sync_due or message.seq > record.taken + 1

    def _ignore(self, line: str) -> None:
        """Log an ignored message once (it may come again and again: resent)."""
        if line not in self._said:
            self._said.add(line)
            log.info("ignored: %s", line)
