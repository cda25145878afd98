"""The Pi sensor grid against modelled muxes and MCP3208s on gpiozero's MockFactory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import MCP3208, Device
from gpiozero.pins.mock import MockFactory

from tavla_pi.errors import HardwareError
from tavla_pi.hal.pi.sensors import POWER_SETTLE_US, SELECT_SETTLE_US, PiSensorGrid, PowerPolicy
from tavla_pi.hardware.pinmap import PinMap, SensorSite
from tavla_pi.rules.color import Color
from tavla_pi.testing.hal_models import (
    HallField,
    MockMCP3208,
    ModelledBoard,
    board_sites,
    reference_pinmap,
    volts_to_counts,
)

QUIESCENT = 2048


def point(location: int, slot: int) -> SensorSite:
    return SensorSite(str(location), slot)


def bar(color: Color, slot: int) -> SensorSite:
    return SensorSite("bar", slot, color)


class Rig:
    """A modelled board and the real driver on one MockFactory."""

    def __init__(self, pinmap: PinMap, *, power: PowerPolicy = PowerPolicy.ALWAYS_ON,
                 **faults: object) -> None:
        self.pinmap = pinmap
        self.factory = MockFactory()
        self.field = HallField(board_sites())
        self.board = ModelledBoard(pinmap, self.factory, self.field, **faults)  # type: ignore[arg-type]
        self.delays: list[int] = []
        self.grid = PiSensorGrid(pinmap, pin_factory=self.factory, power=power,
                               delay=self.delays.append)

    def index(self, site: SensorSite) -> int:
        return [s.site for s in self.pinmap.sensors].index(site)

    def close(self) -> None:
        self.grid.close()
        self.board.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = Rig(reference_pinmap(shuffle_seed=11))
    yield r
    r.close()


def test_the_mcp3208_model_answers_gpiozero_like_the_chip() -> None:
    factory = MockFactory()
    volts = [0.0, 3.3, 1.65, 0.825, 0.0, 0.0, 2.0, 1.0]
    chip = MockMCP3208(0, 1, volts.__getitem__, pin_factory=factory)
    saved, Device.pin_factory = Device.pin_factory, factory  # gpiozero's software SPI asks it
    try:
        for channel, expected in enumerate([0, 4095, 2048, 1024, 0, 0, 2482, 1241]):
            with MCP3208(channel, port=0, device=1, pin_factory=factory) as adc:
                assert adc.raw_value == expected
        with MCP3208(6, differential=True, port=0, device=1, pin_factory=factory) as adc:
            assert adc.raw_value == volts_to_counts(2.0 - 1.0)
        with MCP3208(7, differential=True, port=0, device=1, pin_factory=factory) as adc:
            assert adc.raw_value == 0  # IN+ below IN-
        with MCP3208(1, port=0, device=0, pin_factory=factory) as adc:
            assert adc.raw_value == 0  # nothing answers on CE0
        assert chip.conversions == [0, 1, 2, 3, 4, 5, 6, 7, 6, 7]
    finally:
        Device.pin_factory = saved
        chip.close()


def lay_some_checkers(field: HallField) -> list[tuple[SensorSite, Color]]:
    laid = [(point(24, 0), Color.WHITE), (point(24, 1), Color.WHITE),
            (point(1, 0), Color.BLACK), (point(13, 5), Color.BLACK),
            (bar(Color.WHITE, 0), Color.WHITE), (bar(Color.BLACK, 2), Color.BLACK)]
    for site, color in laid:
        field.lay(site, color)
    return laid


@pytest.mark.parametrize("shuffle_seed", [None, 11, 2024])
def test_every_site_is_read_into_its_own_slot(shuffle_seed: int | None) -> None:
    r = Rig(reference_pinmap(shuffle_seed=shuffle_seed))
    try:
        laid = lay_some_checkers(r.field)
        expected = r.board.expected_frame()
        assert len(set(expected)) == 152, "the model must give every site its own reading"
        frame = r.grid.scan()
        assert len(frame) == 152
        assert frame == expected
        assert r.board.conversions() == 152
        for site, color in laid:
            reading = frame[r.index(site)]
            if color is Color.WHITE:
                assert reading > QUIESCENT + 800
            else:
                assert reading < QUIESCENT - 800
    finally:
        r.close()


def test_moving_a_checker_changes_exactly_its_two_slots(rig: Rig) -> None:
    rig.field.lay(point(13, 0), Color.WHITE)
    before = rig.grid.scan()
    rig.field.lift(point(13, 0))
    rig.field.lay(point(8, 0), Color.WHITE)
    after = rig.grid.scan()
    assert after == rig.board.expected_frame()
    changed = {i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
    assert changed == {rig.index(point(13, 0)), rig.index(point(8, 0))}


def test_swapped_select_lines_in_the_board_show_in_the_frame() -> None:
    r = Rig(reference_pinmap(shuffle_seed=5), select_wiring=(1, 0, 2, 3))
    try:
        lay_some_checkers(r.field)
        frame = r.grid.scan()
        expected = r.board.expected_frame()
        wrong = {i for i, (a, b) in enumerate(zip(frame, expected, strict=True)) if a != b}
        s0_ne_s1 = {i for i, s in enumerate(r.pinmap.sensors)
                    if (s.mux_channel & 1) != (s.mux_channel >> 1 & 1)}
        assert wrong == s0_ne_s1
        assert len(wrong) > 50
    finally:
        r.close()


def test_select_lines_change_one_bit_per_step_and_settle_each_time(rig: Rig) -> None:
    select = [rig.factory.pin(p) for p in rig.pinmap.mux_select]

    def edges() -> int:
        return sum(len(pin.states) - 1 for pin in select)

    for pin in select:
        pin.clear_states()
    rig.grid.scan()
    assert edges() == 15  # channel 0 is already selected: 15 Gray-code steps
    assert rig.delays == [SELECT_SETTLE_US] * 15
    for pin in select:
        pin.clear_states()
    rig.delays.clear()
    rig.grid.scan()
    assert edges() == 16  # and one back to channel 0
    assert rig.delays == [SELECT_SETTLE_US] * 16


def test_scan_enables_the_muxes_and_close_disables_them(rig: Rig) -> None:
    enable = rig.factory.pin(rig.pinmap.mux_enable)
    rig.grid.mux.disable()
    assert enable.state  # active low: high is off
    assert rig.grid.scan() == rig.board.expected_frame()
    assert not enable.state
    enable.clear_states()
    rig.grid.close()
    assert [s.state for s in enable.states][-1]  # driven high before release


def test_an_enable_line_that_never_reaches_the_muxes_reads_as_floating() -> None:
    r = Rig(reference_pinmap(), enable_wired_to=2)  # EN really on GPIO2, which the Pi pulls up
    try:
        assert r.grid.scan() == (0,) * 152
    finally:
        r.close()


def test_per_bank_power_powers_only_the_bank_being_read() -> None:
    r = Rig(reference_pinmap(power_pins=True, shuffle_seed=3), power=PowerPolicy.PER_BANK)
    try:
        power = [r.factory.pin(b.power_pin) for b in r.pinmap.banks if b.power_pin is not None]
        assert not any(p.state for p in power)
        lay_some_checkers(r.field)
        for pin in power:
            pin.clear_states()
        assert r.grid.scan() == r.board.expected_frame()
        assert not any(p.state for p in power)
        assert r.delays.count(POWER_SETTLE_US) == 10
        for pin in power:
            assert [s.state for s in pin.states] == [False, True, False]
    finally:
        r.close()


def test_always_on_power_is_on_from_open_to_close() -> None:
    r = Rig(reference_pinmap(power_pins=True), power=PowerPolicy.ALWAYS_ON)
    try:
        power = [r.factory.pin(b.power_pin) for b in r.pinmap.banks if b.power_pin is not None]
        assert all(p.state for p in power)
        assert r.delays == [POWER_SETTLE_US]
        assert r.grid.scan() == r.board.expected_frame()
        r.grid.close()
        assert not any(p.state for p in power)
    finally:
        r.close()


def test_a_dead_power_switch_reads_zero_in_exactly_that_banks_slots() -> None:
    r = Rig(reference_pinmap(power_pins=True, shuffle_seed=9), dead_power=frozenset({"mux4"}))
    try:
        frame = r.grid.scan()
        bank = r.pinmap.banks[4]
        dead = {i for i, s in enumerate(r.pinmap.sensors)
                if (s.adc, s.adc_channel) == (bank.adc, bank.adc_channel)}
        assert len(dead) >= 8
        assert {i for i, v in enumerate(frame) if v == 0} == dead
        expected = r.board.expected_frame()
        assert all(frame[i] == expected[i] for i in range(152) if i not in dead)
    finally:
        r.close()


def test_close_is_safe_twice_releases_the_pins_and_stops_scans(rig: Rig) -> None:
    rig.grid.close()
    rig.grid.close()
    assert rig.grid.closed
    with pytest.raises(HardwareError, match="closed"):
        rig.grid.scan()
    again = PiSensorGrid(rig.pinmap, pin_factory=rig.factory, delay=rig.delays.append)
    with again:
        assert again.scan() == rig.board.expected_frame()
    assert again.closed


def test_repr_says_what_it_is(rig: Rig) -> None:
    assert repr(rig.grid) == "<PiSensorGrid 152 sensors, always_on>"
    rig.grid.close()
    assert repr(rig.grid) == "<PiSensorGrid closed>"
