"""This board's own decisions, read off the referee's events, as messages to the peer,
and those messages on their way (:class:`Outbox`).

The player here plays one colour; whatever the referee commits for that
colour (a play, a double, a take or drop, a resignation offered or answered,
its flag falling on the tournament clock) is told to the friend's board.  The
other colour's events here are the friend's own decisions carried out, and are
not sent back.  Rolls are not
messages of their own: both boards make them (:mod:`tavla_pi.remote.dice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.remote.link import Arrival
from tavla_pi.remote.messages import (
    Body,
    CubeBody,
    GameMessage,
    PlayBody,
    ResignBody,
    Sync,
    TimeBody,
)
from tavla_pi.remote.record import RemoteRecord
from tavla_pi.rules.color import Color


class Connection(Protocol):
    """What the session needs of the broker's connection (:class:`~tavla_pi.remote.link.Link`)."""

    @property
    def nonce(self) -> str | None:
        """The current connection's nonce (None before the first connect)."""
        ...

    def arrivals(self) -> Sequence[Arrival]:
        """What came since the last call: the messages, and the link's own changes."""
        ...

    def signed(self, leaf: str, data: dict[str, Any]) -> bytes:
        """``data`` signed by this board for its topic ``leaf``, as a payload."""
        ...

    def announce(self) -> None:
        """Say ``online`` again on the current connection."""
        ...

    def publish_game(self, payload: bytes) -> bool:
        """Send a game message (QoS 1)."""
        ...

    def publish_sync(self, payload: bytes) -> bool:
        """Publish this board's sync state (retained)."""
        ...


class Outbox:
    """This board's words to the peer on their way through ``link``: its game messages,
    signed and held until the journal has them, then published (and published again in
    answer to a sync of the peer's), and its sync state, published when due."""

    def __init__(self, board: str, link: Connection) -> None:
        self.board, self.link = board, link
        self.sync_due = True
        """Publish this board's sync state at the next :meth:`publish`."""
        self._payloads: list[bytes] = []
        self._syncs = 0

    def add(self, message: GameMessage) -> None:
        """Queue ``message``, signed; MessageError if a field of it is out of range."""
        self._payloads.append(self.link.signed("game", message.checked_json()))

    def again(self, record: RemoteRecord, taken: int) -> None:
        """Queue every message of ``record`` after the first ``taken`` again."""
        for message in record.sent[taken:]:
            self.add(message)

    def publish(self, record: RemoteRecord | None, *, link_up: bool) -> None:
        """Publish what is queued, and the sync state of ``record`` if due and the link is
        up (numbered: the peer acts on each sync once)."""
        for payload in self._payloads:
            self.link.publish_game(payload)
        self._payloads.clear()
        nonce = self.link.nonce
        if self.sync_due and link_up and nonce is not None:
            self._syncs += 1
            if record is None:
                sync = Sync(self.board, None, 0, 0, fresh=True, nonce=nonce, serial=self._syncs)
            else:
                sync = Sync(self.board, record.match_uid, len(record.sent), record.taken,
                            record.fresh, nonce, self._syncs)
            self.link.publish_sync(self.link.signed("sync", sync.checked_json()))
            self.sync_due = False




def own_body(event: Event, mine: Color, cube: int) -> Body | None:
    """The message body that tells the peer of ``event``, when it is this board's player's
    (``mine``) decision, or its flag's fall; ``cube``: the cube's value as the event left
    it."""
    if event.type is EventType.CLOCK:
        return TimeBody() if event.fields.get("flag") == mine.value else None
    return _decision_body(event, mine, cube)


def _decision_body(event: Event, mine: Color, cube: int) -> Body | None:
    """A play, cube action or resignation of this board's player's."""
    if event.fields.get("player") != mine.value:
        return None
    kind = event.type
    if kind is EventType.PLAYED:
        high, low = event["dice"]
        return PlayBody((high, low), event["play"], event["position_id"])
    if kind is EventType.DOUBLE_OFFERED:
        return CubeBody("double")
    if kind is EventType.DOUBLE_TAKEN:
        return CubeBody("beaver" if event.fields.get("beaver") else "take")
    if kind is EventType.DOUBLE_DROPPED:
        return CubeBody("drop")
    return _resign_body(event, cube)


def _resign_body(event: Event, cube: int) -> ResignBody | None:
    kind = event.type
    if kind is EventType.RESIGN_OFFERED:
        return ResignBody("offer", int(event["points"]) // max(cube, 1))
    if kind is EventType.RESIGN_ACCEPTED:
        return ResignBody("accept")
    if kind is EventType.RESIGN_DECLINED:
        return ResignBody("decline")
    return None
