"""Single-die moves on the rules engine's 25-tuples: one checker, one die.

The rules engine answers for whole plays; reconcile also needs the steps in
between (a player moves one checker at a time).  These are those steps, as
small predicates over the mover's side ``mine`` and the opponent's side
``theirs``, each in its own numbering (index 0..23 = points 1..24, 24 = bar).
Which sequences of steps make a legal play is still the engine's word: the
turn tree keeps only sequences that end on one of its results.

A move is ``(from, to, hit)`` in the mover's numbering, 25 = bar, 0 = off,
the same shape as the engine's ``Play.moves``.
"""

from __future__ import annotations

from tavla_pi.reconcile.layout import Side

Move = tuple[int, int, bool]
BAR = 25
OFF = 0


def opposite(point: int) -> int:
    """The index in ``theirs`` of the mover's point ``point`` (1..24)."""
    return 24 - point


def on_bar(mine: Side) -> bool:
    """True while the mover has a checker on the bar (it must enter first)."""
    return mine[24] > 0


def all_home(mine: Side) -> bool:
    """True when every checker of the mover still on the board is on points 1..6."""
    return sum(mine[6:25]) == 0


def blocked(theirs: Side, point: int) -> bool:
    """True when the opponent holds the mover's point ``point`` (two or more)."""
    return theirs[opposite(point)] >= 2


def is_blot(theirs: Side, point: int) -> bool:
    """True when a single opponent checker stands on the mover's point ``point``."""
    return theirs[opposite(point)] == 1


def none_above(mine: Side, point: int) -> bool:
    """True when the mover has no checker on a point higher than ``point`` (home only)."""
    return sum(mine[point:6]) == 0


def may_bear_off(mine: Side, point: int, die: int) -> bool:
    """True when the checker on ``point`` may be borne off with ``die``."""
    if not all_home(mine) or point > die:
        return False
    return point == die or none_above(mine, point)


def step(mine: Side, theirs: Side, frm: int, die: int) -> Move | None:
    """The move of one checker from ``frm`` (1..25) with ``die``, or None if illegal."""
    to = frm - die
    if to <= 0:
        return (frm, OFF, False) if frm <= 24 and may_bear_off(mine, frm, die) else None
    if blocked(theirs, to):
        return None
    return (frm, to, is_blot(theirs, to))


def single_die_moves(mine: Side, theirs: Side, die: int) -> list[Move]:
    """Every legal move of one checker with ``die`` (entering first if on the bar)."""
    if on_bar(mine):
        entry = step(mine, theirs, BAR, die)
        return [entry] if entry else []
    moves = []
    for frm in range(24, 0, -1):
        if mine[frm - 1]:
            move = step(mine, theirs, frm, die)
            if move:
                moves.append(move)
    return moves


def apply(mine: Side, theirs: Side, move: Move) -> tuple[Side, Side]:
    """The two sides after ``move`` (a hit puts the blot on the opponent's bar)."""
    frm, to, hit = move
    new_mine = list(mine)
    new_mine[frm - 1] -= 1
    if to != OFF:
        new_mine[to - 1] += 1
    if not hit:
        return tuple(new_mine), theirs
    new_theirs = list(theirs)
    new_theirs[opposite(to)] -= 1
    new_theirs[24] += 1
    return tuple(new_mine), tuple(new_theirs)
