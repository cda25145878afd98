"""Reconcile: which legal (partial) play do the sensors show?

Given the committed position, the dice and the stable observations of a
turn, :class:`TurnTracker` answers with a :data:`Verdict`; outside a turn,
:func:`board_fixes` says what to add or remove to reach an expected board.
"""

from tavla_pi.reconcile.belief import Belief
from tavla_pi.reconcile.fix import Fix
from tavla_pi.reconcile.fixes import board_fixes
from tavla_pi.reconcile.tracker import TurnTracker
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

__all__ = [
    "Ambiguous",
    "Belief",
    "Complete",
    "Fix",
    "HitPending",
    "InHand",
    "Node",
    "OutOfSync",
    "Partial",
    "TurnTracker",
    "TurnTree",
    "Unchanged",
    "Verdict",
    "board_fixes",
]
