"""The fields each event type carries (docs/CONTRACTS.md §4), checked when reading them back.

A journal line is parsed into an :class:`~tavla_pi.events.event.Event` only
after :func:`parse_event` has checked it: a JSON object with ``t`` and
``type``, and for the event types the game reads back (restore, export,
dice-stats, the daemon's reviews) the fields they use, with the right JSON types; the types only
the lights and the web view use are not checked.  Unknown event types pass
(a later version may add some); they carry no meaning here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from tavla_pi.bounded import parse_json
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType, event_type

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
    return value in ("single", "gammon", "backgammon", "mother", "draw")


def _winner(value: Any) -> bool:
    """A game's winner: a colour, or null for a draw (Plakoto)."""
    return value is None or _color(value)


def _game(value: Any) -> bool:
    """A game's or a match's name: a short string.  Which names there are is the rules'
    word (``rules.variants``), which the journal's fold asks (an unknown one is refused
    there, naming the line)."""
    return isinstance(value, str) and 0 < len(value) <= 40


def _board(value: Any) -> bool:
    """A board in the form of docs/CONTRACTS.md §2: the colours' counts and the pins."""
    return isinstance(value, dict) and all(
        isinstance(value.get(k), dict) for k in ("white", "black", "pinned"))


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _plays(value: Any) -> bool:
    """A hint's plays: each ``{"play", "position_id", "equity"}`` (at most 100)."""
    return isinstance(value, list) and 0 < len(value) <= 100 and all(
        isinstance(p, dict) and _text(p.get("play")) and _text(p.get("position_id"))
        and _number(p.get("equity")) for p in value)


def _sentence(value: Any) -> bool:
    """What the board said: a text of at most 2,000 characters (a position's read-out)."""
    return isinstance(value, str) and len(value) <= 2000


def _language(value: Any) -> bool:
    return value in ("el", "tr", "en")


def _hex64(value: Any) -> bool:
    """A SHA-256 digest or a dice contribution: 64 lowercase hex digits."""
    return isinstance(value, str) and len(value) == 64 and all(
        c in "0123456789abcdef" for c in value)


def _uid(value: Any) -> bool:
    """A remote match's id: 32 lowercase hex digits."""
    return isinstance(value, str) and len(value) == 32 and all(
        c in "0123456789abcdef" for c in value)


def _board_name(value: Any) -> bool:
    """A board's name on the network: ``[a-z0-9-]{1,32}``."""
    return isinstance(value, str) and 0 < len(value) <= 32 and all(
        c in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in value)


def _seq(value: Any) -> bool:
    return _count(value) and value >= 1


def _object(value: Any) -> bool:
    return isinstance(value, dict)


def _list(value: Any) -> bool:
    return isinstance(value, list)


def _reserves(value: Any) -> bool:
    """The clock's reserves: ``{"white": ms, "black": ms}``."""
    return isinstance(value, dict) and set(value) == {"white", "black"} and all(
        _count(v) for v in value.values())


def _clock_rules(value: Any) -> bool:
    """A match's clock: ``{"delay_s": s, "reserve_s_per_point": s}``."""
    return isinstance(value, dict) and set(value) == {"delay_s", "reserve_s_per_point"} \
        and all(_count(v) for v in value.values())


def _online_user(value: Any) -> bool:
    """The name the online server knows this board by, or null before a login."""
    return value is None or (isinstance(value, str) and 0 < len(value) <= 64
                             and value.isprintable() and " " not in value)


def _online_match(value: Any) -> bool:
    """The online match played: ``{"id", "opponent", "points"}``, or null."""
    if value is None:
        return True
    return isinstance(value, dict) and set(value) == {"id", "opponent", "points"} \
        and _count(value["id"]) and _count(value["points"]) \
        and (value["opponent"] is None or _online_user(value["opponent"]))


def _side(value: Any) -> bool:
    """A colour, or null for none."""
    return value is None or _color(value)


_CUBE = {"player": _color, "cube": _count}
_RESIGN = {"player": _color, "points": _count}
_NOT_READ: Mapping[str, Check] = {}
"""The fields of an event type nothing reads back (the lights, the web view): unchecked."""

REQUIRED: Mapping[EventType, Mapping[str, Check]] = {
    EventType.NEW_MATCH: {"match_length": _count},
    EventType.GAME_STARTED: {"position_id": _text, "match_id": _text},
    EventType.OPENING_ROLL: {"white": _die, "black": _die},
    EventType.ROLLED: {"player": _color, "dice": _dice},
    EventType.LIFTED: _NOT_READ,
    EventType.OUT_OF_SYNC: _NOT_READ,
    EventType.IN_SYNC: _NOT_READ,
    EventType.PLAYED: {"player": _color, "dice": _dice, "play": _text, "position_id": _text,
                       "match_id": _text},
    EventType.REJECTED: _NOT_READ,
    EventType.NO_LEGAL_MOVE: {"player": _color, "dice": _dice},
    EventType.DOUBLE_OFFERED: _CUBE,
    EventType.DOUBLE_TAKEN: _CUBE,
    EventType.DOUBLE_DROPPED: _CUBE,
    EventType.GAME_OVER: {"winner": _winner, "kind": _kind, "cube": _count, "points": _count,
                          "score": _score},
    EventType.MATCH_OVER: {"winner": _color, "score": _score},
    EventType.HINT: {"player": _color, "dice": _dice, "plays": _plays},
    EventType.BLUNDER_WARNING: {"player": _color, "play": _text, "best": _text,
                                "loss": _number},
    EventType.RESIGN_OFFERED: _RESIGN,
    EventType.RESIGN_ACCEPTED: _RESIGN,
    EventType.RESIGN_DECLINED: _RESIGN,
    EventType.REVIEW: {"game": _count, "white": _object, "black": _object, "costly": _list},
    EventType.ENGINE_PLAY: {"player": _color, "dice": _dice, "play": _text,
                            "position_id": _text},
    EventType.TAKEBACK: {"player": _color, "dice": _dice, "position_id": _text,
                         "match_id": _text},
    EventType.SPOKEN: {"text": _sentence, "language": _language, "about": _text},
    EventType.REMOTE_PLAY: {"player": _color, "dice": _dice, "play": _text,
                            "position_id": _text},
    EventType.REMOTE_STATUS: {"peer": _board_name, "connected": _flag},
    EventType.REMOTE_MATCH: {"match_uid": _uid, "peer": _board_name, "color": _color},
    EventType.REMOTE_SENT: {"match_uid": _uid, "seq": _seq, "message": _object},
    EventType.REMOTE_TAKEN: {"match_uid": _uid, "seq": _seq},
    EventType.DICE_COMMIT: {"match_uid": _uid, "roll": _count, "board": _board_name,
                            "digest": _hex64},
    EventType.DICE_REVEAL: {"match_uid": _uid, "roll": _count, "board": _board_name,
                            "contribution": _hex64},
    EventType.CLOCK: {"reserve_ms": _reserves, "running": _side, "delay_ms": _count,
                      "flag": _side, "wall_ms": _int},
    EventType.ONLINE_STATUS: {"connected": _flag, "user": _online_user,
                              "match": _online_match},
}
"""The fields that must be present, per event type (every member), and their checks."""

OPTIONAL: Mapping[EventType, Mapping[str, Check]] = {
    EventType.GAME_STARTED: {"variant": _game},
    EventType.OPENING_ROLL: {"starter": _color},
    EventType.PLAYED: {"board": _board},
    EventType.DOUBLE_TAKEN: {"beaver": _flag},
    EventType.NEW_MATCH: {"opponent": lambda v: v is None or _color(v), "level": _text,
                          "variant": _game,
                          "remote": _board_name, "online": lambda v: v is True,
                          "clock": _clock_rules},
    EventType.MATCH_OVER: {"reason": lambda v: v == "time"},
    EventType.DICE_COMMIT: {"contribution": _hex64},
}
"""Fields that may be absent, but when present must pass their check."""

ADDED: Mapping[EventType, frozenset[str]] = {
    EventType.GAME_STARTED: frozenset({"variant"}),
    EventType.PLAYED: frozenset({"board"}),
}
"""Fields always written now that older journals lack: read as optional (in ``OPTIONAL``)."""


def parse_event(line: str) -> Event:
    """The event on one journal line; ValueError says what is wrong with it."""
    try:
        data = parse_json(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object (one event)")
    problem = event_problem(data)
    if problem:
        raise ValueError(problem)
    return Event.from_dict(data)


def event_problem(data: Mapping[str, Any]) -> str:
    """What is wrong with an event object, or "" if nothing."""
    given = data.get("type")
    if not isinstance(given, str) or not given:
        return 'expected an event object with a "type"'
    if not _int(data.get("t")):
        return 'field "t": expected whole milliseconds'
    kind = event_type(given)
    if not isinstance(kind, EventType):  # a later version's event: it carries no meaning here
        return ""
    return _field_problem(kind, data)


def _field_problem(kind: EventType, data: Mapping[str, Any]) -> str:
    """What is wrong with the fields of an event of type ``kind``, or "" if nothing."""
    for name, check in REQUIRED[kind].items():
        if name not in data:
            return f'{kind}: field "{name}" is missing'
        if not check(data[name]):
            return f'{kind}: field "{name}" has a wrong value: {_short(data[name])}'
    for name, check in OPTIONAL.get(kind, _NOT_READ).items():
        if name in data and not check(data[name]):
            return f'{kind}: field "{name}" has a wrong value: {_short(data[name])}'
    return ""


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."
