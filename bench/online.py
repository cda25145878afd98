"""From DONE on the board to the opponent's client, and from the opponent's ``ok`` to the
first checker lit on the board, through a real bgammon-server on loopback.

Starts bgammon-server on a free port of 127.0.0.1 (``$TAVLA_BGAMMON_SERVER`` or the
``PATH``), a board on the sim backend set for online play (tavla_pi/testing/online.py:
its player plays White) and a plain-socket opponent (Black), which creates a public
match the board joins; then plays whole matches of random legal plays (the choice
seeded; the dice are the server's) through POST /api/sim and the socket.  For every
play of the board's player it times, on this process's wall clock, from the DONE
request (sent on a thread; the simulated press is held 100 ms and DONE acts at its
edge) to the opponent's socket receiving the last move of the play; for every play of
the opponent's, from its ``ok`` to the board's ``remote_play`` (the event that lights
the first checker to move) on the board's event stream (GET /api/events, read on a
thread).

    python bench/online.py [--points N] [--matches N] [--seed N] [--plays N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from remote import Stream, figures, p99

from tavla_pi.online.model import Moved
from tavla_pi.rules.play import Play
from tavla_pi.testing.bgammon import BgammonServer, SocketPlayer, find_bgammon_server
from tavla_pi.testing.online import OnlineBoard, OnlineMatch

AIM_MS = 150.0
"""The p99 of either latency should stay under this on loopback."""


class TimedMatch(OnlineMatch):
    """A match whose DONE and ``ok`` are timed (ms): ``to_opponent`` from the board's DONE
    request to the opponent's last ``moved``, ``to_board`` from the opponent's ``ok`` to
    the board's ``remote_play``."""

    def __init__(self, board: OnlineBoard, opponent: SocketPlayer, rng: random.Random) -> None:
        super().__init__(board, opponent, rng)
        self.stream = Stream(board)
        self.to_opponent: list[float] = []
        self.to_board: list[float] = []

    def press_done(self, play: Play) -> None:
        """DONE on a thread while this one reads the opponent's socket."""
        name = self.board.state()["online"]["user"]
        press = threading.Thread(target=super().press_done, args=(play,), name="done")
        sent = time.perf_counter()
        press.start()
        moved = 0
        while moved < len(play.moves):
            event = self.opponent.next_event()
            if isinstance(event, Moved) and event.player == name:
                moved += len(event.moves)
        if play.moves:
            self.to_opponent.append((time.perf_counter() - sent) * 1000)
        press.join()

    def end_turn(self) -> None:
        """``ok``, timed to the board's ``remote_play``."""
        self.stream.drain()
        sent = time.perf_counter()
        super().end_turn()
        self.to_board.append((self.stream.next("remote_play") - sent) * 1000)


def play_matches(server: BgammonServer, tmp: Path, args: argparse.Namespace) -> TimedMatch:
    """Whole matches until ``args.matches`` are over (or ``args.plays`` timed)."""
    board = OnlineBoard(tmp / "board", server, points=args.points)
    board.daemon.start()
    rng = random.Random(args.seed)
    timed: TimedMatch | None = None
    try:
        for number in range(args.matches):
            opponent = SocketPlayer(server.port)
            opponent.login(f"bench{number}")
            opponent.create(args.points, "bench match")
            if timed is not None:  # a new match on the board: MENU, long twice
                for _ in range(2):
                    board.sim({"hold": "menu", "ms": 2000})
            match = TimedMatch(board, opponent, rng)
            if timed is not None:
                match.to_opponent, match.to_board = timed.to_opponent, timed.to_board
            timed = match
            match.join()
            while len(match.to_opponent) + len(match.to_board) < args.plays:
                state = board.state()
                if state["phase"] == "match_over":
                    break
                match.step(state)
            opponent.close()
    finally:
        board.daemon.close()
    assert timed is not None
    return timed


def report(match: TimedMatch, args: argparse.Namespace) -> bool:
    """Print the figures; True if the aim is met."""
    print(f"matches: {args.matches} of {args.points} point(s), plays timed: "
          f"{len(match.to_opponent)} of the board's, {len(match.to_board)} of the "
          f"opponent's (seed {args.seed}); a sim board and a socket opponent on loopback "
          "through bgammon-server")
    print("load average over the last 1, 5, 15 minutes: "
          + ", ".join(f"{load:.1f}" for load in os.getloadavg())
          + f" ({os.cpu_count()} cores)")
    print(f"DONE request -> the opponent's last move: {figures(match.to_opponent)}")
    print(f"the opponent's ok -> remote_play on the board: {figures(match.to_board)}")
    worst = max(p99(match.to_opponent), p99(match.to_board))
    met = worst < AIM_MS
    print(f"aim: p99 under {AIM_MS:.0f} ms: {'met' if met else 'missed'} ({worst:.1f} ms)")
    return met


def main(argv: list[str] | None = None) -> int:
    """Run the matches and print the figures; 1 if the aim is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--points", type=int, default=1, help="the match's length (default 1)")
    parser.add_argument("--matches", type=int, default=1, help="matches to play (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the choice of plays")
    parser.add_argument("--plays", type=int, default=sys.maxsize,
                        help="stop after this many plays timed (a smoke test's budget)")
    args = parser.parse_args(argv)
    if find_bgammon_server() is None:
        print("bench/online.py: needs bgammon-server (built as .ci/run builds it; on the "
              "PATH or named by TAVLA_BGAMMON_SERVER)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        (tmp / "server").mkdir()
        with BgammonServer(tmp / "server") as server:
            match = play_matches(server, tmp, args)
    return 0 if report(match, args) else 1


if __name__ == "__main__":
    sys.exit(main())
