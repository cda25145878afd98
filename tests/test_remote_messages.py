"""The remote board's message formats: encoding, topics and every refusal of the parser."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tavla_pi.errors import BadInputError
from tavla_pi.remote.messages import (
    MAX_MESSAGE_BYTES,
    Body,
    CubeBody,
    GameMessage,
    MatchBody,
    MessageError,
    PlayBody,
    ResignBody,
    RevealBody,
    Status,
    Sync,
    TakebackBody,
    TimeBody,
    message_from_json,
    read_payload,
    topic,
)
from tavla_pi.rules import Color

UID = "0123456789abcdef" * 2
HEX = "a1" * 32
GAME = "tavla/home/b/game"
BODIES: dict[str, Body] = {
    "match": MatchBody(length=7, color=Color.BLACK, commit=HEX),
    "play": PlayBody(dice=(6, 4), play="24/18 13/9", position_id="4HPwATDgc/ABMA"),
    "cube": CubeBody("double"),
    "resign": ResignBody("offer", 2),
    "reveal": RevealBody(roll=3, contribution=HEX, commit="f" * 64),
    "time": TimeBody(),
    "takeback": TakebackBody("ask", "4HPwATDgc/ABMA"),
}


def message(kind: str) -> GameMessage:
    return GameMessage(board="b", match_uid=UID, seq=5, body=BODIES[kind])


def payload(of: str, **changes: Any) -> dict[str, Any]:
    """The JSON object of a good ``of`` message with ``changes`` (None: key removed)."""
    data = message(of).to_json() | changes
    return {key: value for key, value in data.items() if value is not None}


def refused(data: Any, where: str = GAME) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(MessageError) as caught:
        read_payload(where, raw, "home")
    return str(caught.value)


# -- what a board writes reads back --------------------------------------------------


@pytest.mark.parametrize("kind", list(BODIES))
def test_every_kind_reads_back_as_it_was_written(kind: str) -> None:
    sent = message(kind)
    assert read_payload(GAME, sent.encode(), "home") == sent
    assert message_from_json(sent.to_json(), "journal:4") == sent


def test_a_payload_is_compact_json_with_sorted_keys() -> None:
    assert message("cube").encode() == (
        b'{"action":"double","board":"b","kind":"cube","match":"' + UID.encode()
        + b'","seq":5,"v":1}')
    assert message("play").to_json() == {
        "v": 1, "kind": "play", "board": "b", "match": UID, "seq": 5, "dice": [6, 4],
        "play": "24/18 13/9", "position_id": "4HPwATDgc/ABMA"}


def test_a_resignation_names_a_level_only_when_offered() -> None:
    accept = GameMessage("b", UID, 1, ResignBody("accept"))
    assert "level" not in accept.to_json()
    assert read_payload(GAME, accept.encode(), "home") == accept


@pytest.mark.parametrize("sync", [Sync("b", None, 0, 0, fresh=True),
                                  Sync("b", UID, 12, 11, fresh=False)])
def test_a_sync_state_reads_back(sync: Sync) -> None:
    assert read_payload("tavla/home/b/sync", sync.encode(), "home") == sync
    assert json.loads(sync.encode())["match"] == sync.match_uid


@pytest.mark.parametrize("online", [True, False])
def test_a_status_reads_back(*, online: bool) -> None:
    status = Status("b", online)
    assert status.encode() == b'{"board":"b","status":"%s","v":1}' % (
        b"online" if online else b"gone")
    assert read_payload("tavla/home/b/status", status.encode(), "home") == status


def test_a_payload_at_the_size_limit_is_read() -> None:
    raw = message("cube").encode()
    padded = raw + b" " * (MAX_MESSAGE_BYTES - len(raw))
    assert read_payload(GAME, padded, "home") == message("cube")


def test_the_dice_of_a_play_may_be_a_double() -> None:
    data = payload("play", dice=[5, 5])
    assert read_payload(GAME, json.dumps(data).encode(), "home") == GameMessage(
        "b", UID, 5, PlayBody((5, 5), "24/18 13/9", "4HPwATDgc/ABMA"))


# -- topics ---------------------------------------------------------------------------


def test_a_boards_topics() -> None:
    assert topic("home", "b", "game") == GAME
    assert topic("athens", "kafeneio-2", "status") == "tavla/athens/kafeneio-2/status"


@pytest.mark.parametrize(("club", "board", "leaf"), [
    ("home", "B", "game"), ("home", "b", "moves"), ("home", "", "sync"),
    ("home", "b" * 33, "game"), ("a/b", "b", "game"), ("#", "b", "game"), ("", "b", "game"),
])
def test_a_bad_topic_is_not_made(club: str, board: str, leaf: str) -> None:
    with pytest.raises(MessageError, match="not a board's topic"):
        topic(club, board, leaf)


@pytest.mark.parametrize("where", [
    "tavla/away/b/game", "tavla/home/b/moves", "tavla/home/B/game", "tavla/home/b",
    "tavla/home/b/game/x", "other/home/b/game", "", "tavla/home//game",
])
def test_a_payload_on_a_wrong_topic_is_refused(where: str) -> None:
    text = refused(payload("cube"), where)
    assert text.startswith(f"topic {where!r}: expected tavla/home/<board>/(game|sync|status)")


@pytest.mark.parametrize(("leaf", "data"), [
    ("game", payload("cube", board="c")),
    ("sync", Sync("c", None, 0, 0, fresh=True).to_json()),
    ("status", Status("c", online=True).to_json()),
])
def test_a_board_speaking_on_another_boards_topic_is_refused(leaf: str,
                                                              data: dict[str, Any]) -> None:
    where = f"tavla/home/b/{leaf}"
    assert refused(data, where) == f"{where}: board: 'c' is not the topic's board 'b'"


# -- the payload as a whole -----------------------------------------------------------


def test_the_error_names_the_topic_and_the_field() -> None:
    assert refused(payload("cube", seq="x")) == (
        "tavla/home/b/game: seq: expected a whole number 1..2147483647, got 'x'")
    error = MessageError("w", "p")
    assert isinstance(error, BadInputError)
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(("raw", "problem"), [
    (b" " * (MAX_MESSAGE_BYTES + 1), f"a payload of {MAX_MESSAGE_BYTES + 1} bytes (at most"),
    (b'{"v": 1, "kind": ', "not JSON"),
    (b"", "not JSON"),
    (b'{"v": 1, "kind": "\xff"}', "not UTF-8 text"),
    (b"[1, 2]", "expected a JSON object, got [1, 2]"),
    (b'"hello"', "expected a JSON object"),
    (b'{"v": 1, "x": ' + b"[" * 40 + b"]" * 40 + b"}", "nested deeper than 32 levels"),
    (b'{"v": 1, "seq": ' + b"9" * 30 + b"}", "an integer of 30 digits"),
])
def test_a_payload_that_is_not_a_json_object_within_limits_is_refused(raw: bytes,
                                                                      problem: str) -> None:
    assert problem in refused(raw)


@pytest.mark.parametrize(("version", "shown"), [(2, "2"), (0, "0"), (True, "True"),
                                                (1.0, "1.0"), ("1", "'1'"), (None, "None")])
def test_a_payload_of_another_format_is_refused(version: Any, shown: str) -> None:
    assert refused(payload("cube", v=version) | {"v": version}) == (
        f"{GAME}: format {shown}: this board reads format 1")


def test_a_payload_without_a_format_is_refused() -> None:
    assert refused(payload("cube", v=None)) == f"{GAME}: v: missing"


@pytest.mark.parametrize(("kind", "shown"), [(None, "missing"), ("chat", "got 'chat'"),
                                             (3, "got 3"), (["play"], "got ['play']")])
def test_a_message_of_no_known_kind_is_refused(kind: Any, shown: str) -> None:
    assert refused(payload("cube", kind=kind)).startswith(f"{GAME}: kind: ")
    assert shown in refused(payload("cube", kind=kind))


# -- each field -----------------------------------------------------------------------

FIELDS = [(kind, key) for kind in BODIES for key in payload(kind)
          if key not in ("v", "kind") and (kind, key) != ("resign", "level")]


@pytest.mark.parametrize(("kind", "key"), FIELDS)
def test_a_missing_field_is_named(kind: str, key: str) -> None:
    assert refused(payload(kind, **{key: None})) == f"{GAME}: {key}: missing"


@pytest.mark.parametrize("kind", list(BODIES))
def test_an_unknown_field_is_refused(kind: str) -> None:
    assert refused(payload(kind, colour="red")) == (
        f"{GAME}: 'colour': not a field of a {kind} message")


BAD_VALUES: list[tuple[str, str, Any, str]] = [
    ("cube", "board", "B", "a board name"), ("cube", "board", "", "a board name"),
    ("cube", "board", "x" * 33, "a board name"), ("cube", "board", 7, "a board name"),
    ("cube", "match", UID.upper(), "32 lowercase hex"), ("cube", "match", UID[:-1], "32 "),
    ("cube", "match", None, "32 lowercase hex"), ("cube", "seq", 0, "1..2147483647"),
    ("cube", "seq", 2**31, "1..2147483647"), ("cube", "seq", 1.5, "1..2147483647"),
    ("cube", "seq", True, "1..2147483647"), ("cube", "seq", -1, "1..2147483647"),
    ("match", "length", 65, "0..64"), ("match", "length", -1, "0..64"),
    ("match", "length", "7", "0..64"), ("match", "color", "red", "one of white, black"),
    ("match", "color", "White", "one of white, black"), ("match", "commit", "a1" * 31, "64 "),
    ("match", "commit", "A1" * 32, "64 lowercase"), ("match", "commit", 12, "64 lowercase"),
    ("play", "dice", [4, 6], "[high, low]"), ("play", "dice", [7, 1], "[high, low]"),
    ("play", "dice", [1, 0], "[high, low]"), ("play", "dice", [6], "[high, low]"),
    ("play", "dice", [6, 4, 1], "[high, low]"), ("play", "dice", ["6", 4], "[high, low]"),
    ("play", "dice", [True, True], "[high, low]"), ("play", "dice", "64", "[high, low]"),
    ("play", "play", "x" * 65, "at most 64"), ("play", "play", "8/5\n6/5", "gnubg notation"),
    ("play", "play", 85, "gnubg notation"), ("play", "position_id", "4HPwATDgc/ABM", "14"),
    ("play", "position_id", "4HPwATDgc/ABM=", "14 characters"),
    ("play", "position_id", [], "Position ID"),
    ("cube", "action", "redouble", "one of double, take, drop, beaver"),
    ("cube", "action", None, "one of"), ("resign", "action", "give up", "one of offer"),
    ("resign", "level", 0, "1..3"), ("resign", "level", 4, "1..3"),
    ("resign", "level", "2", "1..3"), ("reveal", "roll", -1, "0..2147483647"),
    ("reveal", "roll", 2**31, "0..2147483647"), ("reveal", "roll", "3", "0..2147483647"),
    ("reveal", "contribution", "g" * 64, "64 lowercase"), ("reveal", "commit", "", "64 "),
    ("takeback", "action", "undo", "one of ask, accept, decline"),
    ("takeback", "action", 1, "one of ask"),
    ("takeback", "position_id", "4HPwATDgc/AB", "14 characters"),
]


@pytest.mark.parametrize(("kind", "key", "value", "expected"), BAD_VALUES)
def test_a_bad_value_is_refused_naming_its_field(kind: str, key: str, value: Any,
                                                 expected: str) -> None:
    text = refused(payload(kind) | {key: value})
    assert text.startswith(f"{GAME}: {key}: expected ")
    assert expected in text
    assert text.endswith((f"got {value!r}", "..."))


def test_a_long_bad_value_is_shown_cut_short() -> None:
    text = refused(payload("play", play="x" * 500))
    assert text.endswith("got '" + "x" * 36 + "...")


def test_an_offer_names_its_level_and_an_answer_names_none() -> None:
    assert refused(payload("resign", level=None)) == (
        f"{GAME}: level: missing (an offer names its level 1, 2 or 3)")
    assert refused(payload("resign", action="accept")) == (
        f"{GAME}: level: only an offer names a level, not accept")


@pytest.mark.parametrize(("data", "problem"), [
    (Sync("b", None, 0, 0, fresh=True).to_json() | {"fresh": 1}, "fresh: expected true or false"),
    (Sync("b", None, 0, 0, fresh=True).to_json() | {"sent": -1}, "sent: expected a whole number"),
    (Sync("b", None, 0, 0, fresh=True).to_json() | {"taken": "2"}, "taken: expected a whole"),
    (Sync("b", None, 0, 0, fresh=True).to_json() | {"match": "x"}, "match: expected a match id"),
    (Sync("b", None, 0, 0, fresh=True).to_json() | {"seq": 1}, "'seq': not a field of a sync"),
    ({"v": 1, "board": "b", "match": None, "sent": 0, "taken": 0}, "fresh: missing"),
])
def test_a_bad_sync_state_is_refused(data: dict[str, Any], problem: str) -> None:
    assert refused(data, "tavla/home/b/sync").startswith(f"tavla/home/b/sync: {problem}")


@pytest.mark.parametrize(("data", "problem"), [
    ({"v": 1, "board": "b", "status": "away"}, "status: expected one of online, gone"),
    ({"v": 1, "board": "b", "status": True}, "status: expected one of online, gone"),
    ({"v": 1, "board": "b"}, "status: missing"),
    ({"v": 1, "board": "b", "status": "gone", "since": 3}, "'since': not a field of a status"),
    ({"v": 2, "board": "b", "status": "gone"}, "format 2: this board reads format 1"),
])
def test_a_bad_status_is_refused(data: dict[str, Any], problem: str) -> None:
    assert problem in refused(data, "tavla/home/b/status")


def test_a_game_payload_on_the_status_topic_is_refused() -> None:
    assert refused(payload("cube"), "tavla/home/b/status") == (
        "tavla/home/b/status: status: missing")
    assert refused(payload("cube") | {"status": "gone"}, "tavla/home/b/status") == (
        "tavla/home/b/status: 'action': not a field of a status message")


def test_a_journaled_message_is_read_with_its_place_named() -> None:
    with pytest.raises(MessageError, match=r"^journal:9: seq: expected a whole number"):
        message_from_json(payload("cube", seq=0), "journal:9")
    with pytest.raises(MessageError, match=r"^journal:9: expected a JSON object"):
        message_from_json("cube", "journal:9")


@pytest.mark.parametrize("bad", [
    GameMessage("b", UID, 0, CubeBody("double")), GameMessage("B", UID, 1, CubeBody("double")),
    GameMessage("b", "x", 1, CubeBody("double")), GameMessage("b", UID, 1, ResignBody("offer")),
    GameMessage("b", UID, 1, PlayBody((1, 3), "", "4HPwATDgc/ABMA")),
])
def test_a_message_out_of_range_is_not_sent(bad: GameMessage) -> None:
    with pytest.raises(MessageError, match=r"^outgoing message: "):
        bad.encode()


def test_a_sync_or_status_out_of_range_is_not_sent() -> None:
    with pytest.raises(MessageError, match=r"^outgoing message: sent: "):
        Sync("b", None, -1, 0, fresh=True).encode()
    with pytest.raises(MessageError, match=r"^outgoing message: board: "):
        Status("", online=True).encode()
