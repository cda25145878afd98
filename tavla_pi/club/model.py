"""What the club page knows of each board: a pure model fed the broker's messages.

Each message is checked whole first (:func:`~tavla_pi.club.payloads.club_message`: its
size, its fields, a state a board could have written, the board's signature when the
club knows its key).  A bad one changes nothing and is one log line, a flood of them one
line per interval with the count (:class:`~tavla_pi.ratelog.RefusalLog`, counted per
known board and once for all the others).  A good one updates the board: its presence
(``status``; ``gone`` is the board's last will), its latest state, the time it was
committed, the log of its current match (a ``new_match`` event starts it again) and, when
a ``match_over`` event ends a match, the match as a GNU Backgammon ``.mat`` file
(:mod:`tavla_pi.export`) among the night's finished matches.

What a flood can make it hold is bounded: each board's events are rings bounded in count
and bytes (:class:`~tavla_pi.club.ring.EventRing`); the boards the club knows are the
``--boards`` file's, and at most :data:`MAX_UNVERIFIED` others, whose events share
:data:`UNVERIFIED_BYTES` (the largest gives way first); the finished matches are bounded
too, those of unverified boards apart.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tavla_pi.clock import MonotonicClock
from tavla_pi.club.payloads import ClubMessage, club_message, topic_parts
from tavla_pi.club.ring import EventRing, compact_json
from tavla_pi.errors import BadInputError, TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.schema import OPTIONAL, REQUIRED
from tavla_pi.events.types import EventType
from tavla_pi.export import format_match, record_match
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.messages import FORMAT

LOG_BOUND = 500
"""The events of a board's current match kept for its log (the newest)."""
LOG_BYTES = 128 * 1024
"""The bytes of a board's log."""
RECORD_BOUND = 20_000
"""The events of a board's current match kept for its ``.mat`` file."""
RECORD_BYTES = 2 * 1024 * 1024
"""The bytes of a board's record (each event's fields the file needs: a long match's
is under 1 MB)."""
MAX_UNVERIFIED = 32
"""The boards followed that the ``--boards`` file does not name; a message of one more
is refused."""
UNVERIFIED_BYTES = 1024 * 1024
"""The bytes of events all unverified boards keep together."""
MAX_FINISHED = 1000
"""The finished matches kept (the oldest go first)."""
MAX_UNVERIFIED_FINISHED = 100
"""Of them, the most kept of unverified boards."""
UNVERIFIED_FINISHED_BYTES = 1024 * 1024
"""The bytes of the match files of unverified boards kept together."""
RECORDED_TYPES = frozenset({
    EventType.NEW_MATCH, EventType.GAME_STARTED, EventType.OPENING_ROLL, EventType.ROLLED,
    EventType.PLAYED, EventType.NO_LEGAL_MOVE, EventType.DOUBLE_OFFERED,
    EventType.DOUBLE_TAKEN, EventType.DOUBLE_DROPPED, EventType.TAKEBACK,
    EventType.RESIGN_OFFERED, EventType.RESIGN_ACCEPTED, EventType.RESIGN_DECLINED,
    EventType.GAME_OVER, EventType.MATCH_OVER})
"""The event types a match file is made of (the others are only logged)."""
OTHERS = "unverified boards"
"""The refusals' kind of every board the club does not know (one count for all)."""
log = logging.getLogger("tavla_pi.club")


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
    """One board as the page shows it; ``verified``: the club knows its key."""

    name: str
    verified: bool = False
    status: str | None = None
    state: dict[str, Any] | None = None
    at: int | None = None
    seq: int = 0
    nonce: str | None = None
    """The ``nonce`` of its latest ``online`` status."""
    log: EventRing = field(default_factory=lambda: EventRing(LOG_BOUND, LOG_BYTES))
    recorded: EventRing = field(default_factory=lambda: EventRing(RECORD_BOUND, RECORD_BYTES))

    @property
    def kept(self) -> int:
        """The bytes of events it keeps."""
        return self.log.used + self.recorded.used

    def shed(self) -> None:
        """Drop its oldest logged event, else its oldest recorded one."""
        if not self.log.shed():
            self.recorded.shed()

    def summary_parts(self) -> list[bytes]:
        """The board's entry of ``GET /api/club`` as pieces of JSON, its log the kept
        bytes themselves."""
        head = compact_json({"status": self.status, "state": self.state, "at": self.at,
                             "seq": self.seq, "verified": self.verified})
        parts = [head[:-1], b',"log":[']
        for number, item in enumerate(self.log.raw()):
            parts += [b"," if number else b"", item]
        return [*parts, b"]}"]


def recorded_fields(event: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``event`` its type's schema names (what a match file reads)."""
    kind = EventType(event["type"])
    names = {"t", "type", *REQUIRED[kind], *OPTIONAL.get(kind, {})}
    return {name: value for name, value in event.items() if name in names}


class ClubModel:
    """Every board of ``club`` seen so far, and the matches they finished.

    ``on_finished`` hears of each match as it finishes (``--out`` writes it); ``keys``:
    the boards the club knows (``--boards``; None: none, every board unverified);
    ``refusals``: where refused messages are counted and said."""

    def __init__(self, club: str,
                 on_finished: Callable[[FinishedMatch], None] | None = None, *,
                 keys: Mapping[str, PublicKey] | None = None,
                 refusals: RefusalLog | None = None) -> None:
        self.club = club
        self.keys = keys
        self.boards: dict[str, ClubBoard] = {}
        self.finished: dict[str, FinishedMatch] = {}
        self.refusals = refusals or RefusalLog(log, MonotonicClock())
        self._on_finished = on_finished

    def receive(self, topic: str, payload: bytes) -> ClubMessage | None:
        """Check and apply one message; the message, or None (refused: counted, said)."""
        try:
            message = club_message(self.club, topic, payload, self.keys)
        except BadInputError as exc:
            self._refuse(topic, f"club: {exc}")
            return None
        board = self._board(message, topic)
        if board is None or not self._current(board, message, topic):
            return None
        self._apply(board, message)
        if message.kind == "event" and not board.verified:
            self._fit_unverified()
        return message

    def _refuse(self, topic: str, text: str) -> None:
        """Count and say one refusal: a known board's apart, the others' together."""
        try:
            name = topic_parts(self.club, topic)[0]
        except BadInputError:
            name = ""
        kind = f"board {name}" if self.keys is not None and name in self.keys else OTHERS
        self.refusals.refuse(kind, text)

    def _board(self, message: ClubMessage, topic: str) -> ClubBoard | None:
        """The message's board, made if new; None when one more unverified is too many."""
        board = self.boards.get(message.board)
        if board is not None:
            return board
        if not message.verified:
            unverified = sum(not known.verified for known in self.boards.values())
            if unverified >= MAX_UNVERIFIED:
                self._refuse(topic, f"club: {topic}: more than {MAX_UNVERIFIED} unverified "
                                    "boards; not followed")
                return None
        board = self.boards[message.board] = ClubBoard(message.board, message.verified)
        return board

    def _current(self, board: ClubBoard, message: ClubMessage, topic: str) -> bool:
        """False for a known board's ``gone`` of an earlier connection than its ``online``
        (a replayed last will: refused)."""
        data = message.payload
        if message.kind != "status" or not board.verified:
            return True
        if data["status"] == "online":
            board.nonce = data.get("nonce")
            return True
        nonce = data.get("nonce")
        if board.nonce is not None and nonce is not None and nonce != board.nonce:
            self._refuse(topic, f"club: {topic}: a gone of an earlier connection (nonce "
                                f"{nonce}, online since {board.nonce})")
            return False
        return True

    def _apply(self, board: ClubBoard, message: ClubMessage) -> None:
        data = message.payload
        if message.kind == "status":
            board.status = data["status"]
        elif message.kind == "state":
            board.state, board.at = data["state"], data["at"]
            board.status = board.status or "online"
        else:
            self._event(board, message)

    def _event(self, board: ClubBoard, message: ClubMessage) -> None:
        event, at = message.payload["event"], message.payload["at"]
        kind = event["type"]
        if kind == EventType.NEW_MATCH:
            board.log.clear()
            board.recorded.clear()
        board.seq, board.at = message.payload["seq"], at
        board.log.append(message.event_json)
        if kind in RECORDED_TYPES:
            board.recorded.append(compact_json(recorded_fields(event)))
        if kind == EventType.MATCH_OVER:
            self._finish(board, at)
            board.recorded.clear()  # each file is made of its own match's events once

    def _fit_unverified(self) -> None:
        """Shed the largest unverified board's oldest events until all fit together."""
        others = [board for board in self.boards.values() if not board.verified]
        total = sum(board.kept for board in others)
        while total > UNVERIFIED_BYTES:
            largest = max(others, key=lambda board: board.kept)
            before = largest.kept
            largest.shed()
            total -= before - largest.kept

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
        self._keep(match, verified=board.verified)
        if self._on_finished is not None:
            self._on_finished(match)

    def _keep(self, match: FinishedMatch, *, verified: bool) -> None:
        """Keep ``match`` among the finished, the oldest going past the bounds."""
        self.finished.pop(match.name, None)
        self.finished[match.name] = match
        if not verified:
            theirs = [kept for kept in self.finished.values()
                      if not self.boards[kept.board].verified]
            size = sum(len(kept.text) for kept in theirs)
            for number, kept in enumerate(theirs[:-1]):
                if len(theirs) - number <= MAX_UNVERIFIED_FINISHED and (
                        size <= UNVERIFIED_FINISHED_BYTES):
                    break
                del self.finished[kept.name]
                size -= len(kept.text)
        for name in list(self.finished)[:-MAX_FINISHED]:
            del self.finished[name]

    def summary_json(self) -> bytes:
        """``GET /api/club``: the club and each board, as JSON joined once of the kept
        bytes (a flooded club's answer costs its size, not a parse of every event)."""
        parts = [compact_json({"v": FORMAT, "club": self.club})[:-1], b',"boards":{']
        for number, (name, board) in enumerate(sorted(self.boards.items())):
            parts += [b"," if number else b"", compact_json(name), b":",
                      *board.summary_parts()]
        return b"".join([*parts, b"}}"])

    def summary(self) -> dict[str, Any]:
        """``GET /api/club`` as an object."""
        club: dict[str, Any] = json.loads(self.summary_json())
        return club

    def matches(self) -> list[dict[str, Any]]:
        """``GET /api/matches``: the finished matches, oldest first."""
        return [match.summary() for match in self.finished.values()]
