"""A TCP relay between a board and a real server that can swallow what the board sends.

The link, not the server, is what it fakes: every byte the server sends reaches the
board, and the board's bytes reach the server until :meth:`Relay.swallow` is called;
from then on they are read and dropped, as a link that died after the board wrote
them would.  Tests use it to make a play the board committed that the server never
got (docs/ONLINE.md, "When the link drops").
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType

from tavla_pi.testing.mosquitto import HOST, free_port

CHUNK = 65536
"""The most bytes read at once."""
ACCEPT_POLL_S = 0.1
"""How often the listener looks whether the relay was closed."""


class Relay:
    """Listens on ``port`` (loopback) and relays each connection to ``target_port``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._swallowing = threading.Event()
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server((HOST, self.port))
        self._listener.settimeout(ACCEPT_POLL_S)
        self._thread = threading.Thread(target=self._accept, name="relay", daemon=True)
        self._thread.start()

    def swallow(self) -> None:
        """Drop what the boards send from now on."""
        self._swallowing.set()

    def relay(self) -> None:
        """Relay what the boards send again."""
        self._swallowing.clear()

    def close(self) -> None:
        """Stop listening and close every relayed connection."""
        self._closed.set()
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                _shut(sock)
        self._thread.join(timeout=5)

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                board, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection((HOST, self.target_port))
            except OSError:
                _shut(board)
                continue
            with self._lock:
                self._sockets += [board, server]
            for source, sink, gate in ((board, server, self._swallowing),
                                       (server, board, None)):
                threading.Thread(target=self._pump, args=(source, sink, gate),
                                 name="relay-pump", daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket,
              gate: threading.Event | None) -> None:
        """Copy ``source`` to ``sink`` (dropping it while ``gate`` is set) until either
        end closes; then close both."""
        try:
            while data := source.recv(CHUNK):
                if gate is None or not gate.is_set():
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            _shut(source)
            _shut(sink)

    def __enter__(self) -> Relay:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _shut(sock: socket.socket) -> None:
    """Close ``sock`` for both directions, whatever state it is in."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
