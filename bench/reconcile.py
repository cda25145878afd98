"""CPU time from a stable sensor frame to the new pixel frame.

Replays long random games refereed by GNU Backgammon (the corpus in
tests/scenarios/gnubg, clean and clumsy hands) through the real pipeline and
times every pipeline step whose frame became a new stable observation:
decode, stability, reconcile, referee and the LED render and write.  The
modelled board's own scan (physics, the real board's sensors) is not timed.

    .venv/bin/python bench/reconcile.py [SCENARIO ...]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from tavla_pi.game.settings import GameSettings
from tavla_pi.hal.base import RawFrame
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = sorted((ROOT / "tests" / "scenarios" / "gnubg").glob("match5_*_clumsy.jsonl")) + sorted(
    (ROOT / "tests" / "scenarios" / "gnubg").glob("money_*_clumsy.jsonl"))


def timed_run(path: Path) -> tuple[list[float], int]:
    """Times (ms) of the steps that acted on a new stable frame, and the step count."""
    runner = ScenarioRunner(load_pinmap(), GameSettings())
    pipeline = runner.pipeline
    untimed = pipeline.process
    samples: list[float] = []
    steps = 0

    def process(frame: RawFrame) -> list:  # type: ignore[type-arg]
        nonlocal steps
        before = pipeline.stable
        start = time.process_time_ns()
        events = untimed(frame)
        elapsed = (time.process_time_ns() - start) / 1e6
        steps += 1
        if pipeline.stable is not before:
            samples.append(elapsed)
        return events

    pipeline.process = process  # type: ignore[method-assign]
    for _ in runner.run(read_scenario(path)):
        pass
    return samples, steps


def main(paths: list[Path]) -> None:
    """Print median, 99th percentile and maximum over every given scenario."""
    samples: list[float] = []
    steps = 0
    for path in paths:
        more, n = timed_run(path)
        samples += more
        steps += n
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print("stable frame -> pixel frame (decode, stability, reconcile, referee, LED render):")
    print(f"  {len(samples)} stable frames in {steps} scans of {len(paths)} scenarios")
    print(f"  median {statistics.median(samples):.3f} ms, p99 {p99:.3f} ms, "
          f"max {samples[-1]:.3f} ms (CPU time)")


if __name__ == "__main__":
    main([Path(p) for p in sys.argv[1:]] or DEFAULT)
