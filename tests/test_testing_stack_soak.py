"""The sensing soak of 15-checker starts and pins: every observation holds the truth."""

from __future__ import annotations

import pytest

from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.testing.stack_soak import StackRun


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_a_short_run_reads_the_truth_at_every_step(pinmap: PinMap, variant: str) -> None:
    run = StackRun(pinmap, seed=7, variant=variant, moves=16).run()
    assert run.wrong == []
    assert run.tally["lift_third_layer"] == run.tally["lift_third_layer_unseen"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_pins_are_seen_or_left_open(pinmap: PinMap, seed: int) -> None:
    run = StackRun(pinmap, seed=100 + seed, variant="plakoto", moves=60).run()
    assert run.wrong == []
    assert run.tally["pin_missed"] == run.tally["pin_piled_missed"] == 0
