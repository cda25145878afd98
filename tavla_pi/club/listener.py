"""The club page's subscription: paho-mqtt on its own thread, reading every board's
``status``, ``state`` and ``event`` of one club and handing each message over as it comes.

paho's network thread connects (retrying with backoff while the broker is away),
subscribes on every connect (a clean session: the retained ``status`` and ``state`` of
each board arrive first, so a page started late knows every board at once) and calls
``deliver(topic, payload)`` for each message.  ``deliver`` must be quick and thread-safe:
the server's is a :class:`Handoff` to its asyncio loop (``call_soon_threadsafe``), so the
HTTP loop never waits for the broker and the broker never waits for a page; what waits
for the loop is bounded in bytes (a flood the loop cannot keep up with is dropped and
counted, never held).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tavla_pi.clock import MonotonicClock
from tavla_pi.club.payloads import CLUB_LEAVES
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.link import log_in
from tavla_pi.remote.messages import MAX_CAST_BYTES
from tavla_pi.remote.settings import NetworkSettings

SUBSCRIBE_QOS = 1
HANDOFF_BYTES = 512 * 1024
"""The bytes of messages that may wait for the asyncio loop at once."""
log = logging.getLogger("tavla_pi.club")

Deliver = Callable[[str, bytes], None]


class ClubListener:
    """Subscribes to the boards of ``network.club`` on ``network.broker``; see the module."""

    def __init__(self, network: NetworkSettings, deliver: Deliver, *, keepalive_s: int = 10,
                 reconnect_max_s: int = 30, refusals: RefusalLog | None = None) -> None:
        if network.broker is None:
            raise ValueError("the club page needs a broker (--broker mqtt://HOST:PORT)")
        self._broker = network.broker
        self._deliver = deliver
        self._refusals = refusals or RefusalLog(log, MonotonicClock())
        self._keepalive_s = keepalive_s
        self._topics = [(f"tavla/{network.club}/+/{leaf}", SUBSCRIBE_QOS) for leaf in CLUB_LEAVES]
        self._lock = threading.Lock()
        self._connected = self._failing = self._started = False
        self.dropped = 0
        """Messages over the size limit, not delivered."""
        client = Client(CallbackAPIVersion.VERSION2,
                        f"tavla-club-{network.club[:20]}-{secrets.token_hex(4)}",
                        clean_session=True, protocol=MQTTProtocolVersion.MQTTv311)
        client.reconnect_delay_set(min_delay=1, max_delay=reconnect_max_s)
        log_in(client, network)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.suppress_exceptions = True
        self._client = client

    @property
    def connected(self) -> bool:
        """True while the broker has the page's connection."""
        with self._lock:
            return self._connected

    def start(self) -> None:
        """Connect in the background; never blocks."""
        with self._lock:
            if self._started:
                return
            self._started = True
        self._client.connect_async(self._broker.host, self._broker.port, self._keepalive_s)
        self._client.loop_start()

    def close(self) -> None:
        """Disconnect and stop paho's thread, then write the refusals' counts still held;
        safe twice."""
        with self._lock:
            started, self._started = self._started, False
        if started:
            self._client.disconnect()
            self._client.loop_stop()
        self._refusals.write_held()

    def __enter__(self) -> ClubListener:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            self._failed(f"refused the connection ({reason})")
            return
        with self._lock:
            self._connected, self._failing = True, False
        log.info("broker %s: connected; following %s", self._broker, self._topics[0][0])
        client.subscribe(self._topics)

    def _on_connect_fail(self, client: Client, userdata: Any) -> None:
        self._failed("unreachable")

    def _on_disconnect(self, client: Client, userdata: Any, flags: DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        with self._lock:
            was, self._connected = self._connected, False
        if was and self._started:
            self._failed(f"connection lost ({reason})")

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        try:
            name = message.topic
        except UnicodeDecodeError:
            self.dropped += 1
            return
        if len(message.payload) > MAX_CAST_BYTES:
            self.dropped += 1
            self._refusals.refuse("oversize", f"club: {name[:120]}: {len(message.payload)} "
                                  f"bytes dropped (at most {MAX_CAST_BYTES})")
            return
        self._deliver(name, bytes(message.payload))

    def _failed(self, what: str) -> None:
        """Log the first failure of a run (the next connect ends the run)."""
        with self._lock:
            if self._failing:
                return
            self._failing = True
        log.warning("broker %s: %s; retrying", self._broker, what)


class Handoff:
    """The listener's ``deliver`` for an asyncio loop: each message is handed to ``arrive``
    on ``loop``, at most ``limit`` bytes of them waiting at once; one more is dropped,
    counted (:attr:`dropped`) and said (``refusals``).  Called on paho's thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, arrive: Deliver,
                 refusals: RefusalLog, limit: int = HANDOFF_BYTES) -> None:
        self._loop, self._arrive, self._refusals = loop, arrive, refusals
        self._limit = limit
        self._lock = threading.Lock()
        self._waiting = 0
        self.dropped = 0
        """Messages dropped because the loop was too far behind."""

    def __call__(self, topic: str, payload: bytes) -> None:
        size = len(payload) + len(topic)
        with self._lock:
            full = self._waiting + size > self._limit
            if full:
                self.dropped += 1
            else:
                self._waiting += size
        if full:
            self._refusals.refuse("behind", f"club: {self._limit} bytes of messages wait for "
                                  f"the page's server; {topic[:120]} dropped")
            return
        try:
            self._loop.call_soon_threadsafe(self._handed, topic, payload, size)
        except RuntimeError:  # the loop closed while paho delivered
            with self._lock:
                self._waiting -= size

    def _handed(self, topic: str, payload: bytes, size: int) -> None:
        with self._lock:
            self._waiting -= size
        self._arrive(topic, payload)
