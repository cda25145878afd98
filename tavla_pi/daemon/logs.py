"""Log lines for journald or a terminal: one line per event worth reading.

Under systemd (``JOURNAL_STREAM`` set) each line starts with its syslog
priority (``<6>``), which journald turns into the entry's priority and
strips; journald adds the time.  On a terminal lines carry the time and level.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType

PRIORITIES = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
              logging.CRITICAL: 2}


class JournaldFormatter(logging.Formatter):
    """``<priority>message``: journald's level prefix, no time (journald adds it)."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record).replace("\n", "\n    ")
        return f"<{PRIORITIES.get(record.levelno, 6)}>{text}"


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is when a record comes (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def setup_logging(level: str, stream: TextIO | None = None) -> None:
    """Send the package's logs to ``stream`` (default: stderr) at ``level`` (``info``, ...)."""
    handler = logging.StreamHandler(stream) if stream is not None else StderrHandler()
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournaldFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s",
                                               "%H:%M:%S"))
    root = logging.getLogger("tavla_pi")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


def _opening(f: Mapping[str, Any]) -> str:
    starter = f.get("starter")
    end = f"{starter} starts" if starter else "a tie, roll again"
    return f"opening roll: white {f['white']}, black {f['black']}: {end}"


def _cube(verb: str) -> Callable[[Mapping[str, Any]], str]:
    return lambda f: f"{f['player']} {verb} the double (cube {f['cube']})"


LINES: dict[EventType, Callable[[Mapping[str, Any]], str]] = {
    EventType.GAME_STARTED: lambda f: f"game started: position {f['position_id']}, "
                                      f"match {f['match_id']}",
    EventType.OPENING_ROLL: _opening,
    EventType.ROLLED: lambda f: f"{f['player']} rolled {f['dice'][0]}-{f['dice'][1]}",
    EventType.PLAYED: lambda f: f"{f['player']} played {f['play']} "
                                f"(position {f['position_id']})",
    EventType.NO_LEGAL_MOVE: lambda f: f"{f['player']} has no legal move with {f['dice']}",
    EventType.DOUBLE_OFFERED: _cube("offered"),
    EventType.DOUBLE_TAKEN: _cube("took"),
    EventType.DOUBLE_DROPPED: _cube("dropped"),
    EventType.GAME_OVER: lambda f: f"game over: {f['winner']} wins {f['points']} "
                                   f"({f['kind']}), score {f['score']}",
    EventType.MATCH_OVER: lambda f: f"match over: {f['winner']} wins, score {f['score']}",
    EventType.RESIGN_OFFERED: lambda f: f"{f['player']} offers to resign {f['points']} points",
    EventType.RESIGN_ACCEPTED: lambda f: f"{f['player']} accepts the resignation "
                                         f"({f['points']} points)",
    EventType.RESIGN_DECLINED: lambda f: f"{f['player']} declines the resignation "
                                         f"({f['points']} points)",
    EventType.NEW_MATCH: lambda f: "new match",
    EventType.REJECTED: lambda f: f"rejected ({f['player']}): {f['reason']}",
    EventType.REVIEW: lambda f: f"review of game {f['game']}: error rate (mEMG) white "
                                f"{f['white'].get('error_rate')}, black "
                                f"{f['black'].get('error_rate')}",
    EventType.ENGINE_PLAY: lambda f: f"the computer ({f['player']}) plays {f['play']} "
                                     f"with {f['dice'][0]}-{f['dice'][1]}",
    EventType.TAKEBACK: lambda f: f"{f['player']} takes back the last play "
                                  f"({f['dice'][0]}-{f['dice'][1]} from {f['position_id']})",
}
"""One readable line per event a player or a maintainer cares about."""


def describe(event: Event) -> tuple[int, str]:
    """A log level and one readable line for an event (sensing chatter at debug level)."""
    line = LINES.get(event.type) if isinstance(event.type, EventType) else None
    if line is None:
        return logging.DEBUG, f"{event.type} {json.dumps(dict(event.fields))}"
    return logging.INFO, line(event.fields)
