"""The turn tree: single-die steps against the rules engine, node keys, chains."""

from __future__ import annotations

import random

import pytest
from reconcile_support import random_positions

from tavla_pi.reconcile import moves as mv
from tavla_pi.reconcile.layout import cell_of, cells_of, moved_between, off_count
from tavla_pi.reconcile.tree import TurnTree
from tavla_pi.rules import Board, Color, Position
from tavla_pi.rules.portes import PortesPosition

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def test_cells_agree_with_the_engines_board() -> None:
    rng = random.Random(7)
    for position, mover in random_positions(rng, 40):
        board = position.to_board(mover)
        cells = cells_of(position.mine, position.theirs, mover)
        for n in range(1, 25):
            white, black = board.count(str(n), Color.WHITE), board.count(str(n), Color.BLACK)
            assert cells[n - 1] == white - black
        assert cells[24] == board.count("bar", Color.WHITE)
        assert cells[25] == -board.count("bar", Color.BLACK)
        for color in Color:
            assert off_count(cells, color) == board.count("off", color)


def test_own_numbering_maps_to_board_locations() -> None:
    assert cell_of(Color.WHITE, 24) == 23 and cell_of(Color.BLACK, 24) == 0
    assert cell_of(Color.WHITE, 1) == 0 and cell_of(Color.BLACK, 1) == 23
    assert cell_of(Color.WHITE, 25) == 24 and cell_of(Color.BLACK, 25) == 25


def test_every_engine_play_is_a_path_of_single_die_steps() -> None:
    rng = random.Random(11)
    for position, _ in random_positions(rng, 60):
        for dice in ROLLS:
            for play in position.legal_plays(dice):
                mine, theirs = position.mine, position.theirs
                for move in play.moves:
                    options = {d: mv.single_die_moves(mine, theirs, d) for d in set(dice)}
                    assert any(move in found for found in options.values()), (play, move)
                    mine, theirs = mv.apply(mine, theirs, move)
                assert (theirs, mine) == (play.result.mine, play.result.theirs)


@pytest.mark.parametrize("dice", ROLLS)
def test_complete_nodes_are_exactly_the_legal_plays_of_the_start(dice: tuple[int, int]) -> None:
    start = PortesPosition(Position.initial(), Color.WHITE)
    tree = TurnTree(start, dice)
    plays = start.legal_plays(dice)
    assert len(tree.complete) == len(plays)
    assert {n.play for n in tree.complete} == set(plays)
    for node in tree.complete:
        assert node.play is not None
        assert (node.theirs, node.mine) == (node.play.result.mine, node.play.result.theirs)


@pytest.mark.slow
def test_complete_nodes_match_legal_plays_over_random_positions() -> None:
    rng = random.Random(3)
    for position, mover in random_positions(rng, 80):
        for dice in ROLLS:
            start = PortesPosition(position, mover)
            tree = TurnTree(start, dice)
            plays = start.legal_plays(dice)
            assert {n.play for n in tree.complete} == set(plays)
            assert len(tree.complete) == len(plays)


def test_nodes_are_prefixes_that_can_still_complete() -> None:
    tree = TurnTree(PortesPosition(Position.initial(), Color.WHITE), (6, 5))
    for node in tree.nodes:
        assert node.complete or node.children
        for edge in node.children:
            assert edge.child in tree.nodes
    assert tree.root.index == 0 and tree.root.depth == 0
    assert all(n.depth == 2 for n in tree.complete)


def side(**points: int) -> tuple[int, ...]:
    """A 25-tuple from own point numbers: side(p24=1, bar=2)."""
    out = [0] * 25
    for key, n in points.items():
        out[24 if key == "bar" else int(key[1:]) - 1] = n
    return tuple(out)


def test_larger_die_rule_keeps_only_the_larger_die() -> None:
    # White's last checker on its 24; Black holds White's 13 (Black's own 12), so
    # 24/18 and 24/19 are each playable but cannot be followed: the 6 must be played.
    position = Position(side(p24=1), side(p12=2, p3=13))
    tree = TurnTree(PortesPosition(position, Color.WHITE), (6, 5))
    assert [p.notation for p in position.legal_plays((6, 5))] == ["24/18"]
    assert [n.dice_used for n in tree.complete] == [(6,)]
    assert len(tree) == 2        # the start and 24/18: 24/19 is no legal partial play


def test_a_roll_with_no_legal_play_has_only_the_start() -> None:
    # Black holds White's 18 and 19 (Black's own 7 and 6): 6-5 cannot be played.
    position = Position(side(p24=1), side(p7=2, p6=2, p3=11))
    tree = TurnTree(PortesPosition(position, Color.WHITE), (6, 5))
    assert position.legal_plays((6, 5)) == []
    assert tree.complete == () and len(tree) == 1 and not tree.root.complete


def test_doubles_build_many_nodes_once() -> None:
    tree = TurnTree(PortesPosition(Position.initial(), Color.WHITE), (2, 2))
    assert len(tree.complete) == len(Position.initial().legal_plays((2, 2)))
    assert len(tree) > 100
    depths = {n.depth for n in tree.nodes}
    assert depths == {0, 1, 2, 3, 4}


def test_chains_are_one_checker_moved_by_consecutive_dice() -> None:
    tree = TurnTree(PortesPosition(Position.initial(), Color.WHITE), (5, 3))
    chains = {(c.origin + 1, c.dest + 1) for c in tree.chains_from(tree.root)}
    assert (13, 5) in chains and (13, 8) in chains and (13, 10) in chains and (24, 16) in chains
    assert (8, 5) in chains and (6, 3) in chains
    assert (6, 1) not in chains  # Black holds White's 1
    assert tree.destinations(tree.root, 12) == ("5", "8", "10")
    node = next(n for n in tree.nodes if n.path == ((13, 8, False),))
    into = {(c.before.index, c.origin + 1, c.dest + 1) for c in tree.chains_into(node)}
    assert into == {(0, 13, 8)}


def test_moved_between_counts_checkers_and_the_tray() -> None:
    a = cells_of(tuple([0] * 5 + [2] + [0] * 19), tuple([0] * 24 + [0]), Color.WHITE)
    b = cells_of(tuple([0] * 5 + [1] + [0] * 19), tuple([0] * 25), Color.WHITE)
    c = cells_of(tuple([1] + [0] * 4 + [1] + [0] * 19), tuple([0] * 25), Color.WHITE)
    everywhere = frozenset(range(26))
    assert moved_between(a, b, Color.WHITE, everywhere) == 1   # one borne off
    assert moved_between(b, a, Color.WHITE, everywhere) == 1   # taken back from the tray
    assert moved_between(a, c, Color.WHITE, everywhere) == 1   # 6/1
    assert moved_between(b, c, Color.WHITE, everywhere) == 1   # back from the tray onto 1
    assert moved_between(a, a, Color.WHITE, everywhere) == 0


def test_board_of_a_position_round_trips_through_cells() -> None:
    position = Position.initial()
    cells = cells_of(position.mine, position.theirs, Color.BLACK)
    board = Board.initial()
    assert cells[5] == 5 and cells[18] == -5 and cells[23] == 2 and cells[0] == -2
    assert board.count("6", Color.WHITE) == cells[5]
