"""bgammon.org's protocol: the server's JSON event lines read strictly, the board's
commands formatted (the protocol: PROTOCOL.md in bgammon's source; its Go source, event.go
and pkg/server, is the reference for every field).

After ``loginjson`` the server writes one JSON object a line (over WebSocket one a
message), ``{"Type": ..., "Player": ..., ...}``.  :class:`Bgammon` reads each line of at
most :data:`MAX_SERVER_LINE_BYTES` bytes through :func:`tavla_pi.bounded.parse_json` (depth and
integer limits) into one event of :mod:`tavla_pi.online.model`: every field the board uses
must be there with its type and range, or the line is refused with one
:class:`~tavla_pi.errors.ProtocolError` naming the event's type and the field.  Fields the
board does not use are not read (a newer server adds some); event types the board has no
use for are skipped, and a type the protocol does not know is logged once and skipped.

bgammon.org shows every player the board from the side of player number 1 (the server
flips it for player 2), in the numbering of :mod:`tavla_pi.online.model`.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.errors import ProtocolError
from tavla_pi.online.board import sides
from tavla_pi.online.model import (
    MY_BAR,
    MY_OFF,
    SPACES,
    CommandRefused,
    GameBoard,
    GameWon,
    Hello,
    Joined,
    Left,
    MatchList,
    MatchListing,
    Moved,
    Notice,
    Ping,
    PlayerInfo,
    Rolled,
    Said,
    ServerEvent,
    ServerMove,
    Welcome,
)

log = logging.getLogger("tavla_pi.online")

MAX_SERVER_LINE_BYTES = 64 * 1024
"""The longest line read (the longest real one, a list of many matches, is a few KB)."""
MAX_PLAYER_NAME_CHARS = 64
"""The longest player's name read (bgammon.org's are at most 24 characters)."""
MAX_USERNAME_CHARS = 24
"""The longest name the board logs in with or joins (bgammon.org's: 18, a guest's 24)."""
MAX_TEXT_CHARS = 8192
"""The longest message, reason or match name read."""
MAX_MOVES = 64
"""The most moves in one list (the legal single moves of a roll are far fewer)."""
MAX_MATCHES = 2000
"""The most matches in one list."""
MAX_SAY_CHARS = 500
"""The longest chat message sent."""
MAX_MATCH_POINTS = 127
"""The longest match bgammon.org plays."""
VARIANT_BACKGAMMON = 0
"""bgammon.org's variant number of backgammon (Portes): the only one the board plays."""
IGNORED = frozenset({"settings", "achievements", "replay", "history", "help", "json"})
"""Event types the protocol has that the board has no use for: skipped quietly."""

_REFUSALS = {"failedcreate": "create", "failedjoin": "join", "failedleave": "leave",
             "failedroll": "roll", "failedmove": "move", "failedok": "ok"}
_INT8 = (-128, 127)
_NAME = re.compile(rf"[!-~]{{1,{MAX_PLAYER_NAME_CHARS}}}")
_USERNAME = re.compile(rf"[A-Za-z0-9_]{{1,{MAX_USERNAME_CHARS}}}")
_CLIENT = re.compile(r"[!-~]{1,64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class _Fields:
    """The fields of one event object, each read with its type and range checked."""

    def __init__(self, kind: str, data: dict[str, Any], prefix: str = "") -> None:
        self.kind = kind
        self.data = data
        self.prefix = prefix

    def fault(self, key: str, problem: str) -> ProtocolError:
        """The error naming this event and field ``key``."""
        return ProtocolError(f"server event {self.kind!r}",
                             f"field {self.prefix}{key}: {problem}")

    def get(self, key: str) -> Any:
        """The raw value of ``key``; the error if it is missing."""
        if key not in self.data:
            raise self.fault(key, "missing")
        return self.data[key]

    def integer(self, key: str, low: int, high: int) -> int:
        """An integer ``low``..``high``."""
        value = self.get(key)
        if type(value) is not int:
            raise self.fault(key, f"expected an integer, got {_shown(value)}")
        if not low <= value <= high:
            raise self.fault(key, f"{value} is out of range {low}..{high}")
        return value

    def flag(self, key: str) -> bool:
        """true or false."""
        value = self.get(key)
        if type(value) is not bool:
            raise self.fault(key, f"expected true or false, got {_shown(value)}")
        return value

    def text(self, key: str, limit: int = MAX_TEXT_CHARS) -> str:
        """A string of at most ``limit`` characters, its control characters replaced."""
        value = self.get(key)
        if not isinstance(value, str):
            raise self.fault(key, f"expected a string, got {_shown(value)}")
        if len(value) > limit:
            raise self.fault(key, f"{len(value)} characters (at most {limit})")
        return _CONTROL.sub("\ufffd", value)

    def name(self, key: str, *, empty: bool = True) -> str:
        """A player's name: printable ASCII without spaces ("" only where ``empty``)."""
        value = self.get(key)
        if value == "" and empty:
            return ""
        if not isinstance(value, str) or _NAME.fullmatch(value) is None:
            raise self.fault(key, f"not a player's name: {_shown(value)}")
        return value

    def items(self, key: str, limit: int) -> list[Any]:
        """A list (null: empty) of at most ``limit`` items."""
        value = self.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fault(key, f"expected a list, got {_shown(value)}")
        if len(value) > limit:
            raise self.fault(key, f"{len(value)} items (at most {limit})")
        return value

    def moves(self, key: str) -> tuple[ServerMove, ...]:
        """A list of moves ``[from, to]``, each a space 0..27."""
        found: list[ServerMove] = []
        for i, item in enumerate(self.items(key, MAX_MOVES)):
            if (not isinstance(item, list) or len(item) != 2
                    or any(type(n) is not int or not 0 <= n < SPACES for n in item)):
                raise self.fault(f"{key}[{i}]", f"not a move [from, to] of spaces 0..27: "
                                                f"{_shown(item)}")
            found.append((item[0], item[1]))
        return tuple(found)

    def nested(self, key: str) -> _Fields:
        """A nested object, read with the same checks."""
        value = self.get(key)
        if not isinstance(value, dict):
            raise self.fault(key, f"expected an object, got {_shown(value)}")
        return _Fields(self.kind, value, f"{self.prefix}{key}.")


def _shown(value: object) -> str:
    """A value as the error shows it: JSON, cut short."""
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _welcome(f: _Fields) -> Welcome:
    return Welcome(f.name("PlayerName", empty=False), f.integer("Clients", 0, 2**31),
                   f.integer("Games", 0, 2**31))


def _listing(f: _Fields) -> MatchListing:
    return MatchListing(f.integer("ID", 1, 2**31), f.integer("Points", 1, MAX_MATCH_POINTS),
                        f.integer("Players", 0, 2), f.flag("Password"), f.text("Name"))


def _list(f: _Fields) -> MatchList:
    games = f.items("Games", MAX_MATCHES)
    listings = []
    for i, item in enumerate(games):
        if not isinstance(item, dict):
            raise f.fault(f"Games[{i}]", f"expected an object, got {_shown(item)}")
        listings.append(_listing(_Fields(f.kind, item, f"Games[{i}].")))
    return MatchList(tuple(listings))


def _joined(f: _Fields) -> Joined:
    return Joined(f.integer("GameID", 1, 2**31), f.integer("PlayerNumber", 1, 2),
                  f.name("Player", empty=False))


def _player(f: _Fields) -> PlayerInfo:
    return PlayerInfo(f.name("Name"), f.integer("Points", 0, _INT8[1]))


def _board(f: _Fields) -> GameBoard:
    spaces = f.items("Board", SPACES)
    if len(spaces) != SPACES:
        raise f.fault("Board", f"{len(spaces)} spaces, expected {SPACES}")
    for i, n in enumerate(spaces):
        if type(n) is not int or not -15 <= n <= 15:
            raise f.fault(f"Board[{i}]", f"not a count of checkers -15..15: {_shown(n)}")
    if f.integer("Variant", 0, 2) == VARIANT_BACKGAMMON:
        try:
            sides(spaces)
        except ProtocolError as exc:
            raise f.fault("Board", exc.problem) from None
    cube = f.integer("DoubleValue", 1, 64)
    if cube & (cube - 1):
        raise f.fault("DoubleValue", f"{cube} is not a power of two")
    return GameBoard(
        spaces=tuple(spaces), turn=f.integer("Turn", 0, 2),
        dice=(f.integer("Roll1", 0, 6), f.integer("Roll2", 0, 6)),
        pending=f.moves("Moves"), available=f.moves("Available"),
        winner=f.integer("Winner", 0, 2), points=f.integer("Points", 1, MAX_MATCH_POINTS),
        crawford=f.integer("Crawford", 0, 2), cube_value=cube,
        cube_owner=f.integer("DoublePlayer", 0, 2), double_offered=f.flag("DoubleOffered"),
        me=_player(f.nested("Player1")), opponent=_player(f.nested("Player2")),
        variant=f.integer("Variant", 0, 2), spectating=f.flag("Spectating"))


def _rolled(f: _Fields) -> Rolled:
    return Rolled(f.name("Player"), (f.integer("Roll1", 0, 6), f.integer("Roll2", 0, 6)))


def _moved(f: _Fields) -> Moved:
    return Moved(f.name("Player"), f.moves("Moves"))


def _win(f: _Fields) -> GameWon:
    return GameWon(f.name("Player", empty=False), f.integer("Points", 0, _INT8[1]),
                   f.name("Resigned"))


def _refused(f: _Fields) -> CommandRefused:
    command = _REFUSALS[f.kind]
    if command != "move":
        return CommandRefused(command, f.text("Reason"))
    move = (f.integer("From", *_INT8), f.integer("To", *_INT8))
    return CommandRefused(command, f.text("Reason"), None if move == (0, 0) else move)


_READERS: dict[str, Callable[[_Fields], ServerEvent]] = {
    "welcome": _welcome,
    "list": _list,
    "joined": _joined,
    "left": lambda f: Left(f.name("Player", empty=False)),
    "board": _board,
    "rolled": _rolled,
    "moved": _moved,
    "say": lambda f: Said(f.name("Player", empty=False), f.text("Message")),
    "win": _win,
    "notice": lambda f: Notice(f.text("Message")),
    "ping": lambda f: Ping(f.text("Message", MAX_PLAYER_NAME_CHARS)),
    **{kind: _refused for kind in _REFUSALS},
}


class Bgammon:
    """bgammon.org's protocol (see the module): the :class:`~tavla_pi.online.model.Dialect`
    the connection speaks.  ``client`` names the board to the server as bgammon asks,
    ``tavla-pi-<version>/<language>`` (:func:`client_name`)."""

    max_line_bytes = MAX_SERVER_LINE_BYTES

    def __init__(self, client: str) -> None:
        if _CLIENT.fullmatch(client) is None:
            raise ValueError(f"client name {client!r}: printable ASCII without spaces")
        self.client = client
        self._unknown: set[str] = set()

    # -- reading --------------------------------------------------------------------

    def read(self, line: bytes) -> ServerEvent | None:
        """The event of one line (without its newline); None for a line the board needs
        nothing from; ProtocolError naming the event and field for a malformed one."""
        if len(line) > MAX_SERVER_LINE_BYTES:
            raise ProtocolError("server line",
                                f"{len(line)} bytes (at most {MAX_SERVER_LINE_BYTES})")
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise ProtocolError("server line", f"not UTF-8 (byte {exc.start})") from None
        if not text:
            return None
        if not text.startswith("{"):
            return _text_line(text)
        return self._event(_parsed(text))

    def _event(self, data: dict[str, Any]) -> ServerEvent | None:
        kind = data.get("Type")
        if not isinstance(kind, str) or not kind:
            raise ProtocolError("server event", f"field Type: expected the event's type, "
                                                f"got {_shown(kind)}")
        reader = _READERS.get(kind)
        if reader is not None:
            return reader(_Fields(kind[:40], data))
        if kind not in IGNORED and kind not in self._unknown and len(self._unknown) < 100:
            self._unknown.add(kind)
            log.info("server event %s: a type this board does not know; skipped",
                     json.dumps(kind[:40]))
        return None

    # -- commands -------------------------------------------------------------------

    def login(self, username: str | None, password: str | None) -> str:
        """``loginjson`` as ``username`` (None: a guest the server names), with
        ``password`` (its spaces sent as underscores, as the protocol says)."""
        if username is None:
            if password is not None:
                raise ValueError("a password needs a username")
            return f"loginjson {self.client}"
        _check_username(username)
        if password is None:
            return f"loginjson {self.client} {username}"
        if not password or _CONTROL.search(password) or len(password) > 256:
            raise ValueError("password: 1 to 256 characters, no control characters")
        return f"loginjson {self.client} {username} {password.replace(' ', '_')}"

    def keepalive(self) -> str:
        """``pong``: the server does nothing with it but count the link alive."""
        return "pong tavla"

    def list_matches(self) -> str:
        """``list``: the server answers with a :class:`MatchList`."""
        return "list"

    def create_match(self, points: int, name: str) -> str:
        """``create public <points> 0 <name>``: a public backgammon match."""
        if type(points) is not int or not 1 <= points <= MAX_MATCH_POINTS:
            raise ValueError(f"points {points!r}: 1..{MAX_MATCH_POINTS}")
        text = _one_line("match name", name, MAX_PLAYER_NAME_CHARS)
        return f"create public {points} {VARIANT_BACKGAMMON} {text}"

    def join_match(self, match_id: int) -> str:
        """``join <id>``."""
        if type(match_id) is not int or match_id < 1:
            raise ValueError(f"match id {match_id!r}: a positive integer")
        return f"join {match_id}"

    def join_player(self, player: str) -> str:
        """``join <player>``: the match that player is in."""
        _check_username(player)
        if player.isdigit():
            raise ValueError(f"player {player!r}: a name of digits only reads as a match id")
        return f"join {player}"

    def request_board(self) -> str:
        """``board``: the server answers with the match's :class:`GameBoard`."""
        return "board"

    def roll(self) -> str:
        """``roll``."""
        return "roll"

    def move(self, moves: tuple[ServerMove, ...]) -> str:
        """``move <from>/<to> ...`` of the board's player (``bar`` for 26, ``off`` for 0).
        The server checks every move of one command against the position before the
        first: a play is sent with :meth:`play`."""
        return "move " + " ".join(_move_text(m) for m in _checked_moves(moves))

    def play(self, moves: tuple[ServerMove, ...]) -> tuple[str, ...]:
        """The commands of a whole play: one ``move`` a checker's move, in order (one
        ``move`` of several is refused where a checker moves on from where an earlier
        move of it put it: bgammon checks each against the position before the first)."""
        return tuple(self.move((m,)) for m in _checked_moves(moves))

    def undo(self) -> str:
        """``reset``: the moves of this turn taken back."""
        return "reset"

    def ok(self) -> str:
        """``ok``: the turn ends, or the double offered is taken."""
        return "ok"

    def double(self) -> str:
        """``double``."""
        return "double"

    def resign(self) -> str:
        """``resign``: the game resigned, or the double offered dropped."""
        return "resign"

    def say(self, text: str) -> str:
        """``say <text>``: one line of at most :data:`MAX_SAY_CHARS` characters."""
        return f"say {_one_line('chat message', text, MAX_SAY_CHARS)}"

    def leave(self) -> str:
        """``leave``."""
        return "leave"


def client_name(version: str, language: str) -> str:
    """How the board names itself to bgammon.org: ``tavla-pi-<version>/<language>``."""
    return f"tavla-pi-{version}/{language}"


def _parsed(text: str) -> dict[str, Any]:
    try:
        data = parse_json(text)
    except LimitError as exc:
        raise ProtocolError("server event", str(exc)) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        why = f"{exc.msg} at character {exc.pos}" if isinstance(exc, json.JSONDecodeError) \
            else "nested too deeply"
        raise ProtocolError("server line", f"not JSON ({why})") from None
    if not isinstance(data, dict):
        raise ProtocolError("server line", f"expected a JSON object, got {_shown(data)}")
    return data


def _text_line(text: str) -> Hello | None:
    """A line that is not JSON: the greeting before login, else refused."""
    if text.startswith("hello "):
        return Hello(_CONTROL.sub("\ufffd", text[6:MAX_TEXT_CHARS]))
    raise ProtocolError("server line", f"not a JSON event: {_shown(text)}")


def _check_username(name: str) -> None:
    """A name bgammon.org accepts: letters, digits and underscores."""
    if not isinstance(name, str) or _USERNAME.fullmatch(name) is None:
        raise ValueError(f"name {name!r}: 1 to {MAX_USERNAME_CHARS} letters, digits or "
                         "underscores")


def _one_line(what: str, text: str, limit: int) -> str:
    """``text`` as one line of words: refused if empty, too long or holding a control
    character (a newline would end the command early)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{what}: empty")
    if _CONTROL.search(text):
        raise ValueError(f"{what}: holds a control character (one line, no tabs)")
    if len(text) > limit:
        raise ValueError(f"{what}: {len(text)} characters (at most {limit})")
    return " ".join(text.split())


def _checked_moves(moves: Sequence[ServerMove]) -> Sequence[ServerMove]:
    if not 1 <= len(moves) <= 8:
        raise ValueError(f"moves {moves!r}: 1 to 8 moves")
    for move in moves:
        if (len(move) != 2 or not (1 <= move[0] <= 24 or move[0] == MY_BAR)
                or not MY_OFF <= move[1] <= 24):
            raise ValueError(f"move {move!r}: the board's player moves from 1..24 or the "
                             f"bar ({MY_BAR}) to 0 (off)..24")
    return moves


def _move_text(move: ServerMove) -> str:
    origin = "bar" if move[0] == MY_BAR else str(move[0])
    target = "off" if move[1] == MY_OFF else str(move[1])
    return f"{origin}/{target}"

