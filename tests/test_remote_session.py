"""The remote side in one process: two referees, each with its RemoteGame on a real Link
to a real Mosquitto, stepped as the daemon's Core steps them (before the referee,
after it, the journal, then the publishes).

The broker here delivers in order; the reordering a network path or a resend can
cause is made by a tap on one board's arrivals (:class:`ReversingTap`), which holds
the peer's game messages and hands them on reversed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from journal_support import observation
from programs import needs
from session_support import KEYS, Side

from tavla_pi.events.types import EventType
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.remote.link import Arrival, Link, Received
from tavla_pi.remote.messages import GameMessage, read_payload
from tavla_pi.remote.settings import NetworkSettings
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.testing.mosquitto import Mosquitto

pytestmark = needs("mosquitto")

W, B = Color.WHITE, Color.BLACK
DEADLINE_S = 20.0


class ReversingTap:
    """A board's connection whose peer's game messages are held until :meth:`release`,
    then handed on in reverse order."""

    def __init__(self, link: Link, held_topic: str) -> None:
        self.link, self.held_topic = link, held_topic
        self.held: list[Arrival] = []
        self.holding = True
        self._released: list[Arrival] = []

    def arrivals(self) -> Sequence[Arrival]:
        out: list[Arrival] = []
        for arrival in self.link.arrivals():
            if self.holding and isinstance(arrival, Received) \
                    and arrival.topic == self.held_topic:
                self.held.append(arrival)
            else:
                out.append(arrival)
        out, self._released = self._released + out, []
        return out

    def release(self) -> None:
        """Hand the held messages on, the last first."""
        self.holding, self._released = False, self.held[::-1]

    def publish_game(self, payload: bytes) -> bool:
        return self.link.publish_game(payload)

    def publish_sync(self, payload: bytes) -> bool:
        return self.link.publish_sync(payload)

    @property
    def nonce(self) -> str | None:
        return self.link.nonce

    def signed(self, leaf: str, data: dict[str, Any]) -> bytes:
        return self.link.signed(leaf, data)

    def announce(self) -> None:
        self.link.announce()


@pytest.fixture
def sides(mosquitto: Mosquitto) -> Iterator[tuple[Side, ReversingTap, Side]]:
    links = linked(mosquitto)
    tap = ReversingTap(links["athens"], "tavla/home/izmir/game")
    athens = Side("athens", W, tap)
    izmir = Side("izmir", B, links["izmir"])
    for link in links.values():
        link.start()
    try:
        yield athens, tap, izmir
    finally:
        for link in links.values():
            link.close()


def linked(mosquitto: Mosquitto) -> dict[str, Link]:
    """Each board's Link to the broker (reconnecting within 1 s), not started."""
    return {name: Link(NetworkSettings(broker=mosquitto.broker, board=name), peer,
                       key=KEYS[name], reconnect_max_s=1)
            for name, peer in (("athens", "izmir"), ("izmir", "athens"))}


def held_seqs(tap: ReversingTap, uid: str) -> list[int]:
    """The numbers of the game messages of match ``uid`` the tap holds, as they came."""
    held = [read_payload(a.topic, a.payload, "home", KEYS["izmir"].public) for a in tap.held
            if isinstance(a, Received)]
    return [m.seq for m in held if isinstance(m, GameMessage) and m.match_uid == uid]


def run_until(sides: Sequence[Side], done: object, what: str) -> None:
    """Step both boards (on the real clock: the broker is real) until ``done()``."""
    assert callable(done)
    deadline = time.monotonic() + DEADLINE_S
    while not done():
        assert time.monotonic() < deadline, f"no {what} in {DEADLINE_S} s"
        now = int(time.monotonic() * 1000)
        for side in sides:
            side.step(now)
        time.sleep(0.005)  # the broker's thread delivers meanwhile


def test_messages_that_arrive_reversed_are_applied_in_their_order(
        sides: tuple[Side, ReversingTap, Side]) -> None:
    athens, tap, izmir = sides
    both = (athens, izmir)
    start = observation(Board.initial())
    for side in both:
        side.commit(side.referee.on_observation(start, 0))
        assert side.referee.phase is Phase.OPENING
    run_until(both, lambda: izmir.remote.record is not None and athens.remote.record
              is not None and izmir.remote.record.match_uid == athens.remote.record.match_uid
              and izmir.remote.record.check.committed("athens", 0), "one match, bound")
    izmir.commit(izmir.referee.on_button("black.roll", long=False, now=1))
    record = izmir.remote.record
    assert record is not None
    run_until(both, lambda: 2 in held_seqs(tap, record.match_uid), "black's share held back")
    assert not athens.of(EventType.REMOTE_TAKEN)
    seqs = held_seqs(tap, record.match_uid)
    assert sorted(set(seqs)) == [1, 2] and seqs[-1] == 2  # 2 (black's share) goes first
    tap.release()
    run_until(both, lambda: all(s.of(EventType.OPENING_ROLL) for s in both), "the opening")
    opening = [(e["white"], e["black"]) for s in both for e in s.of(EventType.OPENING_ROLL)]
    assert opening[0] == opening[1]
    taken = [e["seq"] for e in athens.of(EventType.REMOTE_TAKEN)]
    assert taken == sorted(taken) and taken[:2] == [1, 2]


def test_a_flag_falling_on_one_board_ends_the_match_on_both(
        mosquitto: Mosquitto) -> None:
    """Each board runs its own player's clock: the starter's reserve (1 s, no delay) runs
    out on the starter's board, and the friend's board is told and ends the match too."""
    links = linked(mosquitto)
    clocked = GameSettings(match_length=1, clock=ClockRules(delay_s=0, reserve_s_per_point=1))
    athens = Side("athens", W, links["athens"], clocked)
    izmir = Side("izmir", B, links["izmir"], clocked)
    both = (athens, izmir)
    for link in links.values():
        link.start()
    try:
        start = observation(Board.initial())
        for side in both:
            side.commit(side.referee.on_observation(start, 0))
        run_until(both, lambda: all(s.remote.record is not None for s in both)
                  and izmir.remote.record is not None
                  and izmir.remote.record.check.committed("athens", 0), "one match, bound")
        while not any("starter" in e.fields for e in izmir.of(EventType.OPENING_ROLL)):
            throws = len(izmir.of(EventType.OPENING_ROLL))  # again after a tie
            izmir.commit(izmir.referee.on_button("black.roll", long=False,
                                                 now=int(time.monotonic() * 1000)))
            run_until(both, lambda n=throws: len(izmir.of(EventType.OPENING_ROLL)) > n,
                      "an opening throw")
        run_until(both, lambda: all(s.of(EventType.MATCH_OVER) for s in both), "match over")
    finally:
        for link in links.values():
            link.close()
    opening = next(e for e in athens.of(EventType.OPENING_ROLL) if "starter" in e.fields)
    starter = Color(opening["starter"])
    for side in both:
        over = side.of(EventType.MATCH_OVER)[0]
        assert (over["winner"], over.fields.get("reason")) == (starter.opponent.value, "time")
        flags = [e for e in side.of(EventType.CLOCK) if e["flag"] is not None]
        assert [e["flag"] for e in flags] == [starter.value]
        assert side.referee.clock is not None and side.referee.clock.timed == {side.mine}
        assert verify(side.journal, clocked).reason == ""
