"""The remote side in one process: two referees, each with its RemoteGame, stepped as the
daemon's Core steps them (before the referee, after it, the journal, then the publishes).

A :class:`Side` talks through a real :class:`~tavla_pi.remote.link.Link` (to a real
Mosquitto), or through a :class:`Wire`: an in-memory broker between boards ``athens``
and ``izmir`` that delivers at once, keeps what is retained, and lets a test publish
anything anyone on a broker could (:meth:`Wire.inject`), on a virtual clock.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from journal_support import observation
from signing_support import new_key, signed

from tavla_pi.clock import Clock, VirtualClock
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.link import Arrival, LinkChange, Received
from tavla_pi.remote.messages import LEAVES, Status
from tavla_pi.remote.outgoing import Connection
from tavla_pi.remote.peer import PeerWord
from tavla_pi.remote.session import RemoteGame
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice

KEYS = {name: new_key(name) for name in ("athens", "izmir")}
"""Each board's key."""
LOG = logging.getLogger("tavla_pi.remote")


def peer_of(name: str) -> str:
    return "izmir" if name == "athens" else "athens"


class Side:
    """One board in process: its referee, its remote side and its journal; the friend's
    board plays the other colour (``mine``: this board's player's)."""

    def __init__(self, name: str, mine: Color, connection: Connection,
                 settings: GameSettings | None = None, clock: Clock | None = None) -> None:
        peer = peer_of(name)
        opponent = OpponentSettings(color=mine.opponent, remote=peer)
        self.name, self.mine = name, mine
        self.referee = Referee(replace(settings or GameSettings(), opponent=opponent),
                               ScriptedDice())
        refusals = RefusalLog(LOG, clock or VirtualClock())
        word = PeerWord(peer, "home", KEYS[peer].public, refusals)
        self.remote = RemoteGame(name, mine.opponent, connection, word)
        self.journal: list[Event] = []

    def commit(self, events: list[Event]) -> None:
        """As Core.commit: the remote side's events in the same batch, then the publishes."""
        self.journal += events + self.remote.after(self.referee, events)
        self.remote.publish()

    def step(self, now: int) -> None:
        """As Core.step."""
        early = self.remote.before(self.referee, now)
        self.commit(early + self.referee.tick(now, settled=True))

    def set_up(self, now: int = 0) -> None:
        """The board laid out for the start (the match is bound to the friend's board)."""
        self.commit(self.referee.on_observation(observation(Board.initial()), now))

    def of(self, kind: EventType) -> list[Event]:
        return [e for e in self.journal if e.type is kind]


class WireLink:
    """One board's connection to a :class:`Wire` (what a Link is to the session)."""

    def __init__(self, wire: Wire, name: str) -> None:
        self.wire, self.name, self.key = wire, name, KEYS[name]
        self.nonce: str | None = None
        self.inbox: list[Arrival] = []
        self.games = 0
        """How many game messages it published."""

    def arrivals(self) -> list[Arrival]:
        out, self.inbox = self.inbox, []
        return out

    def signed(self, leaf: str, data: dict[str, Any]) -> bytes:
        return signed(f"tavla/home/{self.name}/{leaf}", data, self.key)

    def announce(self) -> None:
        if self.nonce is not None:
            self.status(online=True)

    def status(self, *, online: bool) -> None:
        """Say ``online`` or ``gone`` (as the will does) on the current connection."""
        assert self.nonce is not None
        data = Status(self.name, online, self.nonce).checked_json()
        self.wire.publish(self.name, "status", self.signed("status", data), retain=True)

    def publish_game(self, payload: bytes) -> bool:
        self.games += 1
        self.wire.publish(self.name, "game", payload, retain=False)
        return True

    def publish_sync(self, payload: bytes) -> bool:
        self.wire.publish(self.name, "sync", payload, retain=True)
        return True


class Wire:
    """An in-memory broker between athens and izmir (see the module)."""

    def __init__(self) -> None:
        self.links = {name: WireLink(self, name) for name in KEYS}
        self.retained: dict[str, bytes] = {}
        self.published: list[Received] = []
        """Everything published, in order (what anyone on the broker could keep)."""
        self._nonces = 0

    def connect(self, name: str) -> None:
        """Board ``name`` connects: a new nonce, the friend's retained messages, online."""
        link = self.links[name]
        self._nonces += 1
        link.nonce = f"{self._nonces:032x}"
        link.inbox.append(LinkChange(connected=True, reason="new session"))
        for leaf in LEAVES:
            topic = f"tavla/home/{peer_of(name)}/{leaf}"
            if topic in self.retained:
                link.inbox.append(Received(topic, self.retained[topic]))
        link.status(online=True)

    def publish(self, board: str, leaf: str, payload: bytes, *, retain: bool) -> None:
        """What is published on ``tavla/home/<board>/<leaf>`` reaches the other board."""
        topic = f"tavla/home/{board}/{leaf}"
        if retain:
            self.retained[topic] = payload
        self.published.append(Received(topic, payload))
        self.links[peer_of(board)].inbox.append(Received(topic, payload))

    def of(self, board: str, leaf: str) -> list[bytes]:
        """The payloads published on board ``board``'s topic ``leaf``, in order."""
        topic = f"tavla/home/{board}/{leaf}"
        return [r.payload for r in self.published if r.topic == topic]

    def quiet(self) -> bool:
        """Nothing waits to be read by either board."""
        return not any(link.inbox for link in self.links.values())

    def inject(self, board: str, leaf: str, payload: bytes, *, retain: bool = False) -> None:
        """Anyone on the broker publishes ``payload`` on board ``board``'s topic."""
        self.publish(board, leaf, payload, retain=retain)
