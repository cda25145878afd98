"""The board's game for viewers: every committed event, and the state after it, published
under ``tavla/<club>/<board>/`` (``event``; ``state``, retained) for the club's page.

The scan loop only :meth:`~Broadcast.offer`\\ s what it committed: the events go into a
bounded queue (what overflows is dropped and counted, one log line per run of drops)
and the state into a single slot that always holds the newest.  A worker thread hands
them to the board's connection (:class:`~tavla_pi.remote.link.Link`, paho's own thread
sends them): the events in order, then the state that follows them, at most
:data:`IN_FLIGHT` unacknowledged at a time (the rest of paho's queue stays the remote
game's).  Nothing is handed over while the broker is away; on every reconnect the
last state is sent again (a broker that restarted without persistence lost it).
A broker that is down or blocks therefore costs the scan loop one lock and an append.

The payloads (docs/CLUB.md, "Topics and payloads"), compact JSON of at most
:data:`~tavla_pi.remote.messages.MAX_CAST_BYTES` bytes, each signed by the board's key
as everything it publishes (``"sig"`` over the topic and every other field: the
outlet's :meth:`~tavla_pi.remote.link.Link.signed`):

- ``event``: ``{"v":1,"board":B,"seq":N,"at":WALL_MS,"event":{...},"sig":S}``, the event
  as /api/events sends it; ``seq`` counts the events offered in this run, from 1 (a gap
  is events dropped); ``at`` is the wall clock (ms) when the board committed it.
- ``state``: ``{"v":1,"board":B,"seq":N,"at":WALL_MS,"dropped":D,"state":{...},"sig":S}``,
  the :data:`STATE_KEYS` of /api/state after the event ``seq``; ``dropped`` counts the
  events dropped so far in this run.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from tavla_pi.events.event import Event
from tavla_pi.remote.messages import BOARD_NAME, FORMAT, MAX_CAST_BYTES

STATE_KEYS = ("phase", "on_roll", "position_id", "match_id", "board", "dice", "dice_used",
              "cube", "score", "match_length", "variant", "winner", "points_won", "clock",
              "players", "remote", "events")
"""The keys of /api/state a viewer needs (those /api/state has are sent)."""
OUTBOX_BOUND = 512
"""The events held for the broker; a whole game is a few hundred."""
IN_FLIGHT = 64
"""The broadcast's messages paho may hold unacknowledged at once."""
RETRY_S = 0.05
"""How often the worker looks again while the broker is away or the window is full."""
IDLE_S = 1.0
"""How often an idle worker looks for a reconnect (to send the last state again)."""
CLOSE_GRACE_S = 1.0
"""How long :meth:`Broadcast.close` lets what waits go out to a connected broker."""
_log = logging.getLogger("tavla_pi.remote")


class Sent(Protocol):
    """A message handed over (:class:`~tavla_pi.remote.link.Delivery`)."""

    def done(self) -> bool:
        """True once it no longer waits for the broker."""
        ...


class Outlet(Protocol):
    """Where the broadcast's messages go: the board's :class:`~tavla_pi.remote.link.Link`."""

    @property
    def connected(self) -> bool:
        """True while the broker has the board's connection."""
        ...

    @property
    def connects(self) -> int:
        """How many times the broker has accepted the connection."""
        ...

    def signed(self, leaf: str, data: Mapping[str, Any]) -> bytes:
        """``data`` as the board publishes it on ``leaf``: signed, compact JSON (ValueError
        if it is not JSON)."""
        ...

    def cast(self, leaf: str, payload: bytes) -> Sent | None:
        """Hand over an ``event`` or the ``state`` (retained); None if it cannot be queued."""
        ...


@dataclass(frozen=True, slots=True)
class _Offered:
    """An event offered (``state`` None) or a state after the event ``seq``."""

    seq: int
    at_ms: int
    event: Event | None = None
    state: Mapping[str, Any] | None = None


def viewer_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`STATE_KEYS` that ``state`` (an /api/state object) has."""
    return {key: state[key] for key in STATE_KEYS if key in state}


def event_json(board: str, seq: int, at_ms: int, event: Mapping[str, Any]) -> dict[str, Any]:
    """The ``event`` payload's object (before it is signed) of the event object ``event``
    (as /api/events has it)."""
    return {"v": FORMAT, "board": board, "seq": seq, "at": at_ms, "event": event}


def state_json(board: str, seq: int, at_ms: int, dropped: int,
               state: Mapping[str, Any]) -> dict[str, Any]:
    """The ``state`` payload's object (before it is signed): the viewer's keys of
    ``state`` after the event ``seq``."""
    return {"v": FORMAT, "board": board, "seq": seq, "at": at_ms, "dropped": dropped,
            "state": viewer_state(state)}


class Broadcast:
    """Board ``board``'s events and state, handed to ``outlet`` by a worker thread (see the
    module); ``wall`` is the wall clock in seconds (``time.time``)."""

    def __init__(self, board: str, outlet: Outlet, *, bound: int = OUTBOX_BOUND,
                 window: int = IN_FLIGHT, wall: Callable[[], float] = time.time) -> None:
        if BOARD_NAME.fullmatch(board) is None:
            raise ValueError(f"board {board!r}: expected a name [a-z0-9-]{{1,32}}")
        if bound < 1 or window < 1:
            raise ValueError(f"bound {bound}, window {window}: each must be at least 1")
        self.board = board
        self._outlet = outlet
        self._bound, self._window, self._wall = bound, window, wall
        self._queue: deque[_Offered] = deque()
        self._state: _Offered | None = None  # the newest state, not yet handed over
        self._cond = threading.Condition()
        self._seq = self._dropped = self._sent = 0
        self._dropping = self._closing = False
        self._flying: list[Sent] = []  # the worker's alone from here on
        self._last: tuple[_Offered, Sent] | None = None
        self._connects = 0
        self._thread: threading.Thread | None = None

    # -- the scan loop's side ---------------------------------------------------------

    def offer(self, events: Sequence[Event], state: Mapping[str, Any]) -> None:
        """Queue ``events`` (committed just now) and ``state`` (/api/state after them);
        never blocks.  ``state`` must not change afterwards (a fresh snapshot)."""
        at_ms = int(self._wall() * 1000)
        with self._cond:
            for event in events:
                self._seq += 1
                self._queue_event(_Offered(self._seq, at_ms, event=event))
            self._state = _Offered(self._seq, at_ms, state=state)
            self._cond.notify()

    def _queue_event(self, item: _Offered) -> None:
        """Queue an event, or drop and count it (the lock held)."""
        if len(self._queue) < self._bound:
            self._queue.append(item)
            self._dropping = False
            return
        self._dropped += 1
        if not self._dropping:
            self._dropping = True
            _log.warning("broadcast: %d events wait for the broker; dropping what comes "
                         "until they are sent (from event %d)", self._bound, item.seq)

    @property
    def offered(self) -> int:
        """The events offered in this run (the last ``seq``)."""
        with self._cond:
            return self._seq

    @property
    def dropped(self) -> int:
        """The events dropped in this run: the queue was full, or the payload too big."""
        with self._cond:
            return self._dropped

    @property
    def sent(self) -> int:
        """The messages (events and states) handed over so far."""
        with self._cond:
            return self._sent

    @property
    def waiting(self) -> int:
        """The events queued, not yet handed over."""
        with self._cond:
            return len(self._queue)

    # -- the worker's side ------------------------------------------------------------

    def start(self) -> None:
        """Start the worker thread; safe twice."""
        with self._cond:
            if self._thread is not None or self._closing:
                return
            self._thread = threading.Thread(target=self._run, name="tavla-broadcast",
                                            daemon=True)
        self._thread.start()

    def pump(self) -> bool:
        """Hand over what the outlet may take now: queued events in order, then the newest
        state; True if anything was handed over.  The worker's (or a test's) alone."""
        if not self._outlet.connected:
            return False
        self._flying = [sent for sent in self._flying if not sent.done()]
        self._after_connect()
        moved = False
        while len(self._flying) < self._window:
            item = self._next()
            if item is None:
                break
            leaf, payload = self._payload(item)
            if payload is None:
                continue
            sent = self._outlet.cast(leaf, payload)
            if sent is None:  # paho's queue is full (the remote game's messages wait)
                self._not_handed(item)
                break
            self._handed(item, sent)
            moved = True
        return moved

    def _after_connect(self) -> None:
        """After a reconnect, the last state again, unless a newer one waits or paho still
        holds it (paho resends what was not acknowledged)."""
        connects = self._outlet.connects
        if connects == self._connects:
            return
        self._connects = connects
        if self._last is None or not self._last[1].done():
            return
        with self._cond:
            if self._state is None:
                self._state = self._last[0]

    def _next(self) -> _Offered | None:
        with self._cond:
            if self._queue:
                return self._queue.popleft()
            item, self._state = self._state, None
            return item

    def _handed(self, item: _Offered, sent: Sent) -> None:
        self._flying.append(sent)
        with self._cond:
            self._sent += 1
        if item.state is not None:
            self._last = item, sent

    def _payload(self, item: _Offered) -> tuple[str, bytes | None]:
        """The leaf and payload of ``item``; None (counted) if it cannot be sent."""
        leaf = "event" if item.event is not None else "state"
        try:
            if item.event is not None:
                data = event_json(self.board, item.seq, item.at_ms, item.event.to_dict())
            else:
                assert item.state is not None
                data = state_json(self.board, item.seq, item.at_ms, self.dropped, item.state)
            payload: bytes | None = self._outlet.signed(leaf, data)
        except (TypeError, ValueError) as exc:  # not JSON (a NaN): a fault, said once each
            _log.error("broadcast: %s %d not sent: %s", leaf, item.seq, exc)
            payload = None
        if payload is not None and len(payload) > MAX_CAST_BYTES:
            _log.info("broadcast: %s %d not sent: %d bytes (at most %d)", leaf, item.seq,
                      len(payload), MAX_CAST_BYTES)
            payload = None
        if payload is None and item.event is not None:
            with self._cond:
                self._dropped += 1
        return leaf, payload

    def _not_handed(self, item: _Offered) -> None:
        """An item paho would not queue: an event is dropped, a state waits again."""
        with self._cond:
            if item.event is not None:
                self._dropped += 1
            elif self._state is None:
                self._state = item

    def _run(self) -> None:
        deadline: float | None = None
        while True:
            with self._cond:
                pending = bool(self._queue) or self._state is not None
                if self._closing:
                    deadline = deadline or time.monotonic() + CLOSE_GRACE_S
                    if not pending or time.monotonic() > deadline:
                        return
                elif not pending:
                    self._cond.wait(IDLE_S)
            try:
                moved = self.pump()
            except Exception:  # a fault here must not end the broadcast; said, and on
                _log.exception("broadcast: a fault in handing over a message")
                moved = False
            if not moved:
                with self._cond:
                    self._cond.wait(RETRY_S)

    # -- the end ----------------------------------------------------------------------

    def close(self) -> None:
        """Let what waits go out for up to :data:`CLOSE_GRACE_S` (if the broker is there),
        then stop the worker; safe twice.  The connection is its owner's to close."""
        with self._cond:
            self._closing = True
            thread, self._thread = self._thread, None
            self._cond.notify()
        if thread is not None:
            thread.join(CLOSE_GRACE_S + 1)

    def __enter__(self) -> Broadcast:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
