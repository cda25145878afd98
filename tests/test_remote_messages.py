"""The remote board's message formats: encoding, topics, the signature checked first, and
every refusal of the parser."""

from __future__ import annotations

import json
from typing import Any

import pytest
from signing_support import KEY, NONCE, new_key, signed

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
    UnsignedError,
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


def read(where: str, raw: bytes) -> GameMessage | Sync | Status:
    """``raw`` read as a payload of ``where``, from a board whose key is :data:`KEY`."""
    return read_payload(where, raw, "home", KEY.public)


def refused(data: Any, where: str = GAME) -> str:
    """The error reading ``data`` (an object: signed by the board first) on ``where``."""
    raw = signed(where, data) if isinstance(data, dict) else \
        data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(MessageError) as caught:
        read(where, raw)
    return str(caught.value)


def sync(board: str = "b", match: str | None = None, sent: int = 0, taken: int = 0,
         serial: int = 1) -> Sync:
    return Sync(board, match, sent, taken, fresh=match is None, nonce=NONCE, serial=serial)


# -- what a board writes reads back --------------------------------------------------


@pytest.mark.parametrize("kind", list(BODIES))
def test_every_kind_reads_back_as_it_was_written(kind: str) -> None:
    sent = message(kind)
    assert read(GAME, signed(GAME, sent.checked_json())) == sent
    assert message_from_json(sent.to_json(), "journal:4") == sent


def test_a_payload_is_its_fields_and_the_signature() -> None:
    assert message("play").to_json() == {
        "v": 1, "kind": "play", "board": "b", "match": UID, "seq": 5, "dice": [6, 4],
        "play": "24/18 13/9", "position_id": "4HPwATDgc/ABMA"}
    assert message("play").checked_json() == message("play").to_json()
    wire = json.loads(signed(GAME, message("cube").checked_json()))
    assert set(wire) == {"v", "kind", "board", "match", "seq", "action", "sig"}
    assert len(wire["sig"]) == 86  # 64 bytes, base64url without padding


def test_a_resignation_names_a_level_only_when_offered() -> None:
    accept = GameMessage("b", UID, 1, ResignBody("accept"))
    assert "level" not in accept.to_json()
    assert read(GAME, signed(GAME, accept.checked_json())) == accept


@pytest.mark.parametrize("state", [sync(), sync(match=UID, sent=12, taken=11, serial=9)])
def test_a_sync_state_reads_back(state: Sync) -> None:
    raw = signed("tavla/home/b/sync", state.checked_json())
    assert read("tavla/home/b/sync", raw) == state
    assert json.loads(raw)["match"] == state.match_uid
    assert (json.loads(raw)["nonce"], json.loads(raw)["serial"]) == (NONCE, state.serial)


@pytest.mark.parametrize("online", [True, False])
def test_a_status_reads_back(*, online: bool) -> None:
    status = Status("b", online, NONCE)
    assert status.checked_json() == {"v": 1, "board": "b", "nonce": NONCE,
                                     "status": "online" if online else "gone"}
    raw = signed("tavla/home/b/status", status.checked_json())
    assert read("tavla/home/b/status", raw) == status


def test_a_payload_at_the_size_limit_is_read() -> None:
    raw = signed(GAME, message("cube").checked_json())
    padded = raw + b" " * (MAX_MESSAGE_BYTES - len(raw))
    assert read(GAME, padded) == message("cube")


def test_the_dice_of_a_play_may_be_a_double() -> None:
    data = payload("play", dice=[5, 5])
    assert read(GAME, signed(GAME, data)) == GameMessage(
        "b", UID, 5, PlayBody((5, 5), "24/18 13/9", "4HPwATDgc/ABMA"))


# -- the signature, checked first ------------------------------------------------------

UNSIGNED: list[tuple[str, bytes, str]] = [
    ("no signature", json.dumps(payload("play")).encode(), "play, seq 5"),
    ("another key's", signed(GAME, payload("takeback"), new_key("c")), "takeback, seq 5"),
    ("moved from another topic", signed("tavla/home/b/sync", payload("cube")), "cube, seq 5"),
    ("a field changed", json.dumps(json.loads(signed(GAME, payload("cube"))) | {"seq": 6})
     .encode(), "cube, seq 6"),
    ("garbage for a signature",
     json.dumps(payload("cube", kind="chat") | {"sig": "x" * 86}).encode(), "game, seq 5"),
]


@pytest.mark.parametrize(("case", "raw", "claim"), UNSIGNED, ids=[u[0] for u in UNSIGNED])
def test_a_payload_not_signed_by_the_boards_key_is_refused_before_its_fields(
        case: str, raw: bytes, claim: str) -> None:
    with pytest.raises(UnsignedError) as caught:
        read(GAME, raw)
    assert str(caught.value).startswith(f"{GAME}: ")
    assert str(caught.value).endswith(f" (unchecked, it says: {claim})")
    assert caught.value.claim == claim.split(",", maxsplit=1)[0]


@pytest.mark.parametrize(("leaf", "data", "claim"), [
    ("status", Status("b", online=False, nonce=NONCE).to_json(), "gone"),
    ("status", {"status": 5}, "status"),
    ("sync", sync().to_json(), "sync"),
])
def test_an_unsigned_sync_or_status_names_what_it_claims(leaf: str, data: dict[str, Any],
                                                        claim: str) -> None:
    with pytest.raises(UnsignedError) as caught:
        read(f"tavla/home/b/{leaf}", json.dumps(data).encode())
    assert caught.value.claim == claim


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
    ("sync", sync("c").to_json()),
    ("status", Status("c", online=True, nonce=NONCE).to_json()),
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
    (b"null", "expected a JSON object, got None"),
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
    (sync().to_json() | {"fresh": 1}, "fresh: expected true or false"),
    (sync().to_json() | {"sent": -1}, "sent: expected a whole number"),
    (sync().to_json() | {"taken": "2"}, "taken: expected a whole"),
    (sync().to_json() | {"match": "x"}, "match: expected a match id"),
    (sync().to_json() | {"seq": 1}, "'seq': not a field of a sync"),
    (sync().to_json() | {"nonce": "0F" * 16}, "nonce: expected a nonce of 32 lowercase hex"),
    (sync().to_json() | {"serial": 0}, "serial: expected a whole number 1.."),
    ({"v": 1, "board": "b", "match": None, "sent": 0, "taken": 0}, "fresh: missing"),
    ({k: v for k, v in sync().to_json().items() if k != "serial"}, "serial: missing"),
])
def test_a_bad_sync_state_is_refused(data: dict[str, Any], problem: str) -> None:
    assert refused(data, "tavla/home/b/sync").startswith(f"tavla/home/b/sync: {problem}")


@pytest.mark.parametrize(("data", "problem"), [
    ({"v": 1, "board": "b", "status": "away", "nonce": NONCE},
     "status: expected one of online, gone"),
    ({"v": 1, "board": "b", "status": True, "nonce": NONCE},
     "status: expected one of online, gone"),
    ({"v": 1, "board": "b", "nonce": NONCE}, "status: missing"),
    ({"v": 1, "board": "b", "status": "gone"}, "nonce: missing"),
    ({"v": 1, "board": "b", "status": "gone", "nonce": "1"}, "nonce: expected a nonce"),
    ({"v": 1, "board": "b", "status": "gone", "nonce": NONCE, "since": 3},
     "'since': not a field of a status"),
    ({"v": 2, "board": "b", "status": "gone"}, "format 2: this board reads format 1"),
])
def test_a_bad_status_is_refused(data: dict[str, Any], problem: str) -> None:
    assert problem in refused(data, "tavla/home/b/status")


def test_a_game_payload_on_the_status_topic_is_refused() -> None:
    assert refused(payload("cube"), "tavla/home/b/status") == (
        "tavla/home/b/status: status: missing")
    assert refused(payload("cube") | {"status": "gone", "nonce": NONCE},
                   "tavla/home/b/status") == (
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
        bad.checked_json()


def test_a_sync_or_status_out_of_range_is_not_sent() -> None:
    with pytest.raises(MessageError, match=r"^outgoing message: sent: "):
        sync(sent=-1).checked_json()
    with pytest.raises(MessageError, match=r"^outgoing message: board: "):
        Status("", online=True, nonce=NONCE).checked_json()
    with pytest.raises(MessageError, match=r"^outgoing message: nonce: "):
        Status("b", online=True, nonce="").checked_json()
