"""The board's one connection to the MQTT broker: publishes its game and sync messages and
its broadcast (:mod:`tavla_pi.remote.broadcast`), hands over what its peer sends (a board
without a friend's board has no peer and reads nothing), and never blocks the daemon's
scan loop.

paho-mqtt's network thread does all the talking: it connects (retrying with backoff
while the broker is away, the first connect too), keeps a persistent session (the
broker holds QoS 1 messages while the board is gone), says ``online`` on every connect
and leaves ``gone`` as its last will.  The scan loop only queues publishes (paho holds
them while disconnected) and drains :meth:`Link.arrivals`: the messages and the link's
own connects and disconnects, in the order they happened.

Everything the board publishes is signed with its key (:mod:`tavla_pi.remote.keys`,
:meth:`Link.signed`).  Each connection has a fresh random nonce, made just before paho
connects: the will (``gone``) is signed then with that nonce, for that connection only,
and the ``online`` said on the connect carries the same nonce, so that a reader believes
a ``gone`` only of the connection it saw come online (:mod:`tavla_pi.remote.peer`).  The
MQTT client id comes from the private key (:meth:`~tavla_pi.remote.keys.BoardKey.client_id`):
the same on every start, and nobody without the key can take the board's session.
"""

from __future__ import annotations

import json
import logging
import secrets
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage, MQTTMessageInfo
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tavla_pi.bounded import read_file, read_text
from tavla_pi.clock import Clock, MonotonicClock
from tavla_pi.errors import ConfigError
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.messages import (
    CAST_LEAVES,
    LEAVES,
    MAX_CAST_BYTES,
    MAX_MESSAGE_BYTES,
    Status,
    topic,
)
from tavla_pi.remote.settings import Broker, NetworkSettings

QUEUE_BOUND = 1000
"""Arrivals held for the scan loop, and publishes paho holds while disconnected."""
PASSWORD_LIMIT = 1024
"""The largest password file read."""
CA_LIMIT = 1 << 20
"""The largest CA file accepted."""
QOS = 1
NONCE_BYTES = 16
"""A connection's nonce: 16 random bytes, as 32 hex digits."""
_log = logging.getLogger("tavla_pi.remote")
_paho_log = logging.getLogger("tavla_pi.remote.paho")
_LOST = 0x80
"""The reason code paho gives a connection that broke (MQTT's "Unspecified error")."""


@dataclass(frozen=True, slots=True)
class Received:
    """A message from the peer's topics, as it came (decoding is messages.py's)."""

    topic: str
    payload: bytes


@dataclass(frozen=True, slots=True)
class LinkChange:
    """The link itself connected (``connected`` True) or lost the broker."""

    connected: bool
    reason: str


Arrival = Received | LinkChange


class Delivery:
    """A broadcast message handed to paho: :meth:`done` once it no longer waits in paho's
    queue for the broker (acknowledged, or handed over in a disconnect's race, when paho
    keeps it for the next connection and the broadcast no longer counts it)."""

    __slots__ = ("_info",)

    def __init__(self, info: MQTTMessageInfo) -> None:
        self._info = info

    def done(self) -> bool:
        """True once the broker has it (or paho holds it for the next connection)."""
        try:
            return self._info.is_published()
        except RuntimeError:  # queued while the connection dropped: paho resends it
            return True


class _Inbox:
    """The arrivals not yet read: thread-safe, at most ``bound``; what overflows is dropped."""

    def __init__(self, bound: int) -> None:
        self._items: deque[Arrival] = deque()
        self._bound = bound
        self._lock = threading.Lock()
        self._dropped = 0
        self._full = False  # a warning said since the last drain

    def put(self, item: Arrival) -> None:
        """Queue ``item``, or drop and count it if the queue is full."""
        with self._lock:
            if len(self._items) < self._bound:
                self._items.append(item)
                return
            self._dropped += 1
            warn, self._full = not self._full, True
        if warn:
            _log.warning("link: %d arrivals unread; dropping what comes until they are read",
                         self._bound)

    def drop(self) -> None:
        """Count one arrival dropped before it was queued."""
        with self._lock:
            self._dropped += 1

    def drain(self) -> list[Arrival]:
        """Everything queued, oldest first; the queue is then empty."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._full = False
        return items

    @property
    def dropped(self) -> int:
        """How many arrivals were dropped so far."""
        with self._lock:
            return self._dropped


class Link:
    """This board's connection to the broker, signing with ``key``, and, with a ``peer``
    (the friend's board), that board's three topics (see the module); ``clock`` times the
    refusals' log (the monotonic clock unless told)."""

    def __init__(self, network: NetworkSettings, peer: str | None = None, *, key: BoardKey,
                 keepalive_s: int = 5, reconnect_max_s: int = 30,
                 clock: Clock | None = None) -> None:
        self._broker, self._board = _checked(network, peer, keepalive_s, reconnect_max_s)
        self._key = key
        self._keepalive_s = keepalive_s
        self._own = {leaf: topic(network.club, self._board, leaf)
                     for leaf in (*LEAVES, *CAST_LEAVES)}
        self._peers = [] if peer is None else [topic(network.club, peer, leaf) for leaf in LEAVES]
        self._inbox = _Inbox(QUEUE_BOUND)
        self._refusals = RefusalLog(_log, clock or MonotonicClock())
        self._lock = threading.Lock()
        self._connected = self._failing = self._started = self._closed = False
        self._connects = 0
        self._nonce: str | None = None  # the connection's, once the broker accepted it
        self._next_nonce = _new_nonce()  # the one the next connect says
        self._client = self._new_client(network, reconnect_max_s)

    def _new_client(self, network: NetworkSettings, reconnect_max_s: int) -> Client:
        client = Client(CallbackAPIVersion.VERSION2, self._key.client_id(),
                        clean_session=False, protocol=MQTTProtocolVersion.MQTTv311)
        client.reconnect_delay_set(min_delay=1, max_delay=reconnect_max_s)
        client.max_queued_messages_set(QUEUE_BOUND)
        _login(client, network)
        if self._broker.tls:
            _tls(client, network.ca_file)
        client.on_pre_connect = self._on_pre_connect
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_log = _on_log
        client.suppress_exceptions = True  # a fault in a callback must not end the thread
        return client

    def _status(self, nonce: str, *, online: bool) -> bytes:
        return self.signed("status", Status(self._board, online, nonce).checked_json())

    def signed(self, leaf: str, data: Mapping[str, Any]) -> bytes:
        """``data`` as this board publishes it on its topic ``leaf``: signed, compact JSON.
        ValueError if it is not JSON (a NaN)."""
        signed = self._key.signed(self._own[leaf], dict(data))
        return json.dumps(signed, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False).encode("utf-8")

    @property
    def nonce(self) -> str | None:
        """The current connection's nonce (None before the broker first accepted one)."""
        with self._lock:
            return self._nonce

    def start(self) -> None:
        """Connect in the background (paho retries until the broker answers); never blocks."""
        with self._lock:
            if self._started or self._closed:
                return
            self._started = True
        self._client.connect_async(self._broker.host, self._broker.port, self._keepalive_s)
        self._client.loop_start()

    def publish_game(self, payload: bytes) -> bool:
        """Send a game message (QoS 1); False if paho's queue is full (the board is away long)."""
        return self._publish("game", payload, retain=False)

    def publish_sync(self, payload: bytes) -> bool:
        """Send this board's sync state (QoS 1, retained); False if paho's queue is full."""
        return self._publish("sync", payload, retain=True)

    def cast(self, leaf: str, payload: bytes) -> Delivery | None:
        """Send a broadcast message (QoS 1): an ``event``, or the ``state`` (retained);
        None if paho's queue is full.  Never blocks (paho's thread sends it)."""
        if leaf not in CAST_LEAVES:
            raise ValueError(f"{leaf!r}: not a broadcast topic ({', '.join(CAST_LEAVES)})")
        info = self._send(leaf, payload, retain=leaf == "state", limit=MAX_CAST_BYTES)
        return None if info is None else Delivery(info)

    def _publish(self, leaf: str, payload: bytes, *, retain: bool) -> bool:
        return self._send(leaf, payload, retain=retain, limit=MAX_MESSAGE_BYTES) is not None

    def _send(self, leaf: str, payload: bytes, *, retain: bool,
              limit: int) -> MQTTMessageInfo | None:
        name = self._own[leaf]
        if len(payload) > limit:
            raise ValueError(f"{name}: {len(payload)} bytes (at most {limit})")
        info = self._client.publish(name, payload, QOS, retain)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            _log.warning("%s: not sent: %d messages wait for the broker", name, QUEUE_BOUND)
            return None
        return info

    def announce(self) -> None:
        """Say ``online`` again on this connection (the friend's board came back and may
        not have seen it: someone may have published over the retained one)."""
        with self._lock:
            nonce = self._nonce if self._connected else None
        if nonce is not None:
            self._client.publish(self._own["status"], self._status(nonce, online=True),
                                 qos=QOS, retain=True)

    def arrivals(self) -> list[Arrival]:
        """Everything that came in since the last call, oldest first."""
        self._refusals.flush()
        return self._inbox.drain()

    @property
    def connected(self) -> bool:
        """True while the broker has accepted this board's connection."""
        with self._lock:
            return self._connected

    @property
    def connects(self) -> int:
        """How many times the broker has accepted this board's connection so far."""
        with self._lock:
            return self._connects

    @property
    def dropped(self) -> int:
        """Arrivals dropped: payloads over the limit, and those that found the queue full."""
        return self._inbox.dropped

    def close(self) -> None:
        """Say ``gone`` (a clean disconnect does not fire the will), disconnect and write the
        refusals' counts still held; safe twice."""
        with self._lock:
            if self._closed:
                return
            self._closed, started, connected = True, self._started, self._connected
            nonce = self._nonce
        if started:
            if connected and nonce is not None:
                self._client.publish(self._own["status"], self._status(nonce, online=False),
                                     qos=QOS, retain=True)
            self._client.disconnect()
            self._client.loop_stop()
        self._refusals.write_held()

    def __enter__(self) -> Link:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # paho's callbacks, run on its network thread

    def _on_pre_connect(self, client: Client, userdata: Any) -> None:
        """Just before each connect: a new nonce, and the will signed with it."""
        nonce = _new_nonce()
        with self._lock:
            self._next_nonce = nonce
        client.will_set(self._own["status"], self._status(nonce, online=False), qos=QOS,
                        retain=True)

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            self._failed(f"refused the connection ({reason})")
            return
        with self._lock:
            self._connected, self._failing = True, False
            self._connects += 1
            self._nonce = nonce = self._next_nonce
        _log.info("broker %s: connected", self._broker)
        session = "session present" if flags.session_present else "new session"
        if self._peers:  # without a peer nobody reads the arrivals
            self._inbox.put(LinkChange(connected=True, reason=session))
            client.subscribe([(name, QOS) for name in self._peers])
        client.publish(self._own["status"], self._status(nonce, online=True), qos=QOS,
                       retain=True)

    def _on_connect_fail(self, client: Client, userdata: Any) -> None:
        self._failed(f"unreachable ({_why(sys.exception())})")  # paho calls it in its except

    def _on_disconnect(self, client: Client, userdata: Any, flags: DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        with self._lock:
            was, self._connected, closing = self._connected, False, self._closed
        if not was:
            return
        why = "connection lost" if reason.value == _LOST else f"connection lost ({reason})"
        if self._peers:
            self._inbox.put(LinkChange(connected=False, reason="closed" if closing else why))
        if not closing:
            self._failed(why)

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        try:
            name = message.topic
        except UnicodeDecodeError:
            self._inbox.drop()
            return
        if len(message.payload) > MAX_MESSAGE_BYTES:
            self._inbox.drop()
            self._refusals.refuse(f"{name} too big", f"{name}: a message of "
                                  f"{len(message.payload)} bytes dropped (at most "
                                  f"{MAX_MESSAGE_BYTES})")
            return
        self._inbox.put(Received(name, bytes(message.payload)))

    def _failed(self, what: str) -> None:
        """Log the first failure of a run of failures (the next connect ends the run)."""
        with self._lock:
            if self._failing or self._closed:
                return
            self._failing = True
        _log.warning("broker %s: %s; retrying", self._broker, what)


def _on_log(client: Client, userdata: Any, level: int, text: str) -> None:
    """paho's own log: a fault in a callback is an error; the rest (its ERROR lines for each
    failed retry too: the link says those once) is debug detail."""
    if text.startswith("Caught exception"):
        _paho_log.error("%s", text)
    else:
        _paho_log.debug("%s", text)


def _checked(network: NetworkSettings, peer: str | None, keepalive_s: int,
             reconnect_max_s: int) -> tuple[Broker, str]:
    """The broker and board of ``network``; ValueError for what a Link cannot work with."""
    if network.broker is None:
        raise ValueError("[network] broker: none set (this board is on no network)")
    if network.board is None:
        raise ValueError("[network] board: none set (a board on a network needs a name)")
    if peer == network.board:
        raise ValueError(f"peer {peer!r}: that is this board's own name")
    if keepalive_s < 1 or reconnect_max_s < 1:
        raise ValueError(f"keepalive_s {keepalive_s}, reconnect_max_s {reconnect_max_s}: "
                         "each must be at least 1")
    return network.broker, network.board


def log_in(client: Client, network: NetworkSettings) -> None:
    """Give ``client`` the login of ``network`` and, for an ``mqtts://`` broker, TLS
    (the club's page connects as a board does)."""
    _login(client, network)
    if network.broker is not None and network.broker.tls:
        _tls(client, network.ca_file)


def _login(client: Client, network: NetworkSettings) -> None:
    """Give ``client`` the username and the password from ``password_file``, if any."""
    if network.username is None:
        return
    password = None
    if network.password_file is not None:
        text = read_text(network.password_file, PASSWORD_LIMIT, "a password file", ConfigError)
        password = text.rstrip("\r\n")
    client.username_pw_set(network.username, password)


def _tls(client: Client, ca_file: Path | None) -> None:
    """Turn on TLS, checking the broker against ``ca_file`` (None: the system's CA store)."""
    if ca_file is not None:
        read_file(ca_file, CA_LIMIT, "a CA file", ConfigError)  # a regular file, not too big
    try:
        client.tls_set(ca_certs=str(ca_file) if ca_file else None)
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
        raise ConfigError(str(ca_file or "the system's CA store"),
                          f"cannot use for TLS ({_why(exc)})") from None


def _new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def _why(exc: BaseException | None) -> str:
    """A short reason from a connect's exception."""
    if exc is None:
        return "no reason given"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
