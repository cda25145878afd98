"""The Hall sensor grid: CD74HC4067 muxes into MCP3208 ADCs, read through gpiozero.

A scan sets the shared select lines, lets the analogue path settle, and reads
each bank's ADC channel, filling a raw frame in ``PinMap.sensors`` order.

Bank power (``MuxBank.power_pin``, active high) follows one of two policies:

- ``ALWAYS_ON``: switched banks are powered from open to close; a scan visits
  the 16 mux channels once and reads every bank at each (16 select changes).
- ``PER_BANK``: a bank is powered only while it is read (saves the sensors'
  supply current, about 6 mA each); a scan visits bank after bank, waiting
  for the sensors to power up each time.
"""

from __future__ import annotations

import enum
import gc
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from gpiozero import MCP3208, Device, DigitalOutputDevice

from tavla_pi.errors import HardwareError
from tavla_pi.hal.base import RawFrame
from tavla_pi.hal.pi.mux import MuxSelect
from tavla_pi.hal.pi.scanplan import MuxStep, ScanPlan, plan_scan
from tavla_pi.hardware.pinmap import PinMap

Delay = Callable[[int], None]
"""Waits the given number of microseconds (injected; tests record instead)."""

SELECT_SETTLE_US = 5
"""After the select lines change: mux switching plus the ADC input settling."""

POWER_SETTLE_US = 400
"""After a bank is powered: the DRV5055 power-on time (330 us max) with margin."""


def busy_wait_us(us: int) -> None:
    """Spin for ``us`` microseconds; sleeping is far coarser than that."""
    end = time.perf_counter_ns() + us * 1000
    while time.perf_counter_ns() < end:
        pass


@contextmanager
def _spi_opening(pin_factory: Any) -> Iterator[None]:
    """Work around two gpiozero 2.0 quirks while the ADCs open.

    - Its software SPI bus (MockFactory's, or a Pi's without spidev) asks
      for the global default factory instead of the one it is given, so
      ``pin_factory`` is made the default meanwhile (then put back).
    - Closed SPI objects live on in reference cycles; when the collector
      frees one, it unregisters the shared bus by key, even a newer bus on
      the same pins, which then opens twice (GPIOPinInUse).  So collect
      them first, before the new bus registers.
    """
    gc.collect()
    if pin_factory is None:
        yield
        return
    saved = Device.pin_factory
    Device.pin_factory = pin_factory
    try:
        yield
    finally:
        Device.pin_factory = saved


class PowerPolicy(enum.Enum):
    """When the banks' sensors are powered (see the module docstring)."""

    ALWAYS_ON = "always_on"
    PER_BANK = "per_bank"


class PiSensorGrid:
    """Reads every Hall sensor of the board once per :meth:`scan`.

    Implements :class:`tavla_pi.hal.base.SensorGrid`.  A context manager;
    ``close()`` powers the banks down, releases every pin and is safe twice.
    """

    def __init__(self, pinmap: PinMap, *, pin_factory: Any = None,
                 power: PowerPolicy = PowerPolicy.ALWAYS_ON, delay: Delay = busy_wait_us,
                 select_settle_us: int = SELECT_SETTLE_US,
                 power_settle_us: int = POWER_SETTLE_US) -> None:
        self._plan: ScanPlan = plan_scan(pinmap)
        self.power = power
        self._delay = delay
        self._select_settle_us = select_settle_us
        self._power_settle_us = power_settle_us
        self._adcs: list[Any] = []
        self._power: list[Any] = []
        self._mux: MuxSelect | None = None
        try:
            self._open(pinmap, pin_factory)
        except Exception:
            self.close()
            raise
        self._phases = self._make_phases()

    def _open(self, pinmap: PinMap, pin_factory: Any) -> None:
        """Claim the select lines, one ADC channel per bank and the power switches."""
        self._mux = MuxSelect(pinmap.mux_select, pinmap.mux_enable, pin_factory=pin_factory)
        with _spi_opening(pin_factory):
            for bank in pinmap.banks:
                chip = pinmap.adcs[bank.adc]
                self._adcs.append(MCP3208(channel=bank.adc_channel, port=chip.spi_port,
                                          device=chip.spi_device, pin_factory=pin_factory))
        keep_on = self.power is PowerPolicy.ALWAYS_ON
        for bank in pinmap.banks:
            self._power.append(None if bank.power_pin is None else DigitalOutputDevice(
                bank.power_pin, initial_value=keep_on, pin_factory=pin_factory))
        if keep_on and any(p is not None for p in self._power):
            self._delay(self._power_settle_us)

    def _make_phases(self) -> list[tuple[Any, tuple[MuxStep, ...]]]:
        """The scan as (power switch or None, steps) phases, per the power policy."""
        if self.power is PowerPolicy.ALWAYS_ON:
            return [(None, self._plan.channel_major())]
        return [(self._power[b], self._plan.bank_steps(b)) for b in range(len(self._adcs))]

    @property
    def mux(self) -> MuxSelect:
        """The shared select lines (for diagnostics)."""
        if self._mux is None:
            raise HardwareError("the sensor grid is closed")
        return self._mux

    def scan(self) -> RawFrame:
        """Read every sensor once; one 12-bit count per ``PinMap.sensors`` entry."""
        mux = self.mux
        mux.enable()
        frame = [0] * self._plan.size
        for power, steps in self._phases:
            if power is None:
                self._read_steps(mux, steps, frame)
                continue
            power.on()
            self._delay(self._power_settle_us)
            try:
                self._read_steps(mux, steps, frame)
            finally:
                power.off()
        return tuple(frame)

    def _read_steps(self, mux: MuxSelect, steps: Sequence[MuxStep], frame: list[int]) -> None:
        """Select each step's channel, settle, and read its banks into the frame."""
        adcs = self._adcs
        for step in steps:
            if mux.select(step.channel):
                self._delay(self._select_settle_us)
            for bank, slot in step.reads:
                frame[slot] = int(adcs[bank].raw_value)

    def close(self) -> None:
        """Power the banks down and release every pin; idempotent."""
        for switch in self._power:
            if switch is not None:
                switch.off()
                switch.close()
        self._power = []
        for adc in self._adcs:
            adc.close()
        self._adcs = []
        if self._mux is not None:
            self._mux.close()
            self._mux = None

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._mux is None

    def __enter__(self) -> PiSensorGrid:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self._plan.size} sensors, {self.power.value}"
        return f"<PiSensorGrid {state}>"
