"""A Plakoto board with pins laid out at once (a resume after a power cut: the decoder
has no history of the pockets) still reads in sync with the logical board: what the
sensors cannot tell (a pin without its history reads weak, both counts open, or as its
lone checker that may be covered) is left to the rules, never read as a fix."""

from __future__ import annotations

import pytest
from sim_support import calibrated, settle

from tavla_pi.decode.observation import ZERO, CountRange, Observation
from tavla_pi.reconcile import board_fixes
from tavla_pi.rules import Color
from tavla_pi.rules.tavli import BoardDict

PINNED: BoardDict = {
    "white": {"9": 1, "10": 1, "13": 1, "15": 1, "19": 1, "23": 1, "24": 9},
    "black": {"1": 10, "4": 1, "5": 1, "12": 1, "13": 1, "20": 1},
    "pinned": {"13": "black"},
}
"""A position where a pin laid checker by checker once read as no pin (seed 5)."""

ONE = CountRange(1, 1)

THREE_PINS: BoardDict = {
    "white": {"24": 10, "5": 2, "8": 1, "16": 1, "18": 1},
    "black": {"1": 11, "5": 1, "16": 1, "18": 1, "22": 1},
    "pinned": {"5": "black", "16": "white", "18": "white"},
}
"""Pins beside (5: a second pinner beside the pin) and alone (16, 18), both colours."""


def laid_out_at_once(position: BoardDict, seed: int) -> Observation:
    """What a decoder started on ``position`` (laid out at once, pins on top) reads."""
    return Resumed(position, seed).read()


class Resumed:
    """A modelled board with ``position`` laid out at once, and a decoder started on it."""

    def __init__(self, position: BoardDict, seed: int) -> None:
        self.board, self.decoder, self.clock = calibrated(seed, pin_on_top=True)
        counts = {(at, Color(c)): n for c in ("white", "black")
                  for at, n in position[c].items()}
        pins = {at: Color(c) for at, c in position["pinned"].items()}
        self.board.lay_out(counts, pinned=pins)

    def read(self) -> Observation:
        return settle(self.board, self.decoder, frames=30, clock=self.clock)


@pytest.mark.parametrize("seed", range(0, 24, 3))
def test_a_pinned_board_laid_out_at_once_reads_in_sync(seed: int) -> None:
    assert board_fixes(PINNED, laid_out_at_once(PINNED, seed)) == ()


@pytest.mark.parametrize("seed", [12, 1, 7, 30])
def test_a_pin_that_reads_as_its_lone_checker_is_left_to_the_rules(seed: int) -> None:
    # Seed 12: the pin on 18 (White under Black) reads "one white" where weak parts put
    # it in the overlap with a lone checker; no history tells it, so the reading says
    # a checker of the other colour may lie on it, and no fix is asked for.
    observation = laid_out_at_once(THREE_PINS, seed)
    assert board_fixes(THREE_PINS, observation) == ()
    if seed == 12:
        reading = observation.point(18)
        assert (reading.color, reading.count, reading.other) == (Color.WHITE, ONE, ZERO)
        assert reading.maybe_covered and reading.covered is None


def test_the_pinner_lifted_off_a_pin_read_as_maybe_covered_is_seen() -> None:
    resumed = Resumed(THREE_PINS, 12)
    assert resumed.read().point(18).maybe_covered
    resumed.board.lift("18", Color.BLACK)  # the pinner, off the top
    reading = resumed.read().point(18)
    assert (reading.color, reading.count, reading.other) == (Color.WHITE, ONE, ZERO)
    assert not reading.maybe_covered  # the pin is gone: the board tells it
