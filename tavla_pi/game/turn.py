"""One turn being moved: the reconcile tracker's verdicts, as the game needs them.

The tracker (``tavla_pi.reconcile``) says what is on the board; this module
keeps the turn's dice, the latest verdict, and derives what to light and what
to say (``lifted``, ``out_of_sync``/``in_sync``) when the verdict changes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from tavla_pi.decode.observation import Observation
from tavla_pi.reconcile import (
    Ambiguous,
    Complete,
    HitPending,
    InHand,
    Node,
    OutOfSync,
    Partial,
    TurnTracker,
    Unchanged,
    Verdict,
    board_fixes,
)
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.tavli import VariantPlay, VariantPosition


@dataclass(frozen=True, slots=True)
class TurnLights:
    """The parts of the game view a turn decides."""

    dice_used: tuple[bool, ...] = ()
    lifted_from: str | None = None
    destinations: tuple[str, ...] = ()
    press_done: bool = False
    fixes: tuple[Fix, ...] = ()
    to_bar: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    confirms: str | None = None


@dataclass
class Turn:
    """The mover, the dice and what the board shows of the play so far.

    ``start`` is the committed position of the turn's game, the mover on roll.
    ``seat_play``: the computer's play, which this turn must end with (its
    tree then holds only the boards on the way to it); None for a human's turn.
    ``from_start``: the board is to show the turn's start before the turn is moved (a
    play the authority over the game refused, still on the board): until it does, its
    fixes lead there and DONE is refused.
    """

    mover: Color
    dice: tuple[int, int]
    start: VariantPosition
    tracker: TurnTracker
    verdict: Verdict | None = None
    done_pending_since: int | None = None
    blink_until: int = 0
    last_lifted: tuple[str, tuple[str, ...]] | None = field(default=None)
    seat_play: Play | None = None
    from_start: bool = False

    @classmethod
    def begin(cls, start: VariantPosition, dice: tuple[int, int]) -> Turn:
        """A fresh turn from the committed position (the mover on roll)."""
        return cls(start.on_roll, dice, start, TurnTracker(start, dice))

    def observe(self, obs: Observation) -> Verdict:
        """Feed one stable observation; returns the new verdict (the fixes to the turn's
        start while the board is to show it first)."""
        if self.from_start:
            fixes = board_fixes(self.start.board(), obs)
            if fixes:
                self.verdict = OutOfSync(fixes, self.tracker.tree.root)
                return self.verdict
            self.from_start = False  # the start shown: the turn is moved from here
        self.verdict = self.tracker.observe(obs)
        return self.verdict

    def preview(self, obs: Observation) -> TurnLights:
        """What the turn would light if ``obs`` were the stable board, the turn left as
        it is: the lights of a provisional board (decisions wait for the stable one).
        The trial runs on a shallow copy of the tracker, which reassigns its belief and
        verdict and shares only the tree and its caches."""
        trial = replace(self, tracker=copy.copy(self.tracker))
        trial.observe(obs)
        return trial.lights()

    def complete_play(self) -> VariantPlay | None:
        """The play to commit on DONE, if the board shows one.

        When candidates read the same, DONE can only mean a complete play: if
        exactly one candidate is complete it is the play; if several are,
        DONE confirms the one lit first (CUBE cycles the candidates); if none
        is, DONE is refused and the candidates stay open.
        """
        verdict = self._confirmed()
        return verdict.play if isinstance(verdict, Complete) else None

    def _confirmed(self) -> Verdict | None:
        """The verdict DONE acts on: a complete candidate confirmed when plays read the same."""
        verdict = self.verdict
        if isinstance(verdict, Ambiguous):
            complete = [n for n in verdict.candidates if n.complete]
            if not complete:
                return None
            if len(complete) == 1 or not verdict.candidates[0].complete:
                self._offer_first(complete[0])
            verdict = self.verdict = self.tracker.confirm()
        return verdict

    def _offer_first(self, node: Node) -> None:
        """Cycle the candidates until ``node`` (one of them) is the one DONE confirms."""
        verdict = self.tracker.verdict
        while isinstance(verdict, Ambiguous) and verdict.candidates[0] is not node:
            verdict = self.tracker.cycle()

    def why_not_done(self) -> str:
        """The reason DONE is refused now, in a player's words."""
        verdict = self.verdict
        if isinstance(verdict, OutOfSync):
            return "put the checkers back where they stood before the play refused" \
                if self.from_start else "the board does not show a legal play"
        if self.seat_play is not None:
            return f"the board does not show {self.seat_play.notation} yet"
        if isinstance(verdict, HitPending):
            return "a hit checker must go to the bar first"
        if isinstance(verdict, InHand):
            return "a checker is still in the hand"
        if isinstance(verdict, Ambiguous):
            return "two plays read the same: confirm one"
        return "not all dice are used"

    def cycle_candidate(self) -> bool:
        """Light the next candidate when two plays read the same; False if none."""
        if not isinstance(self.verdict, Ambiguous):
            return False
        self.verdict = self.tracker.cycle()
        return True

    def fixes(self) -> tuple[Fix, ...]:
        """What to fix on the board now; empty when the board is acceptable."""
        return self.verdict.fixes if isinstance(self.verdict, OutOfSync) else ()

    def in_hand(self) -> InHand | None:
        """The mover's checker in the hand, if the board reads so."""
        verdict = self.verdict
        if isinstance(verdict, InHand):
            return verdict
        if isinstance(verdict, (Partial, Complete, Unchanged)):
            return getattr(verdict, "lifted", None)
        if isinstance(verdict, HitPending):
            return verdict.hand
        return None

    def new_lift(self) -> tuple[str, tuple[str, ...]] | None:
        """``(from, destinations)`` when a lift is new since the last call."""
        hand = self.in_hand()
        lifted = (hand.from_, hand.destinations) if hand is not None else None
        if lifted == self.last_lifted:
            return None
        self.last_lifted = lifted
        return lifted

    def dice_used(self) -> tuple[bool, ...]:
        """Which of the shown dice are played: two flags, or four for doubles."""
        verdict = self.verdict
        node = getattr(verdict, "node", None)
        if isinstance(verdict, HitPending) and verdict.leads_to:
            node = verdict.leads_to[0]
        if isinstance(verdict, Ambiguous):
            node = verdict.candidates[0]
        used = list(node.dice_used) if node is not None else []
        a, b = self.dice
        if a == b:
            return tuple(i < len(used) for i in range(4))
        return (a in used, b in used)

    def lights(self) -> TurnLights:
        """What the turn lights now."""
        verdict = self.verdict
        used = self.dice_used()
        hand = self.in_hand()
        if isinstance(verdict, OutOfSync):
            return TurnLights(used, fixes=verdict.fixes)
        if isinstance(verdict, HitPending):
            return TurnLights(used, to_bar=verdict.to_bar)
        if isinstance(verdict, Ambiguous):
            done = self.seat_play is None or any(n.complete for n in verdict.candidates)
            return TurnLights(used, candidates=verdict.differ, press_done=done,
                              confirms=_confirmed_by_done(verdict))
        if hand is not None:
            return TurnLights(used, hand.from_, hand.destinations)
        return TurnLights(used, press_done=isinstance(verdict, Complete))


def _confirmed_by_done(verdict: Ambiguous) -> str | None:
    """The notation of the play DONE confirms (:meth:`Turn.complete_play`): the first
    complete candidate in the order offered."""
    node = next((n for n in verdict.candidates if n.complete), None)
    if node is None:
        return None
    return node.play.notation if node.play is not None else None
