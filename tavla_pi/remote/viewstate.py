"""The viewer's state as a board writes it, checked: what a club page may show of a board.

A board broadcasts :data:`~tavla_pi.remote.broadcast.STATE_KEYS` of ``/api/state``
(docs/CLUB.md, "Topics and payloads").  :func:`check_viewer_state` holds each of those
keys to the form the board's own code gives it: the phase one of the game's phases, the
board one of its variant's boards (15 checkers a side counting ``"off"``, a bar only in
Portes, pins only in Plakoto: the rules' own reader, :meth:`Variant.from_board`), dice
1..6, the cube a power of two up to 64, scores and lengths in the Match ID's ranges, the
clock's and the friend's board's objects with exactly their fields, the players' names as
``[players]`` allows them.  :data:`MAX_STATE_BYTES` bounds the whole ``state`` payload.
Anything else is one :class:`~tavla_pi.remote.messages.MessageError` naming the field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from tavla_pi.game.matchclock import MAX_DELAY_S, MAX_RESERVE_S_PER_POINT
from tavla_pi.game.players import is_name
from tavla_pi.game.view import Phase
from tavla_pi.remote.broadcast import STATE_KEYS
from tavla_pi.remote.messages import BOARD_NAME, MessageError
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MAX_CUBE, MAX_MATCH_LENGTH, MAX_SCORE
from tavla_pi.rules.variants import NAMES, variant

MAX_STATE_BYTES = 4096
"""The largest ``state`` payload read (a board's is under 1,000 bytes)."""
MAX_TROUBLE_CHARS = 1000
"""The longest ``remote.trouble`` text."""
MAX_EVENTS = 2**31 - 1
"""The largest ``events`` count."""
PHASES = frozenset(phase.value for phase in Phase)
COLORS = frozenset(color.value for color in Color)
_CUBE_FACES = frozenset(1 << n for n in range(MAX_CUBE.bit_length()))
CUBE_KEYS = frozenset({"value", "owner", "offered"})
CLOCK_KEYS = frozenset({"delay_s", "reserve_s_per_point", "reserve_s", "delay_left_s",
                        "running", "flag", "timed"})
REMOTE_KEYS = frozenset({"peer", "connected", "waiting_for", "trouble"})
_POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
_MATCH_ID = re.compile(r"[A-Za-z0-9+/]{12}")
_MAX_RESERVE_S = MAX_RESERVE_S_PER_POINT * MAX_MATCH_LENGTH


class _FieldError(Exception):
    """What is wrong with one value (the caller names the field)."""


_Check = Callable[[Any], None]


def check_viewer_state(state: object, where: str) -> dict[str, Any]:
    """``state`` once it is a viewer's state a board could have written; MessageError
    naming ``where`` and the field (``state.dice``) for anything else."""
    if not isinstance(state, dict):
        raise MessageError(where, "state: expected a JSON object")
    missing = sorted(set(STATE_KEYS) - set(state))
    if missing:
        raise MessageError(where, f"state.{missing[0]}: missing")
    extra = sorted(set(state) - set(STATE_KEYS))
    if extra:
        raise MessageError(where, f"state.{extra[0][:40]}: not a key of the viewer's state")
    for key, check in CHECKS.items():
        try:
            check(state[key])
        except _FieldError as bad:
            raise MessageError(where, f"state.{key}: {bad}") from None
    try:
        _board(state["board"], state["variant"], state["on_roll"])
    except _FieldError as bad:
        raise MessageError(where, f"state.board: {bad}") from None
    return state


# -- the values -------------------------------------------------------------------------------

def _whole(value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _FieldError(f"expected a whole number {low}..{high}")


def _number(value: Any, low: float, high: float) -> None:
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or not low <= value <= high):
        raise _FieldError(f"expected a number {low}..{high}")


def _one_of(value: Any, allowed: frozenset[str], what: str) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise _FieldError(f"expected {what}")


def _color_or_none(value: Any) -> None:
    if value is not None:
        _one_of(value, COLORS, '"white", "black" or null')


def _flag(value: Any) -> None:
    if not isinstance(value, bool):
        raise _FieldError("expected true or false")


def _pattern(pattern: re.Pattern[str], what: str) -> _Check:
    def check(value: Any) -> None:
        if not isinstance(value, str) or pattern.fullmatch(value) is None:
            raise _FieldError(f"expected {what}")
    return check


def _fields(value: Any, keys: frozenset[str]) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``."""
    if not isinstance(value, dict):
        raise _FieldError("expected a JSON object")
    if set(value) != keys:
        odd = sorted(set(value) ^ keys)[0]
        raise _FieldError(f"{odd[:40]}: {'missing' if odd in keys else 'not a field of it'}")
    return value


def _within(key: str, check: _Check, value: Any) -> None:
    """``check`` of the field ``key`` of an object, its name put before the complaint."""
    try:
        check(value)
    except _FieldError as bad:
        raise _FieldError(f"{key}: {bad}") from None


# -- the keys ---------------------------------------------------------------------------------

def _phase(value: Any) -> None:
    _one_of(value, PHASES, "one of the game's phases")


def _variant(value: Any) -> None:
    _one_of(value, frozenset(NAMES), f"one of {', '.join(NAMES)}")


def _dice(value: Any) -> None:
    if not isinstance(value, list) or len(value) > 2:
        raise _FieldError("expected a list of at most two dice")
    for die in value:
        _whole(die, 1, 6)


def _dice_used(value: Any) -> None:
    if not isinstance(value, list) or len(value) > 4:
        raise _FieldError("expected a list of at most four flags")
    for used in value:
        _flag(used)


def _cube(value: Any) -> None:
    cube = _fields(value, CUBE_KEYS)
    if isinstance(cube["value"], bool) or cube["value"] not in _CUBE_FACES:
        raise _FieldError(f"value: expected a power of two 1..{MAX_CUBE}")
    _within("owner", _color_or_none, cube["owner"])
    _within("offered", _flag, cube["offered"])


def _score(value: Any) -> None:
    if not isinstance(value, list) or len(value) != 2:
        raise _FieldError("expected [white, black]")
    for points in value:
        _whole(points, 0, MAX_SCORE)


def _clock(value: Any) -> None:
    if value is None:
        return
    clock = _fields(value, CLOCK_KEYS)
    _within("delay_s", lambda v: _whole(v, 0, MAX_DELAY_S), clock["delay_s"])
    _within("reserve_s_per_point", lambda v: _whole(v, 1, MAX_RESERVE_S_PER_POINT),
            clock["reserve_s_per_point"])
    reserve = _fields(clock["reserve_s"], COLORS)
    for color in COLORS:
        _within(f"reserve_s.{color}", lambda v: _number(v, 0, _MAX_RESERVE_S), reserve[color])
    if clock["delay_left_s"] is not None:
        _within("delay_left_s", lambda v: _number(v, 0, MAX_DELAY_S), clock["delay_left_s"])
    _within("running", _color_or_none, clock["running"])
    _within("flag", _color_or_none, clock["flag"])
    timed = clock["timed"]
    if (not isinstance(timed, list) or len(set(map(repr, timed))) != len(timed)
            or not all(isinstance(c, str) and c in COLORS for c in timed)):
        raise _FieldError("timed: expected a list of distinct colours")


def _players(value: Any) -> None:
    players = _fields(value, COLORS)
    for color in sorted(COLORS):
        if not is_name(players[color]):
            raise _FieldError(f"{color}: expected a name of 1 to 32 printable characters")


def _board_name(value: Any) -> None:
    if not isinstance(value, str) or BOARD_NAME.fullmatch(value) is None:
        raise _FieldError("expected a board's name [a-z0-9-]{1,32}")


def _remote(value: Any) -> None:
    if value is None:
        return
    remote = _fields(value, REMOTE_KEYS)
    _within("peer", _board_name, remote["peer"])
    _within("connected", _flag, remote["connected"])
    if remote["waiting_for"] is not None:
        _within("waiting_for", _board_name, remote["waiting_for"])
    trouble = remote["trouble"]
    if trouble is not None and (not isinstance(trouble, str)
                                or len(trouble) > MAX_TROUBLE_CHARS):
        raise _FieldError(f"trouble: expected null or at most {MAX_TROUBLE_CHARS} characters")


def _board(board: Any, name: str, on_roll: str | None) -> None:
    """The rules' own reader of a board of the game ``name`` (15 a side, and so on)."""
    try:
        variant(name).from_board(board, Color(on_roll or Color.WHITE.value))
    except (ValueError, TypeError, AttributeError) as exc:
        raise _FieldError(str(exc)[:160]) from None


CHECKS: Mapping[str, _Check] = {
    "phase": _phase,
    "on_roll": _color_or_none,
    "position_id": _pattern(_POSITION_ID, "a Position ID (14 characters of base64)"),
    "match_id": _pattern(_MATCH_ID, "a Match ID (12 characters of base64)"),
    "dice": _dice,
    "dice_used": _dice_used,
    "cube": _cube,
    "score": _score,
    "match_length": lambda value: _whole(value, 0, MAX_MATCH_LENGTH),
    "variant": _variant,
    "winner": _color_or_none,
    "points_won": lambda value: _whole(value, 0, 3 * MAX_CUBE),
    "clock": _clock,
    "players": _players,
    "remote": _remote,
    "events": lambda value: _whole(value, 0, MAX_EVENTS),
}
"""Each key of the viewer's state but ``board`` and its check."""
CHECKED = (*CHECKS, "board")
"""Every key checked: ``board`` last, with its ``variant`` and ``on_roll`` (the rules'
reader)."""
