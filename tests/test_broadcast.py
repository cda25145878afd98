"""The board's broadcast for the club's viewers (docs/CLUB.md): every event and the state
after it under ``tavla/<club>/<board>/``, never in the scan loop's way.

The first tests drive :class:`~tavla_pi.remote.broadcast.Broadcast` against a behavioural
outlet (paho's side); the rest run a real Mosquitto: a daemon's whole game seen by a
viewer, a late viewer's retained state, the last will, and a broker that is down or
frozen while the board plays on.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from computer_support import load
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from programs import needs

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.remote.broadcast import STATE_KEYS, Broadcast, viewer_state
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.link import Link
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.rules.color import Color
from tavla_pi.testing.broadcast import (
    FakeOutlet,
    ProcessTable,
    Seen,
    Viewer,
    VirtualTable,
    last_state,
    play_turn,
    set_up,
)
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.mosquitto import Mosquitto, free_port
from tavla_pi.testing.processes import wait_until

CONFIG = ('[board]\nstable_ms = 40\n[daemon]\nlog_level = "warning"\n'
          '[players]\nwhite = "Ayşe"\nblack = "Nikos"\n')

RACE = load({"6": 3, "5": 3, "4": 2, "off": 7}, {"19": 3, "20": 3, "21": 2, "off": 7},
            Color.WHITE)
"""A bear-off race, White on roll: a whole game in a few turns each."""


def rolled(t: int) -> Event:
    return Event(EventType.ROLLED, t, {"player": "white", "dice": [3, 1]})


def pumped(broadcast: Broadcast) -> None:
    while broadcast.pump():
        pass


# -- the broadcast's queue, against paho's side -------------------------------------------

def test_events_go_out_in_order_then_the_newest_state() -> None:
    outlet = FakeOutlet()
    broadcast = Broadcast("athens", outlet, wall=lambda: 1.5)
    broadcast.offer([rolled(1), rolled(2)], {"phase": "moving", "secret": 1})
    broadcast.offer([rolled(3)], {"phase": "await_roll"})
    pumped(broadcast)
    assert [c.leaf for c in outlet.casts] == ["event", "event", "event", "state"]
    assert [c.payload["seq"] for c in outlet.casts] == [1, 2, 3, 3]
    first = outlet.casts[0].payload
    assert first == {"v": 1, "board": "athens", "seq": 1, "at": 1500,
                     "event": {"t": 1, "type": "rolled", "player": "white", "dice": [3, 1]}}
    assert outlet.of("state") == [{"v": 1, "board": "athens", "seq": 3, "at": 1500,
                                   "dropped": 0, "state": {"phase": "await_roll"}}]


def test_what_overflows_is_dropped_and_counted_and_the_state_kept_newest() -> None:
    outlet = FakeOutlet(connected=False)
    broadcast = Broadcast("athens", outlet, bound=3)
    for t in range(5):
        broadcast.offer([rolled(t)], {"phase": "moving", "events": t})
    assert (broadcast.offered, broadcast.waiting, broadcast.dropped) == (5, 3, 2)
    assert not broadcast.pump() and outlet.casts == []
    outlet.connect()
    pumped(broadcast)
    assert [c.payload["seq"] for c in outlet.casts] == [1, 2, 3, 5]
    assert outlet.of("state")[-1]["state"] == {"phase": "moving", "events": 4}
    assert outlet.of("state")[-1]["dropped"] == 2


def test_at_most_a_window_waits_for_the_broker() -> None:
    outlet = FakeOutlet()
    broadcast = Broadcast("athens", outlet, window=2)
    broadcast.offer([rolled(t) for t in range(5)], {"phase": "moving"})
    pumped(broadcast)
    assert len(outlet.casts) == 2
    outlet.ack()
    pumped(broadcast)
    assert len(outlet.casts) == 4
    outlet.ack()
    pumped(broadcast)
    assert [c.leaf for c in outlet.casts] == ["event"] * 5 + ["state"]


def test_paho_full_keeps_the_state_for_later() -> None:
    outlet = FakeOutlet(room=1)
    broadcast = Broadcast("athens", outlet)
    broadcast.offer([rolled(1)], {"phase": "moving"})
    pumped(broadcast)
    assert [c.leaf for c in outlet.casts] == ["event"]
    outlet.ack()
    pumped(broadcast)
    assert [c.leaf for c in outlet.casts] == ["event", "state"]


def test_a_reconnect_sends_the_last_state_again() -> None:
    outlet = FakeOutlet()
    broadcast = Broadcast("athens", outlet)
    broadcast.offer([], {"phase": "setup"})
    pumped(broadcast)
    outlet.ack()
    outlet.connected = False
    assert not broadcast.pump()
    outlet.connect()
    pumped(broadcast)
    assert [c.payload["state"] for c in outlet.casts] == [{"phase": "setup"}] * 2


def test_an_event_too_big_to_send_is_dropped_and_counted() -> None:
    outlet = FakeOutlet()
    broadcast = Broadcast("athens", outlet)
    big = Event(EventType.ROLLED, 1, {"player": "white", "dice": [3, 1], "x": "y" * 20_000})
    broadcast.offer([big, rolled(2)], {"phase": "moving"})
    pumped(broadcast)
    assert [c.payload["seq"] for c in outlet.casts] == [2, 2]
    assert broadcast.dropped == 1 and outlet.of("state")[0]["dropped"] == 1


def test_the_viewers_state_is_the_keys_a_viewer_needs() -> None:
    state: dict[str, Any] = {key: key for key in STATE_KEYS}
    state |= {"sensed": {}, "leds": [], "lifted": {}}
    assert viewer_state(state) == {key: key for key in STATE_KEYS}
    assert {"board", "dice", "cube", "score", "match_length", "clock", "on_roll",
            "players"} <= set(STATE_KEYS)


def test_a_bad_board_name_or_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="Athens"):
        Broadcast("Athens", FakeOutlet())
    with pytest.raises(ValueError, match="bound 0"):
        Broadcast("athens", FakeOutlet(), bound=0)


# -- a daemon on a real broker -------------------------------------------------------------

@pytest.fixture
def daemon(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[DaemonProcess]:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG + f'[network]\nbroker = "{mosquitto.url}"\nboard = "athens"\n'
                      'club = "night"\n')
    process = DaemonProcess(tmp_path / "state", tmp_path / "notify", config)
    yield process
    process.close()


def events_of(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.payload["event"] for s in seen if s.leaf == "event"]


def status_of(seen: list[Seen]) -> str | None:
    statuses = [s.payload["status"] for s in seen if s.leaf == "status"]
    return statuses[-1] if statuses else None


@needs("mosquitto")
@pytest.mark.slow
def test_a_daemon_publishes_its_game_a_late_viewer_sees_it_and_its_will_says_gone(
        daemon: DaemonProcess, mosquitto: Mosquitto) -> None:
    viewer = Viewer(mosquitto.broker, "tavla/night/athens/#")
    daemon.start()
    table, rng = ProcessTable(daemon), random.Random(24)
    daemon.sim(RACE)
    for _ in range(3):
        third = asyncio.run(play_turn(table, rng))
    late = Viewer(mosquitto.broker, "tavla/night/#")
    seen = late.until(lambda s: last_state(s) is not None, "retained state")
    first = next(s for s in seen if s.leaf == "state")
    assert first.retained and first.topic == "tavla/night/athens/state"
    assert first.payload["state"]["position_id"] == third["position_id"]
    assert first.payload["state"]["players"] == {"white": "Ayşe", "black": "Nikos"}
    assert set(first.payload["state"]) <= set(STATE_KEYS)
    assert status_of(seen) == "online"
    for _ in range(100):
        state = asyncio.run(play_turn(table, rng))
        if state["phase"] in ("game_over", "match_over"):
            break
    assert state["phase"] == "game_over"
    game = daemon.game_events(state["events"])
    assert game[-1]["type"] == "game_over"
    seen = viewer.until(lambda s: events_of(s)[-len(game):] == game, "the whole game")
    published = [s.payload for s in seen if s.leaf == "event"]
    assert [p["seq"] for p in published] == list(range(1, len(published) + 1))
    final = last_state(seen)
    assert final is not None and final["dropped"] == 0
    daemon.kill()
    seen = late.until(lambda s: status_of(s) == "gone", "the last will")
    key = BoardKey.load_or_make(daemon.state_dir).public  # made on the daemon's first start
    signed = [key.opened(s.topic, s.payload, s.topic) for s in viewer.messages() + seen]
    assert len(signed) > len(game)  # everything the board published is signed by its key
    statuses = [s.payload for s in seen if s.leaf == "status"]
    assert statuses[-1]["status"] == "gone"  # the will, signed for the connection it ended
    assert statuses[-1]["nonce"] == next(p["nonce"] for p in reversed(statuses)
                                         if p["status"] == "online")
    viewer.close()
    late.close()


def link_to(broker: Broker) -> Link:
    return Link(NetworkSettings(broker=broker, board="athens", club="night"), None,
                key=BoardKey(Ed25519PrivateKey.generate()))


REPEATS = 3
"""Times the same game is played: each scan's time is its least over the repeats, so that
the machine's other work (a busy CI runner) is not counted, and a scan that waits for
the broker, which would wait every time, is."""


def step_times_ms(daemon: VirtualDaemon, turns: int) -> tuple[list[float], dict[str, Any]]:
    """Play ``turns`` turns on ``daemon`` (the same game each time), timing each scan (ms);
    the times and the state after."""
    times: list[float] = []
    step = daemon.core.step

    def timed() -> None:
        began = time.perf_counter()
        step()
        times.append((time.perf_counter() - began) * 1000)

    daemon.core.step = timed  # type: ignore[method-assign]
    table, rng = VirtualTable(daemon), random.Random(7)

    async def play() -> dict[str, Any]:
        state = await set_up(table)
        for _ in range(turns):
            state = await play_turn(table, rng)
        return state
    state = asyncio.run(play())
    return times, state


def worst_step_ms(folder: Path, broadcast: Broadcast, turns: int) -> tuple[float, dict[str, Any]]:
    """The slowest scan of a game played :data:`REPEATS` times with ``broadcast``; the
    state after the last."""
    runs = []
    for _ in range(REPEATS):
        daemon = VirtualDaemon(folder)
        daemon.core.broadcast = broadcast
        runs.append(step_times_ms(daemon, turns))
    times = [run[0] for run in runs]
    assert len({len(t) for t in times}) == 1, "the repeats played different games"
    return max(min(scan) for scan in zip(*times, strict=True)), runs[-1][1]


@needs("mosquitto")
@pytest.mark.alone  # times each scan: another test's work on the machine would be counted
@pytest.mark.parametrize("trouble", ["down", "frozen"])
def test_a_broker_down_or_frozen_never_delays_a_scan(
        tmp_path: Path, mosquitto: Mosquitto, trouble: str) -> None:
    broker = mosquitto.broker if trouble == "frozen" else Broker("127.0.0.1", free_port())
    viewer = Viewer(mosquitto.broker, "tavla/night/athens/state")
    with link_to(broker) as link, Broadcast("athens", link) as broadcast:
        link.start()
        if trouble == "frozen":
            wait_until(lambda: link.connected, "link connected", 10)
            mosquitto.freeze()
        worst, state = worst_step_ms(tmp_path, broadcast, 8)
        assert state["phase"] in ("await_roll", "moving", "no_move")  # the board played on
        assert broadcast.offered > 20 * REPEATS
        assert worst < SCAN_MS, f"a scan took {worst:.1f} ms with the broker {trouble}"
        if trouble == "frozen":
            mosquitto.thaw()
            viewer.until(lambda s: (last_state(s) or {}).get("state", {}).get(
                "position_id") == state["position_id"], "the newest state after the thaw")
    viewer.close()
