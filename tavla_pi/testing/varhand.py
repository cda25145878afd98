"""The scripted hand in Plakoto and Fevga: a chosen play moved as people move it.

The same hand as :mod:`tavla_pi.testing.hand` (orders, checkers carried over
several dice, slides, pauses, glitches, illegal placements, early DONE,
takebacks, knocked stacks), given a :class:`VariantModel` of the play (its
:class:`~tavla_pi.testing.hand.TurnModel`), with the board modelled by the variant's own
single-die rules (:mod:`tavla_pi.testing.varrules`): no bar, no hits; in
Plakoto a checker landing on a lone opposing checker is laid on top of it, in
its pocket (the modelled board does so with ``pin_on_top``), and a pinner
lifted off is the top checker of its pocket.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.rules.color import Color
from tavla_pi.rules.portes import gnubg_play, gnubg_position
from tavla_pi.rules.tavli import VariantPlay
from tavla_pi.testing.hand import UNSEEN_UNDER, Hand, HandStep
from tavla_pi.testing.handrules import Sides, Single
from tavla_pi.testing.varrules import (
    VarSides,
    variant_location,
    variant_orders,
    variant_partials,
    variant_reads_legal,
)


def variant_turn(hand: Hand, play: VariantPlay) -> list[HandStep]:
    """The steps that move ``play`` of any game on the board (DONE not included): a
    Portes play on the hand's Portes model, the others' on :class:`VariantModel`."""
    if gnubg_position(play.position) is not None:
        return hand.turn(gnubg_play(play), play.position.on_roll)
    return hand.steps(VariantModel(play))


class VariantModel:
    """The model of a Plakoto or Fevga play (:class:`~tavla_pi.testing.varrules.VarSides`):
    no bar, no hits, pins."""

    def __init__(self, play: VariantPlay) -> None:
        self.play = play
        self.mover = play.position.on_roll
        self.sides = VarSides.of(play)
        self.mine, self.theirs = self.sides.mine, self.sides.theirs
        plays = play.position.legal_plays(play.dice)
        self.complete: set[Sides] = {(p.result.theirs, p.result.mine)
                                     for p in plays}
        self.others = plays
        self._partials: set[tuple[int, ...]] | None = None

    def location(self, point: int) -> str:
        return variant_location(self.sides.game, point, self.mover)

    def orders(self, *, legal: bool) -> list[tuple[Single, ...]]:
        return variant_orders(VarSides.of(self.play), self.play, legal=legal)

    def move(self, frm: int, to: int) -> bool:
        self.sides = self.sides.moved(frm, to)
        self.mine = self.sides.mine
        return False  # no hits: a pin leaves the pinned checker where it lies

    def stacks(self) -> list[tuple[str, Color, int]]:
        name, s, opponent = self.sides.game, self.sides, self.mover.opponent
        stacks = [(variant_location(name, p, self.mover), self.mover, n)
                  for p, n in s.points() if n >= 2]
        return stacks + [(variant_location(name, p, opponent), opponent, n)
                         for p, n in s.points(theirs=True) if n >= 2]

    def held(self, point: int) -> bool:
        return self.sides.closed(point - 1)

    def illegal_points(self, hand: Hand, before: Sides, origin: int, dest: int) -> list[int]:
        """Held by the opponent, or reached by no dice; never a point with a checker of
        each colour (a pin), an opposing lone checker (a pin to be), nor a pile the
        sensors count only as a range (every pocket two high); and none from a pinning
        stack that keeps a pinner (those over a pin read as a range: with a start pile's
        range the board may read as a legal play)."""
        if self._partials is None:
            self._partials = variant_partials(VarSides.of(self.play), self.play.dice)
        partials = self._partials
        s = self.sides
        if before[0][origin - 1] >= 2 and s.facing(origin - 1) in s.their_pins:
            hand.tally["illegal_unseen_skipped"] += 1
            return []
        mine = list(before[0])
        mine[origin - 1] -= 1
        candidates = []
        for point in range(1, 25):
            i, theirs = point - 1, s.theirs[s.facing(point - 1)]
            held = s.closed(i) and theirs > 0
            if point in (origin, dest) or (theirs and (not held or mine[i])) \
                    or (held and not hand.style.illegal_held):
                continue
            if theirs >= UNSEEN_UNDER or mine[i] >= UNSEEN_UNDER:
                hand.tally["illegal_unseen_skipped"] += 1
                continue
            m = list(mine)
            m[i] += 1
            if held or not variant_reads_legal(tuple(m), partials):
                candidates.append(point)
        return candidates

    def other_steps(self, hand: Hand, other: Any) -> list[HandStep]:
        return variant_turn(hand, other)
