"""A club night's load: many boards broadcasting whole games through one Mosquitto, and the
club page's server (``tavla-pi club``, its own process) following them all.

The games are real: a daemon's parts on the simulated board (tavla_pi/testing/daemon.py,
on a virtual clock) play ``--games`` whole games of random legal plays, and every batch
of events the daemon commits is recorded with the viewer's state after it, exactly as
the daemon offers them to its broadcast.  Then ``--boards`` boards, each with its own
connection (:class:`~tavla_pi.remote.link.Link`) and broadcast
(:class:`~tavla_pi.remote.broadcast.Broadcast`), the daemon's own, replay those
batches under their own names, one every ``--interval-ms`` per board (a person commits
something about once a second; the default is five times as fast), starting at random
offsets.  A reader of the club server's ``GET /api/stream`` times each event and state
from the board's commit (the payload's ``at``, the same wall clock) to its arrival.

It prints the messages per second the server received, the p50, p99 and max of that
delay, and the server's CPU (the share of one core over the run) and RSS (peak).

    python bench/club.py [--boards 50] [--games 3] [--interval-ms 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tavla_pi.remote.broadcast import Broadcast
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.link import Link
from tavla_pi.remote.settings import NetworkSettings
from tavla_pi.testing.broadcast import VirtualTable, play_turn, set_up
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.testing.mosquitto import Mosquitto

AIM_P99_MS = 500.0
AIM_CPU = 0.5
CLUB = "bench"
START_TIMEOUT_S = 30.0
Batch = tuple[list[Any], dict[str, Any]]


class Recorder:
    """Stands where the daemon's broadcast does: keeps what the daemon offers it."""

    def __init__(self) -> None:
        self.batches: list[Batch] = []

    def offer(self, events: list[Any], state: dict[str, Any]) -> None:
        self.batches.append((list(events), dict(state)))


def record_games(games: int, seed: int, folder: Path) -> list[Batch]:
    """The batches a daemon offers its broadcast over ``games`` whole games."""
    daemon = VirtualDaemon(folder)
    recorder = Recorder()
    daemon.core.broadcast = recorder  # type: ignore[assignment]  # it stands where one goes
    table, rng = VirtualTable(daemon), random.Random(seed)

    async def play() -> None:
        for _ in range(games):
            state = await set_up(table)
            while state["phase"] not in ("game_over", "match_over"):
                state = await play_turn(table, rng)
    asyncio.run(play())
    return recorder.batches


class ClubServer:
    """``tavla-pi club`` on a free port, its page's stream read on a thread."""

    def __init__(self, broker: Mosquitto, log: Path) -> None:
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavla_pi", "club", "--broker", broker.url, "--club", CLUB,
             "--http", "127.0.0.1:0", "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=self._log, text=True)
        assert self.proc.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.proc.stdout.readline())
        if found is None:
            raise RuntimeError(f"tavla-pi club did not start: {log.read_text()}")
        self.port = int(found[1])
        self.delays: list[float] = []
        self.received = 0
        self._lock = threading.Lock()
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        conn.request("GET", "/api/stream")
        self._answer = conn.getresponse()
        threading.Thread(target=self._read, name="club-stream", daemon=True).start()

    def _read(self) -> None:
        while line := self._answer.fp.readline():
            if not line.startswith(b"data: "):
                continue
            now_ms = time.time() * 1000
            message = json.loads(line[6:])
            if message["kind"] not in ("event", "state"):
                continue
            with self._lock:
                self.received += 1
                self.delays.append(now_ms - message["payload"]["at"])

    def counted(self) -> tuple[int, list[float]]:
        with self._lock:
            return self.received, list(self.delays)

    def cpu_s(self) -> float:
        """The server's CPU seconds so far (user and system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / 100  # USER_HZ

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(found[1]) / 1024 if found else float("nan")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self._log.close()


def open_boards(broker: Mosquitto, count: int) -> list[tuple[Link, Broadcast]]:
    """``count`` boards' connections and broadcasts, connected."""
    boards = []
    for n in range(count):
        name = f"board-{n:02d}"
        network = NetworkSettings(broker=broker.broker, board=name, club=CLUB)
        link = Link(network, key=BoardKey.load_or_make(broker.directory / name))
        broadcast = Broadcast(name, link)
        link.start()
        broadcast.start()
        boards.append((link, broadcast))
    deadline = time.monotonic() + START_TIMEOUT_S
    while not all(link.connected for link, _ in boards):
        if time.monotonic() > deadline:
            raise TimeoutError("not every board connected to the broker")
        time.sleep(0.05)
    return boards


def replay(boards: list[tuple[Link, Broadcast]], batches: list[Batch], interval_s: float,
           rng: random.Random) -> int:
    """Every board offers every batch, one per ``interval_s``, from a random offset; the
    events and states offered."""
    starts = [rng.uniform(0, interval_s) for _ in boards]
    began = time.monotonic()
    offered = 0
    for step, (events, state) in enumerate(batches):
        for (_, broadcast), start in zip(boards, starts, strict=True):
            wait = began + start + step * interval_s - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            broadcast.offer(events, state)
            offered += len(events) + 1
    return offered


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Run the night; exit 1 if the aim is missed or messages were lost."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--interval-ms", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        folder = Path(tmp)
        batches = record_games(args.games, args.seed, folder)
        events = sum(len(e) for e, _ in batches)
        print(f"recorded {args.games} games: {len(batches)} commits, {events} events")
        with Mosquitto(folder) as broker:
            server = ClubServer(broker, folder / "club.log")
            boards = open_boards(broker, args.boards)
            cpu0, t0 = server.cpu_s(), time.monotonic()
            offered = replay(boards, batches, args.interval_ms / 1000, random.Random(args.seed))
            deadline = time.monotonic() + 30
            while server.counted()[0] < offered and time.monotonic() < deadline:
                time.sleep(0.05)
            seconds, cpu = time.monotonic() - t0, server.cpu_s() - cpu0
            received, delays = server.counted()
            dropped = sum(b.dropped for _, b in boards)
            for link, broadcast in boards:
                broadcast.close()
                link.close()
            rss = server.peak_rss_mb()
            server.close()
    print(f"{args.boards} boards, a commit each every {args.interval_ms} ms: {offered} "
          f"messages offered, {received} received by the club server, {dropped} dropped")
    print(f"messages per second (received over {seconds:.1f} s): {received / seconds:.0f}")
    print(f"board's commit -> club server's stream: p50 {percentile(delays, 0.5):.1f} ms, "
          f"p99 {percentile(delays, 0.99):.1f} ms, max {max(delays, default=float('nan')):.1f} ms")
    print(f"club server: CPU {100 * cpu / seconds:.1f} % of one core, peak RSS {rss:.1f} MB")
    met = percentile(delays, 0.99) < AIM_P99_MS and cpu / seconds < AIM_CPU
    print(f"aim: p99 under {AIM_P99_MS:.0f} ms, under {100 * AIM_CPU:.0f} % of one core: "
          f"{'met' if met else 'MISSED'}")
    return 0 if met and received == offered else 1


if __name__ == "__main__":
    sys.exit(main())
