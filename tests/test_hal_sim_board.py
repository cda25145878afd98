"""The modelled board: a person's actions, ground truth and what the sensors read."""

from __future__ import annotations

import random

import pytest
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.errors import HardwareError
from tavla_pi.hal.sim import START, BoardActionError, SimBoard
from tavla_pi.hardware.physics import IDEAL, REFERENCE, stack_field_mt
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
SITES = [c.site for c in PINMAP.sensors]


def sensor(location: str, slot: int, half: Color | None = None) -> int:
    """Frame index of a sensor."""
    for i, site in enumerate(SITES):
        if (site.location, site.slot, site.color) == (location, slot, half):
            return i
    raise AssertionError(f"no sensor {location}/{slot}")


def ideal_board(clock: VirtualClock | None = None) -> SimBoard:
    return SimBoard(PINMAP, clock or VirtualClock(), random.Random(0), IDEAL)


def test_a_new_board_is_empty_with_every_checker_in_its_tray() -> None:
    board = ideal_board()
    assert board.counts() == {("off", W): 15, ("off", B): 15}
    assert set(board.scan()) == {2048}


def test_setup_start_lays_out_the_starting_position() -> None:
    board = ideal_board()
    board.setup_start()
    assert board.counts() == START
    assert board.pockets("6") == ((W,), (W,), (W,), (W,), (W,), ())
    assert board.pockets("1") == ((B,), (B,), (), (), (), ())


def test_lift_and_place_move_one_checker_through_the_hand() -> None:
    board = ideal_board()
    board.setup_start()
    board.lift("13", W)
    assert board.count("13", W) == 4
    assert board.in_hand(W) == 1
    board.place("8", W)
    assert board.count("8", W) == 4
    assert board.in_hand(W) == 0
    assert board.pockets("8") == ((W,), (W,), (W,), (W,), (), ())


def test_lift_takes_the_top_of_the_most_recently_filled_slot() -> None:
    board = ideal_board()
    board.lay_out({("6", W): 8})
    assert board.pockets("6")[1] == (W, W)
    board.lift("6", W)
    assert board.pockets("6") == ((W, W), (W,), (W,), (W,), (W,), (W,))
    board.lift("6", W)
    assert board.pockets("6") == ((W,),) * 6
    board.lift("6", W)
    assert board.pockets("6")[5] == ()


def test_placing_fills_the_first_free_pocket_lowest_layer_first() -> None:
    board = ideal_board()
    board.lay_out({("13", W): 15})
    assert [len(s) for s in board.pockets("13")] == [3, 3, 3, 2, 2, 2]


def test_a_checker_on_the_bar_goes_to_its_own_colours_half() -> None:
    board = ideal_board()
    board.setup_start()
    board.lift("1", B)
    board.place("bar", B)
    board.lift("6", W)
    board.place("bar", W)
    assert board.pockets("bar", B) == ((B,), (), (), ())
    assert board.pockets("bar", W) == ((W,), (), (), ())
    assert board.count("bar", B) == 1
    assert board.count("bar", W) == 1


def test_a_hit_leaves_both_colours_on_the_point_until_the_blot_is_lifted() -> None:
    board = ideal_board()
    board.lay_out({("5", B): 1, ("8", W): 2})
    board.lift("8", W)
    board.place("5", W)
    assert board.pockets("5")[:2] == ((B,), (W,))
    board.lift("5", B)
    board.place("bar", B)
    assert board.counts()[("5", W)] == 1
    assert ("5", B) not in board.counts()


def test_bearing_off_puts_the_checker_in_the_tray() -> None:
    board = ideal_board()
    board.lay_out({("1", W): 1})
    board.lift("1", W)
    board.place("off", W)
    assert board.count("off", W) == 15


def test_place_between_leaves_a_stray_that_can_be_lifted_again() -> None:
    board = ideal_board()
    board.lay_out({("off", W): 15})
    board.lift("off", W)
    board.place_between("8", W, 2)
    assert board.strays("8") == ((2.5, W),)
    assert board.count("8", W) == 1
    board.lift("8", W)
    assert board.strays("8") == ()


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda b: b.lift("7", W), "no white checker on 7"),
        (lambda b: b.place("7", B), "no black checker in the hand"),
        (lambda b: b.lift("25", W), "unknown location '25'"),
        (lambda b: b.lay_out({("6", W): 16}), "16 white checkers"),
        (lambda b: b.lay_out({("6", W): 5, ("off", W): 9}), "off/white: 9 given"),
        (lambda b: b.lay_out({("6", W): -1}), "is not a count"),
        (lambda b: b.glitch("off", W, 40), "not sensed"),
        (lambda b: b.stick_sensor(152, 0), "no sensor 152"),
    ],
)
def test_impossible_actions_are_refused_with_a_reason(action, message) -> None:  # type: ignore[no-untyped-def]
    board = ideal_board()
    with pytest.raises(BoardActionError, match=message):
        action(board)


def test_a_refused_place_between_keeps_the_checker_in_the_hand() -> None:
    board = ideal_board()
    board.lift("off", W)
    with pytest.raises(BoardActionError):
        board.place_between("8", W, 5)
    assert board.in_hand(W) == 1


def test_one_checker_reads_the_modelled_field_and_black_mirrors_white() -> None:
    board = ideal_board()
    board.lay_out({("8", W): 1, ("17", B): 1})
    frame = board.scan()
    expected = stack_field_mt(IDEAL, 1) * IDEAL.counts_per_mt
    assert frame[sensor("8", 0)] - 2048 == pytest.approx(expected, abs=1)
    assert 2048 - frame[sensor("17", 0)] == pytest.approx(expected, abs=1)
    assert 3550 < frame[sensor("8", 0)] < 3565


def test_a_second_layer_adds_little_and_a_third_clips_at_the_output_swing() -> None:
    board = ideal_board()
    board.lay_out({("8", W): 6})
    one = board.scan()[sensor("8", 0)]
    board.lay_out({("8", W): 12})
    two = board.scan()[sensor("8", 0)]
    board.lay_out({("8", W): 13})
    three = board.scan()[sensor("8", 0)]
    assert 200 < two - one < 300
    assert three == round(REFERENCE.swing_counts[1])


def test_neighbours_see_crosstalk_of_the_opposite_sign() -> None:
    board = ideal_board()
    board.lay_out({("8", W): 1})
    frame = board.scan()
    assert -20 < frame[sensor("8", 1)] - 2048 < -5
    assert -20 < frame[sensor("9", 0)] - 2048 < -3


def test_a_glitch_shows_a_phantom_checker_for_its_window_only() -> None:
    clock = VirtualClock()
    board = ideal_board(clock)
    board.glitch("5", B, 40)
    assert board.scan()[sensor("5", 0)] < 600
    clock.advance(39)
    assert board.scan()[sensor("5", 0)] < 600
    clock.advance(1)
    assert board.scan()[sensor("5", 0)] == 2048
    assert board.counts() == {("off", W): 15, ("off", B): 15}


def test_a_stuck_sensor_reads_its_value_until_freed() -> None:
    board = ideal_board()
    board.stick_sensor(7, 4095)
    assert board.scan()[7] == 4095
    board.unstick_sensor(7)
    assert board.scan()[7] == 2048


def test_tolerances_are_drawn_once_per_seed_and_noise_per_scan() -> None:
    a = SimBoard(PINMAP, VirtualClock(), random.Random(5))
    b = SimBoard(PINMAP, VirtualClock(), random.Random(5))
    assert a.sensors.gain == b.sensors.gain
    assert a.sensors.offset == b.sensors.offset
    assert a.scan() == b.scan()
    assert a.scan() != a.scan()
    assert all(abs(g - 1.0) <= 0.05 for g in a.sensors.gain)
    assert all(abs(o) <= 0.01 * 4096 for o in a.sensors.offset)


def test_noise_matches_the_bom_figure() -> None:
    board = SimBoard(PINMAP, VirtualClock(), random.Random(9))
    frames = [board.scan() for _ in range(200)]
    column = [f[10] for f in frames]
    mean = sum(column) / len(column)
    rms = (sum((x - mean) ** 2 for x in column) / len(column)) ** 0.5
    assert 5.0 < rms < 7.0


def test_a_closed_board_refuses_to_scan_and_closes_twice() -> None:
    board = ideal_board()
    board.close()
    board.close()
    with pytest.raises(HardwareError):
        board.scan()


def test_the_bar_has_two_halves_to_name() -> None:
    board = ideal_board()
    with pytest.raises(BoardActionError, match="two halves"):
        board.pockets("bar")
    assert board.strays("bar", B) == ()
