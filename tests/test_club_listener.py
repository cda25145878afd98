"""The club page's subscription on a real Mosquitto: a page started late reads every
board's retained status and state at once, then each message live; the ``tavla-pi club``
process serves them."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from club_support import a_state, event_payload, state_payload, status_payload
from paho.mqtt.client import Client
from paho.mqtt.enums import CallbackAPIVersion
from programs import needs

from tavla_pi.clock import VirtualClock
from tavla_pi.club.listener import ClubListener
from tavla_pi.club.model import ClubModel
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.messages import MAX_CAST_BYTES
from tavla_pi.remote.settings import NetworkSettings
from tavla_pi.testing.mosquitto import Mosquitto

pytestmark = needs("mosquitto")
TIMEOUT_S = 10.0


def _publisher(broker: Mosquitto) -> Client:
    client = Client(CallbackAPIVersion.VERSION2, "club-test-board")
    client.connect(broker.broker.host, broker.broker.port)
    client.loop_start()
    return client


def _until(done: threading.Event) -> None:
    assert done.wait(TIMEOUT_S)


def test_a_late_page_reads_the_retained_state_then_live(mosquitto: Mosquitto) -> None:
    board = _publisher(mosquitto)
    board.publish("tavla/home/athens/status", status_payload("athens"), qos=1,
                  retain=True).wait_for_publish()
    board.publish("tavla/home/athens/state", state_payload("athens", 7, a_state()),
                  qos=1, retain=True).wait_for_publish()
    board.publish("tavla/other/izmir/state", state_payload("izmir", 1, a_state()),
                  qos=1, retain=True).wait_for_publish()  # another club's: not read
    model = ClubModel("home")
    lock = threading.Lock()
    seen = threading.Event()
    live = threading.Event()

    def deliver(topic: str, payload: bytes) -> None:
        with lock:
            message = model.receive(topic, payload)
        if message is not None and message.kind == "state":
            seen.set()
        if message is not None and message.kind == "event":
            live.set()

    network = NetworkSettings(broker=mosquitto.broker, club="home")
    with ClubListener(network, deliver) as listener:
        _until(seen)
        with lock:
            assert model.boards["athens"].state == a_state()
            assert model.boards["athens"].status == "online"
        assert listener.connected
        event = {"t": 9, "type": "rolled", "player": "white", "dice": [6, 5]}
        board.publish("tavla/home/athens/event", event_payload("athens", 8, event), 1)
        _until(live)
        with lock:
            assert list(model.boards["athens"].log) == [event]
            assert set(model.boards) == {"athens"}
    board.loop_stop()
    board.disconnect()


def test_the_refusals_counted_when_the_page_stops_are_written_once(
        mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    board = _publisher(mosquitto)
    last = threading.Event()

    def deliver(topic: str, payload: bytes) -> None:
        if payload == b"last":
            last.set()

    network = NetworkSettings(broker=mosquitto.broker, club="home")
    refusals = RefusalLog(logging.getLogger("tavla_pi.club"), VirtualClock())
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        listener = ClubListener(network, deliver, refusals=refusals)
        with listener:
            _until_connected(listener)
            for _ in range(3):
                board.publish("tavla/home/athens/event", b"x" * (MAX_CAST_BYTES + 1),
                              1).wait_for_publish()
            board.publish("tavla/home/athens/event", b"last", 1)
            _until(last)
            assert listener.dropped == 3
        listener.close()
    said = [m for m in caplog.messages if "tavla/home/athens/event" in m]
    assert len(said) == 2
    assert said[0] == (f"club: tavla/home/athens/event: {MAX_CAST_BYTES + 1} bytes dropped "
                       f"(at most {MAX_CAST_BYTES})")
    assert said[1].startswith("2 more refused (oversize) in 10 s; the last: club: ")
    board.loop_stop()
    board.disconnect()


def _until_connected(listener: ClubListener) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not listener.connected:
        assert time.monotonic() < deadline, "the page never connected"
        time.sleep(0.01)


def test_the_club_command_serves_what_the_broker_has(mosquitto: Mosquitto, tmp_path: Path) -> None:
    board = _publisher(mosquitto)
    board.publish("tavla/night/athens/state", state_payload("athens", 3, a_state()),
                  qos=1, retain=True).wait_for_publish()
    with (tmp_path / "club.log").open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tavla_pi", "club", "--broker", mosquitto.url,
             "--club", "night", "--http", "127.0.0.1:0", "--out", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split(" is at ")[1].split()[0]
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            with urllib.request.urlopen(url + "api/club", timeout=5) as answer:
                club = json.loads(answer.read())
            if "athens" in club["boards"] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert club["club"] == "night"
        assert club["boards"]["athens"]["state"] == a_state()
    finally:
        proc.terminate()
        assert proc.wait(10) == 0
        board.loop_stop()
        board.disconnect()
