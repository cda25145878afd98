"""Single-die moves on the rules engine's 25-tuples: one checker, one die.

The rules engine answers for whole plays; reconcile also needs the steps in
between (a player moves one checker at a time).  These are those steps, as
small predicates over the mover's side ``mine`` and the opponent's side
``theirs``, each in its own numbering (index 0..23 = points 1..24, 24 = bar).
Which sequences of steps make a legal play is still the engine's word: the
turn tree keeps only sequences that end on one of its results.

A move is a :data:`~tavla_pi.rules.side.Move`, ``(from, to, hit)`` in the
mover's points (``BAR_POINT`` 25, ``OFF_POINT`` 0), the engine's ``Play.moves``.
"""

from __future__ import annotations

from tavla_pi.rules.movegen import may_bear_off
from tavla_pi.rules.side import BAR_INDEX, BAR_POINT, OFF_POINT, Move, Side


def opposite(point: int) -> int:
    """The index in ``theirs`` of the mover's point ``point`` (1..24)."""
    return 24 - point


def on_bar(mine: Side) -> bool:
    """True while the mover has a checker on the bar (it must enter first)."""
    return mine[BAR_INDEX] > 0


def blocked(theirs: Side, point: int) -> bool:
    """True when the opponent holds the mover's point ``point`` (two or more)."""
    return theirs[opposite(point)] >= 2


def is_blot(theirs: Side, point: int) -> bool:
    """True when a single opponent checker stands on the mover's point ``point``."""
    return theirs[opposite(point)] == 1


def step(mine: Side, theirs: Side, frm: int, die: int) -> Move | None:
    """The move of one checker from ``frm`` (1..25) with ``die``, or None if illegal."""
    to = frm - die
    if to <= OFF_POINT:  # bearing off (frm <= die): the engine's rule, on index frm - 1
        if frm < BAR_POINT and may_bear_off(mine, frm - 1, die):
            return (frm, OFF_POINT, False)
        return None
    if blocked(theirs, to):
        return None
    return (frm, to, is_blot(theirs, to))


def single_die_moves(mine: Side, theirs: Side, die: int) -> list[Move]:
    """Every legal move of one checker with ``die`` (entering first if on the bar)."""
    if on_bar(mine):
        entry = step(mine, theirs, BAR_POINT, die)
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
    if to != OFF_POINT:
        new_mine[to - 1] += 1
    if not hit:
        return tuple(new_mine), theirs
    new_theirs = list(theirs)
    new_theirs[opposite(to)] -= 1
    new_theirs[BAR_INDEX] += 1
    return tuple(new_mine), tuple(new_theirs)
