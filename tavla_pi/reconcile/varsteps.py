"""Single-die moves of Plakoto and Fevga, and where their checkers stand on the board.

As :mod:`tavla_pi.reconcile.moves` does for Portes (both behind
:class:`~tavla_pi.reconcile.steps.Steps`): the steps a hand makes
one checker at a time, on the variants' sides (24 counts in the player's own
numbering, index 0..23 = own points 1..24; no bar).  Which sequences of steps
make a legal play is still the rules' word (the turn tree keeps only those
ending on one of their results); these steps only say which in-between
boards a hand can pass through, following the rules of docs/VARIANTS.md.

Plakoto's pins are not in the counts: within a turn they follow from them
(a lone opposing checker under some of the mover's is pinned; the mover's
own pinned checkers, fixed for the turn, are the start's ``my_pins``).
"""

from __future__ import annotations

from tavla_pi.reconcile.layout import N_LOCS, N_POINTS, OFF_CELL, Cells, sign
from tavla_pi.rules.color import Color
from tavla_pi.rules.fevga import FevgaPosition, first_checker
from tavla_pi.rules.movegen import may_bear_off
from tavla_pi.rules.plakoto import PlakotoPosition
from tavla_pi.rules.side import OFF_POINT, Move, Side


class _OwnSteps:
    """What Plakoto's and Fevga's steps share: sides in each player's own numbering,
    a move that changes the mover's side only, no bar (``my_pins``: the mover's
    pinned checkers, fixed for the turn; none in Fevga)."""

    hits = False
    lifts_at_start = True

    def __init__(self, mover: Color, my_pins: int = 0) -> None:
        self.mover = mover
        self.my_pins = my_pins

    def facing(self, index: int) -> int:
        """The opponent's own index of the mover's own ``index``."""
        raise NotImplementedError

    def _may_leave(self, mine: Side, index: int) -> bool:
        """Whether a checker on own ``index`` may move at all."""
        raise NotImplementedError

    def _step(self, mine: Side, theirs: Side, index: int, die: int) -> Move | None:
        """The move of one checker from own ``index`` with ``die``, or None."""
        raise NotImplementedError

    def absolute(self, color: Color, index: int) -> int:
        """The cell (absolute point - 1) of ``color``'s own index 0..23."""
        return index if color is Color.WHITE else self.facing(index)

    def cell(self, point: int) -> int:
        """The cell of the mover's own ``point`` (1..24; 0 = off is ``OFF_CELL``)."""
        return OFF_CELL if point == OFF_POINT else self.absolute(self.mover, point - 1)

    def moves(self, mine: Side, theirs: Side, die: int) -> list[Move]:
        """Every legal single move with ``die``, sources high first."""
        found = []
        for i in range(23, -1, -1):
            if mine[i] and self._may_leave(mine, i):
                move = self._step(mine, theirs, i, die)
                if move is not None:
                    found.append(move)
        return found

    def apply(self, mine: Side, theirs: Side, move: Move) -> tuple[Side, Side]:
        """The sides after ``move``: nothing of the opponent's moves or leaves."""
        return moved_side(mine, move), theirs

    def cells(self, mine: Side, theirs: Side) -> tuple[Cells, frozenset[int]]:
        """The board as cells (the colour on top counted where a checker is pinned)
        and the cells holding a pinned checker."""
        cells = [0] * N_LOCS
        pinned = set()
        s = sign(self.mover)
        for i in range(N_POINTS):
            cells[self.absolute(self.mover, i)] += s * mine[i]
        for j in range(N_POINTS):
            if not theirs[j]:
                continue
            c = self.absolute(self.mover.opponent, j)
            if cells[c]:  # both colours: a pin (the mover's, or the opponent's on the mover)
                pinned.add(c)
                if self.my_pins >> self.facing(j) & 1:
                    cells[c] = -s * theirs[j]
                continue
            cells[c] = -s * theirs[j]
        return tuple(cells), frozenset(pinned)


class PlakotoSteps(_OwnSteps):
    """Plakoto's steps: a pinned checker stays, two opposing checkers close a point,
    landing on a lone one pins it, no bearing off while one of the mover's is pinned."""

    def __init__(self, start: PlakotoPosition) -> None:
        super().__init__(start.on_roll, start.my_pins)

    def facing(self, index: int) -> int:
        return 23 - index

    def _may_leave(self, mine: Side, index: int) -> bool:
        return not self.my_pins >> index & 1

    def _step(self, mine: Side, theirs: Side, index: int, die: int) -> Move | None:
        dest = index - die
        if dest < 0:
            home = not self.my_pins
            return (index + 1, OFF_POINT, False) if home and may_bear_off(mine, index, die) \
                else None
        there = theirs[self.facing(dest)]
        if self.my_pins >> dest & 1 or there >= 2:
            return None
        return (index + 1, dest + 1, there == 1 and not mine[dest])


class FevgaSteps(_OwnSteps):
    """Fevga's steps: a single opposing checker closes a point, and the first-checker
    rule (:func:`~tavla_pi.rules.fevga.first_checker`) holds the others on the start."""

    def __init__(self, start: FevgaPosition) -> None:
        super().__init__(start.on_roll)

    def facing(self, index: int) -> int:
        return (index + 12) % 24

    def _may_leave(self, mine: Side, index: int) -> bool:
        return index != _START or first_checker(mine) is None

    def _step(self, mine: Side, theirs: Side, index: int, die: int) -> Move | None:
        dest = index - die
        if dest < 0:
            return (index + 1, OFF_POINT, False) if may_bear_off(mine, index, die) else None
        return None if theirs[self.facing(dest)] else (index + 1, dest + 1, False)


_START = 23
"""Own index of each side's starting point (own point 24)."""


def moved_side(mine: Side, move: Move) -> Side:
    """The mover's side after ``move`` (nothing of the opponent's moves or leaves)."""
    frm, to, _ = move
    new = list(mine)
    new[frm - 1] -= 1
    if to != OFF_POINT:
        new[to - 1] += 1
    return tuple(new)
