"""Only observations that hold still reach the game; glitches never do."""

from __future__ import annotations

import pytest
from sim_support import calibrated

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Observation, StabilityFilter
from tavla_pi.decode.observation import NOTHING, CountRange, Reading
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
