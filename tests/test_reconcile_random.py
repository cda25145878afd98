"""Randomised: every legal play of random positions, moved by hand in random orders.

Positions come from random legal games played with the rules engine; each
play is moved one checker (or one hand movement) at a time along a random
legal order of its single-die moves, hits done in random orders.  The
tracker must end on exactly that play, and never on another.
"""

from __future__ import annotations

import random

import pytest
from reconcile_support import Player, Table, hand_movements, path_to, random_positions

from tavla_pi.reconcile import (
    Ambiguous,
    Complete,
    HitPending,
    InHand,
    OutOfSync,
    Partial,
    TurnTracker,
)
from tavla_pi.reconcile.layout import cell_of, location_name
from tavla_pi.reconcile.tree import Node, TurnTree
from tavla_pi.rules.portes import PortesPosition, gnubg_position


def _replay(tree: TurnTree, target: Node, rng: random.Random, *, saturate: bool) -> Player:
    """Move the table from the start to the complete node ``target``."""
    tracker = TurnTracker.from_tree(tree)
    start = gnubg_position(tree.start)
    assert start is not None
    p = Player(tracker, Table.of(start, tracker.mover), rng, saturate=saturate)
    for frm, to, hits in hand_movements(path_to(tree, target, rng), rng):
        before = p.tracker.verdict
        verdict = p.hand_move(frm, to, hits)
        if not saturate:
            assert isinstance(verdict, Partial | Complete), (before, verdict, p.seen[-4:])
            assert verdict.node.cells == p.table.cells()
    return p


@pytest.mark.slow
def test_every_play_of_random_positions_ends_complete_with_that_play() -> None:
    rng = random.Random(20240607)
    plays = 0
    for position, mover in random_positions(rng, 120):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        tree = TurnTree(PortesPosition(position, mover), dice)
        for node in tree.complete:
            p = _replay(tree, node, rng, saturate=False)
            final = p.tracker.verdict
            assert isinstance(final, Complete), (node, final)
            assert final.play == node.play
            assert not any(isinstance(v, OutOfSync | Ambiguous) for v in p.seen), p.seen
            plays += 1
    assert plays > 1000


@pytest.mark.slow
def test_with_tall_stacks_read_as_intervals_never_another_play() -> None:
    rng = random.Random(99)
    ambiguous = 0
    for position, mover in random_positions(rng, 120):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        tree = TurnTree(PortesPosition(position, mover), dice)
        for node in tree.complete:
            p = _replay(tree, node, rng, saturate=True)
            final = p.tracker.verdict
            if isinstance(final, Ambiguous):
                assert node.play in final.plays
                obs = p.table.observation(saturate=True)
                for location in final.differ:     # they differ only where counts are unsure
                    assert location != "bar"
                    assert not obs.point(int(location)).count.exact
                ambiguous += 1
            else:
                assert isinstance(final, Complete) and final.play == node.play
    assert ambiguous < 10


def test_lifted_checkers_always_list_where_they_then_go() -> None:
    rng = random.Random(5)
    checked = 0
    for position, mover in random_positions(rng, 60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        tracker = TurnTracker(PortesPosition(position, mover), dice)
        if not tracker.tree.complete:
            continue
        target = rng.choice(tracker.tree.complete)
        p = Player(tracker, Table.of(position, mover), rng)
        for frm, to, hits in hand_movements(path_to(tracker.tree, target, rng), rng):
            if hits:
                p.hand_move(frm, to, hits)
                continue
            lifted = p.lift(location_name(cell_of(mover, frm)))
            hand = lifted.lifted if isinstance(lifted, Partial | Complete) else lifted
            assert isinstance(hand, InHand), lifted
            assert location_name(cell_of(mover, to)) in hand.destinations
            p.place(location_name(cell_of(mover, to)))
            checked += 1
        assert not isinstance(p.tracker.verdict, HitPending)
    assert checked > 50
