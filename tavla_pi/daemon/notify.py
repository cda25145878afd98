"""systemd's notify protocol: READY, STATUS, WATCHDOG and STOPPING over a datagram socket.

systemd (``Type=notify``) passes ``NOTIFY_SOCKET``, a Unix datagram socket
path (``@`` for the abstract namespace), and with ``WatchdogSec=`` also
``WATCHDOG_USEC``.  Without them every call does nothing, so the daemon
runs the same from a terminal.
"""

from __future__ import annotations

import contextlib
import os
import socket

from tavla_pi.clock import Clock, MonotonicClock


class Notifier:
    """Sends notify messages to systemd, if it asked for them.

    ``watchdog()`` is cheap to call every scan: it sends ``WATCHDOG=1`` at
    most once per half watchdog interval (every second without one).
    """

    def __init__(self, address: str | None = None, watchdog_usec: int | None = None,
                 clock: Clock | None = None) -> None:
        self._clock = clock or MonotonicClock()
        self._sock: socket.socket | None = None
        self._address = ""
        if address:
            self._address = "\0" + address[1:] if address.startswith("@") else address
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.settimeout(0.0)  # non-blocking: never let a full socket stall the scan loop
        self.watchdog_ms = watchdog_usec // 1000 if watchdog_usec else 0
        self._kick_every = max(self.watchdog_ms // 2, 1) if self.watchdog_ms else 1000
        self._last_kick: int | None = None

    @classmethod
    def from_environment(cls) -> Notifier:
        """The notifier systemd's environment asks for (``NOTIFY_SOCKET``, ``WATCHDOG_USEC``)."""
        watchdog = os.environ.get("WATCHDOG_USEC", "")
        pid = os.environ.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        usec = int(watchdog) if watchdog.isdigit() and mine else None
        return cls(os.environ.get("NOTIFY_SOCKET") or None, usec)

    @property
    def enabled(self) -> bool:
        """True when there is a socket to tell."""
        return self._sock is not None

    def send(self, *lines: str) -> None:
        """Send ``KEY=value`` lines as one message; errors are ignored (systemd may be gone,
        or its socket full: then the message is dropped, never waited for)."""
        if self._sock is None:
            return
        with contextlib.suppress(OSError):
            self._sock.sendto("\n".join(lines).encode(), self._address)

    def ready(self, status: str) -> None:
        """The daemon is up: its hardware open, its socket bound."""
        self.send("READY=1", f"STATUS={status}", f"MAINPID={os.getpid()}")

    def status(self, text: str) -> None:
        """One line for ``systemctl status``."""
        self.send(f"STATUS={text}")

    def stopping(self) -> None:
        """The daemon is shutting down."""
        self.send("STOPPING=1", "STATUS=stopping")

    def watchdog(self) -> None:
        """The scan loop is healthy: keep the watchdog from firing."""
        now = self._clock.now_ms()
        if self._last_kick is not None and now - self._last_kick < self._kick_every:
            return
        self._last_kick = now
        self.send("WATCHDOG=1")

    def close(self) -> None:
        """Release the socket; safe twice."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
