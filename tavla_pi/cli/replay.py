"""``tavla-pi replay SCENARIO.jsonl``: run a scenario headless, print events as JSON lines.

A scenario with an opponent needs GNU Backgammon: without it the replay stops
before anything runs (status 2) with the line saying how to install it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.replay.timings import Timeline


def add_parser(subparsers: Any) -> None:
    """Register ``replay``."""
    parser = subparsers.add_parser(
        "replay", help="run a scenario headless and print its events as JSON lines",
        description="Replays a scenario (docs/CONTRACTS.md section 4) on the modelled board with a "
                    "virtual clock, through the real decode -> reconcile -> game path.")
    parser.add_argument("scenario", type=Path, help="the scenario, JSON lines")
    parser.add_argument("--match-length", type=int, default=0, metavar="N",
                        help="points to play to; 0 (default) is money play")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the modelled board's tolerances and noise (default 0)")
    parser.add_argument("--timings", action="store_true",
                        help="after the events, print on stderr how fast the board answered "
                             "each kind of hand action (virtual ms: median, p99, max)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay and print every event as it happens."""
    lines = list(read_scenario(args.scenario))  # every line checked before anything runs
    runner = ScenarioRunner(load_pinmap(), GameSettings(match_length=args.match_length),
                            seed=args.seed)
    timeline = Timeline()
    if args.timings:
        runner.watchers.append(timeline)
    out = sys.stdout
    with runner:  # an opponent's gnubg is stopped at the end
        for event in runner.run(lines):
            out.write(event.to_json() + "\n")
        out.flush()
    if args.timings:
        timeline.close()
        print(timeline.table(), file=sys.stderr)
    left = runner.dice.queue.remaining
    if left:
        print(f"tavla-pi: {args.scenario}: {len(left)} queued dice were never rolled",
              file=sys.stderr)
    return 0
