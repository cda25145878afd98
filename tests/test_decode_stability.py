"""Only observations that hold still reach the game; glitches never do."""

from __future__ import annotations

import pytest
from sim_support import calibrated

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Observation, StabilityFilter
from tavla_pi.decode.observation import NOTHING, CountRange, Reading
from tavla_pi.decode.stability import (
    PROVISIONAL_SCANS,
    ProvisionalFilter,
    blend,
    blends,
    changed_places,
)
from tavla_pi.rules.color import Color

SCAN_MS = 20


def board_with(point: int, reading: Reading) -> Observation:
    points = [NOTHING] * 24
    points[point - 1] = reading
    return Observation(tuple(points), NOTHING, NOTHING)


EMPTY_BOARD = board_with(1, NOTHING)
ONE_ON_5 = board_with(5, Reading(Color.BLACK, CountRange(1, 1)))


def test_an_observation_passes_once_it_has_held_for_stable_ms() -> None:
    clock = VirtualClock()
    stability = StabilityFilter(clock, stable_ms=150)
    assert stability.update(EMPTY_BOARD) is None
    clock.advance(149)
    assert stability.update(EMPTY_BOARD) is None
    clock.advance(1)
    assert stability.update(EMPTY_BOARD) is EMPTY_BOARD
    clock.advance(500)
    assert stability.update(EMPTY_BOARD) is None
    assert stability.stable is EMPTY_BOARD


def test_a_change_restarts_the_wait() -> None:
    clock = VirtualClock()
    stability = StabilityFilter(clock, stable_ms=150)
    stability.update(EMPTY_BOARD)
    clock.advance(100)
    stability.update(ONE_ON_5)
    clock.advance(100)
    assert stability.update(ONE_ON_5) is None
    clock.advance(50)
    assert stability.update(ONE_ON_5) is ONE_ON_5


def test_negative_stable_ms_is_refused() -> None:
    with pytest.raises(ValueError, match="stable_ms"):
        StabilityFilter(VirtualClock(), stable_ms=-1)


def run(ms: int, board, decoder, clock: VirtualClock,  # type: ignore[no-untyped-def]
        stability: StabilityFilter) -> list[Observation]:
    """Scan every 20 ms for ``ms``; the observations the filter passed on."""
    passed = []
    for _ in range(ms // SCAN_MS):
        result = stability.update(decoder.decode(board.scan()))
        if result is not None:
            passed.append(result)
        clock.advance(SCAN_MS)
    return passed


@pytest.mark.parametrize("glitch_ms", [20, 60, 100, 140])
def test_a_glitch_shorter_than_stable_ms_never_reaches_the_game(glitch_ms: int) -> None:
    board, decoder, clock = calibrated(11)
    board.setup_start()
    stability = StabilityFilter(clock, stable_ms=150)
    (start,) = run(400, board, decoder, clock, stability)
    assert start.point(5) == NOTHING
    board.glitch("5", Color.BLACK, glitch_ms)
    assert decoder.decode(board.scan()).point(5).color is Color.BLACK
    assert run(1000, board, decoder, clock, stability) == []
    assert stability.stable == start


def test_a_reading_that_stays_is_passed_on_after_stable_ms() -> None:
    board, decoder, clock = calibrated(12)
    board.setup_start()
    stability = StabilityFilter(clock, stable_ms=150)
    run(400, board, decoder, clock, stability)
    board.glitch("5", Color.BLACK, 400)
    passed = run(300, board, decoder, clock, stability)
    assert len(passed) == 1
    assert passed[0].point(5).color is Color.BLACK


def test_a_move_passes_on_the_lifted_and_the_placed_board_once_each() -> None:
    board, decoder, clock = calibrated(13)
    board.setup_start()
    stability = StabilityFilter(clock)
    run(400, board, decoder, clock, stability)
    board.lift("13", Color.WHITE)
    (lifted,) = run(400, board, decoder, clock, stability)
    assert lifted.point(13).count.low == 4
    board.place("9", Color.WHITE)
    (placed,) = run(400, board, decoder, clock, stability)
    assert placed.point(9).color is Color.WHITE
    assert placed.point(9).count.low == 1


@pytest.mark.parametrize("seed", range(3))
def test_a_still_board_stays_still_for_a_minute_without_false_faults(seed: int) -> None:
    board, decoder, clock = calibrated(20 + seed)
    board.setup_start()
    stability = StabilityFilter(clock)
    passed = run(60_000, board, decoder, clock, stability)
    assert len(passed) == 1
    assert passed[0].faults == ()


# ---- the provisional board: what the lights show --------------------------------------


def test_the_provisional_board_is_the_one_two_scans_in_a_row_agree_on() -> None:
    provisional = ProvisionalFilter()
    assert provisional.scans == PROVISIONAL_SCANS == 2
    assert provisional.update(EMPTY_BOARD) is None
    assert provisional.update(EMPTY_BOARD) is EMPTY_BOARD
    assert provisional.update(ONE_ON_5) is EMPTY_BOARD  # one scan: not yet
    assert provisional.update(EMPTY_BOARD) is EMPTY_BOARD
    assert provisional.update(ONE_ON_5) is EMPTY_BOARD
    assert provisional.update(ONE_ON_5) == ONE_ON_5
    assert provisional.current == ONE_ON_5
    with pytest.raises(ValueError, match="scans"):
        ProvisionalFilter(0)


def test_each_location_is_lit_once_it_held_two_scans_whatever_another_does() -> None:
    white = Reading(Color.WHITE, CountRange(1, 1))
    phantom = blend(ONE_ON_5, board_with(9, white), frozenset({"9"}))
    provisional = ProvisionalFilter()
    provisional.update(EMPTY_BOARD)
    provisional.update(EMPTY_BOARD)
    assert provisional.update(phantom) == EMPTY_BOARD  # 5 placed, a phantom on 9
    assert provisional.update(ONE_ON_5) == ONE_ON_5  # 5 held two scans; 9 none
    assert provisional.began("5") == 3 and provisional.began("9") == 1
    assert provisional.update(phantom) == ONE_ON_5
    assert provisional.update(phantom) == phantom


@pytest.mark.parametrize("seed", range(4))
def test_the_first_scan_after_a_lift_or_a_placement_reads_the_board_it_settles_to(
        seed: int) -> None:
    """PROVISIONAL_SCANS rests on this: a whole checker's field (> 1,300 counts against
    6 rms of noise) is read right at once, so two agreeing scans are the new board."""
    board, decoder, clock = calibrated(40 + seed)
    board.setup_start()
    for _ in range(30):
        decoder.decode(board.scan())
        clock.advance(SCAN_MS)
    for action, location, color in (("lift", "13", Color.WHITE), ("place", "9", Color.WHITE),
                                    ("lift", "1", Color.BLACK), ("place", "4", Color.BLACK)):
        (board.lift if action == "lift" else board.place)(location, color)
        first = decoder.decode(board.scan())
        later = []
        for _ in range(40):
            clock.advance(SCAN_MS)
            later.append(decoder.decode(board.scan()))
        assert all(obs == first for obs in later)


def test_changed_places_and_a_blend_of_two_boards() -> None:
    both = board_with(5, Reading(Color.BLACK, CountRange(1, 1)))
    both = Observation((*both.points[:8], Reading(Color.WHITE, CountRange(2, 2)),
                        *both.points[9:]), NOTHING, NOTHING)
    assert changed_places(EMPTY_BOARD, both) == ("5", "9")
    assert blend(EMPTY_BOARD, both, frozenset({"5"})) == ONE_ON_5


def test_blends_leave_out_a_phantom_but_never_a_checker_the_hand_moved() -> None:
    white_on_5 = board_with(5, Reading(Color.WHITE, CountRange(1, 1)))
    start = Observation((*white_on_5.points[:12], Reading(Color.WHITE, CountRange(5, 5)),
                         *white_on_5.points[13:]), NOTHING, NOTHING)
    lifted = Observation((*start.points[:12], Reading(Color.WHITE, CountRange(4, 4)),
                          *start.points[13:]), NOTHING, NOTHING)
    # a lift from 13 and a black phantom on 20: the lift alone is offered first
    haunted = Observation((*lifted.points[:19], Reading(Color.BLACK, CountRange(1, 1)),
                           *lifted.points[20:]), NOTHING, NOTHING)
    assert blends(start, haunted, Color.WHITE, spare=0)[0] == lifted
    # 13 -> 9 in one movement: the checker that appeared is the one that left
    moved = Observation((*lifted.points[:8], Reading(Color.WHITE, CountRange(1, 1)),
                         *lifted.points[9:]), NOTHING, NOTHING)
    assert blends(start, moved, Color.WHITE, spare=0) == []
    # the checker in the hand put on 9 while a white phantom stands on 20: either may be it
    phantom = Observation((*moved.points[:19], Reading(Color.WHITE, CountRange(1, 1)),
                           *moved.points[20:]), NOTHING, NOTHING)
    parts = blends(lifted, phantom, Color.WHITE, spare=1)
    assert [changed_places(lifted, p) for p in parts] == [("9",), ("20",)]
    # a white checker that stood on 9 before one left 13 cannot be the one lifted
    early = {"9": 1, "13": 4}.__getitem__
    assert blends(start, moved, Color.WHITE, spare=0, began=early) == [lifted]
