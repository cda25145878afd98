"""The remote board's messages: their JSON formats, their MQTT topics and a strict parser.

Every payload is one JSON object of at most :data:`MAX_MESSAGE_BYTES` bytes carrying
``"v": FORMAT`` and ``"sig"``, the sender's signature over the topic and every other
field (:mod:`tavla_pi.remote.keys`).  The signature is checked first, against the
friend's key: a payload without a valid one is refused (:class:`UnsignedError`) before
any field of it is read.  A message is then exactly its fields: a missing or unknown
key, a value of the wrong type or out of range is refused with one
:class:`MessageError` naming the topic and the field, so nothing from the peer is used
before all of it is checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeGuard

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.errors import BadInputError
from tavla_pi.remote.keys import PublicKey, SignatureError
from tavla_pi.rules import Color
from tavla_pi.rules.match import MAX_MATCH_LENGTH

FORMAT = 1
"""The ``"v"`` of every payload this board writes and the only one it reads."""
MAX_MESSAGE_BYTES = 4096
"""The largest payload read (a real one is under 400 bytes)."""
MAX_NUMBER = 2**31 - 1
"""The largest ``seq``, ``roll``, ``sent`` or ``taken``."""
BOARD_NAME = re.compile(r"[a-z0-9-]{1,32}")
"""A board's name on the network (use ``fullmatch``)."""
LEAVES = ("game", "sync", "status")
"""The last part of the topics a friend's board reads: ``tavla/<club>/<board>/<leaf>``."""
CAST_LEAVES = ("event", "state")
"""The broadcast's topics (:mod:`tavla_pi.remote.broadcast`), for viewers: no board reads them."""
MAX_CAST_BYTES = 16384
"""The largest broadcast payload written (an event or the state)."""
CUBE_BODY_ACTIONS = ("double", "take", "drop", "beaver")
RESIGN_ACTIONS = ("offer", "accept", "decline")
TAKEBACK_ACTIONS = ("ask", "accept", "decline")
MAX_PLAY_CHARS = 64

_UID = re.compile(r"[0-9a-f]{32}")
"""A match id, and a connection's nonce: 32 lowercase hex digits."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
_POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
_PLAY = re.compile(rf"[ -~]{{0,{MAX_PLAY_CHARS}}}")
_COMMON = ("v", "kind", "board", "match", "seq")
_OUTGOING = "outgoing message"


class MessageError(BadInputError):
    """A topic or payload from the network that is not a well-formed message."""


class UnsignedError(MessageError):
    """A payload without a valid signature by the sender's key.  ``claim``: what it says
    it is (its kind or status, unchecked: for the log only, one of a few words)."""

    def __init__(self, where: str, problem: str, claim: str) -> None:
        super().__init__(where, problem)
        self.claim = claim


@dataclass(frozen=True, slots=True)
class MatchBody:
    """A match begins: its length, the colour the sender's player plays and the sender's
    dice commitment for roll 0."""

    kind: ClassVar[str] = "match"
    length: int
    color: Color
    commit: str


@dataclass(frozen=True, slots=True)
class PlayBody:
    """A play: the dice ``(high, low)``, its gnubg notation and the Position ID after it."""

    kind: ClassVar[str] = "play"
    dice: tuple[int, int]
    play: str
    position_id: str


@dataclass(frozen=True, slots=True)
class CubeBody:
    """A cube action: one of :data:`CUBE_BODY_ACTIONS`."""

    kind: ClassVar[str] = "cube"
    action: str


@dataclass(frozen=True, slots=True)
class ResignBody:
    """A resignation: ``offer`` (with its ``level`` 1, 2 or 3), ``accept`` or ``decline``."""

    kind: ClassVar[str] = "resign"
    action: str
    level: int | None = None


@dataclass(frozen=True, slots=True)
class RevealBody:
    """The sender's dice contribution for ``roll`` and its commitment for ``roll + 1``."""

    kind: ClassVar[str] = "reveal"
    roll: int
    contribution: str
    commit: str


@dataclass(frozen=True, slots=True)
class TimeBody:
    """The sender's player ran out of time on the tournament clock: the match is lost
    (docs/CLOCK.md; each board runs its own player's clock)."""

    kind: ClassVar[str] = "time"


@dataclass(frozen=True, slots=True)
class TakebackBody:
    """A takeback: the sender's player takes its last play back (``ask``), or the sender
    lets the receiver's player take theirs back (``accept``) or not (``decline``);
    ``position_id``: the position that play is taken back to."""

    kind: ClassVar[str] = "takeback"
    action: str
    position_id: str


Body = MatchBody | PlayBody | CubeBody | ResignBody | RevealBody | TimeBody | TakebackBody


@dataclass(frozen=True, slots=True)
class GameMessage:
    """One game message (topic ``.../game``): sender, match id, number, body."""

    board: str
    match_uid: str
    seq: int
    body: Body

    def to_json(self) -> dict[str, Any]:
        """The payload object (as the journal's ``remote_sent`` keeps it)."""
        return {"v": FORMAT, "kind": self.body.kind, "board": self.board,
                "match": self.match_uid, "seq": self.seq, **_body_json(self.body)}

    def checked_json(self) -> dict[str, Any]:
        """The payload object, read back as the peer reads it (to be signed and sent);
        MessageError if a field is out of range."""
        return _checked(self.to_json(), _message)


@dataclass(frozen=True, slots=True)
class Sync:
    """A board's sync state (topic ``.../sync``, retained): its match (None: none), how many
    game messages it sent and took, and whether no roll of the match is made yet;
    ``nonce``: the connection it was published on (its ``online``'s), ``serial``: its
    number among the syncs the board published since it started, from 1 (a reader acts
    on each sync once: :mod:`tavla_pi.remote.peer`)."""

    board: str
    match_uid: str | None
    sent: int
    taken: int
    fresh: bool
    nonce: str
    serial: int

    def to_json(self) -> dict[str, Any]:
        """The payload object."""
        return {"v": FORMAT, "board": self.board, "match": self.match_uid, "sent": self.sent,
                "taken": self.taken, "fresh": self.fresh, "nonce": self.nonce,
                "serial": self.serial}

    def checked_json(self) -> dict[str, Any]:
        """The payload object, read back as the peer reads it; MessageError if a field is
        out of range."""
        return _checked(self.to_json(), _sync)


@dataclass(frozen=True, slots=True)
class Status:
    """A board's presence (topic ``.../status``, retained; ``gone`` is the last will) on
    the connection ``nonce`` (a fresh random one on each connect)."""

    board: str
    online: bool
    nonce: str

    def to_json(self) -> dict[str, Any]:
        """The payload object."""
        return {"v": FORMAT, "board": self.board,
                "status": "online" if self.online else "gone", "nonce": self.nonce}

    def checked_json(self) -> dict[str, Any]:
        """The payload object, read back as the peer reads it; MessageError if the board
        name or the nonce is bad."""
        return _checked(self.to_json(), _status)


def topic(club: str, board: str, leaf: str) -> str:
    """``tavla/<club>/<board>/<leaf>``; MessageError for a bad board name, club or leaf."""
    name = f"tavla/{club}/{board}/{leaf}"
    if (BOARD_NAME.fullmatch(board) is None or leaf not in (*LEAVES, *CAST_LEAVES)
            or not _good_club(club)):
        raise MessageError(_shown(name), "not a board's topic: expected tavla/<club>/"
                           "<board>/(game|sync|status|event|state), board [a-z0-9-]{1,32}")
    return name


def message_from_json(data: Any, where: str) -> GameMessage:
    """The game message of a payload object (e.g. a journal's ``remote_sent`` message)."""
    return _message(data, where)


def read_payload(topic: str, payload: bytes, club: str,
                 key: PublicKey) -> GameMessage | Sync | Status:
    """The message a board of ``club`` published on ``topic``, signed by ``key`` (that
    board's); UnsignedError if it is not, else MessageError naming the topic and the
    field if anything in it is wrong."""
    board, leaf = _split_topic(topic, club)
    data = _payload_json(payload, topic)
    if not isinstance(data, dict):
        raise MessageError(topic, f"expected a JSON object, got {_shown(data)}")
    try:
        body = key.opened(topic, data, topic)
    except SignatureError as exc:
        raise UnsignedError(topic, f"{exc.problem}{_claimed(leaf, data)}",
                            _claim(leaf, data)) from None
    value = _READERS[leaf](body, topic)
    if value.board != board:
        raise MessageError(topic, f"board: {_shown(value.board)} is not the topic's board "
                           f"{_shown(board)}")
    return value


def _claim(leaf: str, data: dict[str, Any]) -> str:
    """What an unchecked payload says it is, in one of a few words (a kind of the log's)."""
    said = data.get("kind") if leaf == "game" else data.get("status")
    if leaf == "game" and isinstance(said, str) and said in _BODIES:
        return said
    if leaf == "status" and said in ("online", "gone"):
        return str(said)
    return leaf


def _claimed(leaf: str, data: dict[str, Any]) -> str:
    """`` (it says: a play, seq 7)``: what an unchecked payload claims, for the log."""
    seq = data.get("seq")
    number = f", seq {seq}" if _whole(seq) and leaf == "game" else ""
    return f" (unchecked, it says: {_claim(leaf, data)}{number})"


def _body_json(body: Body) -> dict[str, Any]:
    """A body's fields as JSON values (an absent ``level`` left out)."""
    out: dict[str, Any] = {}
    for item in fields(body):
        value = getattr(body, item.name)
        if isinstance(value, Color):
            value = value.value
        if value is not None:
            out[item.name] = list(value) if isinstance(value, tuple) else value
    return out


def _good_club(club: str) -> bool:
    return 0 < len(club) <= 64 and not any(c in club for c in "/+#\0")


def _split_topic(name: str, club: str) -> tuple[str, str]:
    parts = name.split("/")
    if (len(parts) != 4 or parts[:2] != ["tavla", club] or parts[3] not in LEAVES
            or BOARD_NAME.fullmatch(parts[2]) is None):
        raise MessageError(f"topic {_shown(name)}", f"expected tavla/{club}/<board>/"
                           "(game|sync|status), board [a-z0-9-]{1,32}")
    return parts[2], parts[3]


def _payload_json(payload: bytes, where: str) -> Any:
    if len(payload) > MAX_MESSAGE_BYTES:
        raise MessageError(where, f"a payload of {len(payload)} bytes "
                           f"(at most {MAX_MESSAGE_BYTES})")
    try:
        return parse_json(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise MessageError(where, "not UTF-8 text") from None
    except LimitError as exc:
        raise MessageError(where, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise MessageError(where, f"not JSON ({exc.msg} at character {exc.pos})") from None


def _checked(data: dict[str, Any], read: Callable[[Any, str], object]) -> dict[str, Any]:
    read(data, _OUTGOING)
    return data


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(data: Any, where: str) -> dict[str, Any]:
    """``data`` as a payload object of format 1 (its ``v`` checked)."""
    if not isinstance(data, dict):
        raise MessageError(where, f"expected a JSON object, got {_shown(data)}")
    if "v" not in data:
        raise MessageError(where, "v: missing")
    if type(data["v"]) is not int or data["v"] != FORMAT:
        raise MessageError(where, f"format {_shown(data['v'])}: this board reads "
                           f"format {FORMAT}")
    return data


def _check_keys(data: dict[str, Any], where: str, required: tuple[str, ...],
                what: str, optional: tuple[str, ...] = ()) -> None:
    for key in required:
        if key not in data:
            raise MessageError(where, f"{key}: missing")
    extra = sorted(set(data) - {*required, *optional})
    if extra:
        raise MessageError(where, f"{_shown(extra[0])}: not a field of {what}")


def _fault(where: str, key: str, expected: str, value: Any) -> MessageError:
    return MessageError(where, f"{key}: expected {expected}, got {_shown(value)}")


def _whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _number(data: dict[str, Any], where: str, key: str, low: int, high: int) -> int:
    value = data[key]
    if not _whole(value) or not low <= value <= high:
        raise _fault(where, key, f"a whole number {low}..{high}", value)
    return value


def _matching(data: dict[str, Any], where: str, key: str, pattern: re.Pattern[str],
              expected: str) -> str:
    value = data[key]
    if not isinstance(value, str) or pattern.fullmatch(value) is None:
        raise _fault(where, key, expected, value)
    return value


def _one_of(data: dict[str, Any], where: str, key: str, choices: tuple[str, ...]) -> str:
    value = data[key]
    if not isinstance(value, str) or value not in choices:
        raise _fault(where, key, "one of " + ", ".join(choices), value)
    return value


def _board(data: dict[str, Any], where: str) -> str:
    return _matching(data, where, "board", BOARD_NAME, "a board name [a-z0-9-]{1,32}")


def _uid(data: dict[str, Any], where: str) -> str:
    return _matching(data, where, "match", _UID, "a match id of 32 lowercase hex digits")


def _hex64(data: dict[str, Any], where: str, key: str) -> str:
    return _matching(data, where, key, _HEX64, "64 lowercase hex digits")


def _match_body(data: dict[str, Any], where: str) -> MatchBody:
    return MatchBody(length=_number(data, where, "length", 0, MAX_MATCH_LENGTH),
                     color=Color(_one_of(data, where, "color", ("white", "black"))),
                     commit=_hex64(data, where, "commit"))


def _play_body(data: dict[str, Any], where: str) -> PlayBody:
    dice = data["dice"]
    if not (isinstance(dice, list) and len(dice) == 2
            and all(_whole(die) and 1 <= die <= 6 for die in dice) and dice[0] >= dice[1]):
        raise _fault(where, "dice", "[high, low], each 1..6", dice)
    return PlayBody(dice=(dice[0], dice[1]),
                    play=_matching(data, where, "play", _PLAY,
                                   f"gnubg notation, at most {MAX_PLAY_CHARS} characters"),
                    position_id=_position_id(data, where))


def _position_id(data: dict[str, Any], where: str) -> str:
    return _matching(data, where, "position_id", _POSITION_ID,
                     "a Position ID of 14 characters [A-Za-z0-9+/]")


def _takeback_body(data: dict[str, Any], where: str) -> TakebackBody:
    return TakebackBody(_one_of(data, where, "action", TAKEBACK_ACTIONS),
                        _position_id(data, where))


def _cube_body(data: dict[str, Any], where: str) -> CubeBody:
    return CubeBody(_one_of(data, where, "action", CUBE_BODY_ACTIONS))


def _resign_body(data: dict[str, Any], where: str) -> ResignBody:
    action = _one_of(data, where, "action", RESIGN_ACTIONS)
    if action != "offer":
        if "level" in data:
            raise MessageError(where, f"level: only an offer names a level, not {action}")
        return ResignBody(action)
    if "level" not in data:
        raise MessageError(where, "level: missing (an offer names its level 1, 2 or 3)")
    return ResignBody(action, _number(data, where, "level", 1, 3))


def _time_body(data: dict[str, Any], where: str) -> TimeBody:
    return TimeBody()


def _reveal_body(data: dict[str, Any], where: str) -> RevealBody:
    return RevealBody(roll=_number(data, where, "roll", 0, MAX_NUMBER),
                      contribution=_hex64(data, where, "contribution"),
                      commit=_hex64(data, where, "commit"))


_BODIES: dict[str, Callable[[dict[str, Any], str], Body]] = {
    "match": _match_body, "play": _play_body, "cube": _cube_body, "resign": _resign_body,
    "reveal": _reveal_body, "time": _time_body, "takeback": _takeback_body}
"""The reader of each kind's body."""


_BODY_CLASSES = (MatchBody, PlayBody, CubeBody, ResignBody, RevealBody, TimeBody,
                 TakebackBody)


def _body_keys(kind: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The required and the optional fields of a kind's body (those with a default)."""
    body = next(cls for cls in _BODY_CLASSES if cls.kind == kind)
    items = fields(body)
    return (tuple(f.name for f in items if f.default is MISSING),
            tuple(f.name for f in items if f.default is not MISSING))


def _message(data: Any, where: str) -> GameMessage:
    data = _object(data, where)
    if "kind" not in data:
        raise MessageError(where, "kind: missing")
    kind = _one_of(data, where, "kind", tuple(_BODIES))
    required, optional = _body_keys(kind)
    _check_keys(data, where, (*_COMMON, *required), f"a {kind} message", optional)
    return GameMessage(board=_board(data, where), match_uid=_uid(data, where),
                   seq=_number(data, where, "seq", 1, MAX_NUMBER),
                   body=_BODIES[kind](data, where))


def _nonce(data: dict[str, Any], where: str) -> str:
    return _matching(data, where, "nonce", _UID, "a nonce of 32 lowercase hex digits")


def _sync(data: Any, where: str) -> Sync:
    data = _object(data, where)
    _check_keys(data, where, ("v", "board", "match", "sent", "taken", "fresh", "nonce",
                              "serial"), "a sync message")
    fresh = data["fresh"]
    if not isinstance(fresh, bool):
        raise _fault(where, "fresh", "true or false", fresh)
    return Sync(board=_board(data, where),
                match_uid=None if data["match"] is None else _uid(data, where),
                sent=_number(data, where, "sent", 0, MAX_NUMBER),
                taken=_number(data, where, "taken", 0, MAX_NUMBER), fresh=fresh,
                nonce=_nonce(data, where), serial=_number(data, where, "serial", 1, MAX_NUMBER))


def _status(data: Any, where: str) -> Status:
    data = _object(data, where)
    _check_keys(data, where, ("v", "board", "status", "nonce"), "a status message")
    return Status(board=_board(data, where),
                  online=_one_of(data, where, "status", ("online", "gone")) == "online",
                  nonce=_nonce(data, where))


_READERS: dict[str, Callable[[Any, str], GameMessage | Sync | Status]] = {
    "game": _message, "sync": _sync, "status": _status}
"""The reader of each leaf's payloads."""
