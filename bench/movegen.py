"""Benchmark: legal plays over the move-generation fixture, then over Plakoto and Fevga.

    python bench/movegen.py [--passes N] [--variant-positions N] [FIXTURE.jsonl ...]

Every pass decodes the positions afresh (outside the timing) and times
``legal_plays`` once per case, cold: the engine keeps no memo between calls,
so nothing carries over from one case or pass to the next.  Printed: the
first pass (cases per second, mean per case, slowest case), then the same
figures taking each case's best time over all passes (which filters out
pauses caused by other processes on a busy machine), then a pass that also
formats the notation of every play.

Plakoto and Fevga have no outside fixture: their cases are the positions met
on seeded random games (random dice, random legal plays) with each of the 21
rolls, timed the same way (first pass, then best of passes).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tavla_pi.rules import Position, VariantPosition, variant

ROOT = Path(__file__).resolve().parent.parent
Case = tuple[str, tuple[int, int]]
VariantCase = tuple[VariantPosition, tuple[int, int]]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


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


def report(label: str, times: list[float], slowest: Callable[[int], str]) -> None:
    """Print throughput, mean, median and the slowest case (``slowest`` names case i)."""
    total = sum(times)
    worst = max(range(len(times)), key=times.__getitem__)
    print(
        f"{label}: {len(times)} cases in {total:.3f} s, {len(times) / total:,.0f} cases/s, "
        f"mean {total / len(times) * 1e3:.3f} ms, median {statistics.median(times) * 1e3:.3f} ms,"
        f" slowest {times[worst] * 1e3:.3f} ms: {slowest(worst)}"
    )


def fixture_case(cases: list[Case]) -> Callable[[int], str]:
    """How a fixture case is named: its Position ID and roll."""
    return lambda i: f"{cases[i][0]} {cases[i][1][0]}-{cases[i][1][1]}"


def random_positions(name: str, count: int, seed: int = 1) -> list[VariantPosition]:
    """``count`` positions met on seeded random games of the variant ``name``."""
    rng = random.Random(seed)
    v = variant(name)
    found: list[VariantPosition] = []
    while len(found) < count:
        p = v.initial()
        while len(found) < count and not p.is_game_over():
            found.append(p)
            plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            p = rng.choice(plays).result if plays else v.from_board(
                p.board(), p.on_roll.opponent)
    return found


def time_variant(cases: list[VariantCase]) -> list[float]:
    """Seconds ``legal_plays`` takes on each (position, dice) case."""
    times = []
    clock = time.perf_counter
    for position, dice in cases:
        start = clock()
        position.legal_plays(dice)
        times.append(clock() - start)
    return times


def variant_case(cases: list[VariantCase]) -> Callable[[int], str]:
    """How a variant's case is named: its roll and the position (a call building it)."""
    return lambda i: f"{cases[i][1][0]}-{cases[i][1][1]} {cases[i][0]!r}"


def bench_variants(positions: int, passes: int) -> None:
    """Time Plakoto's and Fevga's legal plays on random positions and all 21 rolls."""
    for name in ("plakoto", "fevga"):
        cases = [(p, roll) for p in random_positions(name, positions) for roll in ROLLS]
        runs = [time_variant(cases) for _ in range(passes)]
        named = variant_case(cases)
        report(f"{name}, first pass", runs[0], named)
        report(f"{name}, best of passes", [min(ts) for ts in zip(*runs, strict=True)], named)


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--variant-positions", type=int, default=1000,
                    help="random Plakoto and Fevga positions to time (each with 21 rolls)")
    ap.add_argument("fixtures", nargs="*", type=Path)
    args = ap.parse_args()
    fixtures = ROOT / "tests" / "fixtures"
    cases = load(args.fixtures or sorted(fixtures.glob("movegen*.jsonl")))
    print(f"Python {sys.version.split()[0]}, {len(cases)} cases, {args.passes} passes")
    passes = [time_pass(cases, plays_only) for _ in range(args.passes)]
    named = fixture_case(cases)
    report("legal_plays, first pass", passes[0], named)
    report("legal_plays, best of passes", [min(ts) for ts in zip(*passes, strict=True)], named)
    notation = [time_pass(cases, with_notation) for _ in range(args.passes)]
    report("+ notation, best of passes", [min(ts) for ts in zip(*notation, strict=True)], named)
    bench_variants(args.variant_positions, args.passes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
