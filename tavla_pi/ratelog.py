"""Refusals logged so that a flood cannot flood the log.

The first refusal of a kind is written at once; more of the same kind within
:attr:`RefusalLog.interval_ms` are counted and written as one line with the
count and the last one's text when the interval is over (at the next refusal of
that kind, or at :meth:`RefusalLog.flush`, which the owner calls now and then).
:meth:`RefusalLog.write_held` writes every count held, over or not: the owner calls it as
it shuts down, so that no refusal counted goes unsaid.
Safe from any thread: paho's, the web server's and the scan loop's.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from tavla_pi.clock import Clock

DEFAULT_INTERVAL_MS = 10_000
"""How long refusals of one kind are counted before the count is written."""


@dataclass(slots=True)
class _Kind:
    """One kind's window: when it opened, its log level, how many were held back, the last
    text."""

    opened_ms: int
    level: int = logging.WARNING
    held: int = 0
    last: str = ""


class RefusalLog:
    """Writes refusals to ``logger`` (at WARNING unless told), at most one line per kind per
    interval."""

    def __init__(self, logger: logging.Logger, clock: Clock, *,
                 interval_ms: int = DEFAULT_INTERVAL_MS) -> None:
        self._logger = logger
        self._clock = clock
        self.interval_ms = interval_ms
        self._kinds: dict[str, _Kind] = {}
        self._lock = threading.Lock()

    def refuse(self, kind: str, text: str, *, level: int = logging.WARNING) -> None:
        """Log ``text``, a refusal of ``kind``, now or counted for later (at ``level``: the
        first of an interval's decides its count's)."""
        now = self._clock.now_ms()
        with self._lock:
            window = self._kinds.get(kind)
            if window is not None and now - window.opened_ms < self.interval_ms:
                window.held += 1
                window.last = text
                return
            if window is not None:
                self._write_count(kind, window)
            self._kinds[kind] = _Kind(now, level)
        self._logger.log(level, "%s", text)

    def flush(self) -> None:
        """Write the counts of every kind whose interval is over."""
        now = self._clock.now_ms()
        with self._lock:
            over = [kind for kind, window in self._kinds.items()
                    if now - window.opened_ms >= self.interval_ms]
            for kind in over:
                self._write_count(kind, self._kinds.pop(kind))

    def write_held(self) -> None:
        """Write the counts of every kind, its interval over or not (at shutdown); the next
        refusal of a kind is written at once.  Safe twice: a count is written once."""
        with self._lock:
            kinds, self._kinds = self._kinds, {}
            for kind, window in kinds.items():
                self._write_count(kind, window)

    def _write_count(self, kind: str, window: _Kind) -> None:
        if window.held:
            self._logger.log(window.level, "%d more refused (%s) in %.0f s; the last: %s",
                             window.held, kind, self.interval_ms / 1000, window.last)
