"""The turn's tree for Plakoto and Fevga: the boards their legal plays pass through.

The same :class:`~tavla_pi.reconcile.tree.TurnTree`, on the variants' own sides
(24 counts in each player's own numbering, no bar): the single-die steps are
the variant's (:mod:`tavla_pi.reconcile.varsteps`), the complete nodes are
exactly the rules' results, each knowing its
:class:`~tavla_pi.rules.tavli.VariantPlay` (``Node.variant_play``).  A move's
flag is a pin, never a hit: nothing goes to a bar.  A cell holding a pinned
checker is in ``Node.pinned``.
"""

from __future__ import annotations

from tavla_pi.reconcile.tree import Node, TurnTree
from tavla_pi.reconcile.varsteps import Rules, VariantSides, moved_side, rules_of
from tavla_pi.rules.side import Move, Side
from tavla_pi.rules.tavli import VariantPlay


class VariantTree(TurnTree):
    """Every node of one Plakoto or Fevga turn (the player on roll from ``variant_start``).

    Portes' ``start`` (a :class:`~tavla_pi.rules.position.Position`) and the nodes'
    ``position`` and ``board`` are not for these trees: a complete node's
    ``variant_play.result`` is its position, ``.board()`` its board.
    """

    hits = False

    def __init__(self, start: VariantSides, dice: tuple[int, int]) -> None:
        self.variant_start = start
        self.rules: Rules = rules_of(start)
        self._start_cells, self._start_pins = self.rules.cells(start.mine, start.theirs)
        self._build(start.on_roll, dice, start.legal_plays(dice), start.mine, start.theirs)

    def _new_node(
        self, mine: Side, theirs: Side, left: tuple[int, ...], used: tuple[int, ...],
        path: tuple[Move, ...], *, complete: bool,
    ) -> Node:
        cells, pinned = self.rules.cells(mine, theirs)
        start, start_pins = self._start_cells, self._start_pins
        changed = frozenset(i for i in range(len(cells))
                            if cells[i] != start[i] or (i in pinned) != (i in start_pins))
        play = self._results.get((mine, theirs)) if complete else None
        assert play is None or isinstance(play, VariantPlay)
        return Node(len(self._nodes), self.mover, mine, theirs, left, used, cells, changed,
                    path, None, pinned=pinned, variant_play=play)

    def _moves(self, node: Node, die: int) -> list[Move]:
        return self.rules.moves(node.mine, node.theirs, die)

    def _apply(self, node: Node, move: Move) -> tuple[Side, Side]:
        return moved_side(node.mine, move), node.theirs

    def _cell(self, point: int) -> int:
        return self.rules.cell(point)
