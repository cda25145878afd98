"""A full disk, injected through the ``Files`` layer (tests/fault_files.py).

A write that fails leaves the action done completely or not at all, and the
request says why; a failed repair leaves no copy behind.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from fault_files import FullDisk

from tavla_pi.daemon import simstore
from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, LOCK_NAME, Journal, encode
from tavla_pi.events.types import EventType, UnknownType
from tavla_pi.game.fold import NOTES
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import MemoryJournal, VirtualDaemon, body

START = Event(EventType.GAME_STARTED, 0,
              {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"})


def test_a_repair_on_a_full_disk_leaves_no_copy_and_the_journal_as_it_was(
        tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(encode(START) + b"garbage\n" + encode(START))
    damaged = path.read_bytes()
    for room in (0, 10, len(damaged) + 5):  # the copy, or the repaired journal, fails
        with pytest.raises(JournalError, match="No space left on device"):
            Journal.open(tmp_path, FullDisk(room))
        assert path.read_bytes() == damaged
        assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_NAME, LOCK_NAME]


def test_an_append_on_a_full_disk_writes_nothing(tmp_path: Path) -> None:
    disk = FullDisk()
    with Journal.open(tmp_path, disk) as journal:
        journal.append([START])
        disk.room = 30  # half a line fits
        with pytest.raises(JournalError, match=r"cannot write \(No space left on device\)"):
            journal.append([START, START])
        disk.room = None
        journal.append([START])
        assert journal.events == [START, START]
    assert (tmp_path / JOURNAL_NAME).read_bytes() == encode(START) * 2


def test_a_cut_on_a_full_disk_changes_nothing(tmp_path: Path) -> None:
    disk = FullDisk()
    with Journal.open(tmp_path, disk) as journal:
        journal.append([START, Event(UnknownType("sparkle"), 1)])
        before = (tmp_path / JOURNAL_NAME).read_bytes()
        disk.room = 0
        with pytest.raises(JournalError, match="cannot set the untrusted events aside"):
            journal.cut(1, "sparkle: not an event type this board writes")
        assert len(journal.events) == 2
    assert (tmp_path / JOURNAL_NAME).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_NAME, LOCK_NAME]


def test_saving_the_simulated_board_on_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    snap = simstore.SimSnapshot.of(daemon.backend.board, [1, 2], simstore.RollCount())
    simstore.save(tmp_path, snap)
    saved = (tmp_path / simstore.SIM_BOARD_FILENAME).read_bytes()
    daemon.backend.board.setup_start()
    changed = simstore.SimSnapshot.of(daemon.backend.board, [], simstore.RollCount())
    for room in (0, 100):
        with pytest.raises(OSError, match="No space left"):
            simstore.save(tmp_path, changed, FullDisk(room))
        assert (tmp_path / simstore.SIM_BOARD_FILENAME).read_bytes() == saved
        assert not (tmp_path / f"{simstore.SIM_BOARD_FILENAME}.tmp").exists()


def test_a_stale_temporary_link_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    state = tmp_path / "state"
    state.mkdir()
    (state / f"{simstore.SIM_BOARD_FILENAME}.tmp").symlink_to(outside)
    daemon = VirtualDaemon(state)
    daemon.desk.save()
    assert not outside.exists()
    assert simstore.load(state) is not None


ACTIONS = [
    ({"setup": "start", "match_length": 3}, []),
    ({"setup": "start", "variant": "plakoto"}, []),  # laid layer by layer
    ({"load": {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}}, []),
    ({"dice": [3, 1]}, [{"setup": "start"}]),
    ({"lift": "13", "color": "white"}, [{"setup": "start"}]),
    ({"place": "13", "color": "white"}, [{"setup": "start"}, {"lift": "13", "color": "white"}]),
    ({"move": "13/7", "color": "white"}, [{"setup": "start"}]),
]


@pytest.mark.parametrize(("action", "before"), ACTIONS, ids=lambda a: next(iter(a), "none"))
def test_an_action_whose_save_fails_is_undone_and_refused(
        tmp_path: Path, action: dict[str, object], before: list[dict[str, object]]) -> None:
    """Before: the client got no answer while the change stayed on the board."""
    disk = FullDisk()
    journal = MemoryJournal()
    daemon = VirtualDaemon(tmp_path, journal=journal, files=disk)

    async def scenario() -> None:
        for earlier in before:
            await daemon.sim(earlier)
        await daemon.sleep(400)
        board = daemon.backend.board
        counts, hands = board.counts(), [board.in_hand(c) for c in Color]
        queue, events = list(daemon.dice.queue), list(journal.events)
        path = tmp_path / simstore.SIM_BOARD_FILENAME
        saved = path.read_bytes() if path.exists() else None
        disk.room = 0
        answer = await daemon.request("POST", "/api/sim", action)
        assert answer.status == 503
        assert body(answer)["error"] == ("the simulated board cannot be saved (No space left "
                                         "on device): nothing was changed")
        await daemon.sleep(400)
        assert board.counts() == counts
        assert [board.in_hand(c) for c in Color] == hands
        assert list(daemon.dice.queue) == queue
        # a moved checker was seen lifted and put back: nothing else happened
        assert {e.type for e in journal.events[len(events):]} <= NOTES
        assert (path.read_bytes() if path.exists() else None) == saved
        disk.room = None
        assert (await daemon.request("POST", "/api/sim", action)).status == 200

    asyncio.run(scenario())


def test_a_press_whose_save_fails_stands_and_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Its events are in the journal; the saved board repeats only what they imply."""
    disk = FullDisk()
    daemon = VirtualDaemon(tmp_path, files=disk)

    async def scenario() -> dict[str, Any]:
        await daemon.sim({"setup": "start"})
        await daemon.sim({"dice": [3, 1]})
        await daemon.sleep(400)
        disk.room = 0
        return await daemon.sim({"press": "white.roll"})

    with caplog.at_level(logging.WARNING, "tavla_pi"):
        answer = asyncio.run(scenario())
    assert [e["type"] for e in answer["events"]][:1] == ["opening_roll"]
    assert [r.getMessage() for r in caplog.records] == [
        "the simulated board cannot be saved (No space left on device); the press stands"]
    saved = json.loads((tmp_path / simstore.SIM_BOARD_FILENAME).read_text())
    assert saved["dice"] == [3, 1] and saved["rolls"]["count"] == 0
    assert simstore.load(tmp_path).dice_left(daemon.core.rolls) == ()  # type: ignore[union-attr]
    assert os.listdir(tmp_path) == [simstore.SIM_BOARD_FILENAME]
