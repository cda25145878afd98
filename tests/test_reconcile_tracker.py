"""TurnTracker through real positions: checkers moved one at a time on a test table."""

from __future__ import annotations

import random

from reconcile_support import B, Player, Table, W, own

from tavla_pi.decode.observation import CountRange, Reading
from tavla_pi.reconcile import (
    Ambiguous,
    Complete,
    Fix,
    HitPending,
    InHand,
    OutOfSync,
    Partial,
    TurnTracker,
    Unchanged,
)
from tavla_pi.rules import Color, Position
from tavla_pi.rules.portes import PortesPosition

INITIAL = Position.initial()
# Black has left a blot on White's 10 (Black's own 15).
BLOT_ON_10 = Position(INITIAL.mine, own(p24=2, p13=4, p15=1, p8=3, p6=5))
# White bears off: 2 on 6, 3 on 5, 2 on 3 (8 off); Black far away.
BEAR_OFF = Position(own(p6=2, p5=3, p3=2), own(p6=5, p8=3, p13=5, p1=2))


def player(position: Position, dice: tuple[int, int], mover: Color = W) -> Player:
    tracker = TurnTracker(PortesPosition(position, mover), dice)
    return Player(tracker, Table.of(position, mover), random.Random(0))


def notation(verdict: object) -> str:
    assert isinstance(verdict, Complete), verdict
    return verdict.play.notation


def test_the_start_board_is_unchanged() -> None:
    p = player(INITIAL, (3, 1))
    verdict = p.show()
    assert isinstance(verdict, Unchanged)
    assert verdict.node is p.tracker.tree.root


def test_partial_then_complete() -> None:
    p = player(INITIAL, (3, 1))
    partial = p.move("8", "5")
    assert isinstance(partial, Partial)
    assert partial.dice_used == (3,)
    assert partial.lifted is None
    assert notation(p.move("6", "5")) == "8/5 6/5"
    assert p.tracker.verdict == p.seen[-1]


def test_black_moves_in_its_own_direction() -> None:
    p = player(INITIAL, (3, 1), mover=B)
    partial = p.move("17", "20")           # Black's 8/5
    assert isinstance(partial, Partial)
    assert notation(p.move("19", "20")) == "8/5 6/5"


def test_lifted_checker_shows_every_destination_of_one_hand_movement() -> None:
    p = player(INITIAL, (5, 3))
    lifted = p.lift("13")
    assert isinstance(lifted, InHand)
    assert lifted.from_ == "13"
    assert lifted.destinations == ("5", "8", "10")   # 13/5 uses both dice
    p.place("13")
    lifted = p.lift("24")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("16", "21")       # Black holds 19: 24/16 goes by 21


def test_destinations_follow_the_dice_left() -> None:
    p = player(INITIAL, (5, 3))
    p.move("13", "8")
    lifted = p.lift("8")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("5",)            # only the 3 is left
    assert notation(p.place("5")) == "13/5"


def test_doubles_destinations_reach_several_points() -> None:
    p = player(INITIAL, (6, 6))
    lifted = p.lift("24")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("18",)           # 24/12 is blocked by Black's 13
    p.place("24")
    lifted = p.lift("13")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("7",)            # 13/1 is Black's 24 point


def test_a_complete_play_reached_in_one_hand_movement() -> None:
    p = player(INITIAL, (6, 5))
    p.lift("24")
    assert notation(p.place("13")) == "24/13"


def test_entering_from_the_bar() -> None:
    position = Position(own(bar=1, p24=1, p13=5, p8=3, p6=5), INITIAL.theirs)
    p = player(position, (6, 1))
    lifted = p.lift("bar")
    assert isinstance(lifted, InHand)
    assert lifted.from_ == "bar"
    assert lifted.destinations == ("18", "24")      # the 6 alone is blocked (Black's 6)
    partial = p.place("24")
    assert isinstance(partial, Partial) and partial.dice_used == (1,)
    assert notation(p.move("24", "18")) == "bar/18"


def test_entering_for_black_uses_its_bar_half() -> None:
    position = Position(own(bar=1, p24=1, p13=5, p8=3, p6=5), INITIAL.mine)
    p = player(position, (6, 1), mover=B)
    lifted = p.lift("bar")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("1", "7")
    p.place("1")
    assert notation(p.move("1", "7")) == "bar/18"


def test_hitter_placed_on_the_blot_then_blot_to_the_bar() -> None:
    p = player(BLOT_ON_10, (3, 1))
    p.lift("13")
    pending = p.place("10")
    assert isinstance(pending, HitPending)
    assert pending.color is B and pending.to_bar == ("10",) and pending.hand is None
    assert [n.path for n in pending.leads_to] == [((13, 10, True),)]
    in_hand = p.lift("10", B)
    assert isinstance(in_hand, HitPending) and in_hand.to_bar == ("10",)
    partial = p.place("bar", B)
    assert isinstance(partial, Partial)
    assert partial.node.path == ((13, 10, True),)


def test_blot_to_the_bar_before_the_hitter_is_lifted() -> None:
    p = player(BLOT_ON_10, (3, 1))
    lifted_blot = p.lift("10", B)
    assert isinstance(lifted_blot, HitPending)
    assert lifted_blot.to_bar == ("10",) and lifted_blot.hitters == ("13",)
    on_bar = p.place("bar", B)
    assert isinstance(on_bar, HitPending)
    assert on_bar.to_bar == () and on_bar.hitters == ("13",)
    hitter = p.lift("13")
    assert isinstance(hitter, InHand) and hitter.from_ == "13"
    assert "10" in hitter.destinations
    assert isinstance(p.place("10"), Partial)


def test_blot_knocked_off_with_the_hitter_in_the_hand() -> None:
    p = player(BLOT_ON_10, (3, 1))
    p.lift("13")
    both = p.lift("10", B)
    assert isinstance(both, HitPending)
    assert both.hand is not None and both.hand.from_ == "13"
    assert both.to_bar == ("10",)
    assert {n.path for n in both.leads_to} == {((13, 10, True),), ((13, 10, True), (10, 9, False))}
    hitter = p.place("bar", B)
    assert isinstance(hitter, InHand) and hitter.from_ == "13"
    assert notation(p.place("9")) == "13/10*/9"


def test_hit_and_takeback_of_the_hit() -> None:
    p = player(BLOT_ON_10, (3, 1))
    p.move("13", "10")
    p.move("10", "bar", B)
    back = p.move("bar", "10", B)                    # the blot back first: both colours
    assert isinstance(back, HitPending)
    assert isinstance(p.move("10", "13"), Unchanged)


def test_an_illegal_placement_is_out_of_sync_until_corrected() -> None:
    p = player(INITIAL, (3, 1))
    p.lift("8")
    wrong = p.place("6")                             # 8/6 is not a 3-1 move
    assert isinstance(wrong, OutOfSync)
    assert wrong.fixes == (Fix("6", W, -1), Fix("8", W, 1))
    assert wrong.target is p.tracker.tree.root
    assert [f.to_event() for f in wrong.fixes] == [
        {"at": "6", "color": "white", "remove": 1},
        {"at": "8", "color": "white", "add": 1},
    ]
    p.lift("6")
    assert isinstance(p.place("5"), Partial)         # now 8/5


def test_an_extra_checker_of_the_opponent_is_out_of_sync() -> None:
    p = player(INITIAL, (3, 1))
    p.move("8", "5")
    p.table.place("20", B)
    wrong = p.show()
    assert isinstance(wrong, OutOfSync)
    assert wrong.fixes == (Fix("20", B, -1),)
    assert wrong.target.path == ((8, 5, False),)


def test_takeback_step_by_step_and_all_at_once() -> None:
    p = player(INITIAL, (3, 1))
    p.move("8", "5")
    assert notation(p.move("6", "5")) == "8/5 6/5"
    back = p.move("5", "6")
    assert isinstance(back, Partial) and back.node.path == ((8, 5, False),)
    assert isinstance(p.move("5", "8"), Unchanged)
    p.move("13", "10")
    p.move("10", "9")
    p.table.lift("9", W)                             # the board set back in one go
    p.table.place("13", W)
    assert isinstance(p.show(), Unchanged)


def test_takeback_to_an_intermediate_node() -> None:
    p = player(INITIAL, (2, 2))
    p.move("13", "11")
    p.move("11", "9")
    p.move("6", "4")
    back = p.move("9", "11")
    assert isinstance(back, Partial)
    assert back.node.dice_used == (2, 2)


def test_sloppy_stacks_are_told_apart_by_the_history() -> None:
    p = player(INITIAL, (3, 1))
    p.move("8", "5")                                 # seen exactly: 8/5
    # a hand jostles the stacks on 6 and 8: their slots now read "at least"
    assert isinstance(p.table, Table)
    p.table.overrides = {"6": Reading(W, CountRange(4, 15)), "8": Reading(W, CountRange(2, 15))}
    still = p.show()                                 # 8/5 and 6/5 read the same now
    assert isinstance(still, Partial) and still.node.path == ((8, 5, False),)
    assert notation(p.move("6", "5")) == "8/5 6/5"


def test_genuinely_ambiguous_boards_are_asked_not_guessed() -> None:
    p = player(INITIAL, (3, 1))
    assert isinstance(p.table, Table)
    p.table.overrides = {"6": Reading(W, CountRange(4, 15)), "8": Reading(W, CountRange(2, 15))}
    assert isinstance(p.lift("8"), Unchanged)        # the lift does not show
    ambiguous = p.place("5")
    assert isinstance(ambiguous, Ambiguous)
    assert [n.path for n in ambiguous.candidates] == [((8, 5, False),), ((6, 5, False),)]
    assert ambiguous.differ == ("6", "8")
    assert ambiguous.plays == (None, None)
    again = p.show()
    assert again == ambiguous
    cycled = p.tracker.cycle()
    assert isinstance(cycled, Ambiguous)
    assert [n.path for n in cycled.candidates] == [((6, 5, False),), ((8, 5, False),)]
    assert p.show() == cycled                        # the cycled order is kept
    confirmed = p.tracker.confirm()
    assert isinstance(confirmed, Partial) and confirmed.node.path == ((6, 5, False),)
    assert p.show() == confirmed                     # the same board stays what was confirmed
    assert p.tracker.confirm() == confirmed          # nothing to confirm any more


def test_tall_stacks_read_as_intervals_still_give_the_play() -> None:
    position = Position(own(p6=9, p5=3, p4=3), own(p6=5, p8=3, p13=5, p1=2))
    p = player(position, (1, 1))
    p.saturate = True
    for _ in range(2):
        p.move("6", "5")                             # 6 stays "7 or more"
    partial = p.show()
    assert isinstance(partial, Partial) and partial.dice_used == (1, 1)
    p.move("6", "5")
    assert notation(p.move("6", "5")) == "6/5(4)"


def test_bearing_off_reads_as_borne_off_and_as_in_the_hand() -> None:
    p = player(BEAR_OFF, (6, 4))
    lifted = p.lift("6")
    assert isinstance(lifted, Partial)               # 6/off: the trays are not sensed
    assert lifted.node.path == ((6, 0, False),)
    assert lifted.lifted is not None
    assert lifted.lifted.from_ == "6" and lifted.lifted.destinations == ("2", "off")
    partial = p.place("2")                           # it was 6/2 after all
    assert isinstance(partial, Partial) and partial.node.path == ((6, 2, False),)
    lifted_again = p.lift("6")
    assert isinstance(lifted_again, Complete)
    assert lifted_again.play.notation == "6/2 6/off"


def test_bearing_off_with_the_larger_die() -> None:
    position = Position(own(p4=1), own(p6=5, p8=3, p13=5, p1=2))
    p = player(position, (6, 5))
    done = p.lift("4")
    assert isinstance(done, Complete)
    assert done.play.notation == "4/off" and done.dice_used == (6,)
    assert done.lifted is not None and done.lifted.destinations == ("off",)


def test_bearing_off_a_lower_checker_with_the_larger_die() -> None:
    position = Position(own(p5=1, p2=2), own(p6=5, p8=3, p13=5, p1=2))
    p = player(position, (6, 3))
    lifted = p.lift("5")
    # 5/off with the 6 (the 3 to play) is the same board as the complete 5/2/off
    assert isinstance(lifted, Complete) and lifted.play.notation == "5/off"
    assert {n.dice_used for n in p.tracker.belief.seen} == {(6,), (3, 6)}
    assert lifted.lifted is not None and lifted.lifted.destinations == ("2", "off")
    done = p.lift("2")
    assert isinstance(done, Complete) and done.play.notation == "5/off 2/off"


def test_a_double_with_hundreds_of_nodes() -> None:
    p = player(INITIAL, (2, 2))
    assert len(p.tracker.tree) > 100
    p.move("13", "11")
    p.move("6", "4")
    lifted = p.lift("11")
    assert isinstance(lifted, InHand)
    assert lifted.destinations == ("7", "9")
    p.place("9")
    assert notation(p.move("4", "2")) == "13/9 6/2"


def test_a_checker_borne_off_a_tall_stack_unseen_is_asked_about() -> None:
    # White: 10 on its 1 point ("7 or more" before and after one is borne off), 3 on 2, 1 on 3.
    position = Position(own(p1=10, p2=3, p3=1), own(p1=9, p3=1, p7=1, p13=1, p14=2, p16=1))
    for order in (("1", "3"), ("3", "1")):
        p = player(position, (3, 1))
        p.saturate = True
        for location in order:
            p.lift(location)                         # into the tray: never seen there
        asked = p.seen[-1]
        assert isinstance(asked, Ambiguous), (order, asked)
        assert {n.play.notation for n in asked.candidates if n.play} == {"3/off", "3/off 1/off"}
        assert asked.differ == ("1",)
        assert asked.candidates[0].play is not None
        if asked.candidates[0].play.notation == "3/off":
            p.tracker.cycle()
        done = p.tracker.confirm()
        assert notation(done) == "3/off 1/off"
        assert p.show() == done                      # confirmed: not asked again


def test_frames_missed_between_moves_still_find_the_play() -> None:
    p = player(INITIAL, (3, 1))
    p.table.lift("8", W)
    p.table.place("5", W)
    p.table.lift("6", W)
    lifted = p.show()                                # 8/5 done and 6 already in the hand
    assert isinstance(lifted, InHand)
    assert lifted.from_ == "6" and lifted.destinations == ("5",)
    assert lifted.node.path == ((8, 5, False),)
    done = p.place("5")
    assert isinstance(done, Complete) and notation(done) == "8/5 6/5"
    assert done.node.board == Position.from_position_id(
        done.play.result.position_id()).swap().to_board(W)


def test_partial_board_and_dice_used_for_the_game() -> None:
    p = player(INITIAL, (6, 6))
    partial = p.move("24", "18")
    assert isinstance(partial, Partial)
    assert partial.dice_used == (6,)
    assert partial.node.board.count("18", W) == 1 and partial.node.board.count("24", W) == 1
    assert partial.node.remaining == (6, 6, 6)


def test_the_lift_stays_attached_while_the_board_does_not_change() -> None:
    p = player(BEAR_OFF, (6, 4))
    first = p.lift("6")
    again = p.show()
    assert isinstance(first, Partial) and again == first
    assert again.lifted is not None and again.lifted.from_ == "6"


def test_a_checker_put_on_a_stack_read_as_at_least_n_may_still_be_in_the_hand() -> None:
    # White's 6 point holds 8: one more does not show.  Lifting from 8 (dice 2-1)
    # reads as 8/6 done and as a checker held over the stack.
    position = Position(own(p8=2, p6=8, p5=5), own(p6=5, p8=3, p13=5, p1=2))
    p = player(position, (2, 1))
    p.saturate = True
    lifted = p.lift("8")
    assert isinstance(lifted, Partial) and lifted.node.path == ((8, 6, False),)
    assert lifted.lifted is not None
    assert lifted.lifted.from_ == "8" and lifted.lifted.destinations == ("5", "6", "7")
    partial = p.place("7")                           # it was held after all: 8/7
    assert isinstance(partial, Partial) and partial.node.path == ((8, 7, False),)


def test_entering_with_a_hit() -> None:
    # White on the bar; Black has a blot on White's 22 (Black's own 3).
    position = Position(own(bar=1, p24=1, p13=5, p8=3, p6=5),
                        own(p3=1, p24=1, p13=5, p8=3, p6=5))
    p = player(position, (3, 1))
    lifted = p.lift("bar")
    assert isinstance(lifted, InHand) and "22" in lifted.destinations
    pending = p.place("22")
    assert isinstance(pending, HitPending) and pending.to_bar == ("22",)
    p.lift("22", B)
    partial = p.place("bar", B)
    assert isinstance(partial, Partial) and partial.node.path == ((25, 22, True),)


def test_a_whole_play_the_sensors_cannot_see_is_offered_first() -> None:
    # White's 1 point holds 12 ("7 or more" whatever is borne off); 1-1 bears off four.
    position = Position(own(p1=12), own(p6=5, p8=3, p13=5, p23=2))
    p = player(position, (1, 1))
    p.saturate = True
    asked = p.show()
    assert isinstance(asked, Ambiguous)
    assert [n.complete for n in asked.candidates] == [True, False]
    assert notation(p.tracker.confirm()) == "1/off(4)"


def test_a_checker_lifted_after_an_unseen_move_lights_the_destinations_of_each_reading() -> None:
    # Found by the soak (seed 4000: sessions 4000012416, 4000012529): White, 13 on
    # its 1 point, plays 2/1 with a 5-1.  That reads the same as 2/off; lifting the
    # second checker from 2 lit only "1" (the 1 left after 2/off), not "off" (the 5
    # left after 2/1), which is where it goes.
    position = Position(own(p1=12, p2=2, p3=0), own(p1=9, p3=1, p7=1, p13=1, p14=2, p16=1))
    p = player(position, (5, 1))
    p.saturate = True
    p.move("2", "1")
    assert isinstance(p.seen[-1], Ambiguous)
    lifted = p.lift("2")
    hand = lifted.lifted if isinstance(lifted, (Complete, Partial)) else lifted
    assert isinstance(hand, InHand) and set(hand.destinations) == {"1", "off"}, lifted


def test_a_held_reading_ends_when_a_second_checker_would_be_in_the_hand() -> None:
    # Found by the soak (sessions 9200027635, 7000021637, 31337094117): White's 5-2 is
    # 3/1 3/off.  After 3/1, the checker is taken back and 3/off made unseen: the
    # board reads 3/off, and 3/1 with the checker from 1 held.  The next lift (3)
    # leaves no such reading (two checkers would be in the hand); once it is put on
    # 1, the complete play must not read as 3/1 with a checker from 3 held again.
    position = Position(own(p1=5, p2=3, p3=4),
                        own(p1=3, p2=8, p5=1, p11=1, p13=1, p15=1))
    p = player(position, (5, 2))
    p.move("3", "1")
    p.table.lift("1", W)
    p.table.place("3", W)
    p.table.lift("3", W)
    p.table.place("off", W)
    both = p.show()
    assert isinstance(both, Partial) and both.lifted is not None and both.lifted.from_ == "1"
    lifted = p.lift("3")
    assert isinstance(lifted, InHand) and lifted.destinations == ("1",)
    done = p.place("1")
    assert isinstance(done, Complete) and done.lifted is None, done
    assert done.play.notation == "3/1 3/off"
