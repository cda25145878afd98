"""The broadcast's test parts: a behavioural outlet (paho's side, acknowledging when told), a
viewer subscribed to a real broker, and one board's game played by both its players.

:func:`play_turn` plays one turn of whoever is on roll as the players would on the
simulated board (their dice queued, the checkers moved by hand, DONE), through a
:class:`GameTable`: the daemon's process (:class:`ProcessTable`) or the daemon's parts on a
virtual clock (:class:`VirtualTable`).  Waits are bounded polls, never fixed sleeps.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from paho.mqtt.client import Client, ConnectFlags, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.settings import Broker
from tavla_pi.rules.color import Color
from tavla_pi.rules.position import Position
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.hand import hand_moves

VIEW_TIMEOUT_S = 30.0
TURN_PHASES = ("await_roll", "moving", "no_move")


# -- paho's side, as the broadcast sees it ----------------------------------------------

class FakeSent:
    """A message handed over: done once the outlet acknowledges it."""

    def __init__(self) -> None:
        self.acked = False

    def done(self) -> bool:
        return self.acked


@dataclass
class Cast:
    """One message the outlet took: its leaf, its payload decoded, its acknowledgement."""

    leaf: str
    payload: dict[str, Any]
    size: int
    sent: FakeSent


class FakeOutlet:
    """The board's connection as the broadcast uses it: connected or not, room for
    ``room`` unacknowledged messages (None: no limit), every message kept.  It signs as
    the board's connection does, with ``key``, and checks each signature it takes: a
    :class:`Cast`'s payload is what the signature covers.  ``key``: a new one if not given."""

    def __init__(self, key: BoardKey | None = None, *, connected: bool = True,
                 room: int | None = None) -> None:
        self.key = key or BoardKey(Ed25519PrivateKey.generate())
        self.connected = connected
        self.connects = 1 if connected else 0
        self.room = room
        self.casts: list[Cast] = []

    def signed(self, leaf: str, data: Mapping[str, Any]) -> bytes:
        return json.dumps(self.key.signed(_topic(leaf), dict(data)), separators=(",", ":"),
                          allow_nan=False).encode()

    def cast(self, leaf: str, payload: bytes) -> FakeSent | None:
        waiting = sum(not c.sent.acked for c in self.casts)
        if self.room is not None and waiting >= self.room:
            return None
        sent = FakeSent()
        opened = self.key.public.opened(_topic(leaf), json.loads(payload), leaf)
        self.casts.append(Cast(leaf, opened, len(payload), sent))
        return sent

    def ack(self) -> None:
        """The broker acknowledges everything so far."""
        for cast in self.casts:
            cast.sent.acked = True

    def connect(self) -> None:
        self.connected = True
        self.connects += 1

    def of(self, leaf: str) -> list[dict[str, Any]]:
        """The payloads taken on ``leaf``, in order."""
        return [c.payload for c in self.casts if c.leaf == leaf]


def _topic(leaf: str) -> str:
    """A leaf's topic on the fake outlet (board athens of club home)."""
    return f"tavla/home/athens/{leaf}"


# -- a viewer on a real broker ------------------------------------------------------------

@dataclass(frozen=True)
class Seen:
    """A message the viewer received."""

    topic: str
    payload: dict[str, Any]
    retained: bool

    @property
    def leaf(self) -> str:
        return self.topic.rsplit("/", 1)[1]


class Viewer:
    """A paho client subscribed to ``topic`` on ``broker`` (resubscribing on each connect),
    keeping every message."""

    def __init__(self, broker: Broker, topic: str = "tavla/#") -> None:
        self.topic = topic
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        self._client = Client(CallbackAPIVersion.VERSION2)
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.reconnect_delay_set(min_delay=1, max_delay=1)
        self._client.connect_async(broker.host, broker.port, keepalive=5)
        self._client.loop_start()

    def _on_connect(self, client: Client, userdata: Any, flags: ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        client.subscribe(self.topic, 1)

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        seen = Seen(message.topic, json.loads(message.payload), bool(message.retain))
        with self._lock:
            self.seen.append(seen)

    def messages(self, leaf: str | None = None) -> list[Seen]:
        """What came so far (on ``leaf`` only, if given), in order."""
        with self._lock:
            return [s for s in self.seen if leaf in (None, s.leaf)]

    def until(self, wanted: Callable[[list[Seen]], bool], what: str,
              timeout_s: float = VIEW_TIMEOUT_S) -> list[Seen]:
        """Poll until ``wanted(messages)``; fails naming ``what`` on timeout."""
        deadline = time.monotonic() + timeout_s
        while not wanted(seen := self.messages()):
            assert time.monotonic() < deadline, f"no {what} in {timeout_s} s: {seen[-5:]}"
            time.sleep(0.01)
        return seen

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


def last_state(seen: list[Seen]) -> dict[str, Any] | None:
    """The newest ``state`` payload among ``seen``."""
    states = [s.payload for s in seen if s.leaf == "state"]
    return states[-1] if states else None


# -- one board's game ----------------------------------------------------------------------

class GameTable(Protocol):
    """A board the players act on: a simulator action, the state now."""

    async def act(self, action: dict[str, Any]) -> None: ...

    async def look(self) -> dict[str, Any]: ...


class ProcessTable:
    """The board of a ``tavla-pi run`` process (each call one HTTP request)."""

    def __init__(self, daemon: DaemonProcess) -> None:
        self.daemon = daemon

    async def act(self, action: dict[str, Any]) -> None:
        self.daemon.sim(action)

    async def look(self) -> dict[str, Any]:
        return self.daemon.state()


class VirtualTable:
    """The board of a :class:`VirtualDaemon`; each look lets one scan of time pass."""

    def __init__(self, daemon: VirtualDaemon) -> None:
        self.daemon = daemon

    async def act(self, action: dict[str, Any]) -> None:
        await self.daemon.sim(action)

    async def look(self) -> dict[str, Any]:
        await self.daemon.sleep(SCAN_MS)
        return await self.daemon.state()


async def until(table: GameTable, wanted: Callable[[dict[str, Any]], bool], what: str,
                timeout_s: float = VIEW_TIMEOUT_S) -> dict[str, Any]:
    """Poll the state until ``wanted`` holds; fails naming ``what`` on timeout."""
    deadline = time.monotonic() + timeout_s
    while not wanted(state := await table.look()):
        assert time.monotonic() < deadline, f"no {what} in {timeout_s} s: {state['phase']}"
    return state


async def set_up(table: GameTable) -> dict[str, Any]:
    """The start laid out and the opening thrown (White 5, Black 2: White moves)."""
    await table.act({"setup": "start"})
    await until(table, lambda s: s["phase"] == "opening", "the opening")
    await table.act({"dice": [5, 2]})
    await table.act({"press": "black.roll"})
    return await until(table, lambda s: s["phase"] == "moving", "the opening decided")


async def play_turn(table: GameTable, rng: random.Random) -> dict[str, Any]:
    """One turn of the player on roll (dice from ``rng``); the state once it is committed."""
    state = await until(table, lambda s: s["on_roll"] is not None
                        and s["phase"] in (*TURN_PHASES, "game_over", "match_over"), "a turn")
    if state["phase"] in ("game_over", "match_over"):
        return state
    color = Color(state["on_roll"])
    if state["phase"] == "await_roll":
        await table.act({"dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        await table.act({"press": f"{color.value}.roll"})
        state = await until(table, lambda s: s["phase"] != "await_roll", "the roll")
    if state["phase"] == "no_move":
        return await until(table, lambda s: s["on_roll"] != color.value
                           or s["phase"] != "no_move", "the pass")
    position = Position.from_position_id(state["position_id"])
    a, b = state["dice"]
    play = rng.choice(position.legal_plays((a, b)))
    for action in hand_moves(play, color):
        await table.act(action)
    await table.act({"press": f"{color.value}.roll"})
    return await until(table, lambda s: s["position_id"] == play.result.position_id()
                       and s["phase"] != "moving", "the play committed")
