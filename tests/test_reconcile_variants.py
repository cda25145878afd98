"""Reconcile in Plakoto and Fevga, the tracker fed by the decoder reading the modelled
board (pins laid on top in Plakoto): partial, complete, out of sync, the lights."""

from __future__ import annotations

import random

from reconcile_support import B, Player, W
from reconcile_variant_support import VariantTable

from tavla_pi.reconcile import Complete, Fix, InHand, OutOfSync, Partial, TurnTracker, Unchanged
from tavla_pi.rules import variant
from tavla_pi.rules.tavli import VariantPosition

PLAKOTO = variant("plakoto")
FEVGA = variant("fevga")


def player(position: VariantPosition, dice: tuple[int, int], seed: int = 0) -> Player:
    """A hand on the modelled board of ``position``, its turn followed by a tracker."""
    tracker = TurnTracker(position, dice)
    return Player(tracker, VariantTable(position, seed), random.Random(seed))


def next_steps(position: VariantPosition, dice: tuple[int, int], origin: str) -> set[str]:
    """Where the rules let one checker from ``origin`` go in one hand movement: along
    each legal play's moves, from the first that leaves ``origin``."""
    mover = position.on_roll
    found = set()
    for play in position.legal_plays(dice):
        at = origin
        for frm, to, _ in play.moves:
            if _absolute(position, mover, frm) == at:
                at = _absolute(position, mover, to)
                found.add(at)
    return found


def _absolute(position: VariantPosition, mover: object, point: int) -> str:
    """The board location of the mover's own ``point`` (0 = off)."""
    if point == 0:
        return "off"
    if mover is W:
        return str(point)
    if position.variant == "fevga":
        return str(point + 12 if point <= 12 else point - 12)
    return str(25 - point)


def in_hand(verdict: object) -> InHand:
    """The checker in the hand a verdict reads (also one that reads as the start)."""
    if isinstance(verdict, Unchanged | Partial | Complete) and verdict.lifted is not None:
        return verdict.lifted
    assert isinstance(verdict, InHand), verdict
    return verdict


def complete_play(verdict: object) -> str:
    assert isinstance(verdict, Complete), verdict
    return verdict.play.notation


# -- Plakoto -------------------------------------------------------------------------


def test_plakoto_a_move_off_the_15_pile_is_partial_then_complete() -> None:
    start = PLAKOTO.initial()
    p = player(start, (3, 1))
    assert isinstance(p.show(), Unchanged)
    assert isinstance(p.lift("24"), Unchanged)  # a lift from the pile reads as the pile
    partial = p.place("21")
    assert isinstance(partial, Partial) and partial.node.path == ((24, 21, False),)
    pile = p.table.observation().point(24).count
    assert not pile.exact and 14 in pile        # a range: the rules' count says 14
    done = p.move("24", "23")
    assert complete_play(done) == "24/23 24/21"
    assert isinstance(done, Complete)
    assert done.play in start.legal_plays((3, 1))
    assert done.play.result.board()["white"] == {"24": 13, "23": 1, "21": 1}


BLOT_ON_5 = PLAKOTO.from_board({"white": {"24": 13, "8": 2}, "black": {"1": 14, "5": 1}},
                               on_roll="white")


def test_plakoto_a_pinning_move_lights_its_destination_and_the_pin_is_expected() -> None:
    p = player(BLOT_ON_5, (3, 1))
    p.show()
    lifted = p.lift("8")
    assert isinstance(lifted, InHand)
    assert set(lifted.destinations) == next_steps(BLOT_ON_5, (3, 1), "8") == {"4", "5", "7"}
    pinned = p.place("5")                       # on top of the black blot: a pin
    reading = p.table.observation().point(5)
    assert reading.covered is B
    assert isinstance(pinned, Partial), pinned
    assert pinned.node.path == ((8, 5, True),) and pinned.node.pinned == {4}
    done = p.move("8", "7")
    assert complete_play(done) == "8/7 8/5*"
    assert isinstance(done, Complete)
    assert done.play.result.board()["pinned"] == {"5": "black"}


def test_plakoto_after_a_pin_the_next_turn_reads_it_and_the_pinned_checker_stays() -> None:
    p = player(BLOT_ON_5, (3, 1))
    p.show()
    p.move("8", "5")
    done = p.move("24", "23")
    assert isinstance(done, Complete)
    after = done.play.result
    tracker = TurnTracker(after, (4, 1))
    black = Player(tracker, p.table, random.Random(1))
    assert isinstance(black.show(), Unchanged)  # the covered pocket is no fault
    assert tracker.tree.destinations(tracker.tree.root, 4) == ()
    assert "5" not in tracker.tree.sources(tracker.tree.root)  # the pinned one stays
    assert "5" not in {loc for play in after.legal_plays((4, 1))
                       for loc in _froms(after, play.moves)}
    assert complete_play(black.move("1", "6", B)) in {
        pl.notation for pl in after.legal_plays((4, 1))}


def _froms(position: VariantPosition, moves: tuple[tuple[int, int, bool], ...]) -> set[str]:
    return {_absolute(position, position.on_roll, frm) for frm, _, _ in moves}


def test_plakoto_landing_on_two_is_out_of_sync_with_the_fixes_back() -> None:
    start = PLAKOTO.from_board({"white": {"24": 13, "8": 2}, "black": {"1": 13, "5": 2}},
                               on_roll="white")
    p = player(start, (3, 1), seed=3)
    p.show()
    lifted = p.lift("8")
    assert isinstance(lifted, InHand)
    assert set(lifted.destinations) == next_steps(start, (3, 1), "8") == {"4", "7"}
    wrong = p.place("5")
    assert isinstance(wrong, OutOfSync)
    assert wrong.fixes == (Fix("5", W, -1), Fix("8", W, 1))
    p.move("5", "8")
    assert isinstance(p.move("8", "4"), Complete)


# -- Fevga ---------------------------------------------------------------------------


def test_fevga_the_first_checker_must_pass_before_another_leaves() -> None:
    start = FEVGA.initial()
    p = player(start, (6, 5), seed=1)
    assert [pl.notation for pl in start.legal_plays((6, 5))] == ["24/13"]
    p.show()
    assert isinstance(p.move("24", "18"), Partial)
    second = p.move("24", "19")                 # a second checker off the start: illegal
    assert isinstance(second, OutOfSync)
    assert second.fixes == (Fix("19", W, -1), Fix("24", W, 1))
    moved = p.move("19", "24")
    assert isinstance(moved, Partial)
    tree = p.tracker.tree
    assert tree.sources(tree.root) == ("24",)
    assert tree.sources(moved.node) == ("18",)   # only the first checker may go on
    lifted = p.lift("18")                       # the start's board, the runner in the hand
    assert isinstance(lifted, Unchanged)
    assert in_hand(lifted).from_ == "18" and in_hand(lifted).destinations == ("13",)
    assert complete_play(p.place("13")) == "24/13"


def test_fevga_black_runs_from_12_down_and_round() -> None:
    start = FEVGA.from_board({"white": {"24": 14, "13": 1}, "black": {"12": 15}},
                             on_roll="black")
    p = player(start, (4, 2), seed=2)
    p.show()
    assert isinstance(p.move("12", "8", B), Partial)
    lifted = in_hand(p.lift("8", B))
    assert lifted.from_ == "8" and set(lifted.destinations) == {"6"}
    assert complete_play(p.place("6", B)) == start.legal_plays((4, 2))[0].notation


def test_fevga_a_single_checker_holds_a_point_and_is_not_hit() -> None:
    start = FEVGA.from_board({"white": {"24": 14, "13": 1}, "black": {"12": 14, "8": 1}},
                             on_roll="white")
    p = player(start, (5, 1), seed=4)
    p.show()
    lifted = p.lift("13")
    assert isinstance(lifted, InHand)
    assert "8" not in lifted.destinations
    assert set(lifted.destinations) == next_steps(start, (5, 1), "13")
    wrong = p.place("8")
    assert isinstance(wrong, OutOfSync)
    assert wrong.fixes == (Fix("8", W, -1), Fix("13", W, 1))
    assert all(f.at != "bar" for f in wrong.fixes)
