"""Time, injected: the daemon uses the monotonic clock, tests a virtual one.

All times are integer milliseconds, so that virtual runs are exact.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Something that tells the time in milliseconds since an arbitrary start."""

    def now_ms(self) -> int:
        """The current time in milliseconds."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` in milliseconds."""

    def now_ms(self) -> int:
        """The current monotonic time in milliseconds."""
        return time.monotonic_ns() // 1_000_000


class VirtualClock:
    """A clock that moves only when told to; for scenarios and tests."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        """The current virtual time."""
        return self._now

    def advance(self, ms: int) -> None:
        """Move time forward by ``ms`` (never backwards)."""
        if ms < 0:
            raise ValueError(f"cannot move a clock backwards by {ms} ms")
        self._now += ms

    def __repr__(self) -> str:
        return f"VirtualClock(start_ms={self._now})"


class WallClock:
    """The wall clock: ``time.time`` in milliseconds since the epoch (for stamps that
    must outlast a restart, such as the match clock's ``wall_ms``; it may jump)."""

    def now_ms(self) -> int:
        """The current wall-clock time in milliseconds since 1970."""
        return time.time_ns() // 1_000_000
