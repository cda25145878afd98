"""What a board believes of its friend's board (docs/REMOTE.md, "What is signed"): only
what the friend's key signed, only once, and only the next few messages ahead.

Two boards' remote sides run in one process on an in-memory broker and a virtual clock
(tests/session_support.py); the tests publish there what anyone on a broker could: a
forgery without the friend's key, or a message the friend really signed, kept and sent
again.  A flood of refusals is one log line and, once the interval is over, a count; what
is counted when the board stops is written then.
"""

from __future__ import annotations

import json
import logging
from contextlib import ExitStack
from dataclasses import dataclass

import pytest
from session_support import KEYS, Side, Wire
from signing_support import new_key, signed
from web_support import free_port

from tavla_pi.clock import VirtualClock
from tavla_pi.config import Config
from tavla_pi.daemon.remote import open_network
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.ratelog import DEFAULT_INTERVAL_MS, RefusalLog
from tavla_pi.remote.link import Received
from tavla_pi.remote.messages import (
    CubeBody,
    GameMessage,
    PlayBody,
    Status,
    Sync,
    TakebackBody,
    read_payload,
)
from tavla_pi.remote.peer import CONNECTIONS_KEPT, PeerWord
from tavla_pi.remote.record import RemoteRecord
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.remote.window import SEQ_WINDOW, Held
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
STEP_MS = 20
ROUNDS = 200
LOG = logging.getLogger("tavla_pi.remote")
GAME, SYNC, STATUS = ("tavla/home/izmir/" + leaf for leaf in ("game", "sync", "status"))


@dataclass
class Table:
    """Both boards on the wire, on one virtual clock."""

    wire: Wire
    clock: VirtualClock
    athens: Side
    izmir: Side

    def run(self, *sides: Side) -> None:
        """Step the boards (both, unless named) until nothing waits to be read."""
        for _ in range(ROUNDS):
            self.clock.advance(STEP_MS)
            for side in sides or (self.athens, self.izmir):
                side.step(self.clock.now_ms())
            if self.wire.quiet():
                return
        raise AssertionError(f"the boards still talk after {ROUNDS} rounds")

    def record(self, side: Side) -> RemoteRecord:
        record = side.remote.record
        assert record is not None
        return record

    def opening(self) -> None:
        """Izmir's player throws until the opening is decided on both boards."""
        while not any("starter" in e.fields for e in self.izmir.of(EventType.OPENING_ROLL)):
            now = self.clock.now_ms()
            self.izmir.commit(self.izmir.referee.on_button("black.roll", long=False, now=now))
            self.run()
        throws = [[(e["white"], e["black"]) for e in side.of(EventType.OPENING_ROLL)]
                  for side in (self.athens, self.izmir)]
        assert throws[0] == throws[1]


@pytest.fixture
def table() -> Table:
    """Both boards set up and connected, one match bound on both."""
    wire, clock = Wire(), VirtualClock()
    made = Table(wire, clock, Side("athens", W, wire.links["athens"], clock=clock),
                 Side("izmir", B, wire.links["izmir"], clock=clock))
    for side in (made.athens, made.izmir):
        side.set_up(clock.now_ms())
    wire.connect("athens")
    wire.connect("izmir")
    made.run()
    assert made.record(made.athens).match_uid == made.record(made.izmir).match_uid
    assert made.athens.remote.connected and made.izmir.remote.connected
    return made


def connected(side: Side) -> bool:
    """Whether ``side`` shows its friend's board connected."""
    return side.remote.connected


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == LOG.name and r.levelno == logging.WARNING]


def izmirs(table: Table, body: CubeBody | PlayBody | TakebackBody, seq: int) -> dict[str, object]:
    """A game message of izmir's in the match both boards play."""
    uid = table.record(table.athens).match_uid
    return GameMessage("izmir", uid, seq, body).checked_json()


def test_forgeries_are_refused_whatever_they_say_and_a_flood_is_a_count(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOG.name)
    taken = table.record(table.athens).taken
    start = "4HPwATDgc/ABMA"
    play = izmirs(table, PlayBody((3, 1), "8/5 6/5", "4HPwATDgc/ABMA"), taken + 1)
    table.wire.inject("izmir", "game", json.dumps(play).encode())  # no signature
    ask = izmirs(table, TakebackBody("ask", start), taken + 1)
    table.wire.inject("izmir", "game", signed(GAME, ask, new_key("outsider")))  # another key's
    for n in range(5000):
        ahead = izmirs(table, PlayBody((3, 1), "8/5 6/5", start), taken + 100 + n)
        table.wire.inject("izmir", "game", json.dumps(ahead | {"sig": "A" * 86}).encode())
    nonce = table.wire.links["izmir"].nonce
    assert nonce is not None
    sync = Sync("izmir", table.record(table.athens).match_uid, 9, 0, fresh=True, nonce=nonce,
                serial=1000)
    table.wire.inject("izmir", "sync", json.dumps(sync.to_json()).encode(), retain=True)
    gone = Status("izmir", online=False, nonce=nonce)
    forged_gone = signed(STATUS, gone.to_json(), new_key("outsider"))
    table.wire.inject("izmir", "status", forged_gone, retain=True)
    sent = table.wire.links["athens"].games
    table.run()
    assert table.record(table.athens).taken == taken  # nothing applied
    assert table.wire.links["athens"].games == sent  # nothing sent again
    assert connected(table.athens)  # the friend is not gone
    said = warnings(caplog)
    assert said == [
        f"refused: {GAME}: no signature ('sig') (unchecked, it says: play, seq {taken + 1}):"
        " not izmir's own",
        f"refused: {GAME}: the signature is not the board's key's (unchecked, it says: "
        f"takeback, seq {taken + 1}): not izmir's own",
        f"refused: {SYNC}: no signature ('sig') (unchecked, it says: sync): not izmir's own",
        f"refused: {STATUS}: the signature is not the board's key's (unchecked, it says: "
        "gone): not izmir's own"]
    table.clock.advance(DEFAULT_INTERVAL_MS)
    table.run()
    assert warnings(caplog)[len(said):] == [
        f"5000 more refused ({GAME} unsigned play) in 10 s; the last: refused: {GAME}: the "
        f"signature is not the board's key's (unchecked, it says: play, seq {taken + 5099}):"
        " not izmir's own"]
    table.opening()  # the real messages of those numbers are still taken
    assert table.athens.remote.trouble is None


def test_a_replayed_sync_is_not_answered_and_each_new_one_once(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    athens = table.wire.links["athens"]
    record = table.record(table.athens)
    first, *_ = table.wire.of("izmir", "sync")
    assert json.loads(first)["taken"] == 0 < len(record.sent)
    sent = athens.games
    for _ in range(3):  # kept and sent again, retained too: as if idle for minutes
        table.wire.inject("izmir", "sync", first, retain=True)
        table.clock.advance(3000)
        table.run()
    assert athens.games == sent
    assert any("izmir's sync 1 of connection" in line and "again" in line
               for line in warnings(caplog))
    nonce = table.wire.links["izmir"].nonce
    assert nonce is not None
    asks = Sync("izmir", record.match_uid, 1, 0, fresh=True, nonce=nonce, serial=99)
    for _ in range(2):  # a new sync of izmir's that took nothing: answered once
        table.wire.inject("izmir", "sync", signed(SYNC, asks.checked_json(), KEYS["izmir"]))
        table.run()
    assert athens.games == sent + len(record.sent)


def test_a_sync_of_an_earlier_connection_is_never_answered(table: Table) -> None:
    earlier = table.wire.of("izmir", "sync")
    table.wire.connect("izmir")  # izmir's next connection, after a blip
    table.run()
    athens = table.wire.links["athens"]
    sent = athens.games
    for payload in earlier:
        table.wire.inject("izmir", "sync", payload, retain=True)
    table.run()
    assert athens.games == sent


def test_an_old_last_will_or_online_is_not_believed(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    izmir = table.wire.links["izmir"]
    first_online = table.wire.of("izmir", "status")[-1]
    izmir.status(online=False)  # its will: the connection broke
    will = table.wire.of("izmir", "status")[-1]
    table.run()
    assert not connected(table.athens)
    told = len(table.wire.of("athens", "status"))
    table.wire.connect("izmir")
    table.run()
    assert connected(table.athens)
    assert len(table.wire.of("athens", "status")) == told + 1  # athens said again who it is
    for old in (will, first_online, will):
        table.wire.inject("izmir", "status", old, retain=True)
        table.run()
        assert connected(table.athens)
    assert sum("which is gone (an old status, sent again)" in line
               for line in warnings(caplog)) == 1  # the same kind, within the interval
    izmir.status(online=False)  # the will of izmir's latest connection is believed
    table.run()
    assert not connected(table.athens)


def test_a_board_back_from_a_restart_is_told_again_who_is_online(table: Table) -> None:
    """Someone published a forged ``gone`` over izmir's retained ``online``: athens, back
    from a restart, cannot read izmir's status from the broker, and izmir says it again."""
    forged = Status("izmir", online=False, nonce="ab" * 16).to_json()
    table.wire.inject("izmir", "status", json.dumps(forged).encode(), retain=True)
    table.run()
    again = Side("athens", W, table.wire.links["athens"], clock=table.clock)
    again.remote.load(table.athens.journal)
    table.wire.connect("athens")
    table.run(again, table.izmir)
    assert again.remote.connected and table.izmir.remote.connected


def test_only_the_next_few_messages_are_held_and_the_next_is_never_pushed_out(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    taken = table.record(table.athens).taken
    for n in range(256):  # signed by izmir's key: a faulty board, or old ones sent again
        ahead = izmirs(table, CubeBody("double"), taken + SEQ_WINDOW + 1 + n)
        table.wire.inject("izmir", "game", signed(GAME, ahead, KEYS["izmir"]))
    table.run()
    assert warnings(caplog) == [
        f"refused: izmir's message {taken + SEQ_WINDOW + 1}: more than {SEQ_WINDOW} ahead of the "
        f"last applied ({taken}); this board's next sync asks for it again"]
    table.opening()
    assert table.athens.remote.trouble is None
    table.clock.advance(DEFAULT_INTERVAL_MS)
    table.run()
    assert warnings(caplog)[-1].startswith("255 more refused (izmir beyond the window)")


# -- the parts, alone ---------------------------------------------------------------------

def cube(seq: int) -> GameMessage:
    return GameMessage("izmir", "0" * 32, seq, CubeBody("double"))


def test_the_window_holds_each_number_in_its_place() -> None:
    held = Held(RefusalLog(LOG, VirtualClock()))
    assert [held.hold(cube(seq), 0) for seq in range(2, SEQ_WINDOW + 3)] == \
        [True] * (SEQ_WINDOW - 1) + [False, False]
    assert not any(held.hold(cube(seq), 0) for seq in range(100, 356))
    assert held.next(0) is None
    assert held.hold(cube(1), 0)  # the message the game waits for always has its place
    assert [m.seq for m in (held.next(0), held.next(1))] == [1, 2]  # type: ignore[union-attr]
    assert held.hold(cube(SEQ_WINDOW + 2), 2)  # the window moves with what is applied
    assert len(held) == SEQ_WINDOW - 1  # 3..8 and 10


def online(nonce: str) -> Status:
    return Status("izmir", online=True, nonce=nonce)


def gone(nonce: str) -> Status:
    return Status("izmir", online=False, nonce=nonce)


def sync_of(nonce: str, serial: int) -> Sync:
    return Sync("izmir", None, 0, 0, fresh=True, nonce=nonce, serial=serial)


def test_a_sync_waits_for_its_connections_online_and_counts_once() -> None:
    word = PeerWord("izmir", "home", KEYS["izmir"].public, RefusalLog(LOG, VirtualClock()))
    first, second = "1" * 32, "2" * 32
    assert word.sync(sync_of(first, 1)) is None  # its connection is not known yet
    presence = word.status(online(first))
    assert presence.new and presence.sync == sync_of(first, 1)
    assert word.sync(sync_of(first, 1)) is None  # acted on already
    assert word.sync(sync_of(first, 3)) == sync_of(first, 3)
    assert word.sync(sync_of(first, 2)) is None  # older than one acted on
    assert not word.status(online(first)).new  # said again: the same connection
    assert word.status(gone(second)).online  # not the latest connection's will
    assert not word.status(gone(first)).online
    assert not word.status(online(first)).online  # gone is gone
    assert word.status(online(second)).new


def test_the_connections_remembered_are_bounded() -> None:
    word = PeerWord("izmir", "home", KEYS["izmir"].public, RefusalLog(LOG, VirtualClock()))
    nonces = [f"{n:032x}" for n in range(CONNECTIONS_KEPT + 5)]
    for nonce in nonces:
        word.status(online(nonce))
    acted = [word.sync(sync_of(nonce, 1)) is not None for nonce in nonces]
    assert acted == [False] * 5 + [True] * CONNECTIONS_KEPT  # the oldest forgotten: they wait


def test_what_is_read_is_signed_by_the_friends_key() -> None:
    word = PeerWord("izmir", "home", KEYS["izmir"].public, RefusalLog(LOG, VirtualClock()))
    data = online("1" * 32).checked_json()
    assert word.read(Received(STATUS, signed(STATUS, data, KEYS["izmir"]))) == \
        read_payload(STATUS, signed(STATUS, data, KEYS["izmir"]), "home", KEYS["izmir"].public)
    assert word.read(Received(STATUS, signed(STATUS, data, KEYS["athens"]))) is None
    assert word.read(Received(STATUS, b"{")) is None


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The warnings about refused messages (not the link's own, of the broker)."""
    return [m for m in warnings(caplog) if not m.startswith("broker ")]


def test_the_counts_held_when_the_daemon_stops_are_written_once(
        caplog: pytest.LogCaptureFixture) -> None:
    config = Config(backend="sim", opponent=OpponentSettings(color=B, remote="izmir"),
                    remote_key=KEYS["izmir"].public,
                    network=NetworkSettings(broker=Broker("127.0.0.1", free_port()),
                                            board="athens"))  # nobody answers: it retries
    with caplog.at_level(logging.WARNING, LOG.name), ExitStack() as stack:
        remote = open_network(config, [], stack, KEYS["athens"], VirtualClock()).remote
        assert remote is not None
        for _ in range(3):
            assert remote.word.read(Received(STATUS, b"{")) is None
        assert len(refusals(caplog)) == 1  # the others are counted, within the interval
        stack.close()
        stack.close()
    said = refusals(caplog)
    assert len(said) == 2
    assert said[1].startswith(f"2 more refused ({STATUS} malformed) in 10 s; the last: ")
