"""Where the soak's time goes: one worker playing checked games on the modelled board.

Plays a few soak sessions (fixed seeds) and prints the CPU time per game, per
turn and per 20 ms scan, then the share of each stage: the modelled board
(field and noise of 152 sensors), the decoder, the stability filter, the
referee (reconcile included), the LED frame, the scripted hand, and the rest
(the soak's checks, the rules engine, the runner).  Each stage is timed by
wrapping its entry point with a counter (cProfile's cumulative times are
unreliable across the runner's generators).  Run: ``python bench/soak_game.py``.
"""

from __future__ import annotations

import functools
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from tavla_pi.decode.decoder import Decoder
from tavla_pi.decode.stability import StabilityFilter
from tavla_pi.game.referee import Referee
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.pipeline.step import Pipeline
from tavla_pi.testing.hand import Hand
from tavla_pi.testing.soak import Session

SEEDS = (101, 102, 103, 104)
STAGES: tuple[tuple[str, type, str], ...] = (
    ("modelled board: sensor field and noise", SimBoard, "scan"),
    ("decoder", Decoder, "decode"),
    ("stability filter", StabilityFilter, "update"),
    ("referee: observations (reconcile)", Referee, "on_observation"),
    ("referee: buttons and timers", Referee, "tick"),
    ("referee: buttons and timers", Referee, "on_button"),
    ("LED frame", Pipeline, "show"),
    ("hand (the scripted player)", Hand, "turn"),
)

spent: defaultdict[str, float] = defaultdict(float)


def timed(label: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` adding its CPU time to ``spent[label]``."""
    @functools.wraps(method)
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start

    return run


def main() -> None:
    for label, cls, name in STAGES:
        setattr(cls, name, timed(label, getattr(cls, name)))
    pinmap = load_pinmap()
    totals: Counter[str] = Counter()
    start = time.process_time()
    for seed in SEEDS:
        totals.update(Session(pinmap, seed).run().counts)
    cpu = time.process_time() - start
    games, turns, scans = totals["games"], totals["turns"], totals["virtual_ms"] / 20
    print(f"{games} games, {turns} turns, {totals['virtual_ms'] / 1000:.0f} s of virtual time")
    print(f"CPU per game: {cpu / games:.2f} s; per turn: {cpu / turns * 1000:.0f} ms; "
          f"per scan: {cpu / scans * 1000:.2f} ms; virtual time per turn: "
          f"{totals['virtual_ms'] / turns:.0f} ms")
    print(f"share of {cpu:.1f} s CPU:")
    for label in dict.fromkeys(label for label, _, _ in STAGES):
        print(f"  {label:<42} {spent[label]:7.2f} s {spent[label] / cpu:7.1%}")
    rest = cpu - sum(spent.values())
    print(f"  {'the rest: checks, rules engine, runner':<42} {rest:7.2f} s {rest / cpu:7.1%}")


if __name__ == "__main__":
    main()
