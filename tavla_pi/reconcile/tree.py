"""The turn's tree: every board a legal play passes through, built once per roll.

A node is a board reached from the turn's start by single-die moves that can
still be completed to one of the rules engine's legal plays with as many dice
as those plays use (so the engine's max-dice and larger-die rules hold).  The
key is (board, dice left); the complete nodes are exactly the engine's
results, each knowing its :class:`~tavla_pi.rules.tavli.VariantPlay`.  Every node
keeps its absolute cells and which cells differ from the start, so that matching
an observation compares only what a play changed.  Which single-die steps a
game allows and how its sides read as cells is the game's
:class:`~tavla_pi.reconcile.steps.Steps`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tavla_pi.errors import TavlaError
from tavla_pi.reconcile.layout import OFF_CELL, Cells, location_name
from tavla_pi.reconcile.steps import Steps, steps_for
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import OFF_POINT, Move, Side
from tavla_pi.rules.tavli import VariantPlay, VariantPosition

NodeKey = tuple[Side, Side, tuple[int, ...]]
"""The key of a node: (mover's side, opponent's side, dice left; none once complete)."""


class TreeMismatchError(TavlaError, RuntimeError):
    """The single-die steps cannot reach a play the rules engine calls legal (a bug)."""


@dataclass(eq=False, slots=True)
class Edge:
    """One single-die move from ``parent`` to ``child``."""

    parent: Node
    child: Node
    move: Move
    die: int


@dataclass(eq=False, slots=True)
class Node:
    """A board of the turn: the start, a legal partial play, or a complete play.

    Nodes compare by identity (one object per key in a tree).  ``dice_used``
    is in the order of the first path found; ``play`` is set on complete
    nodes only.
    """

    index: int
    mover: Color
    mine: Side
    theirs: Side
    remaining: tuple[int, ...]
    dice_used: tuple[int, ...]
    cells: Cells
    changed: frozenset[int]
    path: tuple[Move, ...]
    play: VariantPlay | None = None
    children: list[Edge] = field(default_factory=list)
    parents: list[Edge] = field(default_factory=list)
    pinned: frozenset[int] = frozenset()
    """Cells holding a checker pinned under the other colour (Plakoto; else empty):
    ``cells`` there count the checkers on top, the pinned one is not in them."""

    @property
    def depth(self) -> int:
        """How many dice this node has played."""
        return len(self.dice_used)

    @property
    def complete(self) -> bool:
        """True for a complete legal play (one of the engine's results)."""
        return self.play is not None

    @property
    def board(self) -> Board:
        """The board in absolute numbering (docs/CONTRACTS.md §1; Portes' trees)."""
        return Board.from_sides(self.mover, self.mine, self.theirs)

    def __repr__(self) -> str:
        steps = " ".join(f"{f}/{t}{'*' if h else ''}" for f, t, h in self.path) or "start"
        state = "complete" if self.complete else f"left={self.remaining}"
        return f"<Node #{self.index} {steps} used={self.dice_used} {state}>"


@dataclass(frozen=True, slots=True)
class Chain:
    """One hand movement: a single checker moved by consecutive dice.

    ``origin`` and ``dest`` are cell indices (dest may be ``layout.OFF_CELL``);
    ``hits`` the cells where it hit blots on the way.
    """

    before: Node
    after: Node
    origin: int
    dest: int
    hits: tuple[int, ...]


class TurnTree:
    """Every node of one turn (the roll of the player on roll at ``start``)."""

    def __init__(self, start: VariantPosition, dice: tuple[int, int],
                 plays: Sequence[VariantPlay] | None = None) -> None:
        """The tree of every legal play, or only of ``plays`` (some of the legal plays:
        then the nodes are the boards on the way to them, e.g. the computer's play)."""
        self.start = start
        self.steps: Steps = steps_for(start)
        self.mover = start.on_roll
        self.dice = dice
        chosen = start.legal_plays(dice) if plays is None else list(plays)
        self._start_cells, self._start_pins = self.steps.cells(start.mine, start.theirs)
        self._results: dict[tuple[Side, Side], VariantPlay] = {
            (p.result.theirs, p.result.mine): p for p in chosen}
        self._nodes: dict[NodeKey, Node] = {}
        self._depth = len(chosen[0].moves) if chosen else 0
        self.root = self._node(start.mine, start.theirs, _dice_list(dice), (), ())
        if chosen:
            self._grow(self.root)
            self._check_results()
        self.nodes: tuple[Node, ...] = tuple(self._nodes.values())
        self.complete: tuple[Node, ...] = tuple(n for n in self.nodes if n.complete)
        self._chains: dict[int, tuple[Chain, ...]] = {}

    # -- building ---------------------------------------------------------------------

    def _node(
        self, mine: Side, theirs: Side, left: tuple[int, ...], used: tuple[int, ...],
        path: tuple[Move, ...],
    ) -> Node:
        """The node for this key, made on first sight."""
        complete = self._depth > 0 and len(used) == self._depth
        key = (mine, theirs, () if complete else left)
        node = self._nodes.get(key)
        if node is None:
            node = self._new_node(mine, theirs, () if complete else left, used, path,
                                  complete=complete)
            self._nodes[key] = node
        return node

    def _new_node(
        self, mine: Side, theirs: Side, left: tuple[int, ...], used: tuple[int, ...],
        path: tuple[Move, ...], *, complete: bool,
    ) -> Node:
        """A new node of this tree: its cells, what differs from the start, its play."""
        cells, pinned = self.steps.cells(mine, theirs)
        start, start_pins = self._start_cells, self._start_pins
        changed = frozenset(i for i in range(len(cells))
                            if cells[i] != start[i] or (i in pinned) != (i in start_pins))
        play = self._results.get((mine, theirs)) if complete else None
        return Node(len(self._nodes), self.mover, mine, theirs, left, used, cells, changed,
                    path, play, pinned=pinned)

    def _grow(self, root: Node) -> None:
        """Add every node on a path from ``root`` to a legal result, and their edges."""
        good: dict[NodeKey, bool] = {}
        self._walk(root, good)
        for key, ok in good.items():
            if not ok and key in self._nodes:
                del self._nodes[key]
        for node in self._nodes.values():
            for edge in node.children:
                edge.child.parents.append(edge)
        self._renumber()

    def _walk(self, node: Node, good: dict[NodeKey, bool]) -> bool:
        """Depth-first: True if ``node`` leads to (or is) one of the engine's results."""
        key = (node.mine, node.theirs, node.remaining)
        if key in good:
            return good[key]
        if node.complete:
            good[key] = True
            return True
        ok = False
        for die in sorted(set(node.remaining), reverse=True):
            left = list(node.remaining)
            left.remove(die)
            for move in self.steps.moves(node.mine, node.theirs, die):
                mine, theirs = self.steps.apply(node.mine, node.theirs, move)
                if not self._leads_to_result(mine, theirs, len(node.dice_used) + 1):
                    continue
                child = self._node(mine, theirs, tuple(left), (*node.dice_used, die),
                                   (*node.path, move))
                if self._walk(child, good):
                    node.children.append(Edge(node, child, move, die))
                    ok = True
        good[key] = ok
        return ok

    def _cell(self, point: int) -> int:
        """The cell of the mover's own ``point`` (25 = bar, 0 = off)."""
        return self.steps.cell(point)

    def _leads_to_result(self, mine: Side, theirs: Side, depth: int) -> bool:
        """Cheap pruning: at full depth only the engine's results count."""
        return depth < self._depth or (mine, theirs) in self._results

    def _renumber(self) -> None:
        """Number the surviving nodes in order of depth (the root is 0)."""
        ordered = sorted(self._nodes.items(), key=lambda kv: (kv[1].depth, kv[1].index))
        self._nodes = dict(ordered)
        for i, node in enumerate(self._nodes.values()):
            node.index = i

    def _check_results(self) -> None:
        """Every engine result must be a complete node (else the steps are wrong)."""
        found = {(n.mine, n.theirs) for n in self._nodes.values() if n.complete}
        missing = [p.notation for k, p in self._results.items() if k not in found]
        if missing:
            raise TreeMismatchError(f"plays the turn tree cannot reach: {', '.join(missing)}")

    # -- queries ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def chains_from(self, node: Node) -> tuple[Chain, ...]:
        """Every hand movement from ``node``: one checker by one or more dice."""
        chains = self._chains.get(node.index)
        if chains is None:
            found: list[Chain] = []
            for edge in node.children:
                self._extend(node, edge, edge.move[0], (), found)
            chains = self._chains[node.index] = tuple(found)
        return chains

    def _extend(
        self, before: Node, edge: Edge, origin: int, hits: tuple[int, ...], out: list[Chain]
    ) -> None:
        """Add the chain ending with ``edge`` and every longer one of the same checker."""
        _, to, hit = edge.move
        if hit and self.steps.hits:
            hits = (*hits, self._cell(to))
        out.append(Chain(before, edge.child, self._cell(origin), self._cell(to), hits))
        if to == OFF_POINT:
            return
        for nxt in edge.child.children:
            if nxt.move[0] == to:
                self._extend(before, nxt, origin, hits, out)

    def destinations(self, node: Node, origin: int) -> tuple[str, ...]:
        """Where a checker lifted from cell ``origin`` of ``node`` may go in one hand
        movement (one or more dice), in board order, "off" last."""
        dests = {c.dest for c in self.chains_from(node) if c.origin == origin}
        return tuple(location_name(i) for i in sorted(dests, key=lambda i: (i == OFF_CELL, i)))

    def sources(self, node: Node) -> tuple[str, ...]:
        """The locations from which a checker may move on from ``node``, in board order:
        what a referee may light when a lift cannot be seen (one taken off a pile whose
        count is a range), e.g. only the first checker's point while Fevga's rule binds."""
        origins = {c.origin for c in self.chains_from(node)}
        return tuple(location_name(i) for i in sorted(origins))

    def chains_into(self, node: Node) -> tuple[Chain, ...]:
        """Every hand movement that ends on ``node`` (from one of its ancestors)."""
        found: list[Chain] = []
        for edge in node.parents:
            self._rewind(edge, edge.move[1], (), node, found)
        return tuple(found)

    def _rewind(
        self, edge: Edge, dest: int, hits: tuple[int, ...], after: Node, out: list[Chain]
    ) -> None:
        """Add the chain starting with ``edge`` and every longer one of the same checker."""
        frm, to, hit = edge.move
        if hit and self.steps.hits:
            hits = (self._cell(to), *hits)
        out.append(Chain(edge.parent, after, self._cell(frm), self._cell(dest), hits))
        for prev in edge.parent.parents:
            if prev.move[1] == frm:
                self._rewind(prev, dest, hits, after, out)


def _dice_list(dice: tuple[int, int]) -> tuple[int, ...]:
    """The dice to play: two, or four of a double."""
    return (dice[0],) * 4 if dice[0] == dice[1] else (dice[0], dice[1])
