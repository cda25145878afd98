"""What the friend's board says, believed only when it is that board's own and new.

Every payload from the friend's topics is read by :meth:`PeerWord.read`: its signature
by the friend's key first, then its format (:func:`~tavla_pi.remote.messages.read_payload`).
Whatever is refused goes through one :class:`~tavla_pi.ratelog.RefusalLog`, so that a
flood of forgeries or garbage is one line and a count, not a line each.

A signed message can still be old: anyone on the broker may have kept one and publish
it again (retained, too).  So presence and syncs are bound to the friend's connections.
Each connection of a board has a fresh random nonce, carried by its signed ``online``
status, by its signed last will (``gone``) and by every sync it publishes, with the
sync's serial number:

- a ``gone`` is believed only with the nonce of the latest ``online`` seen, so an old
  will replayed does not make the friend gone; an ``online`` of a connection whose
  ``gone`` was believed is not believed again;
- a sync is acted on only once its connection's ``online`` was seen (the latest sync of
  a connection not seen yet waits for it), and only once: a sync whose serial is not
  above the last one acted on for its connection is old.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass

from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.link import Received
from tavla_pi.remote.messages import (
    GameMessage,
    MessageError,
    Status,
    Sync,
    UnsignedError,
    read_payload,
)

CONNECTIONS_KEPT = 16
"""The friend's connections whose syncs are remembered (the oldest is forgotten)."""
CLOSED_KEPT = 32
"""The friend's connections remembered as gone (their ``online`` is not believed again)."""


@dataclass(frozen=True, slots=True)
class Presence:
    """What a status changed: whether the friend is online now, and whether this is a
    connection of the friend's not seen before (``new``), with the sync that waited for it."""

    online: bool
    new: bool = False
    sync: Sync | None = None


class PeerWord:
    """The friend's board ``peer`` of ``club``, whose key is ``key``: its payloads read and
    checked, its presence, and which of its syncs to act on (see the module)."""

    def __init__(self, peer: str, club: str, key: PublicKey, refusals: RefusalLog) -> None:
        self.peer, self.club, self.key = peer, club, key
        self.refusals = refusals
        self.online = False
        self._latest: str | None = None
        self._serials: OrderedDict[str, int] = OrderedDict()  # nonce -> last serial acted on
        self._closed: deque[str] = deque(maxlen=CLOSED_KEPT)
        self._waiting: Sync | None = None

    def read(self, arrival: Received) -> GameMessage | Sync | Status | None:
        """The message ``arrival`` carries, signed by the friend and well formed; None
        (the refusal logged) for anything else."""
        try:
            return read_payload(arrival.topic, arrival.payload, self.club, self.key)
        except UnsignedError as exc:
            self.refusals.refuse(f"{arrival.topic} unsigned {exc.claim}",
                                 f"refused: {exc}: not {self.peer}'s own")
        except MessageError as exc:
            self.refusals.refuse(f"{arrival.topic[:80]} malformed", f"refused: {exc}")
        return None

    def status(self, status: Status) -> Presence:
        """Take the friend's signed status in: what it changed."""
        nonce = status.nonce
        if nonce in self._closed:
            self.refusals.refuse(f"{self.peer} old status", f"ignored: {self.peer}'s "
                                 f"{'online' if status.online else 'gone'} of connection "
                                 f"{nonce}, which is gone (an old status, sent again)")
            return Presence(self.online)
        if not status.online:
            return self._gone(nonce)
        new = nonce not in self._serials
        self._serials[nonce] = self._serials.get(nonce, 0)
        self._serials.move_to_end(nonce)
        while len(self._serials) > CONNECTIONS_KEPT:
            self._serials.popitem(last=False)
        self._latest, self.online = nonce, True
        waiting = self._waiting
        if waiting is None or waiting.nonce != nonce:
            return Presence(online=True, new=new)
        self._waiting = None
        return Presence(online=True, new=new, sync=self.sync(waiting))

    def _gone(self, nonce: str) -> Presence:
        if nonce != self._latest:
            if self._latest is not None:
                self.refusals.refuse(f"{self.peer} old gone", f"ignored: a gone of "
                                     f"{self.peer}'s connection {nonce}, not of its latest "
                                     f"{self._latest} (an old last will, sent again?)")
            return Presence(self.online)
        self._closed.append(nonce)
        self._serials.pop(nonce, None)
        self._latest, self.online = None, False
        return Presence(online=False)

    def sync(self, sync: Sync) -> Sync | None:
        """``sync`` if it is to be acted on (new, of a connection seen online); None if it
        is old (logged) or waits for its connection's ``online``."""
        last = self._serials.get(sync.nonce)
        if last is None:
            self._waiting = sync
            return None
        if sync.serial < last:
            self.refusals.refuse(f"{self.peer} old sync", f"ignored: {self.peer}'s sync "
                                 f"{sync.serial} of connection {sync.nonce} again (acted on "
                                 f"up to {last}: an old sync, sent again)")
        if sync.serial <= last:  # the last one again is the broker's retained copy
            return None
        self._serials[sync.nonce] = sync.serial
        return sync
