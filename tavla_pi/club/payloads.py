"""A broker's message to the club page, checked whole before anything of it is used.

Each message of ``tavla/<club>/<board>/(status|state|event)`` (docs/CLUB.md, "Topics and
payloads") must be: within its size (:data:`LIMITS`), a JSON object, signed by the
board's key when the club knows the board (:mod:`tavla_pi.club.trust`), ``"v": 1``, the
topic's board in ``board``, exactly the fields of its kind, each of its type; a state
is one a board could have written (:func:`~tavla_pi.remote.viewstate.check_viewer_state`)
and an event of a known type carries its fields (:func:`~tavla_pi.events.schema.
event_problem`).  Anything else is one :class:`~tavla_pi.remote.messages.MessageError`
(or :class:`~tavla_pi.remote.keys.SignatureError`) naming the topic and the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.club.ring import compact_json
from tavla_pi.club.trust import open_payload
from tavla_pi.events.schema import event_problem
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.messages import BOARD_NAME, FORMAT, MAX_CAST_BYTES, MessageError
from tavla_pi.remote.viewstate import MAX_STATE_BYTES, check_viewer_state

CLUB_LEAVES = ("status", "state", "event")
"""The topics of a board the club page reads."""
MAX_STATUS_BYTES = 1024
"""The largest ``status`` payload read (a board's is under 200 bytes)."""
LIMITS = {"status": MAX_STATUS_BYTES, "state": MAX_STATE_BYTES, "event": MAX_CAST_BYTES}
"""The largest payload read of each kind (an event: as large as a board writes one)."""
STATUSES = ("online", "gone")
NONCE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A status's ``nonce``: the board's connection it speaks for (docs/CLUB.md)."""
_MAX_MS = 2**53


@dataclass(frozen=True, slots=True)
class ClubMessage:
    """One checked message: the board, the topic's leaf (``kind``), the payload object
    (without its signature) and whether the board's key signed it (``verified``)."""

    board: str
    kind: str
    payload: dict[str, Any]
    verified: bool = False
    event_json: bytes = b""
    """An event's ``event`` as compact JSON (what the board's log keeps)."""


def club_message(club: str, topic: str, payload: bytes,
                 keys: Mapping[str, PublicKey] | None = None) -> ClubMessage:
    """The checked message of ``topic``; :class:`MessageError` naming the topic and the
    field for anything wrong (a number that is not finite too), :class:`SignatureError`
    when ``keys`` has the board's key and the payload is not signed by it."""
    board, kind = topic_parts(club, topic)
    if len(payload) > LIMITS[kind]:
        raise MessageError(topic, f"a payload of {len(payload)} bytes (at most {LIMITS[kind]})")
    try:
        data = parse_json(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise MessageError(topic, "not UTF-8 text") from None
    except (LimitError, ValueError) as exc:
        raise MessageError(topic, f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise MessageError(topic, "expected a JSON object")
    data, verified = open_payload(keys, board, topic, data)
    if data.get("v") != FORMAT:
        raise MessageError(topic, f"v: expected {FORMAT}")
    if data.get("board") != board:
        raise MessageError(topic, "board: not the topic's board")
    _CHECKS[kind](data, topic)
    if kind != "event":
        return ClubMessage(board, kind, data, verified)
    try:
        event_json = compact_json(data["event"])
    except ValueError:
        raise MessageError(topic, "event: a number that is not finite") from None
    return ClubMessage(board, kind, data, verified, event_json)


def topic_parts(club: str, topic: str) -> tuple[str, str]:
    """The board and the leaf of a club's topic; :class:`MessageError` for another."""
    parts = topic.split("/")
    if (len(parts) != 4 or parts[0] != "tavla" or parts[1] != club
            or parts[3] not in CLUB_LEAVES or BOARD_NAME.fullmatch(parts[2]) is None):
        raise MessageError(f"topic {topic[:120]!r}", f"expected tavla/{club}/<board>/"
                           "(status|state|event), board [a-z0-9-]{1,32}")
    return parts[2], parts[3]


def _check_status(data: dict[str, Any], topic: str) -> None:
    _keys(data, topic, {"v", "board", "status"}, {"nonce"})
    if data["status"] not in STATUSES:
        raise MessageError(topic, "status: expected online or gone")
    nonce = data.get("nonce")
    if nonce is not None and (not isinstance(nonce, str) or NONCE.fullmatch(nonce) is None):
        raise MessageError(topic, "nonce: expected 1 to 64 letters, digits, - or _")


def _check_event(data: dict[str, Any], topic: str) -> None:
    _keys(data, topic, {"v", "board", "seq", "at", "event"})
    _count(data, "seq", topic, low=1)
    _count(data, "at", topic)
    event = data["event"]
    if not isinstance(event, dict):
        raise MessageError(topic, "event: expected a JSON object")
    if not isinstance(event.get("type"), str) or re.fullmatch(r"[a-z_]{1,40}",
                                                               event["type"]) is None:
        raise MessageError(topic, "event.type: expected an event's type")
    if not _is_count(event.get("t")):
        raise MessageError(topic, "event.t: expected a whole number of ms")
    problem = event_problem(event)
    if problem:
        raise MessageError(topic, f"event: {problem[:160]}")


def _check_state(data: dict[str, Any], topic: str) -> None:
    _keys(data, topic, {"v", "board", "seq", "at", "dropped", "state"})
    _count(data, "seq", topic)
    _count(data, "at", topic)
    _count(data, "dropped", topic)
    check_viewer_state(data["state"], topic)


_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "status": _check_status, "event": _check_event, "state": _check_state}


def _keys(data: dict[str, Any], topic: str, wanted: set[str],
          optional: frozenset[str] | set[str] = frozenset()) -> None:
    missing = sorted(wanted - set(data))
    if missing:
        raise MessageError(topic, f"{missing[0]}: missing")
    extra = sorted(set(data) - wanted - optional)
    if extra:
        raise MessageError(topic, f"{extra[0][:40]}: not a field of this message")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_MS


def _count(data: dict[str, Any], key: str, topic: str, low: int = 0) -> None:
    if not _is_count(data[key]) or data[key] < low:
        raise MessageError(topic, f"{key}: expected a whole number from {low}")
