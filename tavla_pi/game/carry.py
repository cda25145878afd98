"""The computer's play carried out by hand, and the human's takeback before it.

The computer's play is followed like any turn, but over a tree of the boards
on the way to that play only (:func:`follow_play`): any other board, another
legal play included, is out of sync and its fixes lead back onto the way.
:func:`next_step` says which checker to move next, in an order a hand can
follow: a checker on the bar first, then the checkers farthest from home,
each over all its dice in one movement, stopping where it hits (the hit
checker then goes to the bar).

:class:`Undo` remembers the human's last play while it may still be taken
back: until the computer's checkers start to move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tavla_pi.decode.observation import Observation
from tavla_pi.game.state import State
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import SeatStep
from tavla_pi.reconcile import (
    Ambiguous,
    Complete,
    HitPending,
    InHand,
    Node,
    OutOfSync,
    Partial,
    TurnTracker,
    TurnTree,
    Unchanged,
)
from tavla_pi.reconcile.layout import N_POINTS, OFF_CELL, location_name
from tavla_pi.reconcile.tree import Chain
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.play import Play
from tavla_pi.rules.portes import PortesPosition, portes_play
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import VariantPosition


def follow_play(start: Position, mover: Color, dice: tuple[int, int], play: Play) -> Turn:
    """A turn that accepts only the boards on the way to ``play`` (the computer's)."""
    portes = PortesPosition(start, mover)
    tree = TurnTree(portes, dice, plays=(portes_play(play, mover),))
    return Turn(mover, dice, portes, TurnTracker.from_tree(tree), seat_play=play)


def resumed_turn(state: State, computer: Color | None) -> Turn | None:
    """The turn a journal's state leaves being moved, followed afresh from the committed
    position: the computer's (its chosen play, or None while it is still to choose) or a
    human's."""
    a, b = state.dice
    start = state.game_position()
    if start.on_roll is not computer:
        return Turn.begin(start, (a, b))
    chosen = state.seat_play
    return None if chosen is None else follow_play(state.position(), start.on_roll, (a, b),
                                                   chosen)


def resumed_undo(state: State, undoes: Callable[[Color], bool]) -> Undo | None:
    """The last play as a journal's state leaves it open to a takeback (``undoes``: whether
    a play of that player's may be taken back, :meth:`~tavla_pi.game.deciding.Seat.undoes`)."""
    before = state.before_play
    if before is None or not undoes(before.match.on_roll):
        return None
    a, b = before.dice
    return Undo.rebuilt(before.match, before.game_position(), (a, b), state.committed)


def carrying_begun(turn: Turn) -> bool:
    """Whether the board shows the carrying out begun (a checker of the turn moved or
    lifted): the human's last play may no longer be taken back."""
    return not isinstance(turn.verdict, Unchanged | OutOfSync | None)


def next_step(turn: Turn) -> SeatStep | None:
    """The next checker to move towards the turn's play, as the board reads now
    (None when the board is out of sync: its fixes come first)."""
    tree, verdict, mover = turn.tracker.tree, turn.verdict, turn.mover
    if verdict is None:
        return _step(_chain(tree, tree.root), mover)
    if isinstance(verdict, OutOfSync):
        return None
    if isinstance(verdict, HitPending):
        return _hit_step(tree, verdict, mover)
    if isinstance(verdict, InHand):
        chain = _chain(tree, verdict.node, verdict.from_)
        return _step(chain or _chain(tree, verdict.node), mover)
    if isinstance(verdict, Ambiguous):
        return _step(_least_done(tree, verdict), mover)
    return _step(_chain(tree, verdict.node), mover)


def _least_done(tree: TurnTree, verdict: Ambiguous) -> Chain | None:
    """Where boards that read the same leave the play (a tall stack hides a checker
    borne off or put on it): the next movement of the least advanced one; None when
    every one is the whole play (the hand's DONE confirms it)."""
    open_ = [n for n in verdict.candidates if not n.complete]
    least = min(open_, key=lambda n: n.depth, default=None)
    return None if least is None else _chain(tree, least)


def _hit_step(tree: TurnTree, verdict: HitPending, mover: Color) -> SeatStep | None:
    """A hit under way: the hit checker to the bar, else the hitter onto its point."""
    if verdict.to_bar:
        return SeatStep(verdict.to_bar[0], "bar", mover.opponent)
    origin = verdict.hitters[0] if verdict.hitters else (
        verdict.hand.from_ if verdict.hand is not None else None)
    for after in verdict.leads_to:
        for chain in tree.chains_into(after):
            if location_name(chain.origin) == origin:
                return _step(chain, mover)
    return None


def _chain(tree: TurnTree, node: Node, origin: str | None = None) -> Chain | None:
    """The hand movement to make next from ``node`` (from ``origin`` if given): one
    checker over as many dice as it goes on without hitting on the way."""
    if node.complete:
        return None
    chains = [c for c in tree.chains_from(node)
              if set(c.hits) <= {c.dest} and origin in (None, location_name(c.origin))]
    deepest: dict[int, int] = {}
    for c in chains:
        deepest[c.origin] = max(deepest.get(c.origin, 0), c.after.depth)
    whole = [c for c in chains if c.after.depth == deepest[c.origin]]
    mover = tree.mover
    return min(whole, key=lambda c: (-_point(c.origin, mover), _point(c.dest, mover),
                                     c.after.index), default=None)


def _point(cell: int, mover: Color) -> int:
    """A cell as a point in the mover's numbering (25 the bar, 0 off)."""
    if cell == OFF_CELL:
        return 0
    if cell >= N_POINTS:
        return 25
    return cell + 1 if mover is Color.WHITE else N_POINTS - cell


def _step(chain: Chain | None, mover: Color) -> SeatStep | None:
    if chain is None:
        return None
    return SeatStep(location_name(chain.origin), location_name(chain.dest), mover)


@dataclass(frozen=True)
class Undo:
    """The human's last play, while the board may still take it back.

    ``match`` and ``start`` are as the turn began (its dice rolled), ``tree``
    the turn's, ``result`` the position the play left.
    """

    match: MatchState
    start: VariantPosition
    dice: tuple[int, int]
    tree: TurnTree
    result: VariantPosition

    @classmethod
    def of(cls, turn: Turn, match: MatchState, result: VariantPosition) -> Undo:
        """The undo of ``turn``, committed from ``match`` (before the play) to ``result``."""
        return cls(match, turn.start, turn.dice, turn.tracker.tree, result)

    @classmethod
    def rebuilt(cls, match: MatchState, start: VariantPosition, dice: tuple[int, int],
                result: VariantPosition) -> Undo:
        """The undo of a play, from the state before it (a journal's)."""
        return cls(match, start, dice, TurnTree(start, dice), result)

    @property
    def player(self) -> Color:
        """Whose play it was."""
        return self.match.on_roll

    def shows(self, obs: Observation) -> bool:
        """Whether the board shows that turn again: its start, a board on its way, or
        another complete play of it (not the play committed)."""
        verdict = TurnTracker.from_tree(self.tree).observe(obs)
        if isinstance(verdict, Unchanged | Partial):
            return True
        return isinstance(verdict, Complete) and verdict.play.result != self.result
