"""Stacks grown and shrunk one checker at a time stay exact at the parts' tolerances."""

from __future__ import annotations

import pytest
from sim_support import calibrated, settle

from tavla_pi.decode.stacks import StackWatch
from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK


@pytest.mark.parametrize("seed", range(12))
def test_a_stack_built_and_taken_down_checker_by_checker_reads_exactly(seed: int) -> None:
    board, decoder, clock = calibrated(seed)
    color = W if seed % 2 else B
    point = str(1 + seed * 2)
    settle(board, decoder, clock=clock)  # the decoder has seen the pocket empty
    for n in range(1, 12):
        board.lift("off", color)
        board.place(point, color)
        reading = settle(board, decoder, clock=clock).point(int(point))
        assert (reading.count.low, reading.count.high) == (n, n), f"building, {n} checkers"
    for n in range(10, 0, -1):
        board.lift(point, color)
        board.place("off", color)
        reading = settle(board, decoder, clock=clock).point(int(point))
        assert (reading.count.low, reading.count.high) == (n, n), f"taking down, {n} left"


def test_the_watch_counts_second_layer_steps() -> None:
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE_PLUS], [1650.0], [1], [False]) == [1]  # one put on an empty pocket
    assert watch.update([ONE_PLUS], [1655.0], [1], [False]) == [1]  # noise: still one
    assert watch.update([ONE_PLUS], [1860.0], [1], [False]) == [2]  # a second on top: a step up
    assert watch.update([ONE_PLUS], [1650.0], [1], [False]) == [1]  # taken off again
    assert watch.update([TWO_PLUS], [1860.0], [1], [False]) == [2]
    assert watch.update([ONE], [1650.0], [1], [False]) == [1]


def test_without_history_one_or_more_stays_unknown() -> None:
    watch = StackWatch(2, second_layer_step=200.0)
    readings = watch.update([ONE_PLUS, ONE_PLUS], [1700.0, 1750.0], [1, 1], [False, False])
    assert readings == [None, None]


def test_a_masked_single_checker_keeps_its_anchor() -> None:
    # An opposite checker put on a lone one lowers its reading by a layer's step;
    # taken off again, the reading comes back: still one checker, not two.
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE_PLUS], [1650.0], [1], [False]) == [1]
    assert watch.update([ONE], [1400.0], [1], [False]) == [1]  # masked from above
    assert watch.update([ONE_PLUS], [1652.0], [1], [False]) == [1]  # unmasked: the same one


@pytest.mark.parametrize("seed", range(12))
def test_an_opposite_checker_put_on_a_full_layer_and_taken_off_changes_no_count(
        seed: int) -> None:
    # Found by the soak (seed 2000, session 2000006002): White put a checker on
    # Black's six-checker point and took it off; the point then read seven.
    board, decoder, clock = calibrated(seed)
    point, color = str(1 + seed * 2), (W if seed % 2 else B)
    settle(board, decoder, clock=clock)
    for _ in range(6):
        board.lift("off", color)
        board.place(point, color)
    settle(board, decoder, clock=clock)
    board.lift("off", color.opponent)
    board.place(point, color.opponent)
    settle(board, decoder, clock=clock)
    board.lift(point, color.opponent)
    board.place("off", color.opponent)
    reading = settle(board, decoder, clock=clock).point(int(point))
    assert (reading.color, reading.count.low, reading.count.high) == (color, 6, 6)


@pytest.mark.parametrize("seed", range(12))
def test_a_checker_put_on_a_lone_one_of_the_other_colour_is_seen(seed: int) -> None:
    # Found by the soak (seed 3000, session 3000009093): White put a checker on
    # Black's six-checker point; it masked the black one under it (a weak field,
    # "between slots") and DONE committed as if it had been borne off.
    board, decoder, clock = calibrated(seed)
    point, color = str(1 + seed * 2), (W if seed % 2 else B)
    settle(board, decoder, clock=clock)
    for _ in range(6 + seed % 6):
        board.lift("off", color)
        board.place(point, color)
    settle(board, decoder, clock=clock)
    board.lift("off", color.opponent)
    board.place(point, color.opponent)
    observation = settle(board, decoder, clock=clock)
    reading = observation.point(int(point))
    assert (reading.color, reading.count.low, reading.count.high) == \
        (color, 6 + seed % 6, 6 + seed % 6)
    assert reading.other.low >= 1
    assert any(f.kind == "mixed_colors" and f.location == point for f in observation.faults)


@pytest.mark.parametrize("seed", range(4))
def test_a_checker_of_the_other_colour_carried_over_a_full_point_leaves_its_count(
        seed: int) -> None:
    # Found by the soak (seed 1000, sessions 1000003023 and 1000003059): a glitch
    # (a checker carried over the board) over a full first layer, the same masking.
    board, decoder, clock = calibrated(seed)
    points = [("1", W), ("6", W), ("24", B), ("12", B)]
    settle(board, decoder, clock=clock)
    for point, color in points:  # the first layer full: a glitch lies over a checker
        for _ in range(6):
            board.lift("off", color)
            board.place(point, color)
            settle(board, decoder, clock=clock)
    for point, color in points:
        for ms in (20, 60, 120, 20):
            board.glitch(point, color.opponent, ms)
            reading = settle(board, decoder, clock=clock).point(int(point))
            assert (reading.color, reading.count.low, reading.count.high) == (color, 6, 6), ms


def test_a_checker_swapped_for_one_of_the_other_colour_is_a_fresh_pocket() -> None:
    # Found by the soak (seed 4000, session 4000012341): a hit's two hands within
    # one scan (the white blot off, the black hitter on the same pocket) left the
    # white checker's reading as the anchor, and the weaker black one read as
    # masked: "remove a white checker" for ever.
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE_PLUS], [1650.0], [1], [False]) == [1]
    assert watch.update([ONE], [1420.0], [-1], [False]) == [1]
    assert watch.sign == [-1] and watch.masked([ONE], [1420.0]) == []
    assert watch.update([ONE], [1423.0], [-1], [False]) == [1]  # the same black one


@pytest.mark.parametrize("seed", range(12))
def test_a_blot_hit_within_one_scan_reads_the_hitter_alone(seed: int) -> None:
    board, decoder, clock = calibrated(seed)
    settle(board, decoder, clock=clock)
    points = [str(p) for p in range(1, 25) if p % 4 == seed % 4]
    for point in points:
        board.lift("off", W)
        board.place(point, W)
    settle(board, decoder, clock=clock)
    for point in points:  # the blot to the bar and the hitter on it, in one scan
        board.lift(point, W)
        board.place("bar", W)
        board.lift("off", B)
        board.place(point, B)
    observation = settle(board, decoder, clock=clock)
    for point in points:
        reading = observation.point(int(point))
        assert (reading.color, reading.count.low, reading.count.high, reading.other.high) == \
            (B, 1, 1, 0), point


def test_a_checker_swapped_for_a_weaker_one_of_its_colour_is_no_mask() -> None:
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE], [1600.0], [1], [False]) == [1]
    assert watch.update([ONE], [1490.0], [1], [False]) == [1]  # magnets differ by up to 0.6 step
    assert watch.masked([ONE], [1490.0]) == []
    assert watch.update([ONE_PLUS], [1690.0], [1], [False]) == [2]  # a second on it: one step up


def test_a_steady_reading_moves_the_reference_within_half_a_step() -> None:
    # Found by the soak (seed 6000, session 6000018286): the next game's setup put
    # a slightly stronger checker in a pocket within one scan (+90 counts, not a
    # step); the reference stayed behind and later noise counted a second checker.
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE_PLUS], [1500.0], [1], [False]) == [1]
    assert watch.update([ONE_PLUS], [1570.0], [1], [False]) == [1]   # not yet steady
    assert watch.ref == [1500.0]
    assert watch.update([ONE_PLUS], [1571.0], [1], [True]) == [1]    # steady: followed
    assert watch.update([ONE_PLUS], [1610.0], [1], [False]) == [1]   # noise, not a step
    assert watch.update([ONE_PLUS], [1790.0], [1], [False]) == [2]   # a real step


def test_a_step_up_from_a_reference_taken_without_history_is_no_count() -> None:
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([ONE_PLUS], [1600.0], [-1], [False]) == [None]   # no history
    assert watch.update([ONE], [1360.0], [-1], [False]) == [1]   # one, perhaps masked
    assert watch.update([ONE_PLUS], [1610.0], [-1], [False]) == [None]   # unmasked, or two


def test_on_a_tall_pocket_the_reference_follows_a_third_layer_lifted_at_once() -> None:
    # Found by the Plakoto soak (seed 13, session 13000118): a third-layer checker
    # lifted off a start pile left the reference behind (a third of a step, never
    # counted), and a phantom of the other colour passing over added the rest of a
    # step: counted as a step down, the pocket "held one" while two stood.
    for tall, after in ((True, [2]), (False, [1])):
        watch = StackWatch(1, second_layer_step=200.0)
        assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
        assert watch.update([TWO_PLUS], [1740.0], [1], [False]) == [2]  # two, maybe three
        assert watch.update([ONE_PLUS], [1660.0], [1], [False], [tall]) == [2]  # third off
        assert watch.update([ONE_PLUS], [1580.0], [1], [False], [tall]) == after  # phantom
        assert watch.update([ONE_PLUS], [1660.0], [1], [False], [tall]) == after  # gone


def test_on_a_tall_pocket_a_lift_off_the_second_layer_still_counts() -> None:
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([TWO_PLUS], [1740.0], [1], [False]) == [2]
    assert watch.update([ONE_PLUS], [1660.0], [1], [False], [True]) == [2]  # third off
    assert watch.update([ONE_PLUS], [1450.0], [1], [False], [True]) == [1]  # second off


def test_a_lift_under_a_phantom_of_the_same_colour_leaves_the_one_unmasked() -> None:
    # Found by the Fevga soak (seed 32, session 32000198): a second white checker put
    # on a lone one and lifted off while a white phantom passed over the point read a
    # step stronger; anchored there, the phantom's going read as a black checker laid
    # on the white one ("remove 1 black" for ever).
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE], [1500.0], [1], [False]) == [1]
    assert watch.update([TWO_PLUS], [1900.0], [1], [False]) == [2]  # put on, a phantom
    assert watch.update([ONE], [1700.0], [1], [False]) == [1]  # lifted off
    assert watch.update([ONE], [1505.0], [1], [False]) == [1]  # the phantom has gone
    assert watch.masked([ONE], [1505.0]) == []
    assert watch.update([ONE], [1290.0], [1], [False]) == [1]  # now a black one on it
    assert watch.masked([ONE], [1290.0]) == [0]
    assert watch.update([ONE], [1502.0], [1], [False]) == [1]  # and off again


def test_a_checker_put_on_under_a_phantom_of_the_same_colour_still_counts_two() -> None:
    # Found by the tavli soak (seed 43, session 43000195): a white checker put on a
    # lone one while a white phantom passed over the point read two steps up; the
    # phantom's going read as a step down, a lift: one checker short for ever.
    watch = StackWatch(1, second_layer_step=260.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE], [1429.0], [1], [False]) == [1]
    assert watch.update([TWO_PLUS], [1846.0], [1], [False]) == [2]  # put on, a phantom
    assert watch.update([ONE_PLUS], [1688.0], [1], [False]) == [2]  # the phantom has gone
    assert watch.update([ONE_PLUS], [1682.0], [1], [False]) == [2]
    assert watch.update([ONE_PLUS], [1431.0], [1], [False]) == [1]  # and now a lift


def test_a_lift_under_a_phantom_of_the_other_colour_is_counted_once_it_has_gone() -> None:
    # Found by the Plakoto soak (seed 21, session 21000307): a checker lifted off a
    # two while a white phantom passed over the black one left read two steps weaker;
    # anchored there as one, the phantom's going counted a second checker put on.
    watch = StackWatch(1, second_layer_step=200.0)
    assert watch.update([EMPTY], [0.0], [0], [False]) == [0]
    assert watch.update([ONE_PLUS], [1500.0], [-1], [False]) == [1]
    assert watch.update([ONE_PLUS], [1700.0], [-1], [False]) == [2]
    assert watch.update([ONE], [1300.0], [-1], [False]) == [2]  # lifted, and a phantom
    assert watch.update([ONE_PLUS], [1500.0], [-1], [False]) == [1]  # gone: the lift
    assert watch.update([ONE_PLUS], [1505.0], [-1], [False]) == [1]
