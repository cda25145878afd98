"""The events a club page keeps of a board: a ring bounded in count and in bytes.

Each event is kept as its compact JSON bytes, so what a ring holds in memory is what it
counts (a parsed object of many small parts could take ten times its text), and a page's
``/api/club`` is made of those bytes without parsing them again (:meth:`EventRing.raw`).
When an event would pass either bound, the oldest go first.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from typing import Any


def compact_json(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (a lone surrogate as its JSON escape)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8", "backslashreplace")


class EventRing:
    """The newest events, at most ``count`` of them and ``size`` bytes in all."""

    __slots__ = ("_items", "count", "dropped", "size", "used")

    def __init__(self, count: int, size: int) -> None:
        self.count, self.size = count, size
        self._items: deque[bytes] = deque()
        self.used = 0
        """The bytes held."""
        self.dropped = 0
        """The events that went to make room (or were too big), since the last clear."""

    def append(self, item: bytes) -> None:
        """Keep ``item`` (an event's compact JSON), dropping the oldest to stay within
        both bounds."""
        if len(item) > self.size:
            self.dropped += 1
            return
        while self._items and (len(self._items) >= self.count
                               or self.used + len(item) > self.size):
            self.shed()
        self._items.append(item)
        self.used += len(item)

    def shed(self) -> bool:
        """Drop the oldest event; False if there was none."""
        if not self._items:
            return False
        self.used -= len(self._items.popleft())
        self.dropped += 1
        return True

    def clear(self) -> None:
        """Forget every event (a new match)."""
        self._items.clear()
        self.used = self.dropped = 0

    def __len__(self) -> int:
        return len(self._items)

    def raw(self) -> list[bytes]:
        """The events as kept: compact JSON, oldest first."""
        return list(self._items)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for item in list(self._items):
            event: dict[str, Any] = json.loads(item)
            yield event
