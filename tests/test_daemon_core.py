"""The daemon's core: journal before anything is seen, status lines, the saved simulated board,
the state snapshot, opening and closing, the scan loop's handling of a failing board."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.config import Config
from tavla_pi.config.fields import Listen
from tavla_pi.daemon import service as service_module
from tavla_pi.daemon import simstore
from tavla_pi.daemon.core import status_line
from tavla_pi.daemon.logs import describe
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.service import Service
from tavla_pi.daemon.startup import open_daemon
from tavla_pi.errors import HardwareError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import VirtualDaemon, notify_socket, reset_logging

OPENING: list[dict[str, Any]] = [
    {"setup": "start"}, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
    {"move": "8/5", "color": "white"},
]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def play(daemon: VirtualDaemon, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        await daemon.sim(action)


def test_nothing_is_seen_before_the_journal_has_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        await play(daemon, [{"setup": "start"}])
        listener = daemon.hub.subscribe(history=False)
        daemon.memory.fail = True
        for _ in range(50):  # the board settles: game_started cannot be journaled
            frame, shows = daemon.pipeline.frame, daemon.backend.sim_pixels.shows
            daemon.clock.advance(20)
            try:
                daemon.core.step()
            except OSError as exc:
                assert "No space left" in str(exc)
                break
        else:
            pytest.fail("no event to journal")
        assert daemon.hub.game == [] and listener.drain() == []
        assert daemon.backend.sim_pixels.shows == shows  # the LEDs did not show it either
        assert daemon.pipeline.frame == frame
    run(scenario())


def test_status_lines_follow_the_game(tmp_path: Path) -> None:
    sock = notify_socket(tmp_path / "notify")
    sock.settimeout(0.0)  # non-blocking

    async def scenario() -> list[str]:
        daemon = VirtualDaemon(tmp_path / "state", notify=str(tmp_path / "notify"))
        await play(daemon, OPENING)
        await daemon.sim({"move": "6/5", "color": "white"})
        await daemon.sim({"press": "white.roll"})
        out = []
        while True:
            try:
                out.append(sock.recv(200).decode())
            except BlockingIOError:
                return out
    (tmp_path / "state").mkdir()
    assert run(scenario()) == ["STATUS=opening roll, score 0-0",
                               "STATUS=white moving, cube 1, score 0-0",
                               "STATUS=black to roll, cube 1, score 0-0"]


def test_status_line_of_a_match(tmp_path: Path) -> None:
    from tavla_pi.game.settings import GameSettings

    daemon = VirtualDaemon(tmp_path, settings=GameSettings(match_length=5))
    assert status_line(daemon.referee) == "waiting for the starting position, score 0-0 of 5"


def test_the_simulated_board_is_saved_after_every_action(tmp_path: Path) -> None:
    async def scenario() -> VirtualDaemon:
        daemon = VirtualDaemon(tmp_path)
        await play(daemon, OPENING)
        await daemon.sim({"lift": "13", "color": "white"})  # a checker in the hand
        await daemon.sim({"dice": [6, 5]})
        await daemon.sim({"dice": [4, 4]})
        return daemon

    first = run(scenario())
    rolls = first.core.rolls
    assert rolls.rolls == 1 and rolls.match == first.journal.events[0].t
    second = VirtualDaemon(tmp_path)
    assert second.desk.restore(rolls)
    assert second.backend.board.counts() == first.backend.board.counts()
    assert second.backend.board.in_hand(Color.WHITE) == 1
    assert list(second.dice.queue) == [6, 5, 4, 4]
    third = VirtualDaemon(tmp_path)  # a roll journaled after the save took the first two
    third.desk.restore(rolls.add([Event(EventType.ROLLED, 99_000)]))
    assert list(third.dice.queue) == [4, 4]
    fourth = VirtualDaemon(tmp_path)  # a new match since, with one roll: same
    fourth.desk.restore(rolls.add([Event(EventType.NEW_MATCH, 99_000),
                                   Event(EventType.OPENING_ROLL, 99_001)]))
    assert list(fourth.dice.queue) == [4, 4]
    assert not VirtualDaemon(tmp_path / "elsewhere").desk.restore(simstore.RollCount())


def test_a_snapshot_round_trips(tmp_path: Path, sim_board: SimBoard) -> None:
    from tavla_pi.hal.sim.board import START

    board = sim_board
    board.lay_out(START)
    board.lift("6", Color.WHITE)
    snap = simstore.SimSnapshot.of(board, [1, 2], simstore.RollCount(1234, 7))
    simstore.save(tmp_path, snap)
    assert simstore.load(tmp_path) == snap
    doc = json.loads((tmp_path / simstore.SIM_BOARD_FILENAME).read_text())
    assert doc["board"]["white"] == {"6": 4, "8": 3, "13": 5, "24": 2}
    assert doc["hands"] == {"white": 1, "black": 0}
    assert doc["rolls"] == {"match": 1234, "count": 7}


@pytest.mark.parametrize(("text", "where"), [
    ("{", "cannot read the saved board"),
    ('{"format": "other"}', "expected a 'tavla-pi sim board' file"),
    ('{"format": "tavla-pi sim board", "version": 1, "board": [], "hands": {}}', '"board"'),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {"white": {"25": 1}},'
     ' "hands": {}, "dice": [], "rolls": {}}', "board.white: bad location '25'"),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {"white": {"5": 16}},'
     ' "hands": {}, "dice": [], "rolls": {}}', "board.white.5: expected a count 0..15"),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {}, "hands": {},'
     ' "dice": [7], "rolls": {}}', "dice: expected a list of dice"),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {}, "hands": {"black": true},'
     ' "dice": [], "rolls": {}}', "hands.black: expected a count"),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {}, "hands": {},'
     ' "dice": [], "rolls": 3}', 'rolls: expected {"match": ms or null, "count": n}'),
    ('{"format": "tavla-pi sim board", "version": 1, "board": {}, "hands": {},'
     ' "dice": [], "rolls": {"match": "x", "count": 1}}', "rolls.match: expected a time"),
])
def test_a_damaged_saved_board_is_named(tmp_path: Path, text: str, where: str) -> None:
    (tmp_path / simstore.SIM_BOARD_FILENAME).write_text(text)
    with pytest.raises(simstore.SimStoreError) as info:
        simstore.load(tmp_path)
    assert str(info.value).startswith(str(tmp_path / simstore.SIM_BOARD_FILENAME))
    assert where in str(info.value)


def test_the_state_shows_the_sensed_board_and_the_fixes(tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        daemon = VirtualDaemon(tmp_path)
        await play(daemon, [{"setup": "start"}, {"wait": 400},
                            {"lift": "13", "color": "white"}, {"place": "11", "color": "white"},
                            {"wait": 400}])
        return await daemon.state()

    state = run(scenario())
    assert state["phase"] == "opening"
    assert state["board"]["white"]["13"] == 5
    assert state["sensed"]["white"]["13"] == [4, 4]
    assert state["sensed"]["white"]["11"] == [1, 1]
    assert state["sensed"]["black"]["12"] == [5, 5]
    assert state["sensed"]["unknown"] == {} and state["sensed"]["faults"] == []
    assert state["fix"] == [{"at": "11", "color": "white", "remove": 1},
                            {"at": "13", "color": "white", "add": 1}]
    assert state["cube"] == {"value": 1, "owner": None, "offered": False}
    assert state["score"] == [0, 0] and state["match_length"] == 0
    assert state["backend"] == "sim"


def test_log_lines_for_events() -> None:
    assert describe(Event(EventType.PLAYED, 5, {"player": "white", "play": "8/5 6/5",
                                                "position_id": "P", "dice": [3, 1]})) == \
        (logging.INFO, "white played 8/5 6/5 (position P)")
    assert describe(Event(EventType.OPENING_ROLL, 5, {"white": 3, "black": 3})) == \
        (logging.INFO, "opening roll: white 3, black 3: a tie, roll again")
    assert describe(Event(EventType.DOUBLE_TAKEN, 5, {"player": "black", "cube": 2}))[1] == \
        "black took the double (cube 2)"
    level, line = describe(Event(EventType.LIFTED, 5, {"player": "white", "from": "6"}))
    assert level == logging.DEBUG and line.startswith("lifted {")


def test_open_and_close_leave_the_leds_blank_and_the_journal_closed(tmp_path: Path) -> None:
    config = Config(backend="sim", listen=Listen("127.0.0.1", 0))
    opened = open_daemon(config, tmp_path, Notifier(None), gnubg=None)
    backend = opened.core.pipeline.backend
    assert backend.name == "sim"
    pixels = opened.backend.pixels
    assert len(opened.core.pipeline.frame) == len(pixels.frame)  # type: ignore[attr-defined]
    pixels.show([(9, 9, 9)] * len(opened.core.pipeline.frame))
    opened.close()
    opened.close()
    assert backend.closed
    assert set(pixels.frame) == {(0, 0, 0)}  # type: ignore[attr-defined]
    again = open_daemon(config, tmp_path, Notifier(None), gnubg=None)  # the journal was let go
    again.close()


def test_auto_without_hardware_says_so_and_simulates(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    reset_logging()
    caplog.set_level(logging.WARNING, "tavla_pi")
    opened = open_daemon(Config(), tmp_path, Notifier(None), gnubg=None)
    opened.close()
    assert opened.backend.name == "sim"
    assert "no board hardware found" in caplog.text
    assert "running on the simulated board" in caplog.text
    with pytest.raises(HardwareError):
        open_daemon(Config(backend="pi"), tmp_path, Notifier(None), gnubg=None)


class DeadSensors:
    def scan(self) -> tuple[int, ...]:
        raise HardwareError("SPI read failed")

    def close(self) -> None:
        pass


def test_a_board_that_stops_answering_ends_the_daemon_without_watchdog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "HARDWARE_GRACE_MS", 0)
    sock = notify_socket(tmp_path / "notify")
    sock.settimeout(0.0)  # non-blocking
    opened = open_daemon(Config(backend="sim"), tmp_path, Notifier(str(tmp_path / "notify")),
                         gnubg=None)
    opened.core.pipeline.backend.sensors = DeadSensors()
    service = Service(opened.core, opened.sim, Listen("127.0.0.1", 0), token=None, scan_hz=50,
                      state_dir=tmp_path, speech=opened.speech)
    try:
        assert asyncio.run(service.run()) == 1
    finally:
        opened.close()
    messages = []
    while True:
        try:
            messages.append(sock.recv(500).decode())
        except BlockingIOError:
            break
    assert messages[0].startswith("READY=1\n")
    assert not any("WATCHDOG=1" in m for m in messages)
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping"


def test_a_new_match_starts_a_new_journal_file_and_a_new_game_stream(tmp_path: Path) -> None:
    from tavla_pi.events.journal import ARCHIVE_DIR, Journal

    journal = Journal.open(tmp_path)

    async def scenario() -> VirtualDaemon:
        daemon = VirtualDaemon(tmp_path, journal=journal)
        await play(daemon, OPENING)
        await daemon.sim({"dice": [6, 5]})
        assert daemon.core.rolls.rolls == 1
        await daemon.sim({"hold": "menu", "ms": 1600})
        events = (await daemon.sim({"hold": "menu", "ms": 1600}))["events"]
        assert [e["type"] for e in events] == ["new_match"]
        assert [e.type for e in daemon.hub.game] == ["new_match"]
        assert daemon.core.rolls == simstore.RollCount(events[0]["t"], 0)
        assert (await daemon.state())["phase"] == "setup"
        return daemon

    daemon = run(scenario())
    journal.close()
    assert len(list((tmp_path / ARCHIVE_DIR).iterdir())) == 1
    # the saved dice queue still holds the 6-5: no roll since the save
    again = VirtualDaemon(tmp_path)
    reopened = Journal.open(tmp_path)
    again.desk.restore(simstore.RollCount().add(reopened.events))
    reopened.close()
    assert list(again.dice.queue) == [6, 5]
    assert daemon.backend.board.counts() == again.backend.board.counts()


def test_log_lines_for_journald_and_for_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from tavla_pi.daemon.logs import setup_logging

    log = logging.getLogger("tavla_pi.daemon")
    out = io.StringIO()
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    setup_logging("info", out)
    log.info("white played 8/5 6/5")
    log.warning("the board does not answer")
    log.debug("not shown at info")
    assert out.getvalue() == "<6>white played 8/5 6/5\n<4>the board does not answer\n"
    out = io.StringIO()
    monkeypatch.delenv("JOURNAL_STREAM")
    setup_logging("warning", out)
    log.info("not shown")
    log.error("stopping")
    assert out.getvalue().endswith(" ERROR stopping\n") and out.getvalue().count("\n") == 1
    reset_logging()


class BrokenJournal:
    def append(self, events: object) -> None:
        from tavla_pi.errors import JournalError
        raise JournalError("journal.jsonl", "cannot write (No space left on device)")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("body", [b'{"setup": "start", "match_length": 3}',
                                  b'{"press": "white.roll"}'])
def test_a_journal_that_fails_from_a_request_stops_the_daemon(tmp_path: Path,
                                                              body: bytes) -> None:
    """The request that made the event answers why (the press's event is journaled by the
    scan loop: the press used to get an empty reply)."""
    opened = open_daemon(Config(backend="sim"), tmp_path, Notifier(None), gnubg=None)
    opened.core.journal = BrokenJournal()
    service = Service(opened.core, opened.sim, Listen("127.0.0.1", 0), token=None, scan_hz=50,
                      state_dir=tmp_path, speech=opened.speech)

    async def scenario() -> tuple[int, bytes]:
        running = asyncio.create_task(service.run())
        while not service.url:
            await asyncio.sleep(0)
        reader, writer = await asyncio.open_connection("127.0.0.1", service.http.port)
        writer.write(b"POST /api/sim HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        answer = await reader.read()
        writer.close()
        return await running, answer

    try:
        status, answer = asyncio.run(scenario())
    finally:
        opened.close()
    assert status == 1
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert b"No space left on device" in answer
