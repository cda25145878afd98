"""The modelled sensors' noise: drawn in one loop, exactly as ``random.gauss`` draws it."""

from __future__ import annotations

import random

import pytest

from tavla_pi.hal.sim.sensors import unit_normals


@pytest.mark.parametrize("n", [0, 1, 2, 3, 152, 153])
@pytest.mark.parametrize("half_used", [False, True])
def test_unit_normals_are_the_draws_of_gauss(n: int, *, half_used: bool) -> None:
    drawn, called = random.Random(5), random.Random(5)
    if half_used:  # gauss() keeps the second of its pair for the next call
        drawn.gauss()
        called.gauss()
    assert unit_normals(drawn, n) == [called.gauss() for _ in range(n)]
    assert drawn.getstate() == called.getstate()
    assert drawn.gauss(3.0, 2.0) == called.gauss(3.0, 2.0)


def test_scaled_draws_are_gauss_with_that_sigma() -> None:
    drawn, called = random.Random(8), random.Random(8)
    assert [z * 6.0 for z in unit_normals(drawn, 40)] == [called.gauss(0.0, 6.0)
                                                          for _ in range(40)]
