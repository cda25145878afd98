"""The fields each event type carries (docs/CONTRACTS.md §4), checked when reading them back.

A journal line is parsed into an :class:`~tavla_pi.events.event.Event` only
after :func:`parse_event` has checked it: a JSON object with ``t`` and
``type``, and for the event types the game reads back (restore, export,
dice-stats) the fields they use, with the right JSON types.  Unknown event
types pass (a later version may add some); they carry no meaning here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from tavla_pi.events.event import Event

Check = Callable[[Any], bool]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return _int(value) and 0 <= value < 1 << 31


def _die(value: Any) -> bool:
    return _int(value) and 1 <= value <= 6


def _dice(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_die(d) for d in value)


def _color(value: Any) -> bool:
    return value in ("white", "black")


def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 200


def _score(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_count(n) for n in value)


def _kind(value: Any) -> bool:
    return value in ("single", "gammon", "backgammon")


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


_CUBE = {"player": _color, "cube": _count}

REQUIRED: Mapping[str, Mapping[str, Check]] = {
    "new_match": {"match_length": _count},
    "game_started": {"position_id": _text, "match_id": _text},
    "opening_roll": {"white": _die, "black": _die},
    "rolled": {"player": _color, "dice": _dice},
    "played": {"player": _color, "dice": _dice, "play": _text, "position_id": _text,
               "match_id": _text},
    "no_legal_move": {"player": _color, "dice": _dice},
    "double_offered": _CUBE,
    "double_taken": _CUBE,
    "double_dropped": _CUBE,
    "game_over": {"winner": _color, "kind": _kind, "cube": _count, "points": _count,
                  "score": _score},
    "match_over": {"winner": _color, "score": _score},
}
"""The fields that must be present, per event type, and their checks."""

OPTIONAL: Mapping[str, Mapping[str, Check]] = {
    "opening_roll": {"starter": _color},
    "double_taken": {"beaver": _flag},
}
"""Fields that may be absent, but when present must pass their check."""


def parse_event(line: str) -> Event:
    """The event on one journal line; ValueError says what is wrong with it."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise ValueError("not valid JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object (one event)")
    problem = event_problem(data)
    if problem:
        raise ValueError(problem)
    return Event.from_dict(data)


def event_problem(data: Mapping[str, Any]) -> str:
    """What is wrong with an event object, or "" if nothing."""
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        return 'expected an event object with a "type"'
    if not _int(data.get("t")):
        return 'field "t": expected whole milliseconds'
    for name, check in REQUIRED.get(kind, {}).items():
        if name not in data:
            return f'{kind}: field "{name}" is missing'
        if not check(data[name]):
            return f'{kind}: field "{name}" has a wrong value: {_short(data[name])}'
    for name, check in OPTIONAL.get(kind, {}).items():
        if name in data and not check(data[name]):
            return f'{kind}: field "{name}" has a wrong value: {_short(data[name])}'
    return ""


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."
