"""Reading event streams back from JSON-lines files (replay output, journals)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from tavla_pi.bounded import LimitError, parse_json, read_text
from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.scan import MAX_JOURNAL_BYTES


def read_events(path: Path) -> Iterator[Event]:
    """Every event of a JSON-lines file, in order.

    A torn last line (no newline: power was lost mid-write) is dropped; any
    other bad line, and a file that is not regular or larger than
    :data:`~tavla_pi.events.scan.MAX_JOURNAL_BYTES`, is a :class:`JournalError`
    naming file and line.
    """
    text = read_text(path, MAX_JOURNAL_BYTES, "an event file", JournalError)
    lines = text.split("\n")
    torn = lines[-1]
    for number, line in enumerate(lines[:-1], start=1):
        if line.strip():
            yield _parse(line, f"{path}:{number}")
    if torn.strip():
        try:
            yield _parse(torn, f"{path}:{len(lines)}")
        except JournalError:
            return


def _parse(line: str, where: str) -> Event:
    try:
        data = parse_json(line)
    except json.JSONDecodeError as exc:
        raise JournalError(where, f"not valid JSON ({exc.msg})") from None
    except LimitError as exc:
        raise JournalError(where, str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise JournalError(where, 'expected an event object with a "type"')
    t = data.get("t")
    if not isinstance(t, int) or isinstance(t, bool):
        raise JournalError(where, 'field "t": expected whole milliseconds')
    return Event.from_dict(data)
