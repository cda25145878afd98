"""The modelled board lays 15-checker starts and Plakoto pins as hands do."""

from __future__ import annotations

import random

import pytest
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.hal.sim import BoardActionError, SimBoard
from tavla_pi.hardware.physics import IDEAL
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK


def board(*, pin_on_top: bool = True) -> SimBoard:
    return SimBoard(PINMAP, VirtualClock(), random.Random(0), IDEAL, pin_on_top=pin_on_top)


def test_fifteen_on_one_point_lie_layer_by_layer() -> None:
    sim = board()
    sim.lay_out({("24", W): 15, ("1", B): 15})
    assert [len(s) for s in sim.pockets("24")] == [3, 3, 3, 2, 2, 2]
    sim.lift("24", W)  # the one laid last: the top of the third pocket
    assert [len(s) for s in sim.pockets("24")] == [3, 3, 2, 2, 2, 2]


def test_a_lift_from_a_chosen_pocket_takes_its_top() -> None:
    sim = board()
    sim.lay_out({("24", W): 15})
    sim.lift("24", W, pocket=5)
    assert [len(s) for s in sim.pockets("24")] == [3, 3, 3, 2, 2, 1]
    with pytest.raises(BoardActionError):
        sim.lift("23", W, pocket=0)


def test_a_checker_put_on_a_lone_one_of_the_other_colour_pins_it() -> None:
    sim = board()
    sim.lay_out({("5", B): 1})
    sim.lift("off", W)
    sim.place("5", W)
    assert sim.pockets("5") == ((B, W), (), (), (), (), ())
    sim.lift("off", W)
    sim.place("5", W)  # the pinner's next checker: a free pocket beside the pin
    assert sim.pockets("5") == ((B, W), (W,), (), (), (), ())
    sim.lift("off", W)
    sim.place("5", W, pocket=0)  # or piled on the pin
    assert sim.pockets("5") == ((B, W, W), (W,), (), (), (), ())


def test_without_pins_a_checker_goes_beside_the_lone_one() -> None:
    sim = board(pin_on_top=False)
    sim.lay_out({("5", B): 1})
    sim.lift("off", W)
    sim.place("5", W)
    assert sim.pockets("5") == ((B,), (W,), (), (), (), ())


def test_a_layout_lays_a_pin_with_the_pinner_on_top() -> None:
    sim = board(pin_on_top=False)
    sim.lay_out({("5", B): 1, ("5", W): 3, ("24", W): 12}, pinned={"5": B})
    assert sim.pockets("5") == ((B, W), (W,), (W,), (), (), ())
    assert sim.count("5", W) == 3 and sim.count("5", B) == 1


@pytest.mark.parametrize("counts", [{("5", B): 2, ("5", W): 1}, {("5", B): 1}])
def test_a_pin_needs_one_checker_and_one_or_more_on_it(counts: dict[tuple[str, Color], int]
                                                       ) -> None:
    with pytest.raises(BoardActionError):
        board().lay_out(counts, pinned={"5": B})
