"""bgammon.org's protocol: every event read from real server lines, malformed lines
refused with the event and field named, the commands formatted and checked.

``fixtures/bgammon_lines.txt`` holds lines exactly as the real ``bgammon-server`` (the
one .ci/run builds) wrote them to two clients playing a 3-point match:
every event type the board reads, boards of every kind (the opening, the bar, borne-off
checkers, a pending turn, a double offered, the Crawford game, a won game).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.errors import BadInputError, ProtocolError
from tavla_pi.online.model import (
    CRAWFORD_ACTIVE,
    ME,
    NOBODY,
    OPPONENT,
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
    Welcome,
)
from tavla_pi.online.protocol import MAX_SERVER_LINE_BYTES, Bgammon, client_name

LINES = (Path(__file__).parent / "fixtures" / "bgammon_lines.txt").read_bytes().splitlines()
KINDS: dict[str, type] = {
    "welcome": Welcome, "list": MatchList, "joined": Joined, "left": Left,
    "board": GameBoard, "rolled": Rolled, "moved": Moved, "say": Said, "win": GameWon,
    "notice": Notice, "ping": Ping, "failedcreate": CommandRefused,
    "failedjoin": CommandRefused, "failedleave": CommandRefused, "failedroll": CommandRefused,
    "failedmove": CommandRefused, "failedok": CommandRefused,
}


@pytest.fixture
def bgammon() -> Bgammon:
    return Bgammon(client_name("0.1.0", "en"))


def real(kind: str) -> list[dict[str, Any]]:
    """The fixture's events of type ``kind``, as JSON objects."""
    found = [json.loads(line) for line in LINES if line.startswith(b"{")]
    return [e for e in found if e["Type"] == kind]


def line_of(event: dict[str, Any]) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode()


def refused(bgammon: Bgammon, line: bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        bgammon.read(line)
    return str(caught.value)


# -- real lines ---------------------------------------------------------------------


def test_every_real_line_reads_as_its_event(bgammon: Bgammon) -> None:
    kinds = set()
    for line in LINES:
        event = bgammon.read(line)
        if line.startswith(b"{"):
            kind = json.loads(line)["Type"]
            kinds.add(kind)
            assert type(event) is KINDS[kind], line
        else:
            assert isinstance(event, Hello)
    assert kinds == set(KINDS)


def test_a_protocol_error_is_bad_input_naming_its_place() -> None:
    error = ProtocolError("server event 'board'", "field Turn: 3 is out of range 0..2")
    assert isinstance(error, BadInputError)
    assert error.where == "server event 'board'"


def test_the_welcome_carries_the_name_the_server_gives(bgammon: Bgammon) -> None:
    assert bgammon.read(LINES[1]) == Welcome("Guest_alice", 2, 2)


def test_a_match_list_reads_each_match(bgammon: Bgammon) -> None:
    assert bgammon.read(LINES[2]) == MatchList(())
    listing = MatchListing(1, 1, 1, password=False, name="My match")
    assert bgammon.read(LINES[3]) == MatchList((listing,))


def test_the_opening_board_is_the_starting_position_from_the_players_side(
        bgammon: Bgammon) -> None:
    board = bgammon.read(line_of(real("board")[0]))
    assert isinstance(board, GameBoard)
    assert board.spaces == (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5,
                            0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0)
    assert (board.turn, board.dice, board.winner, board.cube_owner) == (NOBODY, (0, 0), 0, 0)
    assert board.me == PlayerInfo("Guest_alice", 0)
    assert board.points == 3 and board.cube_value == 1 and not board.double_offered


def test_every_kind_of_real_board_reads_its_fields(bgammon: Bgammon) -> None:
    boards = [bgammon.read(line_of(e)) for e in real("board")]
    assert all(isinstance(b, GameBoard) for b in boards)
    read = [b for b in boards if isinstance(b, GameBoard)]
    assert any(b.double_offered for b in read)
    assert any(b.is_crawford and b.crawford == CRAWFORD_ACTIVE for b in read)
    assert {b.winner for b in read} >= {ME, OPPONENT}
    assert any(b.pending for b in read) and any(b.available for b in read)
    assert any(b.cube_value == 2 and b.cube_owner in (ME, OPPONENT) for b in read)
    assert all(b.variant == 0 and not b.spectating for b in read)


def test_the_small_events_read_their_fields(bgammon: Bgammon) -> None:
    assert bgammon.read(line_of(real("joined")[0])) == Joined(3, 1, "Guest_alice")
    assert bgammon.read(line_of(real("say")[0])) == Said("Guest_473", "hi")
    assert bgammon.read(line_of(real("left")[0])) == Left("Guest_473")
    assert bgammon.read(line_of(real("ping")[0])) == Ping(real("ping")[0]["Message"])
    assert bgammon.read(line_of(real("failedmove")[0])) == CommandRefused(
        "move", "Illegal move.", None)
    assert bgammon.read(line_of(real("failedjoin")[0])) == CommandRefused(
        "join", "Match not found.")
    ok = bgammon.read(line_of(real("failedok")[0]))
    assert isinstance(ok, CommandRefused) and ok.command == "ok"
    assert ok.reason.startswith("The following legal moves are available: ")
    won = [bgammon.read(line_of(e)) for e in real("win")]
    assert GameWon("Guest_473", 3, "Guest_alice") in won
    assert bgammon.read(line_of(real("rolled")[0])) == Rolled("Guest_alice", (5, 0))
    moved = bgammon.read(line_of(real("moved")[0]))
    assert isinstance(moved, Moved) and len(moved.moves) == 1


def test_a_refused_move_names_the_move_where_the_server_does(bgammon: Bgammon) -> None:
    event = {"Type": "failedmove", "Player": "", "From": 13, "To": 7, "Reason": "Illegal move."}
    assert bgammon.read(line_of(event)) == CommandRefused("move", "Illegal move.", (13, 7))


def test_control_characters_in_text_are_replaced(bgammon: Bgammon) -> None:
    event = {"Type": "say", "Player": "Guest_1", "Message": "hi\x1b[31m\nthere\x00"}
    assert bgammon.read(line_of(event)) == Said("Guest_1", "hi\ufffd[31m\ufffdthere\ufffd")


def test_blank_lines_and_the_types_the_board_has_no_use_for_are_skipped(
        bgammon: Bgammon, caplog: pytest.LogCaptureFixture) -> None:
    assert bgammon.read(b"") is None
    assert bgammon.read(b"  \r") is None
    assert bgammon.read(b'{"Type":"settings","Player":"","AutoPlay":false}') is None
    assert not caplog.records


def test_an_unknown_type_is_logged_once_and_skipped(
        bgammon: Bgammon, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, "tavla_pi.online"):
        assert bgammon.read(b'{"Type":"tournament","Player":""}') is None
        assert bgammon.read(b'{"Type":"tournament","Player":"x"}') is None
    said = [r.getMessage() for r in caplog.records]
    assert said == ['server event "tournament": a type this board does not know; skipped']


# -- malformed lines ----------------------------------------------------------------


@pytest.mark.parametrize(("line", "said"), [
    (b"Welcome!", 'server line: not a JSON event: "Welcome!"'),
    (b"{not json", "server line: not JSON (Expecting property name enclosed in double"),
    (b'{"Player":""}', "server event: field Type: expected the event's type, got null"),
    (b'{"Type":7}', "server event: field Type: expected the event's type, got 7"),
    (b"\xff\xfe{}", "server line: not UTF-8 (byte 0)"),
    (b'{"Type":"board","Board":' + b"[" * 40 + b"]" * 40 + b"}",
     'server event: field "Board": nested deeper than 32 levels'),
    (b'{"Type":"joined","GameID":' + b"9" * 30 + b',"PlayerNumber":1,"Player":"a"}',
     'server event: field "GameID": an integer of 30 digits'),
])
def test_a_line_that_is_not_an_event_is_refused(bgammon: Bgammon, line: bytes,
                                                said: str) -> None:
    assert refused(bgammon, line).startswith(said)


def test_a_line_over_the_bound_is_refused_before_it_is_parsed(bgammon: Bgammon) -> None:
    line = b'{"Type":"say","Player":"a","Message":"' + b"x" * (10 << 20) + b'"}'
    assert refused(bgammon, line) == (f"server line: {len(line)} bytes "
                                      f"(at most {MAX_SERVER_LINE_BYTES})")


BOARD = real("board")[-1]


@pytest.mark.parametrize("key", sorted(k for k in BOARD if k not in (
    "Type", "Player", "Started", "Ended", "Roll3", "Reroll", "PlayerNumber", "Forced")))
def test_a_board_without_a_field_it_needs_names_that_field(bgammon: Bgammon,
                                                          key: str) -> None:
    event = {k: v for k, v in BOARD.items() if k != key}
    assert refused(bgammon, line_of(event)) == f"server event 'board': field {key}: missing"


@pytest.mark.parametrize(("key", "value", "said"), [
    ("Turn", 3, "field Turn: 3 is out of range 0..2"),
    ("Turn", True, "field Turn: expected an integer, got true"),
    ("Turn", 1.0, "field Turn: expected an integer, got 1.0"),
    ("Roll1", 7, "field Roll1: 7 is out of range 0..6"),
    ("Winner", "1", 'field Winner: expected an integer, got "1"'),
    ("DoubleValue", 3, "field DoubleValue: 3 is not a power of two"),
    ("DoubleValue", 128, "field DoubleValue: 128 is out of range 1..64"),
    ("DoubleOffered", 0, "field DoubleOffered: expected true or false, got 0"),
    ("Board", [0] * 27, "field Board: 27 spaces, expected 28"),
    ("Board", [0] * 29, "field Board: 29 items (at most 28)"),
    ("Board", [0] * 27 + [16], "field Board[27]: not a count of checkers -15..15: 16"),
    ("Board", [0] * 28, "field Board: the board's player has 0 checkers on the board and 0 "
                        "off: not 15"),
    ("Board", [0] * 27 + [None], "field Board[27]: not a count of checkers -15..15: null"),
    ("Board", {"0": 1}, 'field Board: expected a list, got {"0": 1}'),
    ("Board", [0, -2, 0, 0, 0, 0, 6, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0,
               2, 0, 0, 0],
     "field Board: the board's player has 16 checkers on the board and 0 off: not 15"),
    ("Available", [[24, 28]], "field Available[0]: not a move [from, to] of spaces 0..27"),
    ("Moves", [[24]], "field Moves[0]: not a move [from, to] of spaces 0..27: [24]"),
    ("Moves", [[1, 2]] * 65, "field Moves: 65 items (at most 64)"),
    ("Player1", [], "field Player1: expected an object, got []"),
    ("Player2", {"Name": "a b", "Points": 0}, 'field Player2.Name: not a player\'s name: "a b"'),
    ("Player2", {"Name": "b", "Points": -1}, "field Player2.Points: -1 is out of range 0..127"),
])
def test_a_board_field_of_the_wrong_type_or_range_is_named(bgammon: Bgammon, key: str,
                                                           value: object, said: str) -> None:
    said_now = refused(bgammon, line_of({**BOARD, key: value}))
    assert said_now.startswith(f"server event 'board': {said}")


@pytest.mark.parametrize(("event", "said"), [
    ({"Type": "welcome", "PlayerName": "", "Clients": 1, "Games": 0},
     "server event 'welcome': field PlayerName: not a player's name: \"\""),
    ({"Type": "joined", "GameID": 0, "PlayerNumber": 1, "Player": "a"},
     "server event 'joined': field GameID: 0 is out of range 1..2147483648"),
    ({"Type": "joined", "GameID": 1, "PlayerNumber": 3, "Player": "a"},
     "server event 'joined': field PlayerNumber: 3 is out of range 1..2"),
    ({"Type": "list", "Games": [{"ID": 1, "Password": False, "Points": 0, "Players": 1,
                                 "Name": ""}]},
     "server event 'list': field Games[0].Points: 0 is out of range 1..127"),
    ({"Type": "list", "Games": [7]}, "server event 'list': field Games[0]: expected an object"),
    ({"Type": "say", "Player": "a", "Message": "x" * 9000},
     "server event 'say': field Message: 9000 characters (at most 8192)"),
    ({"Type": "say", "Player": "a\nb", "Message": "hi"},
     "server event 'say': field Player: not a player's name"),
    ({"Type": "win", "Player": "a", "Points": 1}, "server event 'win': field Resigned: missing"),
    ({"Type": "failedok"}, "server event 'failedok': field Reason: missing"),
    ({"Type": "failedmove", "From": 300, "To": 0, "Reason": "x"},
     "server event 'failedmove': field From: 300 is out of range -128..127"),
    ({"Type": "rolled", "Player": "a", "Roll1": -1, "Roll2": 1},
     "server event 'rolled': field Roll1: -1 is out of range 0..6"),
])
def test_a_small_event_with_a_bad_field_is_named(bgammon: Bgammon, event: dict[str, Any],
                                                 said: str) -> None:
    assert refused(bgammon, line_of(event)).startswith(said)


# -- commands -----------------------------------------------------------------------


def test_login_as_a_guest_a_name_or_with_a_password(bgammon: Bgammon) -> None:
    assert bgammon.login(None, None) == "loginjson tavla-pi-0.1.0/en"
    assert bgammon.login("Guest_803", None) == "loginjson tavla-pi-0.1.0/en Guest_803"
    assert bgammon.login("ann", "two words here") == (
        "loginjson tavla-pi-0.1.0/en ann two_words_here")


@pytest.mark.parametrize(("username", "password", "said"), [
    (None, "secret", "a password needs a username"),
    ("ann b", None, "1 to 24 letters, digits or underscores"),
    ("x" * 25, None, "1 to 24 letters, digits or underscores"),
    ("ann", "line\nbreak", "no control characters"),
    ("ann", "", "1 to 256 characters"),
])
def test_a_login_the_protocol_cannot_carry_is_refused(bgammon: Bgammon, username: str | None,
                                                      password: str | None, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        bgammon.login(username, password)


def test_a_client_name_with_a_space_is_refused() -> None:
    with pytest.raises(ValueError, match="printable ASCII without spaces"):
        Bgammon("tavla pi/en")


def test_the_game_commands(bgammon: Bgammon) -> None:
    assert bgammon.create_match(3, "tavla  board\u00e9") == "create public 3 0 tavla board\u00e9"
    assert bgammon.join_match(12) == "join 12"
    assert bgammon.join_player("Guest_803") == "join Guest_803"
    assert bgammon.move(((26, 20), (13, 7), (6, 0))) == "move bar/20 13/7 6/off"
    assert bgammon.play(((24, 23), (23, 22))) == ("move 24/23", "move 23/22")
    assert bgammon.say("  good   game ") == "say good game"
    assert [bgammon.list_matches(), bgammon.roll(), bgammon.ok(), bgammon.double(),
            bgammon.resign(), bgammon.leave(), bgammon.undo(), bgammon.request_board(),
            bgammon.keepalive()] == ["list", "roll", "ok", "double", "resign", "leave",
                                     "reset", "board", "pong tavla"]


@pytest.mark.parametrize(("command", "said"), [
    (lambda b: b.say("one\ntwo"), "chat message: holds a control character"),
    (lambda b: b.say("tab\there"), "chat message: holds a control character"),
    (lambda b: b.say("   "), "chat message: empty"),
    (lambda b: b.say("x" * 501), "chat message: 501 characters"),
    (lambda b: b.create_match(0, "m"), "points 0: 1..127"),
    (lambda b: b.create_match(3, "a\rb"), "match name: holds a control character"),
    (lambda b: b.join_match(0), "match id 0: a positive integer"),
    (lambda b: b.join_player("123"), "a name of digits only reads as a match id"),
    (lambda b: b.join_player("a;b"), "letters, digits or underscores"),
    (lambda b: b.move(()), "1 to 8 moves"),
    (lambda b: b.move(((27, 20),)), "the board's player moves from 1..24 or the bar"),
    (lambda b: b.move(((13, 25),)), "the board's player moves from 1..24 or the bar"),
])
def test_a_command_the_protocol_cannot_carry_is_refused(bgammon: Bgammon, command: Any,
                                                        said: str) -> None:
    with pytest.raises(ValueError, match=said):
        command(bgammon)
