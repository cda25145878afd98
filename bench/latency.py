"""How fast the board answers a hand: latency per kind of answer, in virtual ms.

Replays every scenario in examples/ and then a long random session played by the
soak's scripted hand (its pauses, slides, glitches, takebacks and mistakes) on the
modelled board, and prints for each kind of answer (lift -> destinations,
place -> verdict, hit -> put it on the bar, DONE -> committed, fix -> in sync) the
virtual time from the hand's action to the game's event and to the LED frame that
shows it: median, p99 and max (:mod:`tavla_pi.replay.timings`).

    python bench/latency.py [--games N] [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.replay.timings import Timeline
from tavla_pi.testing.soak import Session

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TARGETS = {"lift -> destinations": 80, "place -> verdict": 80,
           "DONE -> committed (from the release)": 50}
"""p99 of the frame latency each answer should stay under (virtual ms), phantoms and
all: a phantom beside a change is left out of the lights where part of the change
reads as a sensible board (hardware/GEOMETRY.md, "How fast the board answers")."""


def examples() -> Timeline:
    """Every example scenario replayed into one timeline."""
    timeline = Timeline()
    pinmap = load_pinmap()
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        runner = ScenarioRunner(pinmap, GameSettings())
        runner.watchers.append(timeline)
        for _ in runner.run(list(read_scenario(path))):
            pass
        timeline.close()
    return timeline


def random_session(games: int, seed: int) -> tuple[Timeline, int]:
    """A money session of ``games`` random games by the soak's hand; its timeline and the
    plays committed."""
    timeline = Timeline()
    session = Session(load_pinmap(), seed, games=games)
    session.runner.watchers.append(timeline)
    result = session.run()
    timeline.close()
    if result.failures:
        print(f"latency: the session failed: {result.failures[0]}", file=sys.stderr)
    return timeline, result.counts["plays_committed"]


def main(argv: list[str] | None = None) -> int:
    """Print both tables (or JSON); 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games of the random session")
    parser.add_argument("--seed", type=int, default=13, help="seed of the random session")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args(argv)
    shown = examples()
    played, plays = random_session(args.games, args.seed)
    if args.json:
        print(json.dumps({"examples": shown.summary(), "random": played.summary(),
                          "random_plays": plays}, indent=1))
    else:
        print("examples/ (every scenario)")
        print(shown.table())
        print(f"\na random money session: {args.games} games, {plays} plays (seed {args.seed})")
        print(played.table())
    missed = [f"{kind}: frame p99 {stats['frame']['p99']} ms >= {limit} ms"
              for timeline in (shown, played)
              for kind, stats in timeline.summary().items() if kind in TARGETS
              for limit in (TARGETS[kind],)
              if stats["frame"] is not None and stats["frame"]["p99"] >= limit]
    for line in missed:
        print(f"latency: target missed: {line}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
