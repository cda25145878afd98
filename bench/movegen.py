"""Benchmark: legal plays over every case of the move-generation fixture.

    python bench/movegen.py [FIXTURE.jsonl ...]

Each case is timed once, cold (positions are decoded fresh and nothing is
reused between cases); prints cases per second, the mean per case and the
slowest case.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tavla_pi.rules import Position

ROOT = Path(__file__).resolve().parent.parent


def load(paths: list[Path]) -> list[tuple[str, tuple[int, int]]]:
    """(Position ID, dice) of every case in the fixture files."""
    cases = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for line in f:
                case = json.loads(line)
                cases.append((case["position_id"], (case["dice"][0], case["dice"][1])))
    return cases


def time_cases(cases: list[tuple[str, tuple[int, int]]]) -> list[float]:
    """Seconds legal_plays takes on each case (positions decoded outside the timing)."""
    positions = [(Position.from_position_id(pid), dice) for pid, dice in cases]
    times = []
    clock = time.perf_counter
    for position, dice in positions:
        start = clock()
        position.legal_plays(dice)
        times.append(clock() - start)
    return times


def main() -> int:
    """Run the benchmark and print its figures."""
    fixtures = ROOT / "tests" / "fixtures"
    paths = [Path(a) for a in sys.argv[1:]] or sorted(fixtures.glob("movegen*.jsonl"))
    cases = load(paths)
    times = time_cases(cases)
    total = sum(times)
    worst = max(range(len(times)), key=times.__getitem__)
    pid, dice = cases[worst]
    print(f"movegen: {len(cases)} cases in {total:.3f} s: {len(cases) / total:,.0f} cases/s, "
          f"mean {total / len(cases) * 1e3:.3f} ms per case")
    print(f"slowest: {pid} {dice[0]}-{dice[1]} {times[worst] * 1e3:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
