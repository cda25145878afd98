"""The online link's small parts, without a server: the bounded line buffer, the kept name,
the ``[online]`` settings and server addresses, the match scope, and what a connection
refuses before it starts."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import ConfigError
from tavla_pi.online.connection import OnlineConnection
from tavla_pi.online.model import GameBoard, Joined, Left, Moved, PlayerInfo, Said, Welcome
from tavla_pi.online.names import NAME_FILE, NameStore
from tavla_pi.online.protocol import Bgammon
from tavla_pi.online.scope import MatchScope
from tavla_pi.online.settings import (
    DEFAULT_SERVER,
    OnlineSettings,
    ServerAddress,
    server_address,
)
from tavla_pi.online.transport import LineBuffer

# -- the line buffer ------------------------------------------------------------------


def fed(buffer: LineBuffer, *chunks: bytes) -> tuple[list[bytes], list[int]]:
    lines: list[bytes] = []
    dropped: list[int] = []
    for chunk in chunks:
        lines += buffer.feed(chunk, dropped.append)
    return lines, dropped


def test_lines_come_whole_however_the_bytes_are_cut() -> None:
    assert fed(LineBuffer(16), b"ab", b"c\nde", b"f\n\ng", b"h\n") == (
        [b"abc", b"def", b"", b"gh"], [])


def test_a_line_over_the_bound_is_dropped_and_its_length_told() -> None:
    buffer = LineBuffer(8)
    assert fed(buffer, b"12345678\n", b"123456789\nok\n") == ([b"12345678", b"ok"], [9])


def test_a_long_line_in_pieces_is_never_held_whole() -> None:
    buffer = LineBuffer(1000)
    dropped: list[int] = []
    chunk = b"x" * 65536
    for _ in range(160):  # 10 MB
        assert buffer.feed(chunk, dropped.append) == []
        assert len(buffer._held) <= 1000  # what it holds stays within the bound
    assert buffer.feed(b"x\nnext\n", dropped.append) == [b"next"]
    assert dropped == [160 * 65536 + 1]


# -- the kept name --------------------------------------------------------------------


def test_a_name_is_kept_and_read_back(tmp_path: Path) -> None:
    store = NameStore.in_state_dir(tmp_path)
    assert store.load() is None
    store.save("Guest_803")
    assert (tmp_path / NAME_FILE).read_text() == "Guest_803\n"
    assert NameStore.in_state_dir(tmp_path).load() == "Guest_803"
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("content", ["not a name\n", "x" * 100, "Guest_1\nGuest_2\n"])
def test_a_name_file_that_is_no_name_is_logged_and_ignored(
        tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / NAME_FILE).write_text(content)
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        assert NameStore.in_state_dir(tmp_path).load() is None
    assert "logging in as a new guest" in caplog.text


def test_a_name_file_that_is_a_fifo_is_not_read(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    os.mkfifo(tmp_path / NAME_FILE)
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        assert NameStore.in_state_dir(tmp_path).load() is None
    assert "not a regular file" in caplog.text


def test_a_name_that_cannot_be_kept_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="letters, digits or underscores"):
        NameStore.in_state_dir(tmp_path).save("a b")


# -- settings -------------------------------------------------------------------------


def test_server_addresses() -> None:
    assert server_address(DEFAULT_SERVER) == ServerAddress("wss", "ws.bgammon.org", 443)
    assert server_address("tcp://127.0.0.1:1337") == ServerAddress("tcp", "127.0.0.1", 1337)
    assert server_address("ws://[::1]:8080/play") == ServerAddress("ws", "::1", 8080, "/play")
    assert str(server_address("ws://[::1]:8080/play")) == "ws://[::1]:8080/play"
    assert server_address("tcp://localhost:1").loopback
    assert not server_address("wss://ws.bgammon.org").loopback


@pytest.mark.parametrize(("text", "said"), [
    ("http://example.org", "expected tcp://host:port, ws://host or wss://host"),
    ("tcp://example.org", "tcp:// needs a port"),
    ("wss://example.org:70000", "the port is not a number"),
    ("wss://user:secret@example.org", "no login, query or fragment"),
    ("tcp://example.org:1337/path", "tcp:// takes no path"),
    ("wss://", "no host name"),
])
def test_a_server_address_that_is_wrong_is_refused(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        server_address(text)


def test_a_password_goes_only_over_tls_or_to_this_machine(tmp_path: Path) -> None:
    password = tmp_path / "password"
    OnlineSettings(server_address("wss://example.org"), "ann", password)
    OnlineSettings(server_address("tcp://127.0.0.1:1337"), "ann", password)
    for plain in ("tcp://example.org:1337", "ws://example.org"):
        with pytest.raises(ValueError, match="not encrypted, to another machine"):
            OnlineSettings(server_address(plain), "ann", password)
    with pytest.raises(ValueError, match="a password needs a username"):
        OnlineSettings(server_address("wss://example.org"), None, password)
    with pytest.raises(ValueError, match="only a wss:// server has a certificate"):
        OnlineSettings(server_address("tcp://127.0.0.1:1"), ca_file=tmp_path / "ca.pem")


def test_a_connection_reads_its_password_and_ca_file_before_it_starts(tmp_path: Path) -> None:
    def connection(settings: OnlineSettings) -> OnlineConnection:
        return OnlineConnection(settings, Bgammon("test/en"), VirtualClock())

    local = server_address("tcp://127.0.0.1:1")
    with pytest.raises(ConfigError, match="cannot read"):
        connection(OnlineSettings(local, "ann", tmp_path / "missing"))
    (tmp_path / "two").write_text("one\ntwo\n")
    with pytest.raises(ConfigError, match="expected the password on one line"):
        connection(OnlineSettings(local, "ann", tmp_path / "two"))
    (tmp_path / "ca.pem").write_text("not a certificate\n")
    secure = server_address("wss://127.0.0.1:1")
    with pytest.raises(ConfigError, match="not a CA certificate in PEM"):
        connection(OnlineSettings(secure, ca_file=tmp_path / "ca.pem"))


def test_a_connection_sends_one_line_and_nothing_before_it_logs_in() -> None:
    connection = OnlineConnection(OnlineSettings(server_address("tcp://127.0.0.1:1")),
                                  Bgammon("test/en"), VirtualClock())
    assert not connection.send("list")
    with pytest.raises(ValueError, match="one line"):
        connection.send("say hi\nleave")
    assert connection.poll() == []


# -- the match scope ------------------------------------------------------------------


def test_the_scope_follows_the_boards_match() -> None:
    scope = MatchScope()
    assert scope.admit(Welcome("Guest_1", 1, 0)) is None
    assert scope.admit(Joined(4, 1, "Guest_1")) is None
    assert scope.admit(Joined(4, 2, "Guest_2")) is None
    assert scope.admit(Joined(5, 2, "Guest_3")) == (
        "joined: an event of match 5, but this board is in match 4")
    assert (scope.admit(Left("Guest_2")), scope.match_id) == (None, 4)
    assert (scope.admit(Left("Guest_1")), scope.match_id) == (None, None)
    assert scope.admit(Said("Guest_2", "hi")) == (
        "say: an event of a match, but this board is in none")
    assert scope.admit(Moved("Guest_2", ((1, 3),))) == (
        "moved: an event of a match, but this board is in none")
    assert scope.admit(Joined(6, 2, "Guest_2")) == (
        "joined: Guest_2 joined match 6, but this board is in none")


def test_a_new_welcome_forgets_the_match() -> None:
    scope = MatchScope()
    scope.admit(Welcome("Guest_1", 1, 0))
    scope.admit(Joined(4, 1, "Guest_1"))
    scope.admit(Welcome("Guest_1", 1, 0))
    assert scope.match_id is None
    nobody = PlayerInfo("", 0)
    board = GameBoard((0,) * 28, 0, (0, 0), (), (), 0, 1, 0, 1, 0, double_offered=False,
                      me=nobody, opponent=nobody, variant=0, spectating=False)
    assert scope.admit(board) == "board: an event of a match, but this board is in none"
