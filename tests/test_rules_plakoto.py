"""Plakoto: each rule of docs/VARIANTS.md by name, and golden counts of the opening.

Boards are written in absolute points (docs/CONTRACTS.md §1); notation is in the
mover's own numbering, which for Black is 25 - absolute.
"""

from __future__ import annotations

import pytest
from variants_oracle import ROLLS
from variants_support import board, notations, perft_two_plies, position, results

from tavla_pi.errors import InvalidPositionError
from tavla_pi.rules import BoardDict, Color, Ending, Outcome, VariantPosition, variant

PLAKOTO = variant("plakoto")


def plakoto(white: dict[int, int], black: dict[int, int], on_roll: str = "white",
            pinned: dict[int, str] | None = None) -> VariantPosition:
    return position("plakoto", white, black, on_roll, pinned)


# -- the start and the directions ------------------------------------------------------


def test_all_15_white_checkers_start_on_24_and_all_15_black_on_1() -> None:
    start = PLAKOTO.initial()
    assert start.on_roll is Color.WHITE
    expected: BoardDict = {"white": {"24": 15}, "black": {"1": 15}, "pinned": {}}
    assert start.board() == expected


def test_the_directions_are_as_in_portes() -> None:
    start = PLAKOTO.initial()
    assert [r["white"] for r in results(start, (6, 5))] == [{"18": 1, "19": 1, "24": 13},
                                                           {"13": 1, "24": 14}]
    black = PLAKOTO.from_board(start.board(), on_roll="black")
    assert notations(black, (6, 5)) == ["24/19 24/18", "24/13"]  # Black's own numbering
    assert [r["black"] for r in results(black, (6, 5))] == [{"1": 13, "6": 1, "7": 1},
                                                           {"1": 14, "12": 1}]


# -- the dice, as in Portes ------------------------------------------------------------


def test_dice_both_dice_else_the_larger_else_as_many_as_possible() -> None:
    # White's checkers on 1 may not move (not all home): only the one on 24 plays
    blocked_17 = plakoto({24: 1, 1: 14}, {17: 2, 20: 13})
    assert notations(blocked_17, (6, 1)) == ["24/18"]  # either die alone: the larger
    assert notations(blocked_17, (1, 6)) == ["24/18"]
    blocked_18 = plakoto({24: 1, 1: 14}, {17: 2, 18: 2, 20: 11})
    assert notations(blocked_18, (6, 1)) == ["24/23"]  # the 6 cannot be played: the 1
    blocked_12 = plakoto({24: 1, 1: 14}, {12: 2, 19: 13})
    assert notations(blocked_12, (4, 4)) == ["24/16"]  # doubles: as many as possible


def test_doubles_are_played_four_times() -> None:
    assert notations(PLAKOTO.initial(), (2, 2))[:2] == ["24/22(4)", "24/20 24/22(2)"]


def test_bearing_off_with_the_higher_die_from_the_highest_point() -> None:
    p = plakoto({4: 1, 2: 1}, {20: 15})
    assert set(notations(p, (6, 1))) == {"4/off 2/1", "4/off"}
    assert "2/off" not in " ".join(notations(p, (6, 1)))
    assert notations(p, (2, 1)) == ["4/1", "4/3 2/off"]  # 2/off first, then 4/3


# -- pins ------------------------------------------------------------------------------


def test_there_is_no_bar_and_no_hitting() -> None:
    p = plakoto({24: 15}, {1: 14, 18: 1})
    for result in results(p, (6, 5)):
        assert "bar" not in result["black"] and sum(result["black"].values()) == 15
        assert result["black"].get("18") == 1  # the lone checker stays where it is
    with pytest.raises(InvalidPositionError, match="plakoto has no bar"):
        PLAKOTO.from_board({"white": {"24": 14, "bar": 1}, "black": {"1": 15}}, on_roll="white")


def test_a_checker_landing_on_a_lone_opposing_checker_pins_it() -> None:
    p = plakoto({24: 15}, {1: 14, 18: 1})
    plays = {play.notation: play for play in p.legal_plays((6, 5))}
    assert "24/19 24/18*" in plays  # the star marks the pin
    result = plays["24/19 24/18*"].result.board()
    assert result["pinned"] == {"18": "black"}
    assert result["white"]["18"] == 1 and result["black"]["18"] == 1  # both counted


def test_a_pinned_checker_cannot_move_until_every_opposing_checker_has_left() -> None:
    pinned = {18: "black"}
    two_on_top = plakoto({24: 13, 18: 2}, {1: 14, 18: 1}, "black", pinned)
    for play in two_on_top.legal_plays((6, 5)):
        assert all(src != 7 for src, _, _ in play.moves)  # Black's own 7 is absolute 18
    one_left = plakoto({24: 13, 18: 2}, {1: 14, 18: 1}, "white", pinned)
    after = {play.notation: play.result for play in one_left.legal_plays((6, 5))}
    assert after["18/13 18/12"].board()["pinned"] == {}  # both pinners gone: free
    assert after["24/19 18/12"].board()["pinned"] == {"18": "black"}
    freed = after["18/13 18/12"]
    assert any(src == 7 for play in freed.legal_plays((6, 5)) for src, _, _ in play.moves)


def test_the_pinned_point_is_closed_to_the_pinned_side() -> None:
    p = plakoto({24: 14, 18: 1}, {1: 13, 13: 1, 18: 1}, "black", {18: "black"})
    # Black's checker on 13 (own 12) may not land on 18 (own 7), though only one white is there
    assert all(dst != 7 for play in p.legal_plays((5, 1)) for _, dst, _ in play.moves)
    assert "12/7" not in " ".join(notations(p, (5, 1)))


def test_the_pinner_may_pile_more_checkers_on_it() -> None:
    p = plakoto({24: 14, 18: 1}, {1: 14, 18: 1}, "white", {18: "black"})
    plays = {play.notation: play.result.board() for play in p.legal_plays((6, 1))}
    assert plays["24/23 24/18"]["white"]["18"] == 2
    assert plays["24/23 24/18"]["pinned"] == {"18": "black"}


# -- bearing off -----------------------------------------------------------------------


def test_bearing_off_needs_all_15_checkers_home_and_none_pinned() -> None:
    one_out = plakoto({13: 1, 5: 4, 3: 10}, {20: 15})
    assert "off" not in " ".join(notations(one_out, (6, 5)))
    comes_home = plakoto({7: 1, 5: 4, 3: 10}, {20: 15})
    assert "7/1 5/off" in notations(comes_home, (6, 5))  # home after the first die
    one_pinned = plakoto({5: 4, 3: 10, 2: 1}, {2: 1, 20: 14}, "white", {2: "white"})
    assert not any(dst == 0 for play in one_pinned.legal_plays((6, 5)) for _, dst, _ in play.moves)
    free = plakoto({5: 4, 3: 10, 2: 1}, {20: 15})
    assert notations(free, (6, 6)) == ["5/off(4)"]


def test_a_checker_pinned_after_bearing_off_has_begun_stops_it_until_free() -> None:
    pinned = plakoto({5: 4, 3: 5, 2: 1}, {2: 1, 20: 14}, "white", {2: "white"})  # 5 off
    assert pinned.board()["white"]["off"] == 5
    assert notations(pinned, (6, 5)) == []  # nothing moves: no bearing off, no landing
    assert all(dst != 0 for play in pinned.legal_plays((2, 1)) for _, dst, _ in play.moves)
    black = PLAKOTO.from_board(pinned.board(), on_roll="black")
    moved_on = {play.notation: play.result for play in black.legal_plays((2, 1))}["23/21 5/4"]
    assert moved_on.board()["pinned"] == {}
    assert "5/off" in " ".join(notations(moved_on, (6, 5)))


# -- the mother rule and the score -----------------------------------------------------


def test_mother_rule_a_pinned_last_checker_on_the_start_loses_2_points_at_once() -> None:
    p = plakoto({24: 1, 10: 14}, {23: 1, 15: 14}, "black")
    result = {pl.notation: pl.result for pl in p.legal_plays((1, 2))}["10/8 2/1*"]
    assert result.board()["pinned"] == {"24": "white"}
    assert result.outcome() == Outcome(Color.BLACK, Ending.MOTHER, 2)
    assert result.is_game_over() and result.legal_plays((6, 5)) == []


def test_mother_rule_exception_play_goes_on_while_the_pinner_has_checkers_on_his_start() -> None:
    pinned = {24: "white"}
    p = plakoto({24: 1, 10: 14}, {24: 1, 1: 2, 20: 12}, "black", pinned)
    assert p.outcome() is None and p.legal_plays((6, 5))
    last = plakoto({24: 1, 10: 14}, {24: 1, 1: 1, 20: 13}, "black", pinned)
    left = [pl.result for pl in last.legal_plays((6, 5)) if "1" not in pl.result.board()["black"]]
    assert left and all(r.outcome() == Outcome(Color.BLACK, Ending.MOTHER, 2) for r in left)


def test_mother_rule_both_mothers_pinned_is_a_draw() -> None:
    p = plakoto({24: 1, 2: 1, 10: 13}, {24: 1, 1: 1, 20: 13}, "white", {24: "white"})
    plays = {pl.notation: pl.result for pl in p.legal_plays((1, 6))}
    draw = plays["10/4 2/1*"]
    assert draw.board()["pinned"] == {"1": "black", "24": "white"}
    assert draw.outcome() == Outcome(None, Ending.DRAW, 0)


def test_a_win_by_bearing_off_scores_1_or_2_if_the_loser_has_borne_off_none() -> None:
    one = plakoto({1: 1}, {20: 10})
    [play] = one.legal_plays((1, 1))
    assert play.result.outcome() == Outcome(Color.WHITE, Ending.SINGLE, 1)
    two = plakoto({1: 1}, {20: 15})
    assert two.legal_plays((1, 1))[0].result.outcome() == Outcome(Color.WHITE, Ending.GAMMON, 2)


# -- golden counts ---------------------------------------------------------------------

OPENING = {roll: 2 for roll in ROLLS if roll[0] != roll[1]}
OPENING.update({(1, 1): 5, (2, 2): 5, (3, 3): 5, (4, 4): 5, (5, 5): 5, (6, 6): 4})


def test_opening_roll_counts() -> None:
    """From 15 on one point: a non-double is one checker or two; a double splits its four
    moves as 4, 3+1, 2+2, 2+1+1 or 1+1+1+1 (6-6 cannot move one checker 24 pips)."""
    start = PLAKOTO.initial()
    assert {roll: len(start.legal_plays(roll)) for roll in ROLLS} == OPENING
    assert notations(start, (6, 6)) == ["24/18(4)", "24/12 24/18(2)", "24/12(2)", "24/6 24/18"]


def test_perft_two_plies_agrees_with_the_brute_force() -> None:
    """The plays and distinct positions one and two plies from the start, each second-ply
    roll's results checked against the brute force of variants_oracle."""
    assert perft_two_plies("plakoto") == ((59, 49), (3474, 2394))


def test_a_board_is_the_contracts_form_with_pins() -> None:
    b = board({24: 14, 18: 1}, {1: 14, 18: 1}, {18: "black"})
    p = PLAKOTO.from_board(b, on_roll="white")
    assert p.board() == {"white": {"18": 1, "24": 14}, "black": {"1": 14, "18": 1},
                         "pinned": {"18": "black"}}
