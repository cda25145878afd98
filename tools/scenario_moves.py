"""Single-checker steps of a backgammon roll, for hands that move real checkers.

Pure Python, no gnubg.  GNU Backgammon (the referee) says which plays are
legal and which one was chosen; this module finds the checker-by-checker
steps a hand makes to reach that play, and every legal intermediate board
on the way (for takebacks and wrong placements that must really be wrong).

A side is 26 counts in its owner's numbering, as gnubg holds it: index 0 is
borne off, 1..24 the owner's points, 25 the bar.  A board is the pair
(mine, theirs) of the player on roll; their point n is our point 25 - n.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Side = tuple[int, ...]
Board = tuple[Side, Side]

BAR = 25
OFF = 0


@dataclass(frozen=True, order=True)
class Step:
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    frm: int
    to: int
    die: int
    hit: bool


def side_from_gnubg(counts: Iterable[int]) -> Side:
    """A side from gnubg's 25 counts (points 1..24 then the bar)."""
    raw = list(counts)
    return (15 - sum(raw), *raw[:24], raw[24])


def side_to_gnubg(side: Side) -> tuple[int, ...]:
    """gnubg's 25 counts of a side."""
    return (*side[1:25], side[25])


def all_home(mine: Side) -> bool:
    """Whether every checker not borne off is on the home board (points 1..6)."""
    return not any(mine[7:26])


def steps_for(board: Board, die: int) -> list[Step]:
    """Every single step the player on roll may make with ``die`` (checkers on the bar first)."""
    mine, theirs = board
    sources = [BAR] if mine[BAR] else [p for p in range(24, 0, -1) if mine[p]]
    found = []
    for frm in sources:
        to = frm - die
        if to >= 1:
            if theirs[25 - to] < 2:
                found.append(Step(frm, to, die, theirs[25 - to] == 1))
        elif all_home(mine) and (to == 0 or not any(mine[frm + 1 : 7])):
            found.append(Step(frm, OFF, die, hit=False))
    return found


def apply_step(board: Board, step: Step) -> Board:
    """The board after ``step``; a hit blot goes to the opponent's bar."""
    mine, theirs = list(board[0]), list(board[1])
    mine[step.frm] -= 1
    mine[step.to] += 1
    if step.hit:
        theirs[25 - step.to] -= 1
        theirs[BAR] += 1
    return tuple(mine), tuple(theirs)


def apply_steps(board: Board, steps: Iterable[Step]) -> Board:
    """The board after several steps in order."""
    for step in steps:
        board = apply_step(board, step)
    return board


def legal_sequences(board: Board, dice: tuple[int, int]) -> list[tuple[Step, ...]]:
    """Every order of single steps that makes a legal play of ``dice``.

    Both dice (four for doubles) must be used when possible; if only one die
    can be used, the larger when possible.  Bearing off with a higher die is
    allowed only from the highest occupied point.
    """
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    ends: list[tuple[Step, ...]] = []

    def walk(at: Board, left: list[int], done: tuple[Step, ...]) -> None:
        moved = False
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for step in steps_for(at, die):
                moved = True
                walk(apply_step(at, step), rest, (*done, step))
        if not moved:
            ends.append(done)

    walk(board, pool, ())
    most = max(len(seq) for seq in ends)
    legal = [seq for seq in ends if len(seq) == most]
    if most == 1 and a != b and any(seq[0].die == max(a, b) for seq in legal):
        legal = [seq for seq in legal if seq[0].die == max(a, b)]
    return [] if most == 0 else legal


def legal_results(board: Board, dice: tuple[int, int]) -> set[Board]:
    """The distinct boards a roll can lead to (empty when there is no legal play)."""
    return {apply_steps(board, seq) for seq in legal_sequences(board, dice)}


def partial_tree(board: Board, sequences: Iterable[tuple[Step, ...]]) -> dict[Board, set[Step]]:
    """Every legal intermediate board (start and results included) and its legal next steps."""
    tree: dict[Board, set[Step]] = {}
    for seq in sequences:
        at = board
        for step in seq:
            tree.setdefault(at, set()).add(step)
            at = apply_step(at, step)
        tree.setdefault(at, set())
    return tree


def chains(steps: Iterable[Step]) -> list[list[Step]]:
    """Consecutive steps grouped per checker: a step that starts where the last one ended."""
    grouped: list[list[Step]] = []
    for step in steps:
        if grouped and grouped[-1][-1].to == step.frm and step.frm not in (BAR, OFF):
            grouped[-1].append(step)
        else:
            grouped.append([step])
    return grouped
