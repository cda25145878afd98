"""Which scenarios the generator makes: the committed corpus, the readable examples, soak runs.

A spec says how a game starts (the starting position, a laid-out position,
or random play until something interesting happens), how it is decided
(seeded random, or a script of dice, plays and cube actions first), and which
hands play it (clean, clumsy, or a hand that fumbles in one particular way).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scenario_hand import CLEAN, CLUMSY, Clumsiness

BOTH = (("clean", CLEAN), ("clumsy", CLUMSY))


@dataclass(frozen=True)
class Spec:
    """One scenario (or a clean and a clumsy pair of it)."""

    name: str
    title: str
    seed: int
    length: int = 0  # match length; 0 is a money session (no Jacoby)
    games: int = 0  # stop after this many games (0: when the match is over)
    hands: tuple[tuple[str, Clumsiness], ...] = BOTH
    double: float = 0.06  # chance to double, per turn where a double is allowed
    take: float = 0.65  # chance the double is taken
    load: dict[str, Any] | None = None  # arguments of Referee.load
    prelude: str | None = None  # "bearoff", "take" or "drop": random play up to it, then a load
    # first {"opening": [[w, b], ...]}, then turns {"dice": [a, b], "play": ..., "double": ...}
    script: tuple[dict[str, Any], ...] = ()
    then_random: bool = True  # after the script: play on at random (else the scenario ends)
    notes: dict[str, str] = field(default_factory=dict)


# Laid-out positions, absolute locations (White's numbering).
CLOSED = {  # Black on the bar against White's closed board: Black cannot move
    "on_roll": 1,
    "white": {"1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "6": 2, "8": 3},
    "black": {"bar": 1, "19": 4, "20": 4, "21": 3, "22": 3},
}
BEAROFF = {  # White bears off 5 and 4 with 6-5: the higher die from the highest point
    "on_roll": 0,
    "white": {"5": 1, "4": 1, "2": 1},
    "black": {"19": 3, "20": 3, "21": 2, "22": 1},
}
GAMMON = {"on_roll": 0, "white": {"1": 2}, "black": {"13": 5, "19": 10}}
BACKGAMMON = {"on_roll": 0, "white": {"1": 2}, "black": {"3": 1, "19": 14}}
RACE = {"on_roll": 0, "white": {"6": 2, "5": 2}, "black": {"19": 2, "20": 2, "21": 1}}


CORPUS: tuple[Spec, ...] = (
    Spec("match1_a", "A 1-point match (no cube) from the opening roll to the end.", 11, length=1),
    Spec("match1_b", "Another 1-point match.", 12, length=1, hands=BOTH[:1]),
    Spec("match3_a", "A 3-point match with the cube, to the end.", 21, length=3, double=0.1),
    Spec("match3_b", "A 3-point match with the cube, to the end.", 22, length=3, double=0.1),
    Spec("match5_a", "A 5-point match: doubles, a Crawford game won by the trailer, "
         "post-Crawford games.", 900035, length=5, double=0.2, take=0.4),
    Spec("match5_b", "A 5-point match: the leader wins the Crawford game.", 900030, length=5,
         double=0.2, take=0.4, hands=BOTH[:1]),
    Spec("money_a", "Two money games with the cube (no Jacoby).", 41, games=2, double=0.1),
    Spec("money_b", "Three money games, doubles often dropped.", 42, games=3, double=0.15,
         take=0.4, hands=BOTH[:1]),
    Spec("load_closed", "Loaded: Black on the bar against a closed board (no legal move), "
         "played on to the end of the game.", 51, length=3, load={**CLOSED, "length": 3}, games=1,
         double=0.0),
    Spec("load_bearoff", "Loaded in a bear-off (random play up to it), a 6 rolled: the higher "
         "die bears off from the highest point; then to the end of the game.", 52, length=3,
         prelude="bearoff", games=1),
    Spec("load_double_take", "Loaded in a middle game, the player on roll doubles and the "
         "double is taken; then to the end of the game.", 53, prelude="take", games=1),
    Spec("load_double_drop", "Loaded in a middle game, a double offered and dropped.", 54,
         length=5, prelude="drop", games=1),
)

ONE = (("", CLEAN),)

EXAMPLES: tuple[Spec, ...] = (
    Spec("full_game", "A whole 1-point match, played cleanly from the opening roll to the end.",
         1, length=1, hands=ONE),
    Spec("gammon", "White bears off its last two checkers; Black has borne off none: a gammon "
         "(2 points) that wins a 3-point match at 1-0.", 2, length=3,
         load={**GAMMON, "length": 3, "score": (1, 0)},
         script=({"dice": [2, 1]},), hands=ONE),
    Spec("backgammon", "White bears off its last two checkers; Black has borne off none and has "
         "a checker in White's home board: a backgammon (3 points).", 3,
         load={**BACKGAMMON, "length": 0}, games=1, script=({"dice": [2, 1]},), hands=ONE),
    Spec("double_take", "Money play: White doubles (Black takes), Black redoubles (White takes), "
         "White wins with the cube on 4.", 4, load={**RACE, "length": 0}, games=1,
         script=({"dice": [6, 5], "double": "take", "play": "6/off 5/off"},
                 {"dice": [4, 2], "double": "take"}, {"dice": [6, 6]}),
         hands=ONE),
    Spec("double_drop", "White doubles in a 3-point match and Black drops: White wins 1 point.",
         5, load={**RACE, "length": 3}, games=1, script=({"dice": [1, 1], "double": "drop"},),
         hands=ONE),
    Spec("hit_and_reentry", "An opening tie (2-2) is rolled again; White opens 6-4 leaving "
         "blots; Black hits with 5-3; White enters from the bar.", 6, length=3,
         script=({"opening": [[2, 2], [6, 4]]}, {"dice": [5, 3], "play": "hit"}, {"dice": [4, 2]}),
         then_random=False, hands=ONE),
    Spec("closed_board", "Black is on the bar against a closed board: no legal move, the turn "
         "passes by itself; then White plays.", 7, load={**CLOSED, "length": 3},
         script=({"dice": [6, 6]}, {"dice": [3, 2], "play": "8/6 8/5"}, {"dice": [5, 1]}),
         then_random=False, hands=ONE),
    Spec("bearoff_higher_die", "White rolls 6-5 with checkers on 5, 4 and 2: both dice bear off "
         "from the highest point; Black plays; White bears off the last checker.", 8,
         load={**BEAROFF, "length": 0}, games=1,
         script=({"dice": [6, 5], "play": "5/off 4/off"}, {"dice": [3, 1]}, {"dice": [2, 1]}),
         hands=ONE),
    Spec("takeback", "Each player first moves a checker somewhere legal and takes it back, "
         "then plays.", 9, length=1,
         script=({"opening": [[3, 1]]}, {"dice": [6, 5]}), then_random=False,
         hands=(("", Clumsiness(takeback=1.0)),)),
    Spec("illegal_corrected", "Checkers put on wrong or blocked points, left there, then moved "
         "to the right point.", 10, length=1,
         script=({"opening": [[5, 2]]}, {"dice": [4, 3]}), then_random=False,
         hands=(("", Clumsiness(wrong=1.0, split=1.0)),)),
    Spec("glitches_and_slides", "Phantom readings under 150 ms and checkers slid across the "
         "points they pass.", 11, length=1,
         script=({"opening": [[6, 1]]}, {"dice": [5, 4]}, {"dice": [6, 3]}), then_random=False,
         hands=(("", Clumsiness(glitch=1.0, slide=1.0, combine=1.0)),)),
    Spec("knocked_stack", "A hand knocks checkers off a stack and puts them back, between "
         "moves.", 12, length=1, script=({"opening": [[4, 2]]}, {"dice": [3, 3]}),
         then_random=False, hands=(("", Clumsiness(knock=1.0)),)),
    Spec("done_too_early", "DONE pressed before the play is complete: rejected, nothing "
         "changes; the play is finished and DONE pressed again.", 13, length=1,
         script=({"opening": [[5, 3]]}, {"dice": [2, 2]}), then_random=False,
         hands=(("", Clumsiness(early_done=1.0)),)),
)


def soak_specs(seed: int, games: int, *, clumsy: bool, length: int | None = None) -> list[Spec]:
    """``games`` random matches (of ``length`` points, 0 money) from ``seed``, for soak runs."""
    rng = random.Random(seed)
    specs = []
    for n in range(games):
        points = rng.choice((1, 3, 5, 0)) if length is None else length
        specs.append(Spec(
            f"soak_{seed}_{n:04d}", f"Soak run {seed}, game {n}.", seed * 100003 + n,
            length=points, games=1 if points == 0 else 0, double=rng.choice((0.05, 0.1, 0.2)),
            take=rng.choice((0.4, 0.7, 0.9)), hands=BOTH if clumsy else BOTH[:1]))
    return specs
