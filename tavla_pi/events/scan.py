"""Reading a journal file back, line by line, without trusting it.

:func:`scan_file` never raises on what the file holds: every line that is
not a valid event (bad JSON, wrong field types, not UTF-8, longer than
:data:`MAX_LINE_BYTES`) is reported with its line number, and a last line
without its newline (power lost mid-write) is told apart.  The caller
decides what to do: the journal repairs, export and dice-stats warn.  Only a
file that cannot be read at all (a directory, no permission) is a
:class:`~tavla_pi.errors.JournalError`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from tavla_pi.bounded import open_file
from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.schema import parse_event

MAX_LINE_BYTES = 64 * 1024
"""The longest journal line accepted; real events are a few hundred bytes."""
MAX_JOURNAL_BYTES = 16 * 1024 * 1024
"""The largest journal file read: one match, and a long one writes a few hundred kB."""


@dataclass
class Scan:
    """What a journal file holds: its good events and what was wrong with the rest.

    ``lines[i]`` is the line number of ``events[i]``, ``offsets[i]`` the byte
    offset where its line starts; ``bad`` lists
    ``(line, problem)`` for damaged lines in the middle.  ``torn`` is the
    line number of a half-written last line (dropped), ``end`` the byte
    offset just after the last complete line.  ``unterminated`` is True when
    the last line is a whole event that only lacks its newline (kept).
    """

    path: Path
    events: list[Event] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    bad: list[tuple[int, str]] = field(default_factory=list)
    torn: int | None = None
    end: int = 0
    unterminated: bool = False

    def where(self, index: int) -> str:
        """``"<file>:<line>"`` of the event at ``index``."""
        return f"{self.path}:{self.lines[index]}"

    def warnings(self) -> list[str]:
        """One line per problem found, naming file and line."""
        out = [f"{self.path}:{line}: {problem}" for line, problem in self.bad]
        if self.torn is not None:
            out.append(f"{self.path}:{self.torn}: a half-written last line was dropped "
                       "(the power went off while writing?)")
        return out


def scan_file(path: Path) -> Scan:
    """Read ``path`` as a journal (JSON lines); a missing file reads as empty."""
    scan = Scan(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return scan
    except OSError as exc:
        raise JournalError(str(path), f"cannot read the journal ({exc.strerror})") from None
    check_regular(path, info.st_mode)
    if info.st_size > MAX_JOURNAL_BYTES:
        raise _too_large(path)
    try:
        with open_file(path, JournalError) as stream:
            _scan_stream(stream, scan)
    except OSError as exc:
        raise JournalError(str(path), f"cannot read the journal ({exc.strerror})") from None
    return scan


def check_regular(path: Path, mode: int) -> None:
    """JournalError unless ``mode`` is a regular file's (a directory, a pipe...)."""
    if stat.S_ISDIR(mode):
        raise JournalError(str(path), "is a directory, not a journal file")
    if not stat.S_ISREG(mode):
        raise JournalError(str(path), "is not a regular file")


def _too_large(path: Path) -> JournalError:
    return JournalError(str(path), f"too large for a journal (at most {MAX_JOURNAL_BYTES} bytes)")


def _scan_stream(stream: BinaryIO, scan: Scan) -> None:
    for number, raw, complete in _raw_lines(stream):
        if stream.tell() > MAX_JOURNAL_BYTES:  # it grew while being read
            raise _too_large(scan.path)
        if not complete:
            _last_line(scan, number, raw)
            return
        if raw is None:
            scan.bad.append((number, f"line longer than {MAX_LINE_BYTES} bytes"))
        else:
            _one_line(scan, number, raw)
        scan.end = stream.tell()


def _one_line(scan: Scan, number: int, raw: bytes) -> None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        scan.bad.append((number, f"not UTF-8 text (byte {exc.start + 1})"))
        return
    if not text.strip():
        return
    try:
        event = parse_event(text)
    except ValueError as exc:
        scan.bad.append((number, str(exc)))
        return
    scan.events.append(event)
    scan.lines.append(number)
    scan.offsets.append(scan.end)


def _last_line(scan: Scan, number: int, raw: bytes | None) -> None:
    """A last line without newline: keep it if it is a whole event, else it is torn."""
    if raw is None:
        scan.torn = number
        return
    if not raw.strip():
        return
    kept = len(scan.events)
    _one_line(scan, number, raw)
    if len(scan.events) > kept:
        scan.unterminated = True
    else:
        scan.bad.pop()
        scan.torn = number


def _raw_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None, bool]]:
    """(line number, bytes without newline or None if too long, ended by a newline)."""
    number = 0
    while True:
        chunk = stream.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        if chunk.endswith(b"\n"):
            yield number, chunk[:-1], True
        elif len(chunk) <= MAX_LINE_BYTES:
            yield number, chunk, False
            return
        else:
            complete = _skip_rest_of_line(stream)
            yield number, None, complete
            if not complete:
                return


def _skip_rest_of_line(stream: BinaryIO) -> bool:
    """Read past the end of an overlong line; False if the file ended first."""
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        if not chunk:
            return False
        if chunk.endswith(b"\n"):
            return True
