"""A second, deliberately simple implementation of Plakoto and Fevga, for differential tests.

It shares nothing with ``tavla_pi.rules`` but the board form of
docs/CONTRACTS.md §2: checkers are counted on absolute points, each colour walks
its own list of points (its path), and a roll is played by trying every
checker with every die, breadth first, for every order of the dice, keeping
each set of boards reached.  No pruning, no bit masks, no own numbering: slow
and plain, so that it can be read against docs/VARIANTS.md line by line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from variants_support import board

COLOURS = ("white", "black")
PATHS = {
    "plakoto": {"white": list(range(24, 0, -1)), "black": list(range(1, 25))},
    "fevga": {"white": list(range(24, 0, -1)),
              "black": list(range(12, 0, -1)) + list(range(24, 12, -1))},
}
"""Each colour's points from its start (step 0) to the last before the tray (step 23)."""
STEP = {game: {c: {point: k for k, point in enumerate(path)} for c, path in paths.items()}
        for game, paths in PATHS.items()}
"""The step of each point on each colour's path."""
OFF = 24
"""The step of the tray."""


def other(colour: str) -> str:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True)
class State:
    """Checkers per colour on absolute points 1..24 (index 0..23), and the pins as
    (point, colour of the pinned checker)."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    pins: frozenset[tuple[int, str]]

    def side(self, colour: str) -> tuple[int, ...]:
        return self.white if colour == "white" else self.black

    def count(self, colour: str, point: int) -> int:
        return self.side(colour)[point - 1]

    def with_side(self, colour: str, side: tuple[int, ...], pins: frozenset[tuple[int, str]]
                  ) -> State:
        if colour == "white":
            return State(side, self.black, pins)
        return State(self.white, side, pins)

    def board(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for colour in COLOURS:
            side = self.side(colour)
            counts = {str(n): side[n - 1] for n in range(1, 25) if side[n - 1]}
            if sum(side) < 15:
                counts["off"] = 15 - sum(side)
            out[colour] = counts
        out["pinned"] = {str(p): c for p, c in sorted(self.pins)}
        return out


def state_of(board: Mapping[str, Any]) -> State:
    sides = []
    for colour in COLOURS:
        side = [0] * 24
        for location, n in board[colour].items():
            if location != "off":
                side[int(location) - 1] = n
        sides.append(tuple(side))
    pins = frozenset((int(p), c) for p, c in board.get("pinned", {}).items())
    return State(sides[0], sides[1], pins)


def canonical(board: Mapping[str, Any]) -> str:
    """One string per board, whatever the order of its keys."""
    return json.dumps(board, sort_keys=True)


# -- one checker, one die --------------------------------------------------------------


def all_home(game: str, s: State, colour: str) -> bool:
    path = PATHS[game][colour]
    return not any(s.count(colour, path[k]) for k in range(18))


def bear_off_allowed(game: str, s: State, colour: str, step: int, die: int) -> bool:
    """All home (Plakoto: none pinned), and an exact die or none farther from the tray."""
    path = PATHS[game][colour]
    if not all_home(game, s, colour) or any(c == colour for _, c in s.pins):
        return False
    return step + die == OFF or not any(s.count(colour, path[k]) for k in range(18, step))


def plakoto_step(s: State, colour: str, point: int, die: int) -> State | None:
    path, opp = PATHS["plakoto"][colour], other(colour)
    if not s.count(colour, point) or (point, colour) in s.pins:
        return None  # no checker, or it is pinned
    step = STEP["plakoto"][colour][point]
    side = list(s.side(colour))
    pins = set(s.pins)
    side[point - 1] -= 1
    if not side[point - 1]:
        pins.discard((point, opp))  # the last one leaving frees what it pinned
    if step + die >= OFF:
        if not bear_off_allowed("plakoto", s, colour, step, die):
            return None
    else:
        to = path[step + die]
        if s.count(opp, to) >= 2 or (to, colour) in s.pins:
            return None  # a block, or a point where one of ours is pinned
        if s.count(opp, to) == 1 and not s.count(colour, to):
            pins.add((to, opp))
        side[to - 1] += 1
    return s.with_side(colour, tuple(side), frozenset(pins))


def fevga_step(s: State, colour: str, point: int, die: int) -> State | None:
    path, opp = PATHS["fevga"][colour], other(colour)
    if not s.count(colour, point):
        return None
    step = STEP["fevga"][colour][point]
    if step == 0 and s.count(colour, point) == 14:
        [first] = [p for p in range(1, 25) if p != point and s.count(colour, p)]
        if STEP["fevga"][colour][first] <= 12:
            return None  # the first checker has not passed the opponent's start yet
    side = list(s.side(colour))
    side[point - 1] -= 1
    if step + die >= OFF:
        if not bear_off_allowed("fevga", s, colour, step, die):
            return None
    else:
        to = path[step + die]
        if s.count(opp, to):
            return None
        side[to - 1] += 1
    return s.with_side(colour, tuple(side), s.pins)


STEPS = {"plakoto": plakoto_step, "fevga": fevga_step}


# -- whole plays -----------------------------------------------------------------------


def orders(dice: tuple[int, int]) -> list[tuple[int, ...]]:
    a, b = dice
    return [(a, a, a, a)] if a == b else [(a, b), (b, a)]


def reached(game: str, start: State, colour: str, dice: tuple[int, int]
            ) -> dict[tuple[int, int], set[State]]:
    """Every board reached with (dice used, pips used), any checker, any order."""
    out: dict[tuple[int, int], set[State]] = {(0, 0): {start}}
    for order in orders(dice):
        frontier, pips = {start}, 0
        for used, die in enumerate(order, 1):
            pips += die
            frontier = {t for s in frontier for p, n in enumerate(s.side(colour), 1) if n
                        if (t := STEPS[game](s, colour, p, die)) is not None}
            if not frontier:
                break
            out.setdefault((used, pips), set()).update(frontier)
    return out


def fevga_quarter_full(s: State, colour: str) -> bool:
    path = PATHS["fevga"][colour]
    return all(s.count(colour, path[k]) for k in range(6))


def fevga_traps(s: State, colour: str) -> bool:
    """Whether the opponent's every checker left stands just behind six points we hold."""
    opp = other(colour)
    points = [p for p, n in enumerate(s.side(opp), 1) if n]
    if len(points) != 1:
        return False
    path, mine = PATHS["fevga"][opp], s.side(colour)
    step = STEP["fevga"][opp][points[0]]
    return step + 6 <= 23 and all(mine[path[k] - 1] for k in range(step + 1, step + 7))


def results(game: str, board: Mapping[str, Any], colour: str, dice: tuple[int, int]) -> set[str]:
    """The boards (canonical strings) the legal plays of ``dice`` lead to."""
    start = state_of(board)
    if outcome(game, board) is not None:
        return set()
    levels = reached(game, start, colour, dice)
    for level in sorted(levels, reverse=True):
        if level[0] == 0:
            return set()
        found = levels[level]
        if game == "fevga":
            found = {s for s in found if not fevga_quarter_full(s, colour)}
            opening = {s for s in found if not fevga_traps(s, colour)}
            found = opening or found
        if found:
            return {canonical(s.board()) for s in found}
    return set()


def outcome(game: str, board: Mapping[str, Any]) -> tuple[str | None, int] | None:
    """(winner or None for a draw, points), or None while the game goes on."""
    s = state_of(board)
    if game == "plakoto":
        mothers = [c for c in COLOURS if (PATHS[game][c][0], c) in s.pins]
        if len(mothers) == 2:
            return None, 0
        for c in mothers:
            if not s.count(other(c), PATHS[game][other(c)][0]):
                return other(c), 2
    for c in COLOURS:
        if not any(s.side(c)):
            return c, 2 if sum(s.side(other(c))) == 15 else 1
    return None


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def random_positions(game: str, seed: int, count: int, plies: int = 120) -> Iterator[Any]:
    """``count`` positions met on random games of ``game`` (random dice, random legal
    plays, seeded), each game at most ``plies`` long."""
    import random

    from tavla_pi.rules import variant

    rng = random.Random(seed)
    v = variant(game)
    made = 0
    while True:
        p = v.initial()
        for _ in range(plies):
            yield p
            made += 1
            if made == count:
                return
            if p.is_game_over():
                break
            plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            if plays:
                p = rng.choice(plays).result
            else:
                p = v.from_board(p.board(), other(p.on_roll.value))


# -- random boards near the special rules ----------------------------------------------


def _drop(rng: Any, side: dict[int, int], points: list[int], n: int) -> None:
    for _ in range(n):
        p = rng.choice(points)
        side[p] = side.get(p, 0) + 1


def fevga_special(rng: Any) -> tuple[dict[str, Any], str]:
    """A Fevga board (and who is on roll) where a block traps the opponent, or the
    mover's starting quarter is nearly full."""
    me = rng.choice(COLOURS)
    opp = other(me)
    mine_path, opp_path = PATHS["fevga"][me], PATHS["fevga"][opp]
    mine: dict[int, int] = {}
    theirs: dict[int, int] = {}
    if rng.random() < 0.5:  # the opponent all on one point, six points before it held
        step = rng.randint(0, 17)
        theirs[opp_path[step]] = 15
        for k in range(step + 1, step + 7):
            mine[opp_path[k]] = rng.randint(1, 2)
        free = [p for p in range(1, 25) if p != opp_path[step]]
        _drop(rng, mine, free, 15 - sum(mine.values()))
    else:  # checkers on the start and on most of the starting quarter
        mine[mine_path[0]] = rng.randint(1, 5)
        for k in rng.sample(range(1, 6), rng.randint(3, 5)):
            mine[mine_path[k]] = rng.randint(1, 2)
        _drop(rng, mine, mine_path[6:], 15 - sum(mine.values()))
        free = [p for p in range(1, 25) if p not in mine]
        _drop(rng, theirs, rng.sample(free, rng.randint(1, 7)), 15)
    return board(mine if me == "white" else theirs, theirs if me == "white" else mine), me


def plakoto_special(rng: Any) -> tuple[dict[str, Any], str]:
    """A Plakoto board (and who is on roll) with pins, often with the mover bearing off
    or its mother or the opponent's on the start."""
    me = rng.choice(COLOURS)
    opp = other(me)
    mine_path, opp_path = PATHS["plakoto"][me], PATHS["plakoto"][opp]
    home = rng.random() < 0.5
    mine: dict[int, int] = {}
    theirs: dict[int, int] = {}
    pinned: dict[int, str] = {}
    on_board = rng.randint(3, 15) if home else 15
    _drop(rng, mine, mine_path[18:] if home else mine_path, on_board)
    if rng.random() < 0.3:
        mine[mine_path[0]] = 1  # a mother checker
    while sum(mine.values()) > 15:
        p = rng.choice([q for q in mine if mine[q] > 1])
        mine[p] -= 1
    for _ in range(15):
        p = rng.choice(opp_path)
        if mine.get(p, 0) >= 2 or (p in mine and p in pinned and pinned[p] == opp):
            continue
        if mine.get(p) == 1:
            pinned[p] = me
        theirs[p] = theirs.get(p, 0) + 1
    lone = [p for p, n in theirs.items() if n == 1 and p not in mine]
    for p in rng.sample(lone, min(len(lone), rng.randint(0, 2))):
        moved = [q for q, n in mine.items() if n > 1 and q not in pinned]
        if moved:
            q = rng.choice(moved)
            mine[q] -= 1
            mine[p] = 1
            pinned[p] = opp
    white, black = (mine, theirs) if me == "white" else (theirs, mine)
    return board(white, black, pinned), me


SPECIAL = {"plakoto": plakoto_special, "fevga": fevga_special}
