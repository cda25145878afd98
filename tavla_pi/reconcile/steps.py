"""One variant's single-die steps and where its checkers stand: the turn tree's strategy.

The rules answer for whole plays; a hand moves one checker at a time.  A
:class:`Steps` says, for the player on roll of one game, which single-die moves
a side allows, what a move leaves, and how the sides read as the board's cells
(docs/CONTRACTS.md §1).  Portes moves on GNU Backgammon's 25-tuples
(:mod:`tavla_pi.reconcile.moves`, a hit sends a checker to the bar); Plakoto and
Fevga on 24 counts in each player's own numbering, no bar
(:mod:`tavla_pi.reconcile.varsteps`).  :func:`steps_for` gives a position's, by
the way its game moves a checker (``VariantPosition.movement``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tavla_pi.reconcile import moves as mv
from tavla_pi.reconcile.layout import Cells, cell_of, cells_of
from tavla_pi.reconcile.varsteps import FevgaSteps, PlakotoSteps
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import Move, Side
from tavla_pi.rules.tavli import Movement, VariantPosition


class Steps(Protocol):
    """The single-die steps of one game for its player on roll (``mover``)."""

    @property
    def mover(self) -> Color:
        """The colour moving this turn."""
        ...

    @property
    def hits(self) -> bool:
        """Whether a move's flag is a hit (the checker there goes to the bar)."""
        ...

    @property
    def lifts_at_start(self) -> bool:
        """Whether the turn's start may also read as a checker lifted (a start pile of
        15, whose count is a range: Plakoto and Fevga)."""
        ...

    def moves(self, mine: Side, theirs: Side, die: int) -> list[Move]:
        """Every legal single move with ``die``, sources high first."""
        ...

    def apply(self, mine: Side, theirs: Side, move: Move) -> tuple[Side, Side]:
        """The two sides after ``move``."""
        ...

    def cell(self, point: int) -> int:
        """The cell of the mover's own ``point`` (0 = off is ``OFF_CELL``)."""
        ...

    def cells(self, mine: Side, theirs: Side) -> tuple[Cells, frozenset[int]]:
        """The board as cells and the cells holding a pinned checker."""
        ...


class PortesSteps:
    """Portes' steps: GNU Backgammon's sides, entering from the bar, hits."""

    hits = True
    lifts_at_start = False

    def __init__(self, start: VariantPosition) -> None:
        self.mover = start.on_roll

    def moves(self, mine: Side, theirs: Side, die: int) -> list[Move]:
        return mv.single_die_moves(mine, theirs, die)

    def apply(self, mine: Side, theirs: Side, move: Move) -> tuple[Side, Side]:
        return mv.apply(mine, theirs, move)

    def cell(self, point: int) -> int:
        return cell_of(self.mover, point)

    def cells(self, mine: Side, theirs: Side) -> tuple[Cells, frozenset[int]]:
        return cells_of(mine, theirs, self.mover), frozenset()


_STEPS: dict[Movement, Callable[[Any], Steps]] = {
    Movement.HITS: PortesSteps,
    Movement.PINS: PlakotoSteps,
    Movement.BLOCKS: FevgaSteps,
}
"""The steps of each way a game moves a checker (its variant's ``movement``), for the
player on roll of a position of that game."""


def steps_for(start: VariantPosition) -> Steps:
    """The steps of ``start``'s game for its player on roll: those of its ``movement``."""
    make = _STEPS.get(start.movement)
    if make is None:
        raise TypeError(f"no single-die steps for {start!r}")
    return make(start)
