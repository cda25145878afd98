"""The tracker fed by the real decoder reading the modelled board (magnets, noise)."""

from __future__ import annotations

import random

import pytest
from reconcile_support import (
    B,
    Player,
    SimTable,
    W,
    hand_movements,
    own,
    path_to,
    random_positions,
)

from tavla_pi.reconcile import (
    Ambiguous,
    Complete,
    Fix,
    HitPending,
    Partial,
    TurnTracker,
    board_fixes,
)
from tavla_pi.reconcile.tree import TurnTree
from tavla_pi.rules import Position
from tavla_pi.rules.portes import PortesPosition

BLOT_ON_10 = Position(Position.initial().mine, own(p24=2, p13=4, p15=1, p8=3, p6=5))


def test_a_hit_read_through_the_decoder() -> None:
    tracker = TurnTracker(PortesPosition(BLOT_ON_10, W), (3, 1))
    p = Player(tracker, SimTable(BLOT_ON_10, W, seed=3), random.Random(0))
    assert p.show() == tracker.verdict
    p.lift("13")
    pending = p.place("10")                          # the hitter on the blot: both colours
    assert isinstance(pending, HitPending), pending
    assert pending.to_bar == ("10",)
    assert any(f.kind == "mixed_colors" for f in p.table.observation().faults)
    p.lift("10", B)
    partial = p.place("bar", B)
    assert isinstance(partial, Partial) and partial.node.path == ((13, 10, True),)
    p.move("10", "9")
    final = p.tracker.verdict
    assert isinstance(final, Complete) and final.play.notation == "13/10*/9"


@pytest.mark.slow
def test_random_plays_on_the_modelled_board_end_on_that_play() -> None:
    rng = random.Random(4)
    plays = ambiguous = 0
    for k, (position, mover) in enumerate(random_positions(rng, 16)):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        tree = TurnTree(PortesPosition(position, mover), dice)
        for node in rng.sample(tree.complete, min(3, len(tree.complete))):
            p = Player(TurnTracker.from_tree(tree), SimTable(position, mover, seed=k), rng)
            p.show()
            for frm, to, hits in hand_movements(path_to(tree, node, rng), rng):
                p.hand_move(frm, to, hits)
            final = p.tracker.verdict
            plays += 1
            if isinstance(final, Ambiguous):
                assert node.play in final.plays
                ambiguous += 1
            else:
                assert isinstance(final, Complete), (node, final, p.seen)
                assert final.play == node.play
    assert plays >= 30
    assert ambiguous <= plays // 10


def test_setup_check_through_the_decoder() -> None:
    table = SimTable(Position.initial(), W, seed=5)
    expected = Position.initial().to_board(W)
    assert board_fixes(expected, table.observation()) == ()
    table.lift("13", W)
    table.place("off", W)
    table.lift("19", B)
    table.place("20", B)
    fixes = board_fixes(expected, table.observation())
    # a pocket emptied may read "4 or 5": the decoder only claims what it knows
    assert Fix("20", B, -1) in fixes
    assert set(fixes) <= {Fix("13", W, 1), Fix("19", B, 1), Fix("20", B, -1)}
    table.lift("20", B)
    table.place("19", B)
    table.lift("off", W)
    table.place("13", W)
    assert board_fixes(expected, table.observation()) == ()
