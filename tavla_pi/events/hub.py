"""The daemon's event fan-out: the current game's events, and live subscribers.

Events reach the hub only after the journal has them, so nothing a client
sees can be lost by a power cut.  A subscriber first gets the events of the
current game (from its ``game_started``; after a ``new_match``, from that),
then every new one; one that falls too far behind is dropped, never waited for.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType

GAME_STARTS = frozenset({EventType.GAME_STARTED, EventType.NEW_MATCH})
"""Events that begin a new "current game" for the event stream."""
MAX_PENDING = 10_000
"""Events a subscriber may fall behind by before it is dropped."""


class Subscription:
    """One reader of the stream: pending events and a wake-up."""

    def __init__(self, backlog: Iterable[Event], limit: int = MAX_PENDING) -> None:
        self._pending: deque[Event] = deque(backlog)
        self._limit = max(limit, len(self._pending))
        self._wake = asyncio.Event()
        self.dropped = False
        if self._pending:
            self._wake.set()

    def push(self, event: Event) -> None:
        """Queue ``event``; past the limit the subscription is dropped."""
        if self.dropped:
            return
        if len(self._pending) >= self._limit:
            self.dropped = True
            self._pending.clear()
        else:
            self._pending.append(event)
        self._wake.set()

    def drain(self) -> list[Event]:
        """Every pending event, at once."""
        out = list(self._pending)
        self._pending.clear()
        return out

    def close(self) -> None:
        """End the subscription: :meth:`next` returns None from now on."""
        self.dropped = True
        self._pending.clear()
        self._wake.set()

    async def next(self, timeout: float) -> Event | bool | None:
        """The next event; False after ``timeout`` seconds without one; None once dropped."""
        if not self._pending and not self.dropped:
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                return False
        if self.dropped:
            return None
        return self._pending.popleft()


class EventHub:
    """Keeps the current game's events and hands every new event to the subscribers."""

    def __init__(self) -> None:
        self.game: list[Event] = []
        self._subscribers: set[Subscription] = set()

    def load(self, events: Iterable[Event]) -> None:
        """Take the journal's events as history (no subscriber sees them live)."""
        for event in events:
            self._remember(event)

    def publish(self, events: Iterable[Event]) -> None:
        """New events, already journaled: remember them and pass them on."""
        for event in events:
            self._remember(event)
            for sub in self._subscribers:
                sub.push(event)

    def subscribe(self, *, history: bool = True) -> Subscription:
        """A new subscriber, starting with the current game's events (unless not ``history``)."""
        sub = Subscription(self.game if history else ())
        self._subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Forget ``sub`` (safe twice)."""
        self._subscribers.discard(sub)

    def close(self) -> None:
        """End every subscription (at shutdown)."""
        for sub in self._subscribers:
            sub.close()
        self._subscribers.clear()

    @property
    def subscribers(self) -> int:
        """How many clients follow the stream."""
        return len(self._subscribers)

    def _remember(self, event: Event) -> None:
        if event.type in GAME_STARTS:
            self.game = []
        self.game.append(event)
