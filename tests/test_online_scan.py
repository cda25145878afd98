"""The online side never slows the scan loop: in a game against a real bgammon-server (its
connection on its own threads, a socket opponent) the online side's part of every scan is
a small share of one period of the loop, the link's waits included, and the scans stay
under a period.

The daemon's parts run in this process (tavla_pi/testing/daemon.py) with the online side
the daemon opens (tavla_pi/daemon/online.py), each scan timed on the wall clock while the
server answers in real time.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from programs import needs

from tavla_pi.clock import WallClock
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.online.board import position_of, server_moves
from tavla_pi.online.connection import OnlineConnection
from tavla_pi.online.model import ME, OPPONENT, GameBoard
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.session import OnlineGame
from tavla_pi.rules.color import Color
from tavla_pi.rules.position import Position
from tavla_pi.testing.bgammon import BgammonServer, SocketPlayer
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.testing.hand import hand_moves

TURNS = 12
SCAN_MS = 20
"""One period of the scan loop at its default 50 Hz."""
LIMIT_S = 30.0


class TimedBoard:
    """A daemon's parts in this process, playing online, each scan timed: its work (the
    thread's CPU time, ms: what the machine's other work cannot lengthen) in ``work``,
    and the wall time of the online side's part of it (ms: its waits included, were it
    to wait for the link; a busy machine may stop the process for a while at any
    moment, so a rare long one says nothing) in ``online``."""

    def __init__(self, folder: Path, server: BgammonServer) -> None:
        settings = GameSettings(match_length=1,
                                opponent=OpponentSettings(color=Color.BLACK, online=True))
        self.daemon = VirtualDaemon(folder, settings=settings)
        dialect = Bgammon(client_name("test", "en"))
        self.link = OnlineConnection(server.settings(), dialect, WallClock())
        game = OnlineGame(str(server.address), Color.BLACK, self.link, dialect, "timed")
        self.daemon.core.online = game
        self.work: list[float] = []
        self.online: list[float] = [0.0]
        self.online_work: list[float] = [0.0]
        for name in ("before", "after", "publish"):
            setattr(game, name, self._walled(getattr(game, name)))
        step = self.daemon.core.step

        def timed() -> None:
            began = time.thread_time()
            step()
            self.work.append((time.thread_time() - began) * 1000)
            self.online.append(0.0)
            self.online_work.append(0.0)

        self.daemon.core.step = timed  # type: ignore[method-assign]
        self.link.start()

    def _walled(self, hook: Callable[..., Any]) -> Callable[..., Any]:
        """``hook``, its wall time added to this scan's online time."""
        def walled(*args: Any) -> Any:
            began, worked = time.perf_counter(), time.thread_time()
            try:
                return hook(*args)
            finally:
                self.online[-1] += (time.perf_counter() - began) * 1000
                self.online_work[-1] += (time.thread_time() - worked) * 1000
        return walled

    def sim(self, action: dict[str, Any]) -> None:
        asyncio.run(self.daemon.sim(action))

    def state(self) -> dict[str, Any]:
        return asyncio.run(self.daemon.state())

    def stuck(self) -> str:
        """Where the game is, here and on the server (a failure's message)."""
        seat = self.daemon.referee.seat
        game = self.daemon.core.online
        assert game is not None
        return f"{self.brief()}; seat {vars(seat)}; the server's board {game._server}"

    def brief(self) -> dict[str, Any]:
        """The state's keys that say where the game is."""
        state = self.state()
        return {k: state[k] for k in ("phase", "on_roll", "dice", "position_id",
                                      "engine_play", "online")}

    def until(self, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Scan (a virtual period each, a moment of real time between) until ``wanted``."""
        deadline = time.monotonic() + LIMIT_S
        while not wanted(state := self.state()):
            assert time.monotonic() < deadline, f"no {what}: {self.stuck()}"
            self.sim({"wait": SCAN_MS})
            time.sleep(0.005)
        return state


def server_board(board: TimedBoard, opponent: SocketPlayer,
                 wanted: Callable[[GameBoard], bool],
                 passed: Callable[[dict[str, Any]], bool] = lambda _: False,
                 ) -> GameBoard | None:
    """The opponent's next board that ``wanted`` holds for, the board scanning meanwhile
    (its play goes out a move a scan); None once the board's state is ``passed``."""
    deadline = time.monotonic() + LIMIT_S
    while True:
        try:
            return opponent.wait_board(wanted, timeout_s=0.005)
        except TimeoutError:
            assert time.monotonic() < deadline, \
                f"no such server board: {opponent.board}; the board: {board.brief()}"
            if passed(board.state()):
                return None
            board.sim({"wait": SCAN_MS})


def board_turn(board: TimedBoard, rng: random.Random) -> None:
    state = board.until(lambda s: s["phase"] in ("await_roll", "moving", "no_move"), "turn")
    if state["phase"] == "await_roll":
        board.sim({"press": "white.roll"})
        state = board.until(lambda s: s["phase"] != "await_roll", "the roll")
    if state["phase"] != "moving":
        board.until(lambda s: s["on_roll"] == "black", "the pass")
        return
    position = Position.from_position_id(state["position_id"])
    a, b = state["dice"]
    play = rng.choice(position.legal_plays((a, b)))
    for action in hand_moves(play, Color.WHITE):
        board.sim(action)
    board.sim({"wait": 400})
    board.sim({"press": "white.roll"})
    board.until(lambda s: s["on_roll"] != "white" or s["phase"] not in ("moving",), "DONE")


def opponent_pass(board: TimedBoard, opponent: SocketPlayer) -> None:
    """The opponent's roll has no legal move: ``ok`` (unless it was sent already)."""
    server = server_board(board, opponent, lambda b: b.turn == OPPONENT or (
        b.dice[0] != 0 and not b.available))
    if server is not None and server.turn == ME:
        opponent.ok()
        server_board(board, opponent, lambda b: b.turn == OPPONENT or b.winner != 0)


def opponent_turn(board: TimedBoard, opponent: SocketPlayer, rng: random.Random) -> None:
    server = server_board(board, opponent, lambda b: b.turn == ME and b.winner == 0,
                          lambda s: s["on_roll"] != "black")  # its turn passed already
    if server is None:  # a pass shown here: the server waits for the opponent's ok
        opponent_pass(board, opponent)
        return
    if server.dice[0] == 0:
        opponent.roll()
        server = server_board(board, opponent, lambda b: b.turn == ME and b.dice[0] != 0)
        assert server is not None
    plays = position_of(server.spaces, ME).legal_plays(server.dice)
    play = rng.choice(plays) if plays else None
    for count, move in enumerate(server_moves(play) if play else (), 1):
        opponent.move((move,))
        server_board(board, opponent, lambda b, n=count: len(b.pending) == n  # type: ignore[misc]
                     or b.winner != 0)
    if opponent.board is not None and opponent.board.winner == 0:
        opponent.ok()
    server_board(board, opponent, lambda b: b.turn == OPPONENT or b.winner != 0)
    if play is not None:
        state = board.until(lambda s: s["engine_play"] is not None, "the opponent's play")
        for action in hand_moves(play, Color.BLACK):
            board.sim(action)
        board.until(lambda s: (s["engine_play"] is None and s["on_roll"] == "white")
                    or s["phase"] in ("game_over", "match_over"), "the play carried out")
        assert state["engine_play"]["play"] == play.notation


@needs("bgammon-server")
@pytest.mark.alone  # times each scan: another test's work on the machine would be counted
def test_no_scan_of_an_online_game_takes_a_period(tmp_path: Path,
                                                  bgammon_server: BgammonServer) -> None:
    board = TimedBoard(tmp_path, bgammon_server)
    rng = random.Random(2)
    with SocketPlayer(bgammon_server.port) as opponent:
        try:
            opponent.login("timer")
            opponent.create(1, "timer match")
            board.sim({"setup": "start"})
            board.until(lambda s: bool((s["online"]["match"] or {}).get("opponent")), "joined")
            opponent.roll()
            board.sim({"press": "white.roll"})
            board.until(lambda s: s["phase"] not in ("opening",), "the opening")
            for _ in range(TURNS):
                state = board.state()
                if state["phase"] in ("game_over", "match_over"):
                    break
                if state["phase"] == "no_move":  # a roll with no play: it passes
                    was = state["on_roll"]
                    if was == "black":  # the opponent ends its turn on the server too
                        opponent_pass(board, opponent)
                    board.until(lambda s: s["on_roll"] != was, "the pass")  # noqa: B023
                elif state["on_roll"] == "white":
                    board_turn(board, rng)
                else:
                    opponent_turn(board, opponent, rng)
        finally:
            board.link.close()
    assert len(board.work) > 100
    online_work = max(board.online_work)
    assert online_work < SCAN_MS / 4, f"the online side worked {online_work:.1f} ms in a scan"
    online = p99(board.online)  # p99: a busy machine may stop the process at any moment
    assert online < SCAN_MS / 4, f"the online side took {online:.1f} ms of 1 scan in 100"
    work = p99(board.work)  # the rest of a scan (the board's own work) now and then more
    assert work < SCAN_MS, f"1 scan in 100 worked {work:.1f} ms (the most {max(board.work)})"


def p99(samples: list[float]) -> float:
    """The 99th percentile of ``samples`` (nearest rank)."""
    return sorted(samples)[len(samples) * 99 // 100]
