"""The connection against the real bgammon-server: a guest and a named login, the name
kept for a rejoin, the match list, creating and joining, a whole game against a socket
opponent with every position checked against our rules, TLS with a self-signed
certificate, and the server killed and started again."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from programs import needs

from tavla_pi.online.board import play_of, position_of, server_moves, sides
from tavla_pi.online.connection import LinkStatus, OnlineArrival
from tavla_pi.online.model import (
    ME,
    OPPONENT,
    CommandRefused,
    GameBoard,
    GameWon,
    Joined,
    Left,
    MatchList,
    Moved,
    Said,
    Welcome,
)
from tavla_pi.online.names import NameStore
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.settings import OnlineSettings
from tavla_pi.testing.bgammon import BgammonServer, ConnectionOpener, PolledConnection, SocketPlayer
from tavla_pi.testing.processes import wait_until

pytestmark = needs("bgammon-server")

DEADLINE_S = 10.0
PROTOCOL = Bgammon(client_name("0.1.0", "en"))


def logged_in(item: OnlineArrival) -> bool:
    return isinstance(item, LinkStatus) and item.connected


def test_a_guest_logs_in_and_keeps_its_name_for_the_next_time(
        bgammon_server: BgammonServer, online: ConnectionOpener, tmp_path: Path) -> None:
    names = NameStore.in_state_dir(tmp_path)
    first = online(bgammon_server.settings(), names=names)
    status = first.wait(logged_in)
    assert isinstance(status, LinkStatus) and status.user is not None
    assert status.user.startswith("Guest_") and names.load() == status.user
    first.connection.close()
    again = online(bgammon_server.settings(), names=names)
    assert again.wait(logged_in) == LinkStatus(connected=True, user=status.user,
                                               reason="logged in")


def test_a_named_user_logs_in_under_that_name(bgammon_server: BgammonServer,
                                              online: ConnectionOpener,
                                              tmp_path: Path) -> None:
    names = NameStore.in_state_dir(tmp_path)
    driver = online(bgammon_server.settings(username="tavla"), names=names)
    assert isinstance(welcome := driver.wait(lambda e: isinstance(e, Welcome)), Welcome)
    assert welcome.name == "Guest_tavla"  # this server keeps no accounts: a guest's name
    assert names.load() is None  # a configured name is not a guest's to keep


def test_a_refused_login_is_logged_with_the_servers_words_and_tried_again(
        bgammon_server: BgammonServer, online: ConnectionOpener, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    password = tmp_path / "password"
    password.write_text("not an account\n")
    with caplog.at_level(logging.WARNING, "tavla_pi.online"):
        driver = online(bgammon_server.settings(username="ann", password_file=password))
        wait_until(lambda: sum("No account was found" in r.getMessage()
                               for r in caplog.records) >= 2, "second refused login",
                   DEADLINE_S)
    assert not driver.connection.connected
    assert all(r.exc_info is None for r in caplog.records)


def test_list_create_and_join_by_id_and_by_player(bgammon_server: BgammonServer,
                                                  online: ConnectionOpener) -> None:
    with SocketPlayer(bgammon_server.port) as host, SocketPlayer(bgammon_server.port) as other:
        host.login()
        match = host.create(3, "open match")
        board = online(bgammon_server.settings())
        board.wait(logged_in)
        board.send(PROTOCOL.list_matches())
        listed = board.wait(lambda e: isinstance(e, MatchList) and bool(e.matches))
        assert isinstance(listed, MatchList)
        assert [(m.match_id, m.points, m.players, m.name) for m in listed.matches] == [
            (match, 3, 1, "open match")]
        board.send(PROTOCOL.join_match(match))
        joined = board.wait(lambda e: isinstance(e, Joined))
        assert joined == Joined(match, 1, str(board.connection.user))
        first = board.wait(lambda e: isinstance(e, GameBoard))
        assert isinstance(first, GameBoard) and first.opponent.name == host.name
        assert first.points == 3 and first.turn == 0
        other.login()
        assert isinstance(host.name, str)
        spectated = other.join(host.name)  # the match is full: a spectator
        assert spectated.spectating


def test_a_whole_game_against_a_socket_opponent_follows_our_rules(
        bgammon_server: BgammonServer, online: ConnectionOpener) -> None:
    rng = random.Random(7)
    with SocketPlayer(bgammon_server.port) as opponent:
        opponent.login()
        match = opponent.create(1, "a whole game")
        board = online(bgammon_server.settings())
        board.wait(logged_in)
        board.send(PROTOCOL.join_match(match))
        board.wait(lambda e: isinstance(e, GameBoard))
        opponent.wait_for(Joined, lambda e: e.player_number == 2)
        board.send(PROTOCOL.say("good luck"))
        assert opponent.wait_for(Said).message == "good luck"
        won = play_out(board, opponent, rng)
        assert won.player in (board.connection.user, opponent.name)


def play_out(board: PolledConnection, opponent: SocketPlayer, rng: random.Random) -> GameWon:
    """Play a game to its end, both sides by random legal plays of our rules: each play
    of the opponent, as the connection saw it move by move, is a legal play by our rules
    leading to the next board, and at the end both players see the same position."""
    board.send(PROTOCOL.roll())
    opponent.roll()
    watch = OpponentWatch(opponent)
    turns = 0
    while True:
        for item in board.pump():
            watch.see(item)
            assert not isinstance(item, CommandRefused), (item, board.seen[-4:])
            if isinstance(item, GameWon):
                assert watch.checked > 0
                ended = board.wait(lambda e: isinstance(e, GameBoard) and e.winner != 0)
                theirs = opponent.wait_board(lambda b: b.winner != 0)
                assert isinstance(ended, GameBoard)
                assert sides(theirs.spaces) == tuple(reversed(sides(ended.spaces)))
                return item
        seen = board.board
        if seen is not None and seen.turn == ME and seen.dice[0] and not seen.pending:
            plays = position_of(seen.spaces, ME).legal_plays(seen.dice)
            if plays:
                for command in PROTOCOL.play(server_moves(rng.choice(plays))):
                    board.send(command)
            board.send(PROTOCOL.ok())
            board.board = None
            turns += 1
        try:
            event = opponent.next_event(0.01)
        except TimeoutError:
            continue
        assert not isinstance(event, CommandRefused), (event, opponent.events[-4:])
        if isinstance(event, GameBoard) and event.turn == ME and event.dice[0] \
                and not event.pending:
            opponent.play(rng)
            turns += 1
        assert turns < 500, "the game does not end"


class OpponentWatch:
    """The opponent's turns as the connection sees them, each checked by our rules."""

    def __init__(self, opponent: SocketPlayer) -> None:
        self.opponent = opponent
        self.start: GameBoard | None = None
        self.moved: list[tuple[int, int]] = []
        self.checked = 0

    def see(self, item: OnlineArrival) -> None:
        if isinstance(item, Moved) and item.player == self.opponent.name:
            self.moved += item.moves
        if not isinstance(item, GameBoard):
            return
        if item.turn == OPPONENT and item.dice[0] and not item.pending and not item.winner:
            self.start, self.moved = item, []
        elif self.start is not None and (item.turn == ME or item.winner):
            before = position_of(self.start.spaces, OPPONENT)
            play = play_of(before, self.start.dice, self.moved, OPPONENT)
            assert play.result == position_of(item.spaces, ME)
            self.start = None
            self.checked += 1


@needs("bgammon-server")
def test_wss_with_a_self_signed_certificate_and_its_ca_file(
        tmp_path: Path, online: ConnectionOpener,
        caplog: pytest.LogCaptureFixture) -> None:
    with BgammonServer(tmp_path, tls=True) as server:
        trusted = online(server.settings(tls=True))
        status = trusted.wait(logged_in)
        assert isinstance(status, LinkStatus) and status.user is not None
        with SocketPlayer(server.port) as opponent:  # TCP and WebSocket players meet
            opponent.login()
            match = opponent.create(1, "over tls")
            trusted.send(PROTOCOL.join_match(match))
            joined = trusted.wait(lambda e: isinstance(e, Joined))
            assert joined == Joined(match, 1, status.user)
        untrusting = OnlineSettings(server.wss_address)  # the system's CA store
        with caplog.at_level(logging.WARNING, "tavla_pi.online"):
            stranger = online(untrusting)
            wait_until(lambda: "certificate verify failed" in caplog.text,
                       "certificate refused", DEADLINE_S)
        assert not stranger.connection.connected
        assert all(r.exc_info is None for r in caplog.records)


def test_the_server_killed_and_started_again_the_board_logs_in_again(
        bgammon_server: BgammonServer, online: ConnectionOpener, tmp_path: Path) -> None:
    names = NameStore.in_state_dir(tmp_path)
    driver = online(bgammon_server.settings(), names=names)
    first = driver.wait(logged_in)
    bgammon_server.kill()
    lost = driver.wait(lambda e: isinstance(e, LinkStatus) and not e.connected)
    assert isinstance(lost, LinkStatus) and lost.reason
    assert not driver.connection.connected
    assert not driver.connection.send(PROTOCOL.list_matches())  # not sent while away
    bgammon_server.start()
    again = driver.wait(logged_in)
    assert isinstance(first, LinkStatus) and isinstance(again, LinkStatus)
    assert again.user == first.user  # the guest's name, kept


def test_a_board_that_comes_back_is_rejoined_to_its_match(
        bgammon_server: BgammonServer, online: ConnectionOpener, tmp_path: Path) -> None:
    names = NameStore.in_state_dir(tmp_path)
    with SocketPlayer(bgammon_server.port) as opponent:
        opponent.login()
        match = opponent.create(3)
        board = online(bgammon_server.settings(), names=names)
        board.wait(logged_in)
        board.send(PROTOCOL.join_match(match))
        board.wait(lambda e: isinstance(e, GameBoard))
        board.send(PROTOCOL.roll())
        opponent.roll()  # the server lets only these two rejoin once both have rolled
        started = board.wait(lambda e: isinstance(e, GameBoard) and e.turn != 0)
        board.connection.close()
        opponent.wait_for(Left)
        back = online(bgammon_server.settings(), names=names)
        back.wait(logged_in)
        rejoined = back.wait(lambda e: isinstance(e, Joined))
        assert rejoined == Joined(match, 1, str(names.load()))
        resumed = back.wait(lambda e: isinstance(e, GameBoard))
        assert isinstance(started, GameBoard) and isinstance(resumed, GameBoard)
        assert (resumed.spaces, resumed.turn, resumed.points) == (
            started.spaces, started.turn, started.points)
        assert resumed.opponent.name == opponent.name
