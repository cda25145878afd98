"""board_fixes: what to add or remove so the sensed board matches an expected board."""

from __future__ import annotations

from reconcile_support import B, Table, W

from tavla_pi.decode.observation import NOTHING, CountRange, Observation, Reading, SensorFault
from tavla_pi.reconcile import Fix, board_fixes
from tavla_pi.reconcile.fixes import board_cells
from tavla_pi.rules import Board

EMPTY_BOARD = Observation(tuple([NOTHING] * 24), NOTHING, NOTHING)


def sensed(board: Board, **readings: Reading) -> Observation:
    """The exact reading of ``board``, with some points read otherwise ("p6"=...)."""
    obs = Table(board_cells(board)).observation()
    points = list(obs.points)
    for key, reading in readings.items():
        points[int(key[1:]) - 1] = reading
    return Observation(tuple(points), obs.bar_white, obs.bar_black, obs.faults)


def test_a_matching_board_needs_no_fix() -> None:
    board = Board.initial()
    assert board_fixes(board, sensed(board)) == ()


def test_setting_up_on_an_empty_board_adds_every_checker() -> None:
    fixes = board_fixes(Board.initial(), EMPTY_BOARD)
    assert fixes == (
        Fix("1", B, 2), Fix("6", W, 5), Fix("8", W, 3), Fix("12", B, 5),
        Fix("13", W, 5), Fix("17", B, 3), Fix("19", B, 5), Fix("24", W, 2),
    )
    assert sum(f.delta for f in fixes) == 30


def test_a_wrong_colour_is_cleared_then_the_right_one_added() -> None:
    obs = sensed(Board.initial(), p6=Reading(B, CountRange(2, 2)))
    assert board_fixes(Board.initial(), obs) == (Fix("6", B, -2), Fix("6", W, 5))


def test_counts_are_judged_by_the_interval_read() -> None:
    board = Board.from_counts({"6": 9, "13": 5, "8": 1}, {"1": 15})
    exact = sensed(board, p6=Reading(W, CountRange(5, 5)))
    assert board_fixes(board, exact) == (Fix("6", W, 4),)
    tall = sensed(board, p13=Reading(W, CountRange(7, 15)), p6=Reading(W, CountRange(7, 15)))
    assert board_fixes(board, tall) == (Fix("13", W, -2),)     # 6 holding 9 reads "7 or more"
    missing = sensed(board, p8=NOTHING)
    assert board_fixes(board, missing) == (Fix("8", W, 1),)


def test_extra_checkers_on_an_empty_point_are_removed() -> None:
    obs = sensed(Board.initial(), p20=Reading(B, CountRange(1, 1)))
    assert board_fixes(Board.initial(), obs) == (Fix("20", B, -1),)


def with_mixed_fault(obs: Observation, location: str) -> Observation:
    fault = SensorFault(40, location, "mixed_colors", "white and black checkers both sensed")
    return Observation(obs.points, obs.bar_white, obs.bar_black, (fault,))


def test_both_colours_on_a_point_ask_to_remove_the_stranger() -> None:
    board = Board.initial()
    obs = sensed(board, p6=Reading(W, CountRange(5, 5), CountRange(1, 1)))
    assert board_fixes(board, with_mixed_fault(obs, "6")) == (Fix("6", B, -1),)
    obs = sensed(board, p6=Reading(B, CountRange(1, 1), CountRange(6, 6)))
    assert board_fixes(board, with_mixed_fault(obs, "6")) == (Fix("6", B, -1), Fix("6", W, -1))


def test_a_mixed_fault_without_the_other_count_still_asks_to_remove_one() -> None:
    board = Board.initial()
    obs = sensed(board, p6=Reading(W, CountRange(5, 5)))
    assert board_fixes(board, with_mixed_fault(obs, "6")) == (Fix("6", B, -1),)
    assert board_fixes(board, obs) == ()          # without the fault: just 5 white


def test_a_colourless_reading_in_doubt_fits_what_it_may_hide() -> None:
    board = Board.initial()
    obs = sensed(board, p6=Reading(None, CountRange(0, 9)), p13=Reading(None, CountRange(0, 3)))
    assert board_fixes(board, obs) == (Fix("13", W, 2),)


def test_the_bar_halves_are_checked_by_colour() -> None:
    board = Board.from_counts({"6": 5, "8": 3, "13": 5, "24": 1, "bar": 1},
                              {"1": 2, "12": 5, "17": 3, "19": 5})
    obs = Table(board_cells(Board.initial())).observation()
    fixes = board_fixes(board, obs)
    assert fixes == (Fix("24", W, -1), Fix("bar", W, 1))
    assert [f.to_event() for f in fixes] == [
        {"at": "24", "color": "white", "remove": 1},
        {"at": "bar", "color": "white", "add": 1},
    ]
