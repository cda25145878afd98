"""What the tracker remembers between observations: where the board was last seen.

``seen`` are the nodes last reported (several while ambiguous).  ``unseen``
are nodes reached from them by hand movements the sensors could not see (a
checker moved from one tall stack to another, or borne off from one: the
trays are not sensed); they read the same, so they stay possible.
``declined`` are candidates the player turned down when asked.  ``held``
are nodes the board also reads as with a checker lifted from them (the
reported node may only look like it, a checker in the hand being over the
tray or over a stack read as "at least n").
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.reconcile.layout import moved_between
from tavla_pi.reconcile.tree import Node
from tavla_pi.rules.color import Color


@dataclass(frozen=True, slots=True)
class Belief:
    """The node(s) the board was last seen at, and those it may be at unseen."""

    seen: tuple[Node, ...]
    unseen: frozenset[Node] = frozenset()
    declined: frozenset[Node] = frozenset()
    held: tuple[Node, ...] = ()

    def distance(self, node: Node, mover: Color) -> int:
        """How many of the mover's checkers moved since the board was last seen."""
        return min(
            moved_between(b.cells, node.cells, mover, b.changed | node.changed)
            for b in (*self.seen, *self.unseen, *self.held)
        )

    def rank(self, node: Node, mover: Color) -> tuple[int, int]:
        """Ordering of explanations: fewest checkers moved, then what was last reported."""
        return self.distance(node, mover), 0 if node in self.seen else 1
