"""Mux select lines on MockFactory pins, and the scan plan's checks of the pin map."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from gpiozero.pins.mock import MockFactory

from tavla_pi.errors import HardwareError, PinMapError
from tavla_pi.hal.pi.mux import MuxSelect, gray_order
from tavla_pi.hal.pi.scanplan import plan_scan
from tavla_pi.hardware.pinmap import MuxBank
from tavla_pi.testing.hal_models import reference_pinmap

SELECT = (5, 6, 13, 19)


def test_gray_order_flips_one_bit_per_step_and_keeps_every_channel() -> None:
    order = gray_order()
    assert sorted(order) == list(range(16))
    assert all(bin(a ^ b).count("1") == 1 for a, b in itertools.pairwise(order))
    assert gray_order([3, 9, 0]) == (0, 3, 9)  # subsets keep Gray-code rank order


def test_select_writes_only_the_lines_that_change(factory: MockFactory) -> None:
    with MuxSelect(SELECT, 26, pin_factory=factory) as mux:
        pins = [factory.pin(p) for p in SELECT]
        assert [p.state for p in pins] == [0, 0, 0, 0]
        for pin in pins:
            pin.clear_states()
        assert mux.select(0b1011)
        assert [bool(p.state) for p in pins] == [True, True, False, True]
        assert [len(p.states) - 1 for p in pins] == [1, 1, 0, 1]
        assert not mux.select(0b1011)
        assert mux.select(0b1010)
        assert [len(p.states) - 1 for p in pins] == [2, 1, 0, 1]
        assert mux.channel == 0b1010
        with pytest.raises(ValueError, match=r"outside 0\.\.15"):
            mux.select(16)


def test_enable_is_active_low_and_starts_disabled(factory: MockFactory) -> None:
    mux = MuxSelect(SELECT, 26, pin_factory=factory)
    enable = factory.pin(26)
    assert (enable.state, mux.enabled) == (1, False)
    mux.enable()
    assert (enable.state, mux.enabled) == (0, True)
    mux.disable()
    assert (enable.state, mux.enabled) == (1, False)
    mux.close()
    mux.close()
    assert mux.closed and repr(mux) == "<MuxSelect closed>"
    with pytest.raises(HardwareError, match="closed"):
        mux.select(1)


def test_without_an_enable_line_the_muxes_are_always_enabled() -> None:
    with MuxSelect(SELECT, None, pin_factory=MockFactory()) as mux:
        mux.disable()
        assert mux.enabled


def test_four_select_lines_are_required() -> None:
    with pytest.raises(PinMapError, match="mux_select: a CD74HC4067 needs 4 select lines, got 3"):
        MuxSelect((5, 6, 13), 26, pin_factory=MockFactory())


def test_scan_plan_reaches_each_sensor_once() -> None:
    plan = plan_scan(reference_pinmap(shuffle_seed=1))
    slots = sorted(i for bank in plan.slots for i in bank.values())
    assert slots == list(range(152))
    steps = plan.channel_major()
    assert [s.channel for s in steps] == list(gray_order())
    assert sum(len(s.reads) for s in steps) == 152
    assert [s.channel for s in plan.bank_steps(0)] == list(gray_order(sorted(plan.slots[0])))


def test_a_sensor_on_a_bank_that_does_not_exist_is_named() -> None:
    pinmap = reference_pinmap()
    sensors = list(pinmap.sensors)
    sensors[7] = dataclasses.replace(sensors[7], adc=1, adc_channel=6)
    with pytest.raises(PinMapError) as err:
        plan_scan(dataclasses.replace(pinmap, sensors=tuple(sensors)))
    assert str(err.value) == "sensors[7] (point 2 slot 1): no mux bank feeds adc 1 channel 6"


def test_two_sensors_on_one_mux_input_are_refused() -> None:
    pinmap = reference_pinmap()
    sensors = list(pinmap.sensors)
    sensors[150] = dataclasses.replace(sensors[150], adc=sensors[3].adc,
                                       adc_channel=sensors[3].adc_channel,
                                       mux_channel=sensors[3].mux_channel)
    with pytest.raises(PinMapError, match=r"sensors\[150\] \(bar black slot 2\): bank 'mux0' "
                                          r"channel 3 is already sensors\[3\]"):
        plan_scan(dataclasses.replace(pinmap, sensors=tuple(sensors)))


def test_a_mux_channel_out_of_range_is_refused() -> None:
    pinmap = reference_pinmap()
    sensors = list(pinmap.sensors)
    sensors[0] = dataclasses.replace(sensors[0], mux_channel=16)
    with pytest.raises(PinMapError, match=r"mux channel 16 is outside 0\.\.15"):
        plan_scan(dataclasses.replace(pinmap, sensors=tuple(sensors)))


@pytest.mark.parametrize(("bank", "problem"), [
    (MuxBank("mux9", adc=2, adc_channel=0), "adc 2 does not exist (2 ADCs are defined)"),
    (MuxBank("mux9", adc=1, adc_channel=8), "adc channel 8 is outside 0..7"),
    (MuxBank("mux9", adc=0, adc_channel=0), "adc 0 channel 0 already feeds bank 'mux0'"),
])
def test_bad_banks_are_refused(bank: MuxBank, problem: str) -> None:
    pinmap = reference_pinmap()
    with pytest.raises(PinMapError) as err:
        plan_scan(dataclasses.replace(pinmap, banks=(*pinmap.banks[:9], bank)))
    assert str(err.value) == f"banks.mux9: {problem}"
