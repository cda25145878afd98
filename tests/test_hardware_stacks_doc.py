"""GEOMETRY.md's figures for 15-checker points and pins follow from the field model."""

from __future__ import annotations

from pathlib import Path

from tavla_pi.hardware.physics import REFERENCE, axial_field_mt, stack_field_mt

TEXT = (Path(__file__).resolve().parent.parent / "hardware" / "GEOMETRY.md").read_text()


def layer(n: int) -> float:
    return axial_field_mt(REFERENCE, REFERENCE.layer_height_mm(n))


def test_the_layers_and_a_stack_of_three_are_as_written() -> None:
    assert f"{layer(0):.1f}, {layer(1):.1f}, {layer(2):.2f}, {layer(3):.2f} mT" in TEXT
    assert f"| 3 | {stack_field_mt(REFERENCE, 3):.1f} mT |" in TEXT
    three = round(2048 + stack_field_mt(REFERENCE, 3) * REFERENCE.counts_per_mt)
    assert f"{three} unclipped" in TEXT


def test_a_pin_reads_the_first_layer_less_the_second() -> None:
    assert f"| a pin (one on it) | {layer(0) - layer(1):.1f} mT |" in TEXT
    assert f"piled on it | {layer(0) - layer(1) - layer(2):.1f} mT |" in TEXT
    low = (layer(0) * 0.95 - layer(1) * 1.05) * 0.95
    high = (layer(0) * 1.05 - layer(1) * 0.95) * 1.05
    assert f"{low:.1f} .. {high:.1f} mT" in TEXT
    step = layer(1) * REFERENCE.gain_bounds[0]
    assert f"{layer(1) / step:.1f} second-layer steps" in TEXT
    assert f"{(layer(1) + layer(2)) / step:.2f} steps nominal" in TEXT
