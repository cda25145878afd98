"""The sensing soak of 15-checker starts and pins: many seeded runs, the tallies summed.

    python tools/stack_soak.py --runs 200 --moves 60 --seed 1 [--variant plakoto|fevga]

Each run (:class:`tavla_pi.testing.stack_soak.StackRun`) lays out a Plakoto or
Fevga start on its own modelled board (its parts drawn from its seed), moves
random checkers and checks after every lift and placement that the decoder's
observation contains the truth.  Prints the tallies and every reading that
left the truth out; exit status 1 if there was one.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.testing.stack_soak import STARTS, StackRun


def main(argv: list[str] | None = None) -> int:
    """Run the soak; 0 when every observation held the truth."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=sorted(STARTS), action="append")
    args = parser.parse_args(argv)
    pinmap = load_pinmap()
    wrong = 0
    for variant in args.variant or sorted(STARTS):
        tally: Counter[str] = Counter()
        for index in range(args.runs):
            run = StackRun(pinmap, args.seed * 1_000_003 + index, variant, args.moves).run()
            tally.update(run.tally)
            for line in run.wrong:
                print(f"WRONG {variant}: {line}")
            wrong += len(run.wrong)
        print(f"{variant}: {args.runs} runs of {args.moves} movements")
        for key in sorted(tally):
            print(f"  {key:32} {tally[key]}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
