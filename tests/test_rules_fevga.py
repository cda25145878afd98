"""Fevga: each rule of docs/VARIANTS.md by name, and golden counts of the opening.

Boards are written in absolute points (docs/CONTRACTS.md §1); notation is in the
mover's own numbering: for White absolute, for Black own n is absolute n + 12
(n <= 12) or n - 12 (n > 12).
"""

from __future__ import annotations

from variants_oracle import ROLLS
from variants_support import notations, perft_two_plies, position, results

from tavla_pi.rules import BoardDict, Color, Ending, Outcome, VariantPosition, variant

FEVGA = variant("fevga")
BLACK_HOME_BLOCKED = {18: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1, 12: 9}
"""Black on each of 13..18, the rest on its start: White can land on none of them."""


def fevga(white: dict[int, int], black: dict[int, int], on_roll: str = "white") -> VariantPosition:
    return position("fevga", white, black, on_roll)


def quarter_full(result: dict[str, dict[str, int]]) -> bool:
    return all(str(n) in result["white"] for n in range(19, 25))


# -- the start, the directions and Black's numbering -----------------------------------


def test_white_starts_15_on_24_and_black_15_on_12() -> None:
    start = FEVGA.initial()
    assert start.on_roll is Color.WHITE
    expected: BoardDict = {"white": {"24": 15}, "black": {"12": 15}, "pinned": {}}
    assert start.board() == expected


def test_both_move_counter_clockwise_black_from_12_to_1_then_24_to_13() -> None:
    black = FEVGA.from_board(FEVGA.initial().board(), on_roll="black")
    assert notations(black, (6, 5)) == ["24/13"]  # Black's own 24 is absolute 12, own 13 is 1
    assert results(black, (6, 5))[0]["black"] == {"1": 1, "12": 14}
    round_the_corner = fevga({24: 15}, {12: 14, 2: 1}, "black")  # own 14 is absolute 2
    plays = {pl.notation: pl.result.board()["black"] for pl in round_the_corner.legal_plays((3, 1))}
    assert plays["14/10"] == {"12": 14, "22": 1}  # 2 -> 1 -> 22 (or 2 -> 23 -> 22)


def test_white_bears_off_from_1_to_6_and_black_from_13_to_18() -> None:
    assert notations(fevga({6: 1, 1: 1}, {20: 15}), (6, 1)) == ["6/off 1/off", "6/off"]
    black = fevga({24: 15}, {13: 1, 18: 1}, "black")  # Black's own 1 and own 6
    assert notations(black, (6, 1)) == ["6/off 1/off", "6/off"]
    assert notations(fevga({24: 15}, {13: 1, 19: 1}, "black"), (6, 1)) == ["7/off"]


# -- the dice and bearing off, as in Portes --------------------------------------------


def test_dice_both_dice_else_the_larger_else_as_many_as_possible() -> None:
    # White's checkers on 1 may not move (not all home): only the one on 20 plays
    assert notations(fevga({20: 1, 1: 14}, {13: 1, 12: 14}), (6, 1)) == ["20/14"]
    assert notations(fevga({20: 1, 1: 14}, {13: 1, 14: 1, 12: 13}), (6, 1)) == ["20/19"]
    assert notations(fevga({20: 1, 1: 14}, {12: 15}), (4, 4)) == ["20/16"]


def test_bearing_off_with_the_higher_die_from_the_highest_point() -> None:
    p = fevga({4: 1, 2: 1}, {20: 15})
    assert set(notations(p, (6, 1))) == {"4/off 2/1", "4/off"}


# -- no hitting ------------------------------------------------------------------------


def test_there_is_no_hitting_and_a_single_checker_holds_a_point() -> None:
    p = fevga({24: 14, 20: 1}, {18: 1, 12: 14})
    assert notations(p, (2, 1)) == ["20/17"]  # not 20/18: one black checker holds it
    assert results(p, (2, 1))[0]["black"] == {"12": 14, "18": 1}


# -- the first checker -----------------------------------------------------------------


def test_the_first_checker_must_pass_the_opponents_start_before_another_leaves() -> None:
    start = FEVGA.initial()
    assert notations(start, (6, 5)) == ["24/13"]  # one checker, both dice
    assert notations(start, (2, 1)) == ["24/21"]
    not_passed = fevga({24: 14, 17: 1}, {12: 15})
    assert notations(not_passed, (1, 2)) == ["17/14"]
    passing = fevga({24: 14, 13: 1}, {12: 15})  # past Black's start with the 2, then free
    assert notations(passing, (2, 1)) == ["24/23 13/11", "13/10"]


def test_the_first_checker_rule_lets_doubles_move_that_checker_several_times() -> None:
    start = FEVGA.initial()
    assert set(notations(start, (5, 5))) == {"24/4", "24/9 24/19"}
    assert notations(start, (6, 6)) == ["24/18"]  # 18/12 is held by Black: stuck
    assert notations(start, (3, 3)) == ["24/15"]
    assert notations(start, (4, 4)) == ["24/16"]


# -- blocks ----------------------------------------------------------------------------


def test_a_player_may_not_hold_all_six_points_of_his_starting_quarter() -> None:
    p = fevga({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 10: 1}, {12: 15})
    plays = notations(p, (5, 1))
    assert not any(quarter_full(r) for r in results(p, (5, 1)))
    assert "24/19 10/9" not in plays and "24/18" in plays and "24/19 20/19" in plays


def test_the_starting_quarter_rule_judges_the_result_not_each_move() -> None:
    p = fevga({24: 2, 23: 1, 22: 1, 21: 1, 20: 1, 1: 9}, BLACK_HOME_BLOCKED)
    assert notations(p, (5, 5)) == ["24/19(2)"]  # full after the first 5, not after both


def test_when_every_longer_play_fills_the_starting_quarter_a_shorter_one_is_played() -> None:
    p = fevga({24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 1: 4}, BLACK_HOME_BLOCKED)
    assert notations(p, (5, 1)) == ["24/23", "23/22", "22/21", "21/20"]  # the 5 would fill it


def test_a_six_point_prime_elsewhere_is_allowed() -> None:
    p = fevga({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1}, {12: 13, 5: 1, 3: 1})
    assert "13/6" in notations(p, (6, 1))  # 11..6 held: Black is not all behind it


def test_a_block_must_be_opened_when_the_opponent_has_all_his_checkers_just_behind_it() -> None:
    trapped = fevga({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1}, {12: 15})
    plays = notations(trapped, (6, 1))
    assert "13/6" not in plays and "24/23 13/7" in plays  # 13/6 would close 11..6
    home = fevga({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 3}, {7: 15})  # Black all on 7
    assert notations(home, (5, 5)) == ["24/19(2) 6/1(2)", "24/14 6/1(2)"]  # only openings


def test_a_block_that_no_play_can_open_may_be_kept() -> None:
    home = fevga({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 3}, {7: 15})
    assert notations(home, (6, 5)) == ["24/19 24/18", "24/13", "24/18 6/1"]


# -- the score -------------------------------------------------------------------------


def test_scoring_is_as_in_plakoto_1_point_or_2_if_the_loser_has_borne_off_none() -> None:
    one = fevga({1: 1}, {20: 10})
    assert one.legal_plays((1, 1))[0].result.outcome() == Outcome(Color.WHITE, Ending.SINGLE, 1)
    two = fevga({1: 1}, {20: 15})
    assert two.legal_plays((1, 1))[0].result.outcome() == Outcome(Color.WHITE, Ending.GAMMON, 2)
    assert FEVGA.initial().outcome() is None


# -- golden counts ---------------------------------------------------------------------

OPENING = {roll: 1 for roll in ROLLS}
OPENING[(5, 5)] = 2


def test_opening_roll_counts() -> None:
    """Only the first checker moves until it is past Black's start (own 12): a single
    play for every roll but 5-5, whose first checker gets past with three fives."""
    start = FEVGA.initial()
    assert {roll: len(start.legal_plays(roll)) for roll in ROLLS} == OPENING


def test_perft_two_plies_agrees_with_the_brute_force() -> None:
    """The plays and distinct positions one and two plies from the start, each second-ply
    roll's results checked against the brute force of variants_oracle."""
    assert perft_two_plies("fevga") == ((22, 11), (478, 117))
