"""The board's MQTT link against a real Mosquitto: two boards exchange game and sync
messages, a retained sync waits for a board that comes later, the broker down at the
start or restarted mid-way, a board killed (its will says ``gone``, signed for that
connection), a login, the client id, and what is dropped (a payload over the limit,
arrivals past the queue's bound).

Waits are polls of :meth:`Link.arrivals` with a bounded deadline, never fixed sleeps.
"""

from __future__ import annotations

import json
import logging
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from programs import PROGRAMS, needs
from signing_support import new_key

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import ConfigError
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.link import QUEUE_BOUND, Arrival, Link, LinkChange, Received
from tavla_pi.remote.messages import MAX_MESSAGE_BYTES, Status, read_payload
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.testing.mosquitto import Mosquitto

pytestmark = needs("mosquitto")
ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 20.0
KEYS = {name: new_key(name) for name in ("a", "b")}
"""Each board's key."""
Wanted = Callable[[list[Arrival]], bool]


def settings(broker: Broker, board: str, username: str | None = None,
             password_file: Path | None = None) -> NetworkSettings:
    """The ``[network]`` settings of board ``board`` on ``broker`` (club home)."""
    return NetworkSettings(broker=broker, board=board, username=username,
                           password_file=password_file)


def link(network: NetworkSettings, peer: str | None = "b", key: BoardKey | None = None,
         reconnect_max_s: int = 30) -> Link:
    """A Link of ``network``'s board, signing with its key in :data:`KEYS`."""
    assert network.board is not None
    return Link(network, peer, key=key or KEYS.get(network.board, new_key(network.board)),
                reconnect_max_s=reconnect_max_s)


@contextmanager
def started(broker: Broker, board: str, peer: str, username: str | None = None,
            password_file: Path | None = None) -> Iterator[Link]:
    """A started Link of ``board`` (peer ``peer``), closed after; reconnects within 1 s."""
    network = settings(broker, board, username, password_file)
    with link(network, peer, reconnect_max_s=1) as started_link:
        yield started_link


def wait_for(link: Link, wanted: Wanted, what: str, seen: list[Arrival] | None = None,
             timeout_s: float = DEADLINE_S) -> list[Arrival]:
    """Poll ``link.arrivals()`` (added to ``seen``) until ``wanted(seen)``; all seen so far."""
    seen = [] if seen is None else seen
    deadline = time.monotonic() + timeout_s
    while not wanted(seen):
        assert time.monotonic() < deadline, f"no {what} within {timeout_s} s; seen {seen}"
        time.sleep(0.01)
        seen += link.arrivals()
    return seen


def got(topic: str, payload: bytes | None = None) -> Wanted:
    """Wanted: a message on ``topic`` (with ``payload``, if given)."""
    def wanted(seen: list[Arrival]) -> bool:
        return any(isinstance(a, Received) and a.topic == topic
                   and payload in (None, a.payload) for a in seen)
    return wanted


def change(*, connected: bool) -> Wanted:
    """Wanted: the link connected (``connected``) or lost the broker."""
    return lambda seen: any(isinstance(a, LinkChange) and a.connected == connected for a in seen)


def received(seen: list[Arrival], topic: str) -> list[bytes]:
    """The payloads that came on ``topic``, in order."""
    return [a.payload for a in seen if isinstance(a, Received) and a.topic == topic]


def statuses(seen: list[Arrival], peer: str, key: BoardKey | None = None) -> list[Status]:
    """The statuses ``peer`` said, read with its key (its signature checked)."""
    out = []
    for payload in received(seen, f"tavla/home/{peer}/status"):
        status = read_payload(f"tavla/home/{peer}/status", payload, "home",
                              (key or KEYS[peer]).public)
        assert isinstance(status, Status)
        out.append(status)
    return out


def said(peer: str, *, online: bool, key: BoardKey | None = None) -> Wanted:
    """Wanted: ``peer`` said it is online (``online``) or gone, signed (with ``key``, or
    its key in :data:`KEYS`)."""
    def wanted(seen: list[Arrival]) -> bool:
        return any(s.online == online for s in statuses(seen, peer, key))
    return wanted


def in_touch(board: Link, peer: str) -> list[Arrival]:
    """Wait until ``board`` hears its peer is online (so its subscription is in place)."""
    return wait_for(board, said(peer, online=True), f"{peer} online")


def written(path: Path, text: str) -> Path:
    """``path`` holding ``text``."""
    path.write_text(text)
    return path


def test_a_link_needs_a_broker_and_a_peer_other_than_itself() -> None:
    with pytest.raises(ValueError, match="broker"):
        link(NetworkSettings(board="a"), "b")
    with pytest.raises(ValueError, match="own name"):
        link(settings(Broker("127.0.0.1", 1883), "a"), "a")
    with pytest.raises(ValueError, match="not a board's topic"):
        link(settings(Broker("127.0.0.1", 1883), "a"), "B!")


def test_an_unreadable_password_file_is_a_config_error_naming_it(tmp_path: Path) -> None:
    broker = Broker("127.0.0.1", 1883)
    for path in (tmp_path / "absent", tmp_path, written(tmp_path / "big", "x" * 1025)):
        with pytest.raises(ConfigError, match=str(path)):
            link(settings(broker, "a", username="a", password_file=path), "b")


def test_a_payload_over_the_limit_is_refused_before_it_is_sent() -> None:
    board = link(settings(Broker("127.0.0.1", 1883), "a"), "b")
    with pytest.raises(ValueError, match="tavla/home/a/game: 4097 bytes"):
        board.publish_game(b"x" * (MAX_MESSAGE_BYTES + 1))
    board.close()
    board.close()


def test_what_a_board_publishes_is_signed_for_its_topic() -> None:
    board = link(settings(Broker("127.0.0.1", 1883), "a"), "b")
    payload = board.signed("game", {"v": 1, "n": 1})
    assert KEYS["a"].public.opened("tavla/home/a/game", json.loads(payload), "x") == {
        "v": 1, "n": 1}
    assert payload.startswith(b'{"v":1,"n":1,"sig":"')  # compact JSON, the signature last
    board.close()


def test_the_client_id_is_the_keys_not_the_configs(tmp_path: Path) -> None:
    """The broker keeps a board's session by its client id: the same on every start of
    the board, and not one anybody can write down from the board's name and club."""
    key = BoardKey.load_or_make(tmp_path)
    again = BoardKey.load_or_make(tmp_path)
    ids = {key.client_id(), again.client_id(), new_key("a").client_id(), new_key("b").client_id()}
    assert len(ids) == 3 and key.client_id() == again.client_id()
    for client_id in ids:  # within MQTT 3.1.1's 23 characters, nothing of the config in it
        assert re.fullmatch(r"tavla-[0-9a-f]{16}", client_id), client_id


def test_two_boards_exchange_game_and_sync_messages(mosquitto: Mosquitto) -> None:
    with started(mosquitto.broker, "a", "b") as a, started(mosquitto.broker, "b", "a") as b:
        seen_a, seen_b = in_touch(a, "b"), in_touch(b, "a")
        assert a.connected and b.connected
        assert seen_a[0] == LinkChange(connected=True, reason="new session")
        a.publish_game(b'{"n":1}')
        a.publish_game(b'{"n":2}')
        b.publish_sync(b'{"sent":0}')
        wait_for(b, got("tavla/home/a/game", b'{"n":2}'), "a's game", seen_b)
        wait_for(a, got("tavla/home/b/sync"), "b's sync", seen_a)
        assert received(seen_b, "tavla/home/a/game") == [b'{"n":1}', b'{"n":2}']
        assert received(seen_a, "tavla/home/b/sync") == [b'{"sent":0}']
        assert not received(seen_a, "tavla/home/a/game")  # a hears only its peer
        assert a.dropped == b.dropped == 0


def test_a_retained_sync_and_a_clean_goodbye_wait_for_a_board_that_comes_later(
        mosquitto: Mosquitto) -> None:
    with started(mosquitto.broker, "a", "b") as a:
        wait_for(a, change(connected=True), "a connect")
        a.publish_sync(b'{"sent":3}')
    with started(mosquitto.broker, "b", "a") as b:
        seen = wait_for(b, got("tavla/home/a/status"), "a's status")
        seen = wait_for(b, got("tavla/home/a/sync"), "a's sync", seen)
        assert received(seen, "tavla/home/a/sync") == [b'{"sent":3}']
        assert [s.online for s in statuses(seen, "a")] == [False]


@pytest.mark.slow
@pytest.mark.alone  # times start() on the wall clock
def test_a_broker_down_at_the_start_is_retried_with_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="tavla_pi.remote")
    broker = Mosquitto(tmp_path)
    began = time.monotonic()
    with link(settings(broker.broker, "a"), "b", reconnect_max_s=1) as board:
        assert time.monotonic() - began < 0.5, "start() waited for the broker"
        board.publish_game(b'{"n":1}')  # held until the broker comes
        deadline = time.monotonic() + DEADLINE_S
        while caplog.text.count("Connection failed, retrying") < 2:
            assert time.monotonic() < deadline, "paho did not retry"
            time.sleep(0.01)
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warnings == [f"broker {broker.url}: unreachable (Connection refused); retrying"]
        with broker, started(broker.broker, "b", "a") as b:
            seen = wait_for(board, change(connected=True), "a connect")
            assert board.connected and seen[0] == LinkChange(connected=True,
                                                             reason="new session")
            wait_for(b, got("tavla/home/a/game", b'{"n":1}'), "a's game held while down")


@pytest.mark.slow
def test_a_broker_restarted_mid_way_delivers_what_was_sent_while_it_was_down(
        tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path, persistence=True)  # b's session outlives the restart
    with broker, started(broker.broker, "a", "b") as a, started(broker.broker, "b", "a") as b:
        seen_a, seen_b = in_touch(a, "b"), in_touch(b, "a")
        broker.stop()
        wait_for(a, change(connected=False), "a's loss", seen_a)
        wait_for(b, change(connected=False), "b's loss", seen_b)
        assert not a.connected
        a.publish_game(b'{"n":1}')
        a.publish_game(b'{"n":2}')
        broker.start()
        wait_for(b, got("tavla/home/a/game", b'{"n":2}'), "a's held game", seen_b)
        kinds = [(type(x).__name__, getattr(x, "connected", None)) for x in seen_b
                 if isinstance(x, LinkChange) or x.topic.endswith("/game")]
        assert kinds == [("LinkChange", True), ("LinkChange", False), ("LinkChange", True),
                         ("Received", None), ("Received", None)]
        assert received(seen_b, "tavla/home/a/game") == [b'{"n":1}', b'{"n":2}']
        assert wait_for(a, change(connected=True), "a's reconnect", seen_a)


CHILD = """
import sys, time
from pathlib import Path
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.link import Link
from tavla_pi.remote.settings import Broker, NetworkSettings
link = Link(NetworkSettings(broker=Broker("127.0.0.1", int(sys.argv[1])), board="a"), "b",
            key=BoardKey.load_or_make(Path(sys.argv[2])))
link.start()
for _ in range(2000):
    if link.connected:
        print("connected", flush=True)
        break
    time.sleep(0.01)
sys.stdin.read()
"""


def killed_board(mosquitto: Mosquitto, state: Path) -> list[Status]:
    """Board a, in a process of its own with its key in ``state``, is killed once board b
    sees it online: what b heard it say, its will last."""
    key = BoardKey.load_or_make(state)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(mosquitto.port), str(state)],
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], DEADLINE_S)
        assert ready and child.stdout.readline() == b"connected\n"
        with started(mosquitto.broker, "b", "a") as b:
            seen = wait_for(b, said("a", online=True, key=key), "a online")
            child.send_signal(signal.SIGKILL)
            seen = wait_for(b, said("a", online=False, key=key), "a's will", seen)
            return statuses(seen, "a", key)
    finally:
        child.kill()
        child.wait()


def test_a_killed_board_leaves_its_will_signed_for_that_connection_only(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    first = killed_board(mosquitto, tmp_path / "a")
    second = killed_board(mosquitto, tmp_path / "a")
    for said_ in (first, second):
        assert [s.online for s in said_][-2:] == [True, False]
        assert said_[-1].nonce == said_[-2].nonce  # the will is its online's connection's
    assert first[-1].nonce != second[-1].nonce  # a fresh nonce on each connection


def test_a_login_with_the_right_password_connects_and_a_wrong_one_does_not(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    right = written(tmp_path / "right", "s3cret\n")
    wrong = written(tmp_path / "wrong", "guess\n")
    with Mosquitto(tmp_path, user=("player", "s3cret")) as broker:
        with started(broker.broker, "a", "b", username="player", password_file=right) as a:
            wait_for(a, change(connected=True), "a connect")
        with started(broker.broker, "b", "a", username="player", password_file=wrong) as b:
            deadline = time.monotonic() + DEADLINE_S
            while "refused the connection" not in caplog.text:
                assert time.monotonic() < deadline, "no warning for a refused login"
                time.sleep(0.01)
            assert not b.connected and not b.arrivals()
    assert f"broker {broker.url}: refused the connection (Not authorized)" in caplog.text


def mosquitto_pub(broker: Mosquitto, topic: str, *args: str, stdin: bytes = b"") -> None:
    """Publish with the broker's own client (QoS 1): ``args`` say what."""
    program = str(PROGRAMS["mosquitto_pub"].path)
    subprocess.run([program, "-p", str(broker.port), "-t", topic, "-q", "1", *args],
                   input=stdin, check=True, capture_output=True, timeout=DEADLINE_S)


@needs("mosquitto_pub")
def test_a_payload_over_the_limit_is_dropped_and_counted(
        mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    with started(mosquitto.broker, "b", "a") as b:
        mosquitto_pub(mosquitto, "tavla/home/a/status", "-r", "-m", "here")
        seen = wait_for(b, got("tavla/home/a/status"), "the marker")
        mosquitto_pub(mosquitto, "tavla/home/a/game", "-m", "x" * (MAX_MESSAGE_BYTES + 1))
        mosquitto_pub(mosquitto, "tavla/home/a/game", "-m", "x" * MAX_MESSAGE_BYTES)
        seen = wait_for(b, got("tavla/home/a/game"), "the game message", seen)
        assert received(seen, "tavla/home/a/game") == [b"x" * MAX_MESSAGE_BYTES]
        assert b.dropped == 1
        assert "tavla/home/a/game: a message of 4097 bytes dropped" in caplog.text


@needs("mosquitto_pub")
def test_the_refusals_counted_when_the_link_closes_are_written_once(
        mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    network = settings(mosquitto.broker, "b")
    b = Link(network, "a", key=KEYS["b"], reconnect_max_s=1, clock=VirtualClock())
    with b:
        mosquitto_pub(mosquitto, "tavla/home/a/status", "-r", "-m", "here")
        seen = wait_for(b, got("tavla/home/a/status"), "the marker")
        for _ in range(3):
            mosquitto_pub(mosquitto, "tavla/home/a/game", "-m", "x" * (MAX_MESSAGE_BYTES + 1))
        mosquitto_pub(mosquitto, "tavla/home/a/game", "-m", "last")
        wait_for(b, got("tavla/home/a/game", b"last"), "the last game message", seen)
        assert b.dropped == 3
    b.close()
    said = [m for m in caplog.messages if "tavla/home/a/game" in m]
    assert len(said) == 2
    assert said[0].startswith("tavla/home/a/game: a message of 4097 bytes dropped")
    assert said[1].startswith("2 more refused (tavla/home/a/game too big) in 10 s; the last: ")


@needs("mosquitto_pub")
def test_arrivals_past_the_bound_are_dropped_and_counted(mosquitto: Mosquitto) -> None:
    with started(mosquitto.broker, "b", "a") as b:
        mosquitto_pub(mosquitto, "tavla/home/a/status", "-r", "-m", "here")
        wait_for(b, got("tavla/home/a/status"), "the marker")
        lines = b"".join(b"%d\n" % n for n in range(QUEUE_BOUND + 5))
        mosquitto_pub(mosquitto, "tavla/home/a/game", "-l", stdin=lines)
        deadline = time.monotonic() + DEADLINE_S
        while b.dropped < 5:
            assert time.monotonic() < deadline, f"{b.dropped} dropped, not 5"
            time.sleep(0.01)
        kept = b.arrivals()
        assert [a.payload for a in kept if isinstance(a, Received)] == [
            b"%d" % n for n in range(QUEUE_BOUND)]
        assert b.dropped == 5
