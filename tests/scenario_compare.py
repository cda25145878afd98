"""Compare the events `tavla-pi replay` printed with a scenario's expected events.

The expected events (NAME.expected.jsonl next to a scenario) list, in order,
every event of the compared types the game must emit; the actual stream may
hold other types (lifted, out_of_sync, in_sync, rolled, ...) and extra fields
(``t`` and anything else), which are ignored.  An expected field must be
equal in the actual event, with two readings:

- ``null`` means the field must be absent (or null), e.g. ``starter`` of a tie;
- ``dice`` is the pair of dice rolled, equal in either order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

Event = dict[str, Any]

COMPARED = frozenset({
    "opening_roll", "played", "no_legal_move", "double_offered", "double_taken",
    "double_dropped", "game_over", "match_over", "rejected",
})
UNORDERED = frozenset({"dice"})


def parse_events(lines: Iterable[str], where: str = "events") -> list[Event]:
    """JSON objects, one a line; blank lines and ``#`` comments skipped."""
    events = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            event = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}:{number}: not JSON: {exc}") from None
        if not isinstance(event, dict):
            raise ValueError(f"{where}:{number}: not a JSON object")
        events.append(event)
    return events


def plays_tavli(path: Path) -> bool:
    """Whether a scenario sets up Plakoto, Fevga or a tavli match (``setup``'s
    ``variant``): not a game GNU Backgammon can referee."""
    first = next((line for line in load_events(path) if "setup" in line or "load" in line), {})
    return bool(first.get("variant", "portes") != "portes")


def load_events(path: Path) -> list[Event]:
    """The events of a JSON-lines file."""
    return parse_events(path.read_text().splitlines(), str(path))


def compare(expected: list[Event], actual: list[Event]) -> list[str]:
    """What is wrong with ``actual`` against ``expected`` (empty when it matches)."""
    types = COMPARED | {event.get("type") for event in expected}
    seen = [event for event in actual if event.get("type") in types]
    for index, (want, got) in enumerate(zip(expected, seen, strict=False)):
        wrong = _differences(want, got)
        if wrong:
            head = f"event {index + 1} of {len(expected)} ({want.get('type')})"
            return [f"{head}: {w}" for w in wrong] + [
                f"  expected {json.dumps(want)}",
                f"  actual   {json.dumps(got)}",
            ]
    if len(seen) < len(expected):
        missing = expected[len(seen)]
        return [f"{len(expected) - len(seen)} expected event(s) missing from event "
                f"{len(seen) + 1}, the first: {json.dumps(missing)}"]
    if len(seen) > len(expected):
        extra = seen[len(expected)]
        return [f"{len(seen) - len(expected)} unexpected event(s) after event "
                f"{len(expected)}, the first: {json.dumps(extra)}"]
    return []


def _differences(want: Event, got: Event) -> list[str]:
    wrong = []
    for key, value in want.items():
        if key == "t":
            continue
        have = got.get(key)
        if value is None:
            same = have is None
        elif key in UNORDERED and isinstance(value, list) and isinstance(have, list):
            same = sorted(value) == sorted(have)
        else:
            same = have == value
        if not same:
            shown = "absent" if key not in got else json.dumps(have)
            wrong.append(f"{key} expected {json.dumps(value)}, got {shown}")
    return wrong
