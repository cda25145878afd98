"""The engine room's figures: decision time per level, gnubg's resident memory.

Plays one money game (gnubg expert against itself, seeded dice) to collect
its positions, then times every level on the same positions through the
whole path (request, pipe, bridge, gnubg, answer matched to a legal play):
the chequer play for each roll, and the cube action before each roll the
rules allow a double.  Prints the median and the 99th percentile per level,
gnubg's start time and its resident memory (VmRSS) at the end.  Aims (issue
11): expert p99 under 100 ms, world class p99 under 2 s.  The 0-ply levels
sit near 10 ms because gnubg waits for each evaluation task in polls of
10 ms (multithread.c, WaitForAllTasks), not because the network is slow.
Run: ``python bench/engine.py [--seed 1] [--levels expert "world class"]``.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tavla_pi.engine import NOT_INSTALLED, EngineRequest, GnubgEngine, Level, find_gnubg
from tavla_pi.rules import Color, MatchState, Position
from tavla_pi.rules.cube import may_double


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="*", default=[level.value for level in Level])
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
        pid = engine.supervisor.pid
        assert pid is not None
        restarts = engine.supervisor.restarts
        print(f"gnubg resident memory: {rss_mb(pid):.1f} MB (pid {pid}), restarts {restarts}")
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
