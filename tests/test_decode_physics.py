"""The magnetic design: field model, expected counts, separation at the tolerances."""

from __future__ import annotations

import dataclasses
import math

import pytest

from tavla_pi.hardware.physics import (
    REFERENCE,
    axial_field_mt,
    elliptic_ke,
    field_mt,
    separation,
    stack_field_mt,
)


def test_elliptic_integrals_match_tabulated_values() -> None:
    assert elliptic_ke(0.0) == pytest.approx((math.pi / 2, math.pi / 2))
    assert elliptic_ke(0.5) == pytest.approx((1.8540746773013719, 1.3506438810476755))
    assert elliptic_ke(0.9) == pytest.approx((2.5780921133481733, 1.1047747327040733))


@pytest.mark.parametrize("z", [2.0, 6.5, 8.0, 17.0, 26.0, 60.0])
def test_the_loop_model_equals_the_closed_form_on_the_axis(z: float) -> None:
    on_axis = axial_field_mt(REFERENCE, z)
    assert field_mt(REFERENCE, 1e-6, z) == pytest.approx(on_axis, rel=1e-6)


def test_off_axis_the_field_falls_crosses_zero_and_returns_weakly() -> None:
    fields = [field_mt(REFERENCE, rho, 8.0) for rho in (0, 5, 10, 15, 19, 38, 76)]
    assert fields[0] > fields[1] > fields[2] > 0 > fields[4]
    assert -1.0 < fields[4] < -0.8
    assert -0.4 < fields[5] < -0.3
    assert -0.06 < fields[6] < 0


def test_far_away_the_magnet_is_a_dipole() -> None:
    moment = REFERENCE.br_mt * 1e-3 * math.pi * 25e-6 * 3e-3 / (4e-7 * math.pi)
    dipole_mt = 2e-7 * moment / 0.2**3 * 1e3
    assert axial_field_mt(REFERENCE, 200.0 - 1.5) == pytest.approx(dipole_mt, rel=0.01)


def test_expected_counts_of_the_reference_board() -> None:
    cpm = REFERENCE.counts_per_mt
    assert cpm == pytest.approx(37.24, abs=0.01)
    assert stack_field_mt(REFERENCE, 1) == pytest.approx(40.54, abs=0.01)
    assert stack_field_mt(REFERENCE, 2) == pytest.approx(47.54, abs=0.01)
    assert round(2048 + stack_field_mt(REFERENCE, 1) * cpm) == 3558
    assert round(2048 + stack_field_mt(REFERENCE, 2) * cpm) == 3818
    assert REFERENCE.swing_counts == pytest.approx((248.2, 3847.8), abs=0.1)


def test_empty_and_one_checker_are_far_apart_at_worst_case_tolerances() -> None:
    bands = separation(REFERENCE)
    assert bands.empty.high == pytest.approx(27.0)
    assert bands.one.low == pytest.approx(1335, abs=1)
    assert bands.gap_empty_one > 1300


def test_one_and_two_stacked_overlap_at_worst_case_tolerances() -> None:
    """The reason the decoder has a "one or more" level (documented in physics)."""
    bands = separation(REFERENCE)
    assert bands.one.high == pytest.approx(1691, abs=1)
    assert bands.two.low == pytest.approx(1571, abs=1)
    assert bands.gap_one_two == pytest.approx(-120, abs=1)
    perfect = separation(dataclasses.replace(REFERENCE, sensitivity_tol=0.0, br_tol=0.0))
    assert perfect.gap_one_two > 150


def test_with_the_magnet_centre_at_8_mm_one_checker_and_two_read_the_same() -> None:
    """Measured to the magnet's centre instead of its face, the design would fail."""
    centre_8 = dataclasses.replace(REFERENCE, magnet_gap_mm=8.0 - 1.5)
    assert stack_field_mt(centre_8, 1) == pytest.approx(60.0, abs=0.1)
    clip_mt = (centre_8.output_max_v - centre_8.vcc_v / 2) / 0.030
    assert stack_field_mt(centre_8, 1) * centre_8.gain_bounds[0] > clip_mt
    bands = separation(centre_8)
    assert bands.one == bands.two
