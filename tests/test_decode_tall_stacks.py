"""15 checkers on one point and Plakoto pins: the observation always holds the truth."""

from __future__ import annotations

import pytest
from sim_support import calibrated, settle

from tavla_pi.decode import Observation
from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, Group
from tavla_pi.decode.tall import TallWatch
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
START = {("24", W): 15, ("1", B): 15}


def count_of(observation: Observation, point: str, color: Color) -> tuple[int, int]:
    reading = observation.point(int(point))
    count = reading.count if reading.color is color else reading.other
    return count.low, count.high


@pytest.mark.parametrize("seed", range(6))
def test_fifteen_on_one_point_read_twelve_or_more(seed: int) -> None:
    board, decoder, clock = calibrated(seed)
    if seed % 2:
        board.lay_out(START)  # no history: a decoder started on the laid-out board
    else:
        settle(board, decoder, clock=clock)
        for _ in range(15):
            for (point, color) in START:
                board.lift("off", color)
                board.place(point, color)
                settle(board, decoder, frames=3, clock=clock)
    observation = settle(board, decoder, clock=clock)
    for point, color in START:
        low, high = count_of(observation, point, color)
        # Without history a two-high pocket in the one-or-two band counts one or more.
        assert (low, high) == (12, 15) or (seed % 2 and 6 <= low <= 12 and high == 15)


@pytest.mark.parametrize("seed", range(6))
def test_the_first_lift_from_fifteen_is_unseen_until_the_checker_lands(seed: int) -> None:
    board, decoder, clock = calibrated(seed)
    board.lay_out(START)
    before = settle(board, decoder, clock=clock).point(24)
    board.lift("24", W)  # the top of a third layer
    assert settle(board, decoder, clock=clock).point(24) == before
    board.place("20", W)
    observation = settle(board, decoder, clock=clock)
    low, high = count_of(observation, "24", W)
    assert 6 <= low <= 12 and high == 14  # 15 less the one seen on 20
    assert count_of(observation, "20", W) == (1, 1)


@pytest.mark.parametrize("seed", range(6))
def test_a_lift_from_a_two_high_pocket_of_a_tall_stack_leaves_the_count_open(seed: int) -> None:
    # The layering prior alone would say 11: one pocket down to one, so the second
    # layer has a gap and the others hold two.  They still hold the third layer.
    board, decoder, clock = calibrated(seed)
    board.lay_out(START)
    settle(board, decoder, clock=clock)
    board.lift("24", W, pocket=5)
    board.place("off", W)
    low, high = count_of(settle(board, decoder, clock=clock), "24", W)
    assert low <= 14 <= high and low >= 11


@pytest.mark.parametrize("seed", range(6))
def test_a_pin_reads_as_a_covered_pocket(seed: int) -> None:
    board, decoder, clock = calibrated(seed)
    board.pin_on_top = True
    settle(board, decoder, clock=clock)
    board.lift("off", B)
    board.place("5", B)
    settle(board, decoder, clock=clock)
    board.lift("off", W)
    board.place("5", W)  # laid on the black one: a pin
    reading = settle(board, decoder, clock=clock).point(5)
    assert (reading.color, reading.covered, reading.count.low, reading.count.high) == (B, B, 1, 1)
    assert reading.other.low == 1
    board.lift("off", W)
    board.place("5", W)  # the pinner's next checker beside it
    reading = settle(board, decoder, clock=clock).point(5)
    assert (reading.covered, reading.count.low, reading.count.high) == (B, 1, 1)
    assert reading.other.low == 2
    board.lift("5", W, pocket=1)
    board.lift("5", W, pocket=0)  # the pin lifted: the black one alone again
    reading = settle(board, decoder, clock=clock).point(5)
    assert (reading.color, reading.covered, reading.count, reading.other.high) == \
        (B, None, reading.count, 0)
    assert reading.count.exact and reading.count.low == 1


def test_a_place_every_pocket_of_which_reads_two_or_more_stays_tall_until_one() -> None:
    watch = TallWatch([Group("24", None, (0, 1, 2))], 3)
    assert watch.update([TWO_PLUS, TWO_PLUS, ONE], [2, 2, 1], ()) == [False, False, False]
    assert watch.update([TWO_PLUS, TWO_PLUS, ONE_PLUS], [2, 2, 2], ()) == [True, True, True]
    assert watch.update([TWO_PLUS, TWO_PLUS, ONE], [2, 2, 1], ()) == [True, True, False]
    assert watch.update([EMPTY, TWO_PLUS, ONE], [0, 2, 1], ()) == [False, True, False]


def test_a_covered_pocket_is_a_gap_no_third_layer_starts_over() -> None:
    watch = TallWatch([Group("5", None, (0, 1))], 2)
    assert watch.update([ONE, TWO_PLUS], [1, 2], (0,)) == [False, False]
