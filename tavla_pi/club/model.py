"""What the club page knows of each board: a pure model fed the broker's messages.

Each message of ``tavla/<club>/<board>/(status|state|event)`` (docs/CLUB.md, "Topics
and payloads") is checked whole before anything is used: ``"v": 1``, the topic's board
in ``board``, the size, each field's type.  A bad one is one log line naming the topic
and the field and changes nothing.  A good one updates the board: its presence
(``status``; ``gone`` is the board's last will), its latest state, the time it was
committed, the bounded log of its current match (a ``new_match`` event starts it again),
and, when a ``match_over`` event ends a match, the match as a GNU Backgammon ``.mat``
file (:mod:`tavla_pi.export`) among the night's finished matches.
"""

from __future__ import annotations

import logging
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.errors import TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.export import format_match, record_match
from tavla_pi.remote.messages import BOARD_NAME, FORMAT, MAX_CAST_BYTES, MessageError

CLUB_LEAVES = ("status", "state", "event")
"""The topics of a board the club page reads."""
LOG_BOUND = 500
"""The events of a board's current match kept for its log (the newest)."""
RECORD_BOUND = 20_000
"""The events of a board's current match kept for its ``.mat`` file."""
MAX_BOARDS = 256
"""The boards one club page follows; a message of one more is refused."""
RECORDED_TYPES = frozenset({
    EventType.NEW_MATCH, EventType.GAME_STARTED, EventType.OPENING_ROLL, EventType.ROLLED,
    EventType.PLAYED, EventType.NO_LEGAL_MOVE, EventType.DOUBLE_OFFERED,
    EventType.DOUBLE_TAKEN, EventType.DOUBLE_DROPPED, EventType.TAKEBACK,
    EventType.RESIGN_OFFERED, EventType.RESIGN_ACCEPTED, EventType.RESIGN_DECLINED,
    EventType.GAME_OVER, EventType.MATCH_OVER})
"""The event types a match file is made of (the others are only logged)."""
STATUSES = ("online", "gone")
_MAX_MS = 2**53
log = logging.getLogger("tavla_pi.club")


@dataclass(frozen=True, slots=True)
class ClubMessage:
    """One checked message: the board, the topic's leaf (``kind``) and the payload object."""

    board: str
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A match a board finished tonight, as its ``.mat`` file (``name``) and its facts."""

    board: str
    name: str
    match_id: str | None
    players: dict[str, str] | None
    score: list[int]
    length: int
    text: str

    def summary(self) -> dict[str, Any]:
        """The entry of ``GET /api/matches``."""
        return {"board": self.board, "name": self.name, "match_id": self.match_id,
                "players": self.players, "score": self.score, "length": self.length}


@dataclass(slots=True)
class ClubBoard:
    """One board as the page shows it."""

    name: str
    status: str | None = None
    state: dict[str, Any] | None = None
    at: int | None = None
    seq: int = 0
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_BOUND))
    recorded: deque[dict[str, Any]] = field(
        default_factory=lambda: deque(maxlen=RECORD_BOUND))

    def summary(self) -> dict[str, Any]:
        """The board's entry of ``GET /api/club``."""
        return {"status": self.status, "state": self.state, "at": self.at, "seq": self.seq,
                "log": list(self.log)}


def club_message(club: str, topic: str, payload: bytes) -> ClubMessage:
    """The checked message of ``topic``; :class:`MessageError` naming the topic and the
    field for anything wrong."""
    board, kind = _topic_parts(club, topic)
    if len(payload) > MAX_CAST_BYTES:
        raise MessageError(topic, f"a payload of {len(payload)} bytes (at most {MAX_CAST_BYTES})")
    try:
        data = parse_json(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise MessageError(topic, "not UTF-8 text") from None
    except (LimitError, ValueError) as exc:
        raise MessageError(topic, f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise MessageError(topic, "expected a JSON object")
    if data.get("v") != FORMAT:
        raise MessageError(topic, f"v: expected {FORMAT}")
    if data.get("board") != board:
        raise MessageError(topic, "board: not the topic's board")
    _CHECKS[kind](data, topic)
    return ClubMessage(board, kind, data)


def _topic_parts(club: str, topic: str) -> tuple[str, str]:
    parts = topic.split("/")
    if (len(parts) != 4 or parts[0] != "tavla" or parts[1] != club
            or parts[3] not in CLUB_LEAVES or BOARD_NAME.fullmatch(parts[2]) is None):
        raise MessageError(f"topic {topic[:120]!r}", f"expected tavla/{club}/<board>/"
                           "(status|state|event), board [a-z0-9-]{1,32}")
    return parts[2], parts[3]


def _check_status(data: dict[str, Any], topic: str) -> None:
    _keys(data, topic, {"v", "board", "status"})
    if data["status"] not in STATUSES:
        raise MessageError(topic, "status: expected online or gone")


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


def _check_state(data: dict[str, Any], topic: str) -> None:
    _keys(data, topic, {"v", "board", "seq", "at", "dropped", "state"})
    _count(data, "seq", topic)
    _count(data, "at", topic)
    _count(data, "dropped", topic)
    if not isinstance(data["state"], dict):
        raise MessageError(topic, "state: expected a JSON object")


_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "status": _check_status, "event": _check_event, "state": _check_state}


def _keys(data: dict[str, Any], topic: str, wanted: set[str]) -> None:
    missing = sorted(wanted - set(data))
    if missing:
        raise MessageError(topic, f"{missing[0]}: missing")
    extra = sorted(set(data) - wanted)
    if extra:
        raise MessageError(topic, f"{extra[0][:40]}: not a field of this message")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_MS


def _count(data: dict[str, Any], key: str, topic: str, low: int = 0) -> None:
    if not _is_count(data[key]) or data[key] < low:
        raise MessageError(topic, f"{key}: expected a whole number from {low}")


class ClubModel:
    """Every board of ``club`` seen so far, and the matches they finished.

    ``on_finished`` hears of each match as it finishes (``--out`` writes it)."""

    def __init__(self, club: str,
                 on_finished: Callable[[FinishedMatch], None] | None = None) -> None:
        self.club = club
        self.boards: dict[str, ClubBoard] = {}
        self.finished: dict[str, FinishedMatch] = {}
        self._on_finished = on_finished

    def receive(self, topic: str, payload: bytes) -> ClubMessage | None:
        """Check and apply one message; the message, or None (refused: one log line)."""
        try:
            message = club_message(self.club, topic, payload)
        except MessageError as exc:
            log.warning("club: %s", exc)
            return None
        board = self.boards.get(message.board)
        if board is None:
            if len(self.boards) >= MAX_BOARDS:
                log.warning("club: %s: more than %d boards; not followed", topic, MAX_BOARDS)
                return None
            board = self.boards[message.board] = ClubBoard(message.board)
        self._apply(board, message)
        return message

    def _apply(self, board: ClubBoard, message: ClubMessage) -> None:
        data = message.payload
        if message.kind == "status":
            board.status = data["status"]
        elif message.kind == "state":
            board.state, board.at = data["state"], data["at"]
            board.status = board.status or "online"
        else:
            self._event(board, data["event"], data["seq"], data["at"])

    def _event(self, board: ClubBoard, event: dict[str, Any], seq: int, at: int) -> None:
        kind = event["type"]
        if kind == EventType.NEW_MATCH:
            board.log.clear()
            board.recorded.clear()
        board.seq, board.at = seq, at
        board.log.append(event)
        if kind in RECORDED_TYPES:
            board.recorded.append(event)
        if kind == EventType.MATCH_OVER:
            self._finish(board, at)

    def _finish(self, board: ClubBoard, at: int) -> None:
        try:
            events = [Event.from_dict(item) for item in board.recorded]
            record = record_match(events, lambda i: f"{board.name} event {i + 1}")
            text = format_match(record)
        except (TavlaError, ValueError, KeyError, TypeError) as exc:
            log.warning("club: %s: the finished match makes no match file (%s)", board.name, exc)
            return
        if not record.games:
            return
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(at / 1000))
        name = f"{board.name}-{stamp}.mat"
        state = board.state or {}
        match = FinishedMatch(board.name, name, state.get("match_id"), state.get("players"),
                              list(record.games[-1].final_score), record.match_length, text)
        self.finished[name] = match
        if self._on_finished is not None:
            self._on_finished(match)

    def summary(self) -> dict[str, Any]:
        """``GET /api/club``: the club and each board."""
        return {"v": FORMAT, "club": self.club,
                "boards": {name: board.summary() for name, board in sorted(self.boards.items())}}

    def matches(self) -> list[dict[str, Any]]:
        """``GET /api/matches``: the finished matches, oldest first."""
        return [match.summary() for match in self.finished.values()]
