"""Every match a state directory remembers, read back without changing anything.

The journal keeps the current match in ``journal.jsonl`` and earlier ones in
``matches/`` (see :mod:`tavla_pi.events.journal`).  :func:`read_history`
reads them all, oldest first, splits them at ``new_match`` events (a file
may hold more than one match) and numbers the matches that hold a game
from 1.  Damaged lines are left out with a warning naming file and line, and
a file that cannot be read at all (a directory in place of the journal) with
a warning naming it; this reader never repairs (the daemon may be writing the
journal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, archive_files
from tavla_pi.events.scan import scan_file
from tavla_pi.events.types import EventType


@dataclass(frozen=True)
class MatchLog:
    """The events of one match, with the file and line each came from."""

    number: int
    path: Path
    events: tuple[Event, ...]
    lines: tuple[int, ...]

    def where(self, index: int) -> str:
        """``"<file>:<line>"`` of ``events[index]``."""
        return f"{self.path}:{self.lines[index]}"

    @property
    def match_length(self) -> int | None:
        """The length announced by ``new_match`` (None if the file does not say)."""
        for event in self.events:
            if event.type == EventType.NEW_MATCH:
                return int(event["match_length"])
        return None


@dataclass
class History:
    """The matches of a state directory, oldest first, and what could not be read."""

    matches: list[MatchLog] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def journal_files(state_dir: Path) -> list[Path]:
    """The journal files of ``state_dir``, oldest first: the archive, then the current."""
    current = Path(state_dir) / JOURNAL_NAME
    return [*archive_files(state_dir), *([current] if current.exists() else [])]


def read_history(state_dir: Path) -> History:
    """Every match with at least one game, from every journal file of ``state_dir``."""
    history = History()
    for path in journal_files(state_dir):
        read_matches(path, history)
    return history


def read_matches(path: Path, history: History) -> None:
    """Add the matches of one journal file with at least one game to ``history``
    (numbered on from its last), or a warning if the file cannot be read."""
    try:
        scan = scan_file(path)
    except JournalError as exc:
        history.warnings.append(f"{exc} (left out)")
        return
    # a torn last line may be a write in progress: only damaged lines are worth a word
    history.warnings += [f"{scan.path}:{line}: {problem} (left out)"
                         for line, problem in scan.bad]
    for start, end in _match_spans(scan.events):
        events = scan.events[start:end]
        if any(e.type == EventType.GAME_STARTED for e in events):
            number = len(history.matches) + 1
            history.matches.append(MatchLog(number, path, tuple(events),
                                            tuple(scan.lines[start:end])))


def _match_spans(events: list[Event]) -> list[tuple[int, int]]:
    """Index ranges of the matches in one file: each ``new_match`` begins one."""
    starts = [0] + [i for i, e in enumerate(events) if e.type == EventType.NEW_MATCH and i > 0]
    return list(zip(starts, [*starts[1:], len(events)], strict=True))
