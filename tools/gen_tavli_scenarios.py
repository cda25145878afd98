#!/usr/bin/env python3
"""Scenarios of whole Plakoto and Fevga games and tavli matches, with the events they must print.

    .venv/bin/python tools/gen_tavli_scenarios.py examples   # the three tavli examples/
    .venv/bin/python tools/gen_tavli_scenarios.py corpus     # rewrite tests/scenarios/tavli/
    .venv/bin/python tools/gen_tavli_scenarios.py soak --seed 7 --games 20 --out /tmp/tavli

Each game is played through tavla_pi.rules (tools/tavli_game.py: seeded dice and
plays, or a script of dice and plays for its first turns) and rendered by a
hand (tools/tavli_hand.py: clean, noisy, or putting checkers on wrong points
and correcting them).  NAME.expected.jsonl holds what the rules say the game
must print: game_started's variant, the opening rolls, every played (the dice,
the play, the board after it), no_legal_move, the rejected DONEs, game_over and
match_over (compared by tests/scenario_compare.py).  GNU Backgammon has no part
here: it plays Portes only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hand_lines import Line
from tavli_game import Begin, End, Item, Moment, Script, Turn, play_match
from tavli_hand import CLEAN, CORRECTED, NOISY, Noise, TavliHand

ROOT = Path(__file__).resolve().parent.parent
HANDS = (("clean", CLEAN), ("noisy", NOISY), ("corrected", CORRECTED))


@dataclass(frozen=True)
class Spec:
    """One game or match, the hands that play it, and what it must show."""

    name: str
    title: str
    match: str  # "plakoto", "fevga" or "tavli"
    length: int
    seed: int
    hands: tuple[tuple[str, Noise], ...] = HANDS
    script: Script | None = None
    want: Callable[[list[Item]], bool] = lambda _: True


def pins_lifted(items: list[Item]) -> int:
    """How many pins were lifted by a play (the pinner left the point)."""
    return sum(len(set(t.before.board()["pinned"]) - set(t.after.board()["pinned"]))
               for t in items if isinstance(t, Turn) and t.play)


def ends(items: list[Item]) -> list[str]:
    return [i.kind for i in items if isinstance(i, End)]


def games(items: list[Item]) -> list[str]:
    return [i.name for i in items if isinstance(i, Begin)]


REFUSED = {"type": "rejected", "player": "white", "reason": "the board does not show a legal play"}
# Fevga: White's opening 5-5 tries a second checker off the start before the first has
# passed Black's start (refused), then builds five points in front of Black's start
# while every Black roll is blocked; its 6-3 making the sixth is refused.
FIRST_CHECKER = Moment((5, 5), "24/9 24/19", hand=(
    "# the first checker to 19, then a second one off the start: the first-checker rule",
    {"move": "24/19", "color": "white"}, {"move": "24/19", "color": "white"},
    {"wait": 800}, {"press": "white.roll"},
    "# rejected; the second checker goes back and the first runs on past Black's start",
    {"wait": 500}, {"move": "19/24", "color": "white"}, {"move": "19/14", "color": "white"},
    {"move": "14/9", "color": "white"}, {"move": "24/19", "color": "white"},
), expect=(REFUSED,))
BLOCK = Moment((6, 3), "21/15 18/15", hand=(
    "# 18/9 would hold 6..11 in front of all Black's checkers: refused, another play opens it",
    {"move": "18/15", "color": "white"}, {"move": "15/9", "color": "white"},
    {"wait": 800}, {"press": "white.roll"},
    {"wait": 500}, {"move": "9/15", "color": "white"}, {"move": "21/15", "color": "white"},
), expect=(REFUSED,))
FEVGA_SCRIPT = Script(openings={0: [(5, 3)]}, moments={0: [
    FIRST_CHECKER, Moment((3, 3), None),
    Moment((6, 3), "19/13 9/6"), Moment((6, 6), None),
    Moment((6, 3), "24/21 13/7"), Moment((5, 5), None),
    Moment((5, 5), "24/19(2) 21/11"), Moment((1, 1), None),
    Moment((5, 4), "19/10"), Moment((1, 1), None),
    Moment((6, 5), "24/18 19/14"), Moment((1, 1), None),
    Moment((6, 3), "24/21 14/8"), Moment((1, 1), None),
    BLOCK,
]})

EXAMPLES = (
    Spec("plakoto_pin_and_mother", "A Plakoto game: pins laid and lifted; White pins Black's "
         "last checker on its start: the mother, 2 points", "plakoto", 1, 29,
         hands=(("", CLEAN),),
         want=lambda items: ends(items) == ["mother"] and pins_lifted(items) >= 3),
    Spec("fevga_first_checker_and_block", "A Fevga game: the first-checker rule refuses a "
         "second checker off the start; a six-point block in front of all Black's checkers "
         "refused while another play opens it", "fevga", 1, 1,
         hands=(("", CLEAN),), script=FEVGA_SCRIPT),
    Spec("tavli_match_to_3", "A tavli match to 3: Portes (a backgammon, 2), Plakoto (a draw: "
         "the same player starts), Fevga, Portes again; the winner of each game rolls first",
         "tavli", 3, 3, hands=(("", CLEAN),),
         want=lambda items: games(items) == ["portes", "plakoto", "fevga", "portes"]),
)
CORPUS = (
    Spec("plakoto_a", "A Plakoto game won by a mother checker", "plakoto", 1, 13,
         want=lambda items: ends(items) == ["mother"]),
    Spec("plakoto_b", "A Plakoto game", "plakoto", 1, 1),
    Spec("fevga_a", "A Fevga game", "fevga", 1, 2),
    Spec("fevga_b", "A Fevga game", "fevga", 1, 11),
    Spec("tavli3_a", "A tavli match to 3", "tavli", 3, 8,
         want=lambda items: games(items) == ["portes", "plakoto", "fevga"]),
)


def render(spec: Spec, out: Path, origin: str) -> list[str]:
    """Play the spec, write each hand's scenario and expected events; the names written."""
    items = play_match(spec.match, spec.length, random.Random(spec.seed), script=spec.script)
    if not spec.want(items):
        raise SystemExit(f"{spec.name}: seed {spec.seed} no longer shows what it should")
    written = []
    for suffix, noise in spec.hands:
        name = f"{spec.name}_{suffix}" if suffix else spec.name
        setup = {"setup": "start", "variant": spec.match, "match_length": spec.length}
        lines, expected = TavliHand(random.Random(f"{spec.seed}/{suffix}"), noise,
                                    setup).render(items)
        header = [f"# {name}: {spec.title}.",
                  f"# {origin} (seed {spec.seed}); expected events in {name}.expected.jsonl"]
        write_lines(out / f"{name}.jsonl", header, lines)
        write_lines(out / f"{name}.expected.jsonl", [], list(expected))
        written.append(name)
    return written


def write_lines(path: Path, header: list[str], lines: list[Line | str]) -> None:
    text = [*header, *(line if isinstance(line, str) else json.dumps(line) for line in lines)]
    path.write_text("\n".join(text) + "\n")


def soak_specs(seed: int, count: int) -> list[Spec]:
    """``count`` random games and matches, all three hands each."""
    rng = random.Random(seed)
    kinds = (("plakoto", 1), ("fevga", 1), ("tavli", 3))
    return [Spec(f"soak{seed}_{n:03d}_{match}", f"A random {match} game", match, length,
                 rng.randrange(1 << 30))
            for n in range(count) for match, length in [rng.choice(kinds)]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("examples", "corpus", "soak"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    origin = f"tools/gen_tavli_scenarios.py {args.mode}"
    if args.mode == "soak":
        specs, out = soak_specs(args.seed, args.games), args.out or Path("/tmp/tavli-soak")
        origin += f" --seed {args.seed}"
    elif args.mode == "examples":
        specs, out = list(EXAMPLES), args.out or ROOT / "examples"
    else:
        specs, out = list(CORPUS), args.out or ROOT / "tests" / "scenarios" / "tavli"
    out.mkdir(parents=True, exist_ok=True)
    written = [name for spec in specs for name in render(spec, out, origin)]
    print(f"{len(written)} scenarios written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
