"""The two-board harness's player: it commits the play it moved, also where others read the same.

CI found it (stop 35): White's 6-1 from 12 checkers on the 1 point and one on the 2
was moved as 2/off 1/off, but that stack read the same with one checker fewer, so the
board read 2/off (2/1/off) as well and DONE committed that one.  The harness's player
now presses CUBE until DONE confirms its play, as a player reads the lights.  Here the
stack is 14 high (a third layer, which always reads like two: hardware/GEOMETRY.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from computer_support import load

from tavla_pi.rules import Position
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.remote import FriendBoard

TALL = load({"1": 14, "2": 1}, {"24": 10, "20": 2, "13": 3}, Color.WHITE)
"""White on roll, 14 checkers on the 1 point and one on the 2."""

pytestmark = pytest.mark.slow


@pytest.fixture
def board(tmp_path: Path) -> Iterator[FriendBoard]:
    config = tmp_path / "config.toml"
    config.write_text("[board]\nstable_ms = 40\n")
    daemon = DaemonProcess(tmp_path / "state", tmp_path / "notify", config)
    daemon.start()
    yield FriendBoard("here", Color.WHITE, daemon)
    daemon.close()


@pytest.mark.parametrize("notation", ["2/off 1/off", "2/off"])
def test_the_player_commits_the_play_it_moved_among_plays_that_read_the_same(
        board: FriendBoard, notation: str) -> None:
    board.sim(TALL)
    board.sim({"dice": [6, 1]})
    board.sim({"press": "white.roll"})
    board.until(lambda s: s["phase"] == "moving", "the roll")
    position = Position.from_position_id(TALL["load"]["position_id"])
    play = next(p for p in position.legal_plays((6, 1)) if p.notation == notation)
    board.move_own(play)
    board.sim({"press": "white.roll"})
    after = board.until(lambda s: s["phase"] != "moving", "the play committed")
    assert after["position_id"] == play.result.position_id()
