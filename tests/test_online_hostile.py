"""The connection against a hostile server: one small server in this test that sends what
bgammon.org never would (a malformed line, a 10 MB line, an event of another match, a
board of the wrong size or that cannot be, a move our rules refuse, silence).  Each gives
one log line naming what was wrong and no traceback; the link goes on, or is closed and
opened again; the scan loop's poll never waits.  The keep-alive and the silence watch run
on a virtual clock.  ``ws://`` is checked against a WebSocket server of the same kind."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import ProtocolError
from tavla_pi.online.board import play_of, position_of
from tavla_pi.online.connection import (
    KEEPALIVE_MS,
    SILENCE_MS,
    LinkStatus,
    OnlineArrival,
)
from tavla_pi.online.model import OPPONENT, GameBoard, Joined, Moved, Notice, Welcome
from tavla_pi.online.names import NameStore
from tavla_pi.online.settings import OnlineSettings, ServerAddress
from tavla_pi.ratelog import DEFAULT_INTERVAL_MS
from tavla_pi.testing.bgammon import ConnectionOpener, PolledConnection
from tavla_pi.testing.processes import wait_until

DEADLINE_S = 10.0
HOST = "127.0.0.1"
START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0]


def event(kind: str, **fields: object) -> bytes:
    return json.dumps({"Type": kind, "Player": "", **fields}).encode()


def board(spaces: list[int], **more: object) -> bytes:
    player = {"Number": 1, "Name": "Guest_board", "Points": 0}
    opponent = {"Number": 2, "Name": "Guest_rival", "Points": 0}
    fields: dict[str, object] = {
        "Board": spaces, "Turn": 2, "Roll1": 6, "Roll2": 1, "Moves": [], "Available": [],
        "Winner": 0, "Points": 1, "Crawford": 0, "DoubleValue": 1, "DoublePlayer": 0,
        "DoubleOffered": False, "Player1": player, "Player2": opponent, "Variant": 0,
        "Spectating": False, **more}
    return event("board", **fields)


WELCOME = event("welcome", PlayerName="Guest_board", Clients=2, Games=1)
JOINED = event("joined", GameID=1, PlayerNumber=1, Player="Guest_board")


class HostileServer:
    """A TCP server: to each connection that logs in it sends ``script`` (lines), then
    reads on (every line it got is in ``heard``) until the client goes, or closes at
    once when ``hang_up``; ``answer``, if given, says the lines to send back to each
    line read (a scripted server that plays along, then says what bgammon.org would not)."""

    def __init__(self, script: list[bytes], *, hang_up: bool = False,
                 answer: Callable[[str], list[bytes]] | None = None) -> None:
        self.script = script
        self.hang_up = hang_up
        self.answer = answer
        self.heard: list[str] = []
        self.connections = 0
        self._talking: list[socket.socket] = []
        self._listener = socket.create_server((HOST, 0))
        self.port: int = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._talk, args=(sock,), daemon=True).start()

    def _talk(self, sock: socket.socket) -> None:
        self._talking.append(sock)
        with sock, sock.makefile("rb") as lines:
            login = lines.readline()
            self.heard.append(login.decode().strip())
            try:
                for line in self.script:
                    sock.sendall(line + b"\n")
                if self.hang_up:
                    return
                for line in lines:
                    heard = line.decode().strip()
                    self.heard.append(heard)
                    for reply in self.answer(heard) if self.answer is not None else []:
                        sock.sendall(reply + b"\n")
            except OSError:
                return

    @property
    def address(self) -> ServerAddress:
        """Its listener, as the settings hold it."""
        return ServerAddress("tcp", HOST, self.port)

    def send(self, line: bytes) -> None:
        """Send ``line`` now on the newest connection (after its script)."""
        self._talking[-1].sendall(line + b"\n")

    def heard_after(self, what: str, timeout_s: float = DEADLINE_S) -> None:
        """Wait until the client has sent ``what``."""
        wait_until(lambda: what in self.heard, f"{what!r} heard", timeout_s)

    def close(self) -> None:
        self._listener.close()


@pytest.fixture
def opened(online: ConnectionOpener) -> Iterator[Callable[..., PolledConnection]]:
    """Opens connections to hostile servers (closed after the test, as the servers)."""
    servers: list[HostileServer] = []

    def open_one(server: HostileServer | ServerAddress, clock: VirtualClock | None = None,
                 names: NameStore | None = None) -> PolledConnection:
        if isinstance(server, HostileServer):
            servers.append(server)
            server = ServerAddress("tcp", HOST, server.port)
        return online(OnlineSettings(server), clock or VirtualClock(), names=names)

    yield open_one
    for server in servers:
        server.close()


def notice(text: str) -> Callable[[list[OnlineArrival]], bool]:
    return lambda seen: Notice(text) in seen


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


HOSTILE: list[tuple[bytes, str]] = [
    (b"ERROR: the server is on fire", 'server line: not a JSON event: "ERROR: the server is'),
    (b'{"Type":"board","Board":[1,2', "server line: not JSON (Expecting"),
    (b'{"Type":"say","Player":"a","Message":"' + b"x" * (10 << 20) + b'"}',
     "a line of 10485800 bytes dropped unread (at most 65536)"),
    (event("joined", GameID=2, PlayerNumber=2, Player="Guest_rival"),
     "server event joined: an event of match 2, but this board is in match 1: dropped"),
    (board(START[:27]), "server event 'board': field Board: 27 spaces, expected 28"),
    (board([*START[:6], 9, *START[7:]]), "server event 'board': field Board: the board's "
                                         "player has 19 checkers on the board and 0 off"),
    (board(START, Turn="2"), "server event 'board': field Turn: expected an integer"),
    (event("rolled", Player="Guest_rival", Roll1=9, Roll2=1),
     "server event 'rolled': field Roll1: 9 is out of range 0..6"),
]


def test_each_hostile_line_is_one_log_line_and_the_link_goes_on(
        opened: Callable[..., PolledConnection], caplog: pytest.LogCaptureFixture) -> None:
    script = [WELCOME, JOINED, board(START), *(line for line, _ in HOSTILE),
              event("notice", Message="still here")]
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(HostileServer(script))
        watched.until(notice("still here"))
    said = warnings_of(caplog)
    assert len(said) == len(HOSTILE)
    for (_, expected), line in zip(HOSTILE, said, strict=True):
        assert expected in line, (expected, line)
    assert watched.connection.connected
    assert [type(e) for e in watched.seen] == [LinkStatus, Welcome, Joined, GameBoard, Notice]
    assert watched.slowest_poll_s < 0.05


def test_a_flood_of_bad_lines_is_logged_once_then_counted_as_the_link_ends(
        opened: Callable[..., PolledConnection], caplog: pytest.LogCaptureFixture) -> None:
    junk = [b"junk %d" % n for n in range(500)]  # one fault, other numbers: one kind
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(HostileServer([WELCOME, *junk], hang_up=True))
        watched.until(lambda seen: any(isinstance(e, LinkStatus) and not e.connected
                                       for e in seen))
        watched.connection.close()
    where = watched.connection.settings.server
    said = [m for m in warnings_of(caplog) if "not a JSON event" in m]
    assert said == [
        f'online: server {where}: server line: not a JSON event: "junk 0"',
        "499 more refused (server line: not a JSON event) in 10 s; the last: "
        f'online: server {where}: server line: not a JSON event: "junk 499"']


def test_a_flood_goes_on_being_counted_once_per_interval(
        opened: Callable[..., PolledConnection], caplog: pytest.LogCaptureFixture) -> None:
    clock, server = VirtualClock(), HostileServer([WELCOME])
    watched = opened(server, clock)
    watched.until(bool)  # logged in
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        for line in [b"junk"] * 3 + [event("notice", Message="read")]:
            server.send(line)
        watched.until(notice("read"))
        assert not [m for m in warnings_of(caplog) if "more refused" in m]
        clock.advance(DEFAULT_INTERVAL_MS)  # the link's reader writes the count now
        server.send(event("notice", Message="still here"))
        watched.until(notice("still here"))
        counted = [m for m in warnings_of(caplog) if "more refused" in m]
        watched.connection.close()
    assert counted == [f"2 more refused (server line: not a JSON event) in 10 s; the last: "
                       f'online: server {watched.connection.settings.server}: server line: '
                       'not a JSON event: "junk"']


def test_a_move_our_rules_refuse_is_named_when_checked(
        opened: Callable[..., PolledConnection]) -> None:
    moved = event("moved", Player="Guest_rival", Moves=[[1, 10]])  # 9 pips with 6-1
    watched = opened(HostileServer([WELCOME, JOINED, board(START), moved]))
    watched.until(lambda seen: any(isinstance(e, Moved) for e in seen))
    start = next(e for e in watched.seen if isinstance(e, GameBoard))
    move = next(e for e in watched.seen if isinstance(e, Moved))
    with pytest.raises(ProtocolError, match=r"server board: moves 1/10 with 6-1 from position "
                                            r".*: not a legal play by our rules"):
        play_of(position_of(start.spaces, OPPONENT), start.dice, move.moves, OPPONENT)


def test_events_of_a_match_while_in_none_are_dropped(
        opened: Callable[..., PolledConnection], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(HostileServer([WELCOME, board(START),
                                        event("notice", Message="still here")]))
        watched.until(notice("still here"))
    where = watched.connection.settings.server
    assert warnings_of(caplog) == [f"online: server {where}: server event board: an event of "
                                   "a match, but this board is in none: dropped"]


def test_a_server_that_hangs_up_is_logged_in_to_again_under_the_same_name(
        opened: Callable[..., PolledConnection], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    server = HostileServer([WELCOME], hang_up=True)
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(server, names=NameStore.in_state_dir(tmp_path))
        watched.until(lambda seen: sum(isinstance(e, LinkStatus) and e.connected
                                       for e in seen) >= 2)
    assert LinkStatus(connected=False, user="Guest_board",
                      reason="the server closed the connection") in watched.seen
    assert server.heard[:2] == ["loginjson tavla-pi-test/en",
                                "loginjson tavla-pi-test/en Guest_board"]
    assert any("link lost (the server closed the connection)" in m for m in warnings_of(caplog))


def test_the_keepalive_is_written_on_the_clock(opened: Callable[..., PolledConnection]) -> None:
    clock = VirtualClock()
    server = HostileServer([WELCOME])
    watched = opened(server, clock)
    watched.until(bool)
    clock.advance(KEEPALIVE_MS - 1)
    watched.connection.send("list")
    server.heard_after("list")
    assert "pong tavla" not in server.heard
    clock.advance(KEEPALIVE_MS)
    server.heard_after("pong tavla")


def test_a_silent_server_is_taken_for_dead_and_connected_again(
        opened: Callable[..., PolledConnection], caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    server = HostileServer([WELCOME])
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(server, clock)
        watched.until(bool)
        clock.advance(SILENCE_MS + 1)
        watched.until(lambda seen: sum(isinstance(e, LinkStatus) for e in seen) >= 3)
    assert server.connections >= 2
    assert any("link lost (the server said nothing for 75 s)" in m
               for m in warnings_of(caplog))


@pytest.fixture
def websocket_server() -> Iterator[tuple[Server, list[str]]]:
    """A WebSocket server (``ws://``) that welcomes a login, then sends a 10 MB message."""
    heard: list[str] = []

    def talk(ws: ServerConnection) -> None:
        heard.append(str(ws.recv()))
        ws.send(WELCOME.decode())
        with contextlib.suppress(ConnectionClosed):  # the board closes it: what is tested
            ws.send(json.dumps({"Type": "notice", "Player": "", "Message": "x" * (10 << 20)}))
            for message in ws:
                heard.append(str(message))

    with serve(talk, HOST, 0, max_size=None) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield server, heard
        server.shutdown()


def test_over_ws_a_message_over_the_bound_closes_the_link_cleanly(
        websocket_server: tuple[Server, list[str]], opened: Callable[..., PolledConnection],
        caplog: pytest.LogCaptureFixture) -> None:
    server, heard = websocket_server
    port = server.socket.getsockname()[1]
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        watched = opened(ServerAddress("ws", HOST, port))
        watched.until(lambda seen: sum(isinstance(e, LinkStatus) and e.connected
                                       for e in seen) >= 2)
    assert heard[0] == "loginjson tavla-pi-test/en"
    lost = [e for e in watched.seen if isinstance(e, LinkStatus) and not e.connected]
    assert "message too big" in lost[0].reason
    assert any("message too big" in m for m in warnings_of(caplog))
