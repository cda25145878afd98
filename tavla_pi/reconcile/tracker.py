"""Following one turn on the board: which legal (partial) play the sensors show.

A :class:`TurnTracker` holds the turn's tree and a *belief*: the node (or the
nodes, while ambiguous) the board was last seen at.  Each stable observation
is explained, in this order of preference:

1. a hit under way whose hitter stands on a blot the decoder saw as two colours;
2. a node of the tree (any node: takebacks are always accepted) -- of those,
   the ones the fewest checker movements away from the belief; if those read
   the same but are different boards, :class:`Ambiguous` (never a guess).  A
   board that also reads as a checker lifted from the belief (over the tray,
   or put on a stack read as "at least n") carries that lift along;
3. a checker in the hand, lifted from the belief, or the other in-between
   boards of a hit, or a checker lifted from a farther node (frames missed);
4. otherwise :class:`OutOfSync`, with the fewest fixes to the nearest node.

Pure: no I/O, no clock.  The tree is built once per turn; each observation
compares only the cells a node changed from the start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tavla_pi.decode.observation import Observation
from tavla_pi.reconcile.belief import Belief
from tavla_pi.reconcile.fixes import cells_fixes, fix_cost
from tavla_pi.reconcile.hits import HitState, hit_states
from tavla_pi.reconcile.layout import location_name, sign
from tavla_pi.reconcile.matching import Sensed
from tavla_pi.reconcile.tree import Node, TurnTree
from tavla_pi.reconcile.verdicts import (
    Ambiguous,
    Complete,
    HitPending,
    InHand,
    OutOfSync,
    Partial,
    Unchanged,
    Verdict,
)
from tavla_pi.rules.tavli import VariantPosition

Lift = tuple[Node, int]
"""A node with one of the mover's checkers lifted from a cell."""


class TurnTracker:
    """Reconciles the stable observations of one turn with the rules.

    ``start`` is the committed position of any variant, the player on roll to move
    with ``dice``; ``tree``, if given, that turn's tree already built (the same turn
    followed again, or only the boards on the way to some plays).
    """

    def __init__(self, start: VariantPosition, dice: tuple[int, int],
                 tree: TurnTree | None = None) -> None:
        self.tree = TurnTree(start, dice) if tree is None else tree
        self.mover = self.tree.mover
        self._belief = Belief((self.tree.root,))
        self._verdict: Verdict = Unchanged(self.tree.root)
        self._hit_states: dict[int, tuple[HitState, ...]] = {}

    @classmethod
    def from_tree(cls, tree: TurnTree) -> TurnTracker:
        """A fresh tracker over a tree already built (the same turn followed again)."""
        return cls(tree.start, tree.dice, tree)

    # -- state ------------------------------------------------------------------------

    @property
    def verdict(self) -> Verdict:
        """The last verdict (Unchanged before the first observation)."""
        return self._verdict

    @property
    def belief(self) -> Belief:
        """Where the board was last seen (several nodes while ambiguous)."""
        return self._belief

    # -- the player's answer to Ambiguous ---------------------------------------------

    def cycle(self) -> Verdict:
        """Offer the next candidate first (CUBE while ambiguous); else no change."""
        if isinstance(self._verdict, Ambiguous):
            first, *rest = self._verdict.candidates
            self._verdict = Ambiguous((*rest, first), self._verdict.differ,
                                      self._verdict.lifted)
        return self._verdict

    def confirm(self) -> Verdict:
        """Take the first candidate (DONE while ambiguous); else no change."""
        if isinstance(self._verdict, Ambiguous):
            node = self._verdict.candidates[0]
            group = tuple(n for n in self._belief.seen if _same_board(n, node))
            declined = frozenset(n for n in self._belief.seen if not _same_board(n, node))
            self._belief = Belief(group or (node,), declined=declined | self._belief.declined)
            self._verdict = self._node_verdict(node, None)
        return self._verdict

    # -- observing --------------------------------------------------------------------

    def observe(self, obs: Observation) -> Verdict:
        """Explain one stable observation; remember it for the next."""
        sensed = Sensed(obs)
        root = self.tree.root
        diff = sensed.mismatches(root.cells, root.pinned)
        self._verdict = self._explain(sensed, diff)
        return self._verdict

    def _explain(self, sensed: Sensed, diff: frozenset[int]) -> Verdict:
        """The verdict for one observation, updating the belief (see the module doc)."""
        if sensed.mixed:
            on_mixed = [h for h in self._hits(sensed, diff) if _stands_on_mixed(h, sensed)]
            if on_mixed:
                return self._hit_verdict(on_mixed)
        nodes = [n for n in self.tree.nodes if _fits_node(n, sensed, diff)]
        if nodes:
            return self._settle(nodes, sensed, diff)
        lifts = self._lifts(sensed, diff, self.tree.nodes)
        if lifts and lifts[0][0] == 0:
            return self._lift_verdict(lifts)
        hits = self._hits(sensed, diff)
        if hits:
            return self._hit_verdict(hits)
        if lifts:
            return self._lift_verdict(lifts)
        return self._out_of_sync(sensed, diff)

    # -- nodes ------------------------------------------------------------------------

    def _settle(self, nodes: list[Node], sensed: Sensed, diff: frozenset[int]) -> Verdict:
        """The nearest matching node(s): a node verdict, or Ambiguous.

        Nearest: fewest checkers moved since last seen.  If the board also
        reads as a checker lifted from where it was last seen (borne off and
        held look alike, the trays are not sensed; a checker put on a stack
        read as "at least n" may not show), the lift is attached and its node
        kept in mind.  Boards reached from the nearest by moves the sensors
        cannot see are also possible; if one is a different complete play,
        the player is asked.
        """
        belief = self._belief
        ranks = [belief.rank(n, self.mover) for n in nodes]
        top = min(ranks)
        best = [n for n, r in zip(nodes, ranks, strict=True) if r == top]
        lifts = self._lifts(sensed, diff, dict.fromkeys((*belief.seen, *belief.held)))
        lifted = self._in_hand(lifts) if lifts else None
        held = tuple(lift[0] for d, _, lift in lifts if d == 0)
        unseen = (self._unseen_from(best, set(nodes)) | _other_plays(best, nodes)) \
            - belief.declined
        groups = _by_board(best)
        shown = {(g[0].mine, g[0].theirs) for g in groups}
        hidden = [g for g in _by_board(sorted(unseen, key=_index))
                  if g[0].complete and (g[0].mine, g[0].theirs) not in shown]
        if len(groups) + len(hidden) > 1:
            seen = tuple(n for g in (*groups, *hidden) for n in g)
            firsts = sorted((g[0] for g in (*groups, *hidden)), key=lambda n: not n.complete)
            return self._ambiguous(firsts, seen, unseen, held, lifted)
        keep = belief.declined if _same_board(best[0], belief.seen[0]) else frozenset()
        self._belief = Belief(tuple(best), frozenset(unseen) - set(best), keep, held)
        return self._node_verdict(groups[0][0], lifted)

    def _unseen_from(self, best: list[Node], matching: set[Node]) -> set[Node]:
        """Nodes reached from ``best`` by hand movements that read the same."""
        found = set(best)
        frontier = list(best)
        while frontier:
            node = frontier.pop()
            for chain in self.tree.chains_from(node):
                if chain.after in matching and chain.after not in found:
                    found.add(chain.after)
                    frontier.append(chain.after)
        return found

    def _node_verdict(self, node: Node, lifted: InHand | None) -> Verdict:
        """Unchanged, Partial or Complete for ``node``."""
        if node is self.tree.root:
            return Unchanged(node, lifted if self.tree.steps.lifts_at_start else None)
        if node.complete:
            return Complete(node, lifted)
        return Partial(node, lifted)

    def _ambiguous(
        self, candidates: list[Node], seen: tuple[Node, ...], unseen: set[Node],
        held: tuple[Node, ...], lifted: InHand | None,
    ) -> Ambiguous:
        """Ambiguous between boards, complete plays first (DONE takes the first);
        keeps the order the player has cycled to."""
        previous = self._verdict
        if isinstance(previous, Ambiguous) and set(previous.candidates) == set(candidates):
            candidates = list(previous.candidates)
        unseen_only = frozenset(unseen) - set(seen)
        self._belief = Belief(seen, unseen_only, self._belief.declined, held)
        return Ambiguous(tuple(candidates), _differ(candidates), lifted)

    # -- checkers in the hand ---------------------------------------------------------

    def _lifts(
        self, sensed: Sensed, diff: frozenset[int], nodes: Iterable[Node]
    ) -> list[tuple[int, int, Lift]]:
        """(distance, order, lift) of every visible lift that reads as observed, nearest first."""
        found = []
        s = sign(self.mover)
        for node in nodes:
            extra = diff - node.changed
            if len(extra) > 1:
                continue
            cells, pinned = node.cells, node.pinned
            for i in extra or node.changed:
                held = s * cells[i]
                if held <= 0 or sensed.fits_cell(i, cells[i], pinned=i in pinned):
                    continue
                if _fits_lifted(sensed, node, i, s) and sensed.fits(
                        cells, node.changed - {i}, pinned):
                    distance = self._belief.distance(node, self.mover)
                    found.append((distance, node.index * 32 + i, (node, i)))
        found.sort(key=lambda f: f[:2])
        return found

    def _lift_verdict(self, lifts: list[tuple[int, int, Lift]]) -> InHand:
        """InHand for the nearest lift(s); the belief moves to where it was lifted.

        A node held before stays held only while the board still reads as a
        checker lifted from it: one hand holds one checker, so a held node whose
        board now lacks two is no longer a reading.
        """
        in_hand = self._in_hand(lifts)
        belief = self._belief
        anchors = tuple(n for d, _, (n, i) in lifts
                        if d == lifts[0][0] and _same_lift((n, i), lifts[0][2]))
        if set(anchors) != set(belief.seen):
            self._belief = Belief(anchors, declined=belief.declined)
        else:
            lifted_from = {n for d, _, (n, _) in lifts if d == 0}
            held = tuple(n for n in belief.held if n in lifted_from)
            self._belief = Belief(belief.seen, belief.unseen, belief.declined, held)
        return in_hand

    def _in_hand(self, lifts: Sequence[tuple[int, int, Lift]]) -> InHand:
        """The InHand of the nearest lift, destinations merged over every reading of a
        lift from the same place (each reads as observed: plays that read the same
        may leave different dice for the checker in the hand)."""
        first = lifts[0][2]
        dests: set[str] = set()
        for d, _, lift in lifts:
            if d == lifts[0][0] and lift[1] == first[1]:
                dests.update(self.tree.destinations(*lift))
        node, origin = first
        return InHand(location_name(origin), _board_order(dests), node)

    # -- hits -------------------------------------------------------------------------

    def _hits(self, sensed: Sensed, diff: frozenset[int]) -> list[HitState]:
        """The in-between boards of hitting hand movements to or from the belief that
        read as observed."""
        states: list[HitState] = []
        for node in dict.fromkeys((*self._belief.seen, *self._belief.held)):
            cached = self._hit_states.get(node.index)
            if cached is None:
                chains = (*self.tree.chains_from(node), *self.tree.chains_into(node))
                cached = tuple(s for c in chains for s in hit_states(c, self.mover))
                self._hit_states[node.index] = cached
            states.extend(s for s in cached if s.fits(sensed, diff))
        return states

    def _hit_verdict(self, states: list[HitState]) -> Verdict:
        """HitPending (or InHand, once the blot is on the bar) for the matching states."""
        first = states[0]
        same = [s for s in states if s.board == first.board]
        chain = first.chain
        hand = None
        if first.hitter == "hand":
            hand = InHand(location_name(chain.origin),
                          self.tree.destinations(chain.before, chain.origin), chain.before)
            if not first.to_bar:
                return hand
        to_bar = sorted({p for s in same for p in s.to_bar})
        leads_to = sorted({s.chain.after for s in same}, key=lambda n: n.index)
        hitters = sorted({s.chain.origin for s in same if s.hitter == "origin"})
        return HitPending(
            self.mover.opponent,
            tuple(location_name(p) for p in to_bar),
            tuple(leads_to),
            tuple(location_name(p) for p in hitters),
            hand,
        )

    # -- out of sync ------------------------------------------------------------------

    def _out_of_sync(self, sensed: Sensed, diff: frozenset[int]) -> OutOfSync:
        """The fewest fixes to the nearest node (ties: nearest in history, then order)."""
        memo: dict[tuple[int, int, bool], int] = {}

        def cost(i: int, v: int, pins: frozenset[int]) -> int:
            key = (i, v, i in pins)
            if key not in memo:
                memo[key] = fix_cost(i, v, sensed, pinned=i in pins)
            return memo[key]

        root = self.tree.root
        base = {i: cost(i, root.cells[i], root.pinned) for i in diff}
        best: list[tuple[int, Node]] = []
        for node in self.tree.nodes:
            total = sum(c for i, c in base.items() if i not in node.changed)
            total += sum(cost(i, node.cells[i], node.pinned) for i in node.changed)
            best.append((total, node))
        least = min(t for t, _ in best)
        target = min((n for t, n in best if t == least),
                     key=lambda n: (self._belief.distance(n, self.mover), n.index))
        fixes = cells_fixes(target.cells, sensed, diff | target.changed, target.pinned)
        return OutOfSync(fixes, target)


def _other_plays(best: list[Node], nodes: list[Node]) -> set[Node]:
    """When the nearest reading is a complete play, the other complete plays the board
    reads as too, however far: the sensors cannot tell them (a count read as a range,
    the tray), and the hand may have moved more than the stable board saw (a checker
    put back and carried on within one stable window), so DONE must ask, not guess
    (soak 21000209, ``tests/soak_failures/two_plays_read_the_same_far_apart.jsonl``)."""
    if not any(n.complete for n in best):
        return set()
    return {n for n in nodes if n.complete and n not in best}


def _fits_node(node: Node, sensed: Sensed, diff: frozenset[int]) -> bool:
    """True if the observation reads as ``node`` (``diff``: where the start does not)."""
    return diff <= node.changed and sensed.fits(node.cells, node.changed, node.pinned)


def _fits_lifted(sensed: Sensed, node: Node, i: int, s: int) -> bool:
    """True if cell ``i`` reads as ``node``'s with one of the mover's checkers (sign ``s``)
    lifted from it; a pinner's last lifted leaves the pinned checker alone there."""
    v = node.cells[i]
    if i not in node.pinned:
        return sensed.fits_cell(i, v - s)
    if v == s:
        return sensed.fits_cell(i, -s)
    return sensed.fits_pin(i, v - s)


def _by_board(nodes: list[Node]) -> list[list[Node]]:
    """Nodes grouped by board, a complete node first in its group.

    One board can be several nodes when bearing off wastes pips: 2/off with
    the 6 (the 1 still to play) is the same board as the complete 2/1/off.
    The board is then a complete legal play, and play may also go on.
    """
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[Node]] = {}
    for node in nodes:
        groups.setdefault((node.mine, node.theirs), []).append(node)
    return [sorted(g, key=lambda n: (not n.complete, n.index)) for g in groups.values()]


def _differ(nodes: Sequence[Node]) -> tuple[str, ...]:
    """The locations where the candidates' boards differ, in board order."""
    cells = [n.cells for n in nodes]
    where = [i for i in range(len(cells[0])) if len({c[i] for c in cells}) > 1]
    return tuple(dict.fromkeys(location_name(i) for i in where))


def _index(node: Node) -> int:
    """A node's place in the tree (for a deterministic order)."""
    return node.index


def _same_board(a: Node, b: Node) -> bool:
    """True when two nodes are the same board (they may differ in dice left)."""
    return a.mine == b.mine and a.theirs == b.theirs


def _same_lift(a: Lift, b: Lift) -> bool:
    """True when two lifts leave the same board (same node board, same cell)."""
    return a[1] == b[1] and a[0].mine == b[0].mine and a[0].theirs == b[0].theirs


def _stands_on_mixed(state: HitState, sensed: Sensed) -> bool:
    """True if the state puts both colours on a location the decoder saw as mixed."""
    return any(w and b and i in sensed.mixed for i, (w, b) in state.content)


def _board_order(locations: set[str]) -> tuple[str, ...]:
    """Locations sorted as on the board: points 1..24, then bar, then off."""
    order = {"bar": 25, "off": 26}
    return tuple(sorted(locations, key=lambda loc: order.get(loc, 0) or int(loc)))
