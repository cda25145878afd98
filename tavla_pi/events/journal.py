"""The journal: every event, appended durably, so a match survives a power cut.

Layout of the state directory::

    journal.jsonl                  the current match, one event per line
    matches/000001-<utc>.jsonl     earlier matches, oldest first (number order)
    journal.corrupt-<utc>.jsonl    a damaged journal as it was found, kept aside
    journal.untrusted-<utc>.jsonl  events that did not follow the rules, moved out (:meth:`cut`)
    journal.lock                   held while a daemon writes the journal

:meth:`Journal.append` writes whole lines, flushes and ``fsync``s before it
returns.  When a ``new_match`` event arrives and the current file holds a
game, the file is renamed into ``matches/`` (an atomic rename) and the new
match starts a new ``journal.jsonl``.

:meth:`Journal.open` reads back what is there and repairs it: a half-written
last line is dropped (cut off the file, so it never glues onto the next
line); damaged lines in the middle are left out, and the file is first kept
aside as ``journal.corrupt-<utc>.jsonl``.  Each repair is one warning line
naming file and line, and so is a journal missing from a state directory
that held one (deleted?).  A journal that cannot be used at all (a directory
or a symbolic link in its place, ``matches`` not a directory, no permission,
another daemon writing it) is a JournalError.  No symbolic link in the state
directory is followed, so nothing is ever written outside it.

Every write goes through a :class:`~tavla_pi.events.files.Files` layer (a
test's fake fails like a full disk); what a failed write started is undone.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.files import OS_FILES, Files, create_file, replace_file, sync_dir, write_all
from tavla_pi.events.scan import Scan, check_regular, scan_file
from tavla_pi.events.types import EventType

JOURNAL_NAME = "journal.jsonl"
ARCHIVE_DIR = "matches"
LOCK_NAME = "journal.lock"
_ARCHIVE = re.compile(r"^(\d+)(?:-[^/]*)?\.jsonl$")


class Journal:
    """The durable event log of one state directory (see the module docstring).

    ``events`` are the current match's events (read back, then appended);
    ``warnings`` says what :meth:`open` had to repair.
    """

    def __init__(self, state_dir: Path, scan: Scan, lock_fd: int, fd: int,
                 files: Files = OS_FILES) -> None:
        self.state_dir = state_dir
        self.path = state_dir / JOURNAL_NAME
        self.files = files
        self.events: list[Event] = scan.events
        self.warnings: list[str] = []
        self._lines = scan.lines
        self._offsets = scan.offsets
        self._lock_fd: int | None = lock_fd
        self._fd: int | None = fd
        self._size = os.fstat(fd).st_size
        self._line = max(scan.lines, default=0)
        self._has_game = _any_game(self.events)

    @classmethod
    def open(cls, state_dir: Path, files: Files = OS_FILES) -> Journal:
        """Open (creating if needed) the journal of ``state_dir`` for appending."""
        state_dir = Path(state_dir)
        _make_dir(state_dir)
        path = state_dir / JOURNAL_NAME
        used = _check_entries(state_dir)
        lock_fd = _lock(state_dir / LOCK_NAME)
        try:
            scan = scan_file(path)
            warnings = _repair(scan, files)
            if used and not os.path.lexists(path):
                warnings.append(f"{path}: missing, though this state directory has been used "
                                "(deleted?): a new match starts")
            fd = _open_append(path, files)
        except BaseException:
            os.close(lock_fd)
            raise
        journal = cls(state_dir, scan, lock_fd, fd, files)
        journal.warnings = warnings
        return journal

    def where(self, index: int) -> str:
        """``"<file>:<line>"`` of ``events[index]``, for messages."""
        return f"{self.path}:{self._lines[index]}"

    def cut(self, index: int, reason: str) -> Path:
        """Keep ``events[:index]``; move the lines from ``events[index]`` on aside.

        They go to ``journal.untrusted-<utc>.jsonl``, after a first line
        saying where they were and ``reason``; then the journal is replaced,
        atomically, by the lines before them.  Returns the file set aside.
        """
        self._require_open()
        where = self.where(index)
        try:
            data = self.path.read_bytes()
            start = self._offsets[index]
            aside = _free_name(self.state_dir, f"journal.untrusted-{_utc()}", ".jsonl")
            head = json.dumps({"untrusted": where, "reason": reason}, ensure_ascii=True)
            create_file(self.files, aside, head.encode("ascii") + b"\n" + data[start:])
            replace_file(self.files, self.path, data[:start])
        except OSError as exc:
            raise JournalError(where, f"cannot set the untrusted events aside "
                               f"({exc.strerror})") from None
        self._reopen()
        self._size, self._line = start, data[:start].count(b"\n")
        del self.events[index:], self._lines[index:], self._offsets[index:]
        self._has_game = _any_game(self.events)
        return aside

    def append(self, events: Iterable[Event]) -> None:
        """Write ``events`` durably; a ``new_match`` after a game starts a new file."""
        chunk: list[Event] = []
        for event in events:
            if event.type == EventType.NEW_MATCH and (self._has_game or _any_game(chunk)):
                self._write(chunk)
                self._rotate()
                chunk = []
            chunk.append(event)
        self._write(chunk)

    def close(self) -> None:
        """Close the file and release the lock; safe to call twice."""
        for name in ("_fd", "_lock_fd"):
            fd = getattr(self, name)
            if fd is not None:
                setattr(self, name, None)
                os.close(fd)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Journal {self.path} {len(self.events)} events>"

    # -- writing ---------------------------------------------------------------

    def _write(self, events: Sequence[Event]) -> None:
        if not events:
            return
        fd = self._require_open()
        lines = [encode(event) for event in events]
        try:
            write_all(self.files, fd, b"".join(lines))
            self.files.fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):  # never leave half a line behind
                os.ftruncate(fd, self._size)
            raise JournalError(str(self.path), f"cannot write ({exc.strerror})") from None
        for event, line in zip(events, lines, strict=True):
            self._line += 1
            self.events.append(event)
            self._lines.append(self._line)
            self._offsets.append(self._size)
            self._size += len(line)
        self._has_game = self._has_game or _any_game(events)

    def _rotate(self) -> None:
        """Move the current match into ``matches/`` and start an empty journal."""
        self._require_open()
        archive = self.state_dir / ARCHIVE_DIR
        try:
            _make_dir(archive)
            _no_link(archive, "the finished matches must be in the state directory")
            target = archive / _archive_name(archive)
            os.rename(self.path, target)
            sync_dir(archive)
            sync_dir(self.state_dir)
        except OSError as exc:
            raise JournalError(str(self.path), f"cannot archive the match ({exc.strerror})") \
                from None
        self._reopen()
        self._size, self._line, self._has_game = 0, 0, False
        self.events, self._lines, self._offsets = [], [], []

    def _reopen(self) -> None:
        """Open ``journal.jsonl`` afresh (it was renamed or replaced)."""
        fd = self._require_open()
        self._fd = None
        os.close(fd)
        self._fd = _open_append(self.path, self.files)

    def _require_open(self) -> int:
        if self._fd is None:
            raise JournalError(str(self.path), "the journal is closed")
        return self._fd


def encode(event: Event) -> bytes:
    """One journal line: the event's JSON (ASCII only, so it always reads back) and newline."""
    text = json.dumps(event.to_dict(), separators=(", ", ": "), ensure_ascii=True)
    return text.encode("ascii") + b"\n"


def archive_files(state_dir: Path) -> list[Path]:
    """The archived matches of ``state_dir``, oldest first."""
    archive = Path(state_dir) / ARCHIVE_DIR
    try:
        names = os.listdir(archive)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise JournalError(str(archive), f"cannot list the archived matches ({exc.strerror})") \
            from None
    numbered = [(int(m.group(1)), name) for name in names if (m := _ARCHIVE.match(name))]
    return [archive / name for _, name in sorted(numbered)]


# -- repair ---------------------------------------------------------------------


def _repair(scan: Scan, files: Files) -> list[str]:
    """Make the file hold exactly the scan's good events, whole lines; the warnings."""
    warnings = scan.warnings()
    if scan.bad:
        kept = _set_aside(scan, files)
        warnings.append(f"{scan.path}: {len(scan.bad)} damaged line(s) left out; "
                        f"the file as found is kept as {kept.name}")
    elif scan.unterminated:
        _append_newline(scan.path, files)
    elif scan.path.exists() and scan.path.stat().st_size != scan.end:
        _truncate(scan.path, scan.end)
    return warnings


def _set_aside(scan: Scan, files: Files) -> Path:
    """Copy the damaged file aside, then replace it by its good events (atomically);
    a failure leaves neither a copy nor a changed journal behind."""
    path = scan.path
    kept = _free_name(path.parent, f"journal.corrupt-{_utc()}", ".jsonl")
    lines = [encode(event) for event in scan.events]
    try:
        create_file(files, kept, path.read_bytes())
        try:
            replace_file(files, path, b"".join(lines))
        except BaseException:
            os.unlink(kept)
            raise
    except OSError as exc:
        raise JournalError(str(path), f"cannot repair the journal ({exc.strerror})") from None
    scan.lines = list(range(1, len(lines) + 1))
    scan.offsets = [sum(len(line) for line in lines[:i]) for i in range(len(lines))]
    return kept


def _append_newline(path: Path, files: Files) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            write_all(files, fd, b"\n")
            files.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise JournalError(str(path), f"cannot repair the journal ({exc.strerror})") from None


def _truncate(path: Path, size: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise JournalError(str(path), f"cannot repair the journal ({exc.strerror})") from None


# -- files and directories --------------------------------------------------------


def _make_dir(path: Path) -> None:
    """Create ``path`` (and its parents) unless it is a directory already."""
    try:
        path.mkdir(parents=True)
    except FileExistsError:
        if not path.is_dir():
            raise JournalError(str(path), "is not a directory (it must hold the journal)") \
                from None
        return
    except OSError as exc:
        raise JournalError(str(path), f"cannot create the directory ({exc.strerror})") from None
    sync_dir(path.parent)


def _check_entries(state_dir: Path) -> bool:
    """Refuse links and misplaced kinds among the journal's names; True if this state
    directory has held a journal before (its lock file or its archive is there)."""
    archive = state_dir / ARCHIVE_DIR
    _no_link(state_dir / JOURNAL_NAME, "the journal must be a file in the state directory")
    _no_link(state_dir / LOCK_NAME, "the lock must be a file in the state directory")
    _no_link(archive, "the finished matches must be in the state directory")
    if archive.exists() and not archive.is_dir():
        raise JournalError(str(archive), "is not a directory (it holds the finished matches)")
    return (state_dir / LOCK_NAME).exists() or archive.exists()


def _no_link(path: Path, why: str) -> None:
    """JournalError if ``path`` is a symbolic link (none is followed out of the state dir)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise JournalError(str(path), f"cannot look at it ({exc.strerror})") from None
    if stat.S_ISLNK(mode):
        raise JournalError(str(path), f"is a symbolic link, which is not followed ({why})")


def _lock(path: Path) -> int:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise JournalError(str(path), f"cannot open the lock file ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalError(str(path.with_name(JOURNAL_NAME)),
                           "another tavla-pi is writing this journal") from None
    return fd


def _open_append(path: Path, files: Files) -> int:
    created = not os.path.lexists(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise JournalError(str(path), f"cannot open for writing ({exc.strerror})") from None
    try:
        check_regular(path, os.fstat(fd).st_mode)
        if created:
            files.fsync(fd)
            sync_dir(path.parent)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _archive_name(archive: Path) -> str:
    numbers = [int(m.group(1)) for name in os.listdir(archive) if (m := _ARCHIVE.match(name))]
    return f"{max(numbers, default=0) + 1:06d}-{_utc()}.jsonl"


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    candidate, n = folder / f"{stem}{suffix}", 1
    while os.path.lexists(candidate):
        n += 1
        candidate = folder / f"{stem}-{n}{suffix}"
    return candidate


def _utc() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _any_game(events: Iterable[Event]) -> bool:
    return any(event.type == EventType.GAME_STARTED for event in events)
