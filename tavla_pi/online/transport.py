"""The byte link to a game server: lines over TCP, or messages over WebSocket (``ws://``,
``wss://`` with TLS), each read within a bound.

A :class:`Transport` is used by two threads of the connection: one receives (with a
short timeout, so that it can stop), the other sends.  Over TCP a line longer than the
bound is dropped as it streams in, never held whole (:class:`LineBuffer`); over
WebSocket a message longer than the bound makes the library close the link.
"""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from tavla_pi.bounded import read_file
from tavla_pi.errors import ConfigError
from tavla_pi.online.settings import ServerAddress

log = logging.getLogger("tavla_pi.online")

CONNECT_TIMEOUT_S = 10.0
"""How long opening a link may take (TCP connect, TLS and WebSocket handshakes)."""
LINK_WRITE_TIMEOUT_S = 10.0
"""How long one write may wait for a server that does not read."""
_CA_LIMIT = 1 << 20
"""The largest CA file read."""
_CHUNK = 65536


class LineBuffer:
    """Bytes in, whole lines out, holding at most ``limit`` bytes: a longer line is
    dropped as it comes (``dropped`` tells how long each was)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held = bytearray()
        self._skipping = 0  # bytes of an over-long line dropped so far (0: not skipping)

    def feed(self, data: bytes, dropped: Callable[[int], None]) -> list[bytes]:
        """The whole lines ``data`` completes (without their newlines); ``dropped(n)`` is
        called for each line of ``n`` bytes that passed the limit."""
        lines = []
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            if self._skipping:
                dropped(self._skipping + end - start)
                self._skipping = 0
            elif len(self._held) + end - start > self.limit:
                dropped(len(self._held) + end - start)
                self._held.clear()
            else:
                lines.append(bytes(self._held) + data[start:end])
                self._held.clear()
            start = end + 1
        rest = len(data) - start
        if self._skipping:
            self._skipping += rest
        elif len(self._held) + rest > self.limit:
            self._skipping = len(self._held) + rest
            self._held.clear()
        else:
            self._held += data[start:]
        return lines


class Transport(Protocol):
    """A link to a server that reads lines and writes them."""

    def receive(self, timeout_s: float) -> list[bytes]:
        """The lines that came within ``timeout_s`` (maybe none); ConnectionError once
        the link is closed or broken."""
        ...

    def send(self, line: str) -> None:
        """Write one line; ConnectionError if the link is closed or broken."""
        ...

    def close(self) -> None:
        """Close the link (safe twice, from either thread)."""
        ...


class TcpTransport:
    """Lines over a TCP connection (``tcp://``)."""

    def __init__(self, address: ServerAddress, limit: int) -> None:
        self._sock = socket.create_connection((address.host, address.port), CONNECT_TIMEOUT_S)
        self._sock.settimeout(LINK_WRITE_TIMEOUT_S)
        self._lines = LineBuffer(limit)
        self._where = str(address)

    def receive(self, timeout_s: float) -> list[bytes]:
        """See :class:`Transport`."""
        try:
            ready, _, _ = select.select([self._sock], [], [], timeout_s)
            data = self._sock.recv(_CHUNK) if ready else None
        except (OSError, ValueError) as exc:  # ValueError: the socket was closed meanwhile
            raise ConnectionError(_why(exc)) from None
        if data is None:
            return []
        if not data:
            raise ConnectionError("the server closed the connection")
        return self._lines.feed(data, self._dropped)

    def _dropped(self, size: int) -> None:
        log.warning("server %s: a line of %d bytes dropped unread (at most %d)",
                    self._where, size, self._lines.limit)

    def send(self, line: str) -> None:
        """See :class:`Transport`."""
        try:
            self._sock.sendall(line.encode("utf-8") + b"\n")
        except OSError as exc:
            raise ConnectionError(_why(exc)) from None

    def close(self) -> None:
        """See :class:`Transport`."""
        with contextlib.suppress(OSError):  # not connected any more
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


class WebSocketTransport:
    """Messages over a WebSocket (``ws://``, ``wss://``): each message one or more lines."""

    def __init__(self, address: ServerAddress, limit: int, ca_file: Path | None) -> None:
        context = tls_context(ca_file) if address.tls else None
        try:
            self._ws: ClientConnection = connect(
                str(address), ssl=context, open_timeout=CONNECT_TIMEOUT_S,
                close_timeout=2, max_size=limit, proxy=None, user_agent_header="tavla-pi",
            ).__enter__()  # the connection itself, closed by close(), in every version
        except WebSocketException as exc:
            raise ConnectionError(_why(exc)) from None

    def receive(self, timeout_s: float) -> list[bytes]:
        """See :class:`Transport`."""
        try:
            message = self._ws.recv(timeout_s)
        except TimeoutError:
            return []
        except (WebSocketException, OSError, RuntimeError) as exc:
            raise ConnectionError(_why(exc)) from None
        data = message.encode("utf-8") if isinstance(message, str) else message
        return [line for line in data.split(b"\n") if line.strip()]

    def send(self, line: str) -> None:
        """See :class:`Transport`."""
        try:
            self._ws.send(line)
        except (WebSocketException, OSError, RuntimeError) as exc:
            raise ConnectionError(_why(exc)) from None

    def close(self) -> None:
        """See :class:`Transport`."""
        self._ws.close()


def open_transport(address: ServerAddress, limit: int, ca_file: Path | None) -> Transport:
    """A link to ``address``, lines bounded by ``limit``; ConnectionError (or another
    OSError) if the server cannot be reached, ConfigError for a CA file that is no use."""
    if address.scheme == "tcp":
        return TcpTransport(address, limit)
    return WebSocketTransport(address, limit, ca_file)


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """TLS that checks the server against ``ca_file`` (None: the system's CA store)."""
    if ca_file is None:
        return ssl.create_default_context()
    data = read_file(ca_file, _CA_LIMIT, "a CA file", ConfigError)
    try:
        return ssl.create_default_context(cadata=data.decode("ascii"))
    except (ssl.SSLError, ValueError) as exc:
        raise ConfigError(str(ca_file), f"not a CA certificate in PEM ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """A short reason from a link's exception."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
