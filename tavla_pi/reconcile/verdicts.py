"""What reconcile concludes about one stable observation: a small union of values.

Locations are docs/CONTRACTS.md §1 strings ("1".."24", "bar", "off").  Nodes are
those of the turn's :class:`~tavla_pi.reconcile.tree.TurnTree`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.reconcile.fix import Fix
from tavla_pi.reconcile.tree import Node
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import VariantPlay


@dataclass(frozen=True, slots=True)
class InHand:
    """A checker of the mover lifted from ``from_``; where it may legally go now.

    ``destinations`` are reached by one or more dice in one hand movement from
    ``node`` ("off" when bearing off); empty when that checker cannot move.
    """

    from_: str
    destinations: tuple[str, ...]
    node: Node


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The board is as at the turn's start.

    ``lifted``, in Plakoto and Fevga only: the board also reads as a checker lifted
    from where it was last seen (a checker taken back off the 15-checker pile, whose
    count is a range, reads as the start).
    """

    node: Node
    lifted: InHand | None = None


@dataclass(frozen=True, slots=True)
class Partial:
    """A legal partial play is on the board; ``lifted`` if it also reads as a checker
    in the hand (the trays are not sensed; a stack may read as "at least n")."""

    node: Node
    lifted: InHand | None = None

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice this partial play has used."""
        return self.node.dice_used


@dataclass(frozen=True, slots=True)
class Complete:
    """A complete legal play is on the board (DONE may commit it)."""

    node: Node
    lifted: InHand | None = None

    @property
    def play(self) -> VariantPlay:
        """The rules' play (docs/CONTRACTS.md §2), in every variant."""
        play = self.node.play
        assert play is not None  # a complete node
        return play

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice the play uses."""
        return self.node.dice_used


@dataclass(frozen=True, slots=True)
class HitPending:
    """A hit under way: the hit checker (``color``) is not on the bar yet, or the
    hitter not yet on its point.

    ``to_bar``: points where a hit checker stands or was lifted from, still to go
    on the bar (empty when it is there already); ``leads_to``: the node(s) the hit
    completes to; ``hitters``: where the hitter still stands (empty once it moved);
    ``hand``: the hitter, when it is in the hand.
    """

    color: Color
    to_bar: tuple[str, ...]
    leads_to: tuple[Node, ...]
    hitters: tuple[str, ...] = ()
    hand: InHand | None = None


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several legal (partial) plays read the same: ask, never guess.

    ``candidates`` in the order offered (DONE confirms the first, CUBE cycles);
    ``differ``: the locations where they differ, to light for the player;
    ``lifted`` if the board also reads as a checker in the hand.
    """

    candidates: tuple[Node, ...]
    differ: tuple[str, ...]
    lifted: InHand | None = None

    @property
    def plays(self) -> tuple[VariantPlay | None, ...]:
        """Each candidate's complete play, None for a partial one."""
        return tuple(n.play for n in self.candidates)


@dataclass(frozen=True, slots=True)
class OutOfSync:
    """The board fits no legal (partial) play: ``fixes`` reach the nearest, ``target``."""

    fixes: tuple[Fix, ...]
    target: Node


Verdict = Unchanged | Partial | Complete | InHand | HitPending | Ambiguous | OutOfSync
