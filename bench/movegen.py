"""Benchmark: legal plays over every case of the move-generation fixture.

    python bench/movegen.py [--passes N] [FIXTURE.jsonl ...]

Every pass decodes the positions afresh (outside the timing) and times
``legal_plays`` once per case, cold: the engine keeps no memo between calls,
so nothing carries over from one case or pass to the next.  Printed: the
first pass (cases per second, mean per case, slowest case), then the same
figures taking each case's best time over all passes (which filters out
pauses caused by other processes on a busy machine), then a pass that also
formats the notation of every play.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tavla_pi.rules import Position

ROOT = Path(__file__).resolve().parent.parent
Case = tuple[str, tuple[int, int]]


def load(paths: list[Path]) -> list[Case]:
    """(Position ID, dice) of every case in the fixture files."""
    cases = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for line in f:
                case = json.loads(line)
                cases.append((case["position_id"], (case["dice"][0], case["dice"][1])))
    return cases


def plays_only(position: Position, dice: tuple[int, int]) -> None:
    """What is timed normally: the list of plays with their result positions."""
    position.legal_plays(dice)


def with_notation(position: Position, dice: tuple[int, int]) -> None:
    """The plays and the notation of every one of them."""
    for play in position.legal_plays(dice):
        _ = play.notation


def time_pass(cases: list[Case], work: Callable[[Position, tuple[int, int]], None]) -> list[float]:
    """Seconds ``work`` takes on each case, positions decoded fresh outside the timing."""
    positions = [(Position.from_position_id(pid), dice) for pid, dice in cases]
    times = []
    clock = time.perf_counter
    for position, dice in positions:
        start = clock()
        work(position, dice)
        times.append(clock() - start)
    return times


def report(label: str, cases: list[Case], times: list[float]) -> None:
    """Print throughput, mean, median and the slowest case."""
    total = sum(times)
    worst = max(range(len(times)), key=times.__getitem__)
    pid, dice = cases[worst]
    print(
        f"{label}: {len(cases)} cases in {total:.3f} s, {len(cases) / total:,.0f} cases/s, "
        f"mean {total / len(cases) * 1e3:.3f} ms, median {statistics.median(times) * 1e3:.3f} ms,"
        f" slowest {pid} {dice[0]}-{dice[1]} {times[worst] * 1e3:.3f} ms"
    )


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("fixtures", nargs="*", type=Path)
    args = ap.parse_args()
    fixtures = ROOT / "tests" / "fixtures"
    cases = load(args.fixtures or sorted(fixtures.glob("movegen*.jsonl")))
    print(f"Python {sys.version.split()[0]}, {len(cases)} cases, {args.passes} passes")
    passes = [time_pass(cases, plays_only) for _ in range(args.passes)]
    report("legal_plays, first pass", cases, passes[0])
    report("legal_plays, best of passes", cases, [min(ts) for ts in zip(*passes, strict=True)])
    notation = [time_pass(cases, with_notation) for _ in range(args.passes)]
    report("+ notation, best of passes", cases, [min(ts) for ts in zip(*notation, strict=True)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
