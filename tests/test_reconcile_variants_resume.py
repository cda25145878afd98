"""A Plakoto board with pins laid out at once (a resume after a power cut: the decoder
has no history of the pockets) still reads in sync with the logical board: what the
sensors cannot tell (a pin without its history reads weak, both counts open) is left
to the rules, never read as a fix."""

from __future__ import annotations

import pytest
from sim_support import calibrated, settle

from tavla_pi.reconcile import board_fixes
from tavla_pi.rules import Color
from tavla_pi.rules.tavli import BoardDict

PINNED: BoardDict = {
    "white": {"9": 1, "10": 1, "13": 1, "15": 1, "19": 1, "23": 1, "24": 9},
    "black": {"1": 10, "4": 1, "5": 1, "12": 1, "13": 1, "20": 1},
    "pinned": {"13": "black"},
}
"""A position where a pin laid checker by checker once read as no pin (seed 5)."""


@pytest.mark.parametrize("seed", range(0, 24, 3))
def test_a_pinned_board_laid_out_at_once_reads_in_sync(seed: int) -> None:
    board, decoder, clock = calibrated(seed, pin_on_top=True)
    counts = {(at, Color(c)): n for c in ("white", "black")
              for at, n in PINNED[c].items()}  # type: ignore[literal-required]
    board.lay_out(counts, pinned={"13": Color.BLACK})
    observation = settle(board, decoder, frames=30, clock=clock)
    assert board_fixes(PINNED, observation) == ()
