"""A real Mosquitto started with exactly the files ``tavla-pi broker-config`` wrote (its
``tavla.conf`` included as a broker host's ``conf.d`` includes it): a board logs in with
its password and reads the club; its name without the password, or no login, gets
nothing; a board's publish under another board's prefix never arrives, nor a page's;
another login cannot take a board's session with its client id; a packet over the limit
ends its sender's connection; and the TLS listener serves a board that checks it.

Every wait is on an event or a queue with a deadline; nothing sleeps.
"""

from __future__ import annotations

import queue
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from programs import needs

from tavla_pi.cli import main
from tavla_pi.remote.brokerconf import PACKET_LIMIT
from tavla_pi.remote.link import log_in
from tavla_pi.remote.messages import MAX_CAST_BYTES
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.testing.certs import self_signed_certificate
from tavla_pi.testing.mosquitto import HOST, Mosquitto, free_port

pytestmark = needs("mosquitto")
WAIT_S = 10.0
CLUB = "kafe"


class Peer:
    """A paho client on the broker whose answer to its connect, its loss of the broker
    and its messages are waited for with a deadline; once lost, it stays away."""

    def __init__(self, port: int, client_id: str) -> None:
        self.port = port
        self.client = Client(CallbackAPIVersion.VERSION2, client_id,
                             protocol=MQTTProtocolVersion.MQTTv311, reconnect_on_failure=False)
        self.answered, self.lost, self.subscribed = (threading.Event(), threading.Event(),
                                                     threading.Event())
        self.reason: ReasonCode | None = None
        self.messages: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe

    def connect(self) -> bool:
        """Connect; True if the broker accepted the login."""
        self.client.connect_async(HOST, self.port, keepalive=30)
        self.client.loop_start()
        assert self.answered.wait(WAIT_S), "the broker did not answer the connect"
        assert self.reason is not None
        return not self.reason.is_failure

    def subscribe(self, topic: str) -> None:
        """Subscribe (QoS 1) and wait until the broker has it."""
        self.subscribed.clear()
        self.client.subscribe(topic, 1)
        assert self.subscribed.wait(WAIT_S), f"no SUBACK for {topic}"

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Publish (QoS 1) and wait for the broker's acknowledgement."""
        info = self.client.publish(topic, payload, 1, retain)
        info.wait_for_publish(WAIT_S)
        assert info.is_published(), f"{topic}: not acknowledged"

    def until(self, topic: str) -> list[tuple[str, bytes, bool]]:
        """Every message (topic, payload, retained) up to and with the first on ``topic``."""
        seen: list[tuple[str, bytes, bool]] = []
        while not seen or seen[-1][0] != topic:
            try:
                seen.append(self.messages.get(timeout=WAIT_S))
            except queue.Empty:
                raise AssertionError(f"nothing on {topic} within {WAIT_S} s; seen {seen}") \
                    from None
        return seen

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if not self.answered.is_set():
            self.reason = reason
            self.answered.set()

    def _on_disconnect(self, client: Client, userdata: Any, flags: DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        self.lost.set()

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        self.messages.put((message.topic, bytes(message.payload), bool(message.retain)))

    def _on_subscribe(self, client: Client, userdata: Any, mid: int,
                      reasons: list[ReasonCode], properties: Properties | None) -> None:
        self.subscribed.set()


@dataclass
class Club:
    """A broker configured by ``broker-config`` for the boards athens and izmir and the
    page lobby of the club kafe, and the clients a test connects to it."""

    broker: Mosquitto
    out: Path
    tls: bool
    ca_file: Path | None = None

    def __post_init__(self) -> None:
        self.peers: list[Peer] = []

    def network(self, name: str) -> NetworkSettings:
        """The ``[network]`` of login ``name``, its password file as broker-config wrote it."""
        return NetworkSettings(broker=Broker(HOST, self.broker.port, tls=self.tls),
                               username=name, password_file=self.out / "logins" /
                               f"{name}.password", ca_file=self.ca_file, board=name,
                               club=CLUB)

    def peer(self, client_id: str, login: str | tuple[str, str | None] | None = None) -> Peer:
        """A client with the login of ``login`` as a board has it (a name), or a username
        and password as given, or none."""
        peer = Peer(self.broker.port, client_id)
        if isinstance(login, str):
            log_in(peer.client, self.network(login))
        elif login is not None:
            peer.client.username_pw_set(*login)
        self.peers.append(peer)
        return peer

    def board(self, name: str, client_id: str | None = None) -> Peer:
        """Board ``name`` connected with its own login (client id as its Link makes it)."""
        peer = self.peer(client_id or f"tavla-{CLUB}-{name}", name)
        assert peer.connect(), f"{name}: refused ({peer.reason})"
        return peer

    def close(self) -> None:
        for peer in self.peers:
            peer.close()


def configured(tmp_path: Path, *options: str) -> tuple[Path, int]:
    """``broker-config``'s folder for athens, izmir and lobby on a free loopback port."""
    out, port = tmp_path / "club", free_port()
    assert main(["broker-config", "--out", str(out), "--club", CLUB, "--board", "athens",
                 "--board", "izmir", "--page", "lobby", "--port", str(port), "--bind", HOST,
                 *options]) == 0
    return out, port


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    out, port = configured(tmp_path)
    with Mosquitto(tmp_path, include=(out / "broker", port)) as broker:
        club = Club(broker, out, tls=False)
        yield club
        club.close()


def topic(board: str, leaf: str) -> str:
    return f"tavla/{CLUB}/{board}/{leaf}"


def test_a_board_with_its_password_publishes_and_reads_its_club(club: Club) -> None:
    izmir = club.board("izmir")
    izmir.subscribe(f"tavla/{CLUB}/+/game")
    page = club.board("lobby", "tavla-club-kafe-1234")
    page.subscribe(f"tavla/{CLUB}/+/status")
    athens = club.board("athens")
    athens.publish(topic("athens", "game"), b"a play")
    athens.publish(topic("athens", "status"), b"online", retain=True)
    assert izmir.until(topic("athens", "game")) == [(topic("athens", "game"), b"a play", False)]
    assert page.until(topic("athens", "status"))[-1][1] == b"online"


@pytest.mark.parametrize("login", [("athens", "not-its-password"), ("athens", None), None],
                         ids=["a wrong password", "no password", "anonymous"])
def test_without_the_password_a_client_is_refused_and_the_board_stays(
        club: Club, login: tuple[str, str | None] | None) -> None:
    athens = club.board("athens")
    intruder = club.peer(f"tavla-{CLUB}-athens", login)
    assert not intruder.connect()
    athens.publish(topic("athens", "status"), b"online")  # after the intruder's connect
    assert not athens.lost.is_set()


def test_a_publish_under_another_boards_prefix_never_arrives(club: Club) -> None:
    izmir = club.board("izmir")
    izmir.publish(topic("izmir", "status"), b"online", retain=True)
    reader = club.board("lobby")
    reader.subscribe(f"tavla/{CLUB}/#")
    assert reader.until(topic("izmir", "status")) == [(topic("izmir", "status"), b"online", True)]
    athens = club.board("athens")
    for leaf, retain in (("game", False), ("sync", True), ("status", True)):
        athens.publish(topic("izmir", leaf), b"forged", retain=retain)
    reader.publish(topic("lobby", "state"), b"a page writes nothing")
    reader.publish(topic("athens", "game"), b"nor for a board")
    athens.publish(topic("athens", "game"), b"the end")
    assert reader.until(topic("athens", "game")) == [(topic("athens", "game"), b"the end", False)]
    late = club.board("izmir", "tavla-late")  # izmir's login, again: its retained topics
    late.subscribe(f"tavla/{CLUB}/izmir/#")
    assert late.until(topic("izmir", "status")) == [(topic("izmir", "status"), b"online", True)]


def test_another_login_with_a_boards_client_id_does_not_throw_it_off(club: Club) -> None:
    athens = club.board("athens")
    club.board("izmir", client_id=f"tavla-{CLUB}-athens")  # the broker names it izmir
    athens.publish(topic("athens", "status"), b"still here")
    assert not athens.lost.is_set()
    club.board("athens", client_id="another-id")  # its own login does: one session each
    assert athens.lost.wait(WAIT_S)


def test_a_packet_over_the_limit_ends_its_senders_connection(club: Club) -> None:
    reader = club.board("izmir")
    reader.subscribe(f"tavla/{CLUB}/athens/#")
    athens = club.board("athens")
    athens.publish(topic("athens", "state"), b"s" * MAX_CAST_BYTES, retain=True)
    assert reader.until(topic("athens", "state"))[-1][1] == b"s" * MAX_CAST_BYTES
    athens.client.publish(topic("athens", "event"), b"e" * PACKET_LIMIT, 1)
    assert athens.lost.wait(WAIT_S)
    club.board("athens", "again").publish(topic("athens", "game"), b"next")
    assert reader.until(topic("athens", "game")) == [(topic("athens", "game"), b"next", False)]


def test_the_tls_listener_serves_a_board_that_checks_it(tmp_path: Path) -> None:
    cert, key = self_signed_certificate(tmp_path)
    out, port = configured(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    with Mosquitto(tmp_path, include=(out / "broker", port)) as broker:
        club = Club(broker, out, tls=True, ca_file=cert)
        try:
            reader = club.board("lobby")
            reader.subscribe(f"tavla/{CLUB}/#")
            club.board("athens").publish(topic("athens", "game"), b"over TLS")
            assert reader.until(topic("athens", "game"))[-1][1] == b"over TLS"
        finally:
            club.close()
        assert not plain_mqtt_answered(port)


def plain_mqtt_answered(port: int) -> bool:
    """Whether the broker answers an MQTT CONNECT sent without TLS with a CONNACK."""
    connect = bytes([0x10, 12, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 30, 0, 0])
    with socket.create_connection((HOST, port), timeout=WAIT_S) as sock:
        sock.sendall(connect)
        try:
            answer = sock.recv(4)
        except ConnectionResetError:
            return False
    return answer[:1] == b"\x20"
