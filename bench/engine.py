"""The engine room's figures: decision time per level, memory, the scan loop meanwhile.

Plays one money game (gnubg expert against itself, seeded dice) to collect
its positions, then times every level on the same positions through the
whole path (request, pipe, bridge, gnubg, answer matched to a legal play):
the chequer play for each roll, and the cube action before each roll the
rules allow a double.  Prints the median and the 99th percentile per level
and gnubg's start time.  Then the scan loop's worst step while the engine
thinks: the daemon's scan step (``Pipeline.step`` on the modelled board, set
up) run on the real clock every ``SCAN_MS`` as the daemon's loop runs it,
first idle, then while the background front (``BackgroundEngine``) answers
the game's plays at world class; it prints the worst step, and how many steps
started more than one period late.  Last, the resident memory (VmRSS) of
gnubg and of this process (the pipeline and the engine's front: a daemon).
Aims: expert p99 under 100 ms, world class p99 under 2 s, no step late by
more than one period.  The 0-ply levels sit near 10 ms because gnubg waits
for each evaluation task in polls of 10 ms (multithread.c,
WaitForAllTasks), not because the pipe is slow.
Run: ``python bench/engine.py [--seed 1] [--levels expert "world class"] [--idle 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tavla_pi.clock import MonotonicClock
from tavla_pi.daemon.startup import SIM_SEED, board_calibration
from tavla_pi.engine import (
    NOT_INSTALLED,
    BackgroundEngine,
    EngineRequest,
    GnubgEngine,
    Level,
    find_gnubg,
)
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings
from tavla_pi.hal.backends import open_backend
from tavla_pi.hal.sim.backend import SimBackend
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.pipeline.step import SCAN_MS, Pipeline
from tavla_pi.rules import Color, MatchState, Position
from tavla_pi.rules.cube import may_double
from tavla_pi.rules.dice import SecureDice


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB."""
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found
    return int(found[1]) / 1024


def one_game(engine: GnubgEngine, seed: int) -> list[EngineRequest]:
    """Every turn of a money game gnubg (expert) plays against itself, with its roll."""
    rng = random.Random(seed)
    position, player = Position.initial(), Color.WHITE
    turns = []
    while not position.is_game_over():
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        turn = EngineRequest(position, MatchState(on_roll=player, to_act=player, dice=dice))
        turns.append(turn)
        play = engine.play(turn).play
        position = play.result if play is not None else position.swap()
        player = player.opponent
    return turns


def at_level(turns: list[EngineRequest], level: Level, seed: int) -> list[EngineRequest]:
    """The same turns asked at ``level``."""
    return [EngineRequest(t.position, t.state, t.rules, level, seed) for t in turns]


def timed(ask: Callable[[EngineRequest], object], requests: list[EngineRequest]) -> list[float]:
    """Milliseconds each request took."""
    times = []
    for request in requests:
        start = time.perf_counter()
        ask(request)
        times.append((time.perf_counter() - start) * 1000)
    return times


def p99(times: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(times)
    return ordered[math.ceil(0.99 * len(ordered)) - 1]


def figures(label: str, times: list[float]) -> str:
    """One line of the table."""
    return (
        f"{label:<26} {len(times):>4}  median {statistics.median(times):7.1f} ms"
        f"  p99 {p99(times):7.1f} ms  max {max(times):7.1f} ms"
    )


def scan_pipeline() -> Pipeline:
    """The daemon's scan step on the modelled board, set up for a game, on the real clock."""
    pinmap = load_pinmap()
    clock = MonotonicClock()
    backend = open_backend("sim", pinmap, clock, random.Random(SIM_SEED))
    assert isinstance(backend, SimBackend)
    calibration = board_calibration(backend, pinmap, Path())  # the sim's: its empty twin
    referee = Referee(GameSettings(), SecureDice())
    pipeline = Pipeline(backend, pinmap, calibration, referee, clock)
    backend.board.setup_start()
    return pipeline


@dataclass
class ScanFigures:
    """Each step's time (the wall clock, as the loop sees it) and how late it started (ms)."""

    steps: list[float]
    lateness: list[float]

    def line(self, label: str) -> str:
        late = sum(1 for t in self.lateness if t > SCAN_MS)
        median = statistics.median(self.steps)
        return (f"{label:<26} {len(self.steps):>5} steps  median {median:6.2f} ms"
                f"  worst {max(self.steps):6.2f} ms  worst lateness {max(self.lateness):6.1f}"
                f" ms  late by more than {SCAN_MS} ms: {late}")


async def scan_loop(pipeline: Pipeline, going: Callable[[], bool]) -> ScanFigures:
    """Step ``pipeline`` every SCAN_MS while ``going()``, scheduled as the daemon's scan
    loop schedules it (``tavla_pi.daemon.service``: a step that falls more than one period
    behind skips ahead rather than bursting)."""
    loop = asyncio.get_running_loop()
    period = SCAN_MS / 1000
    figures = ScanFigures([], [])
    next_at = loop.time()
    while going():
        began = loop.time()
        figures.lateness.append((began - next_at) * 1000)
        pipeline.step()
        figures.steps.append((loop.time() - began) * 1000)
        next_at += period
        delay = next_at - loop.time()
        if delay < -period:
            next_at, delay = loop.time(), 0.0
        await asyncio.sleep(max(delay, 0.0))
    return figures


def scan_while_thinking(gnubg: GnubgEngine, turns: list[EngineRequest], seed: int,
                        idle_s: float) -> BackgroundEngine:
    """Print the scan loop's figures idle, then while the engine answers every turn at
    world class in the background; the background front (still running: close it)."""
    pipeline = scan_pipeline()
    until = time.monotonic() + idle_s
    idle = asyncio.run(scan_loop(pipeline, lambda: time.monotonic() < until))
    print(idle.line("scan loop, engine idle"))
    engine = BackgroundEngine(gnubg, MonotonicClock())
    engine.start()
    started = time.monotonic()
    jobs = [engine.play(t) for t in at_level(turns, Level.WORLD_CLASS, seed)]
    thinking = asyncio.run(scan_loop(pipeline, lambda: not jobs[-1].done()))
    for job in jobs:
        job.result()  # an engine failure is a failed benchmark, not a quiet figure
    label = f"scan loop, {len(jobs)} w.c. plays"
    print(thinking.line(label) + f"  ({time.monotonic() - started:.1f} s)")
    return engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="*", default=[level.value for level in Level])
    parser.add_argument("--idle", type=float, default=3.0,
                        help="seconds of the scan loop with the engine idle (default 3)")
    args = parser.parse_args()
    program = find_gnubg()
    if program is None:
        print(f"skipped: gnubg is not installed ({NOT_INSTALLED})")
        return 0
    version = subprocess.run([program, "--version"], capture_output=True, text=True, check=True)
    print(version.stdout.splitlines()[0])
    with tempfile.TemporaryDirectory() as prefs:
        engine = GnubgEngine.launch(Path(prefs))
        start = time.perf_counter()
        engine.start()
        print(f"gnubg started in {(time.perf_counter() - start) * 1000:.0f} ms")
        turns = one_game(engine, args.seed)
        before = [EngineRequest(t.position, t.state.replace(dice=None)) for t in turns]
        cubes = [t for t in before if may_double(t.state, t.state.on_roll, t.rules)]
        print(f"one game: {len(turns)} turns, {len(cubes)} cube decisions")
        for name in args.levels:
            level = Level.named(name)
            plays = timed(engine.play, at_level(turns, level, args.seed))
            print(figures(f"{level.value}: play", plays))
            cube = timed(engine.cube_action, at_level(cubes, level, args.seed))
            print(figures(f"{level.value}: cube action", cube))
        background = scan_while_thinking(engine, turns, args.seed, args.idle)
        pid = engine.supervisor.pid
        assert pid is not None
        restarts = engine.supervisor.restarts
        gnubg, own = rss_mb(pid), rss_mb(os.getpid())
        print(f"gnubg resident memory: {gnubg:.1f} MB (pid {pid}), restarts {restarts}")
        print(f"this process (pipeline, engine front): {own:.1f} MB; with gnubg "
              f"{gnubg + own:.1f} MB")
        background.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
