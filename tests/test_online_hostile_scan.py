"""The daemon's scan loop against a hostile server: the online side opened as the daemon
opens it from its config (``[online] server`` the hostile test server of
tests/test_online_hostile.py), a game under way, and each hostile input sent in turn
while the board scans.  Each gives one log line naming it and no traceback, the board
scans on (and follows the server where the server's move is one our rules refuse), and
no scan works a period: the worst step's CPU time in the scanning thread (what the
machine's other work cannot lengthen, unlike the wall clock) is under 20 ms."""

from __future__ import annotations

import asyncio
import logging
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from test_online_hostile import HOSTILE, JOINED, START, WELCOME, HostileServer, board, event

from tavla_pi.clock import WallClock
from tavla_pi.config import parse_config
from tavla_pi.daemon.online import open_online
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.online.board import to_board
from tavla_pi.online.session import OnlineGame
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import VirtualDaemon

DEADLINE_S = 20.0
PERIOD_NS = SCAN_MS * 1_000_000
"""One period of the scan loop at its default 50 Hz."""
ILLEGAL = [*START]
ILLEGAL[1], ILLEGAL[10] = -1, -1
"""The online opponent's 6-1 from the start played as 1/10: no legal play leads there."""
HOSTILE_IN_GAME: list[tuple[bytes, str]] = [
    *HOSTILE,
    (board(ILLEGAL, Turn=1, Roll1=0, Roll2=0),
     "the server and this board disagree: no legal play of 6-1 leads to the server's board"),
]


class ScanningBoard:
    """A virtual daemon playing online against the server on ``port``, opened from its
    config as the daemon opens it; :meth:`scan` is one step of its scan loop, the
    step's CPU time (ns, this thread's) kept in ``work``."""

    def __init__(self, folder: Path, port: int, stack: ExitStack) -> None:
        text = (f'[online]\nserver = "tcp://127.0.0.1:{port}"\n'
                '[opponent]\nonline = true\ncolor = "black"\n')
        config = parse_config(tomllib.loads(text), "config.toml", folder)
        settings = GameSettings(match_length=1,
                                opponent=OpponentSettings(color=Color.BLACK, online=True))
        self.daemon = VirtualDaemon(folder, settings=settings)
        game = open_online(config, [], folder, WallClock(), stack)
        assert game is not None
        self.game: OnlineGame = game
        self.daemon.core.online = game
        self.work: list[int] = []

    def scan(self) -> None:
        """One period of virtual time and one step of the scan loop, timed."""
        self.daemon.clock.advance(SCAN_MS)
        began = time.thread_time_ns()
        self.daemon.core.step()
        self.work.append(time.thread_time_ns() - began)

    def until(self, done: Callable[[], bool], what: str) -> None:
        """Scan until ``done`` holds (bounded in real time)."""
        deadline = time.monotonic() + DEADLINE_S
        while not done():
            assert time.monotonic() < deadline, f"no {what} in {DEADLINE_S} s"
            self.scan()


@pytest.fixture
def scanning(tmp_path: Path) -> Iterator[tuple[ScanningBoard, HostileServer]]:
    """A board scanning, logged in to a hostile server and bound to its match 1."""
    server = HostileServer([WELCOME, JOINED])
    with ExitStack() as stack:
        stack.callback(server.close)
        yield ScanningBoard(tmp_path, server.port, stack), server


def warnings_after(caplog: pytest.LogCaptureFixture, seen: int) -> list[str]:
    """The warnings logged after the first ``seen`` records."""
    return [r.getMessage() for r in caplog.records[seen:] if r.levelno >= logging.WARNING]


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_scan_loop_takes_each_hostile_input_with_a_log_line_and_no_long_step(
        scanning: tuple[ScanningBoard, HostileServer],
        caplog: pytest.LogCaptureFixture) -> None:
    scanner, server = scanning
    referee = scanner.daemon.referee
    with caplog.at_level(logging.INFO, "tavla_pi"):
        asyncio.run(scanner.daemon.sim({"setup": "start"}))
        scanner.until(lambda: scanner.game.match is not None
                      and referee.phase is Phase.OPENING, "the server's match joined")
        server.send(board(START))  # the online opponent opened with 6-1
        scanner.until(lambda: referee.phase is Phase.MOVING, "the opponent's turn")
        for line, expected in HOSTILE_IN_GAME:
            seen = len(caplog.records)
            server.send(line)
            scanner.until(lambda: warnings_after(caplog, seen) != [],  # noqa: B023
                          f"a log line: {expected}")
            said = warnings_after(caplog, seen)
            assert len(said) == 1 and expected in said[0], (expected, said)
        server.send(event("notice", Message="still here"))
        scanner.until(lambda: "the server: still here" in caplog.messages, "the last notice")
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    assert "Traceback" not in caplog.text
    state = asyncio.run(scanner.daemon.state())
    assert state["online"]["connected"] and state["online"]["match"]["id"] == 1
    assert (state["phase"], state["on_roll"]) == ("await_roll", "white")
    shown = Board.from_counts(state["board"]["white"], state["board"]["black"])
    assert shown == to_board(ILLEGAL, Color.BLACK)  # the board followed the server
    worst = max(scanner.work)
    assert worst < PERIOD_NS, f"a scan worked {worst / 1e6:.1f} ms of a {SCAN_MS} ms period"
