"""How fast the soak plays: games a minute and CPU per game, and one full replay.

Runs ``tools/soak.py --games 8 --seed 11 --jobs 1`` (one worker process)
and prints its games, the CPU time per game its worker measured and the
games a minute it played; then runs ``tavla-pi replay
examples/full_game.jsonl`` and prints its CPU time (the child process's,
start-up included).  Where the time of a game goes: ``bench/soak_game.py``.

Measured on the 2-core development machine (other work running beside it,
so a spread of some 20 %), one run after the other, before and after the
soak's pipeline was made faster (the same events, to the byte):

    before: 3.53 s CPU a game, 16.6 games a minute; full_game.jsonl 3.52 s CPU
    after:  2.45 s CPU a game, 24.0 games a minute; full_game.jsonl 2.19 s CPU

Run: ``python bench/soak.py``.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOAK = ("--games", "8", "--seed", "11", "--jobs", "1", "--quiet")
"""The soak run timed (about half a minute)."""


def children_cpu_s() -> float:
    """CPU seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def figure(report: str, label: str) -> float:
    """The number the soak's report prints after ``label``."""
    found = re.search(rf"^\s*{re.escape(label)}\s+([0-9.]+)$", report, re.MULTILINE)
    if found is None:
        raise SystemExit(f"bench/soak.py: no {label!r} in the soak's report:\n{report}")
    return float(found.group(1))


def soak() -> None:
    """Run the soak; print its games, CPU per game and games a minute."""
    start = time.perf_counter()
    report = subprocess.run([sys.executable, str(ROOT / "tools" / "soak.py"), *SOAK],
                            check=True, capture_output=True, text=True, cwd=ROOT).stdout
    wall = time.perf_counter() - start
    games = figure(report, "games")
    print(f"tools/soak.py {' '.join(SOAK)}: {games:.0f} games in {wall:.0f} s")
    cpu = figure(report, "CPU time per game (s, in one worker)")
    print(f"  CPU per game (the worker's): {cpu:.2f} s")
    print(f"  games a minute (one worker, start-up included): {60 * games / wall:.1f}")


def replay() -> None:
    """Replay examples/full_game.jsonl; print its CPU time."""
    before = children_cpu_s()
    subprocess.run([sys.executable, "-m", "tavla_pi", "replay", "examples/full_game.jsonl"],
                   check=True, capture_output=True, cwd=ROOT)
    print(f"tavla-pi replay examples/full_game.jsonl: {children_cpu_s() - before:.2f} s CPU")


def main() -> None:
    soak()
    replay()


if __name__ == "__main__":
    main()
