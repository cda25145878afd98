"""TEMPORARY stand-in until the journal branch lands: replaced by the real Journal/restore."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tavla_pi.events.event import Event
from tavla_pi.events.reader import read_events
from tavla_pi.game.referee import Referee


class _Journal:
    def __init__(self, path: Path) -> None:
        self._f = path.open("a", encoding="utf-8")

    def append(self, events: Sequence[Event]) -> None:
        self._f.write("".join(e.to_json() + "\n" for e in events))
        self._f.flush()
        os.fsync(self._f.fileno())

    def close(self) -> None:
        self._f.close()


def open_journal(state_dir: Path) -> tuple[_Journal, list[Event]]:
    path = state_dir / "journal.jsonl"
    events = list(read_events(path)) if path.exists() else []
    return _Journal(path), events


def restore(referee: Referee, events: Sequence[Event], now: int) -> None:
    del referee, events, now
