"""The Hall sensor grid: CD74HC4067 muxes into MCP3208 ADCs.

A scan sets the shared select lines, lets the analogue path settle, and reads
each bank's ADC channel, filling a raw frame in ``PinMap.sensors`` order.
The conversions go through spidev in batches when its nodes open (given
``spi``), else one gpiozero call each (``tavla_pi.hal.pi.adcs``).

Bank power (``MuxBank.power_pin``, active high) follows one of two policies:

- ``ALWAYS_ON``: switched banks are powered from open to close; a scan visits
  the 16 mux channels once and reads every bank at each (16 select changes).
- ``PER_BANK``: a bank is powered only while it is read (saves the sensors'
  supply current, about 6 mA each); a scan visits bank after bank, waiting
  for the sensors to power up each time.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import DigitalOutputDevice

from tavla_pi.errors import HardwareError
from tavla_pi.hal.base import RawFrame
from tavla_pi.hal.pi.adcs import AdcReader, BatchedAdcs, GpiozeroAdcs
from tavla_pi.hal.pi.mux import MuxSelect
from tavla_pi.hal.pi.scanplan import MuxStep, ScanPlan, plan_scan
from tavla_pi.hal.pi.spidev import SpidevAccess
from tavla_pi.hardware.pinmap import PinMap

log = logging.getLogger("tavla_pi.hal.pi")

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
                 power_settle_us: int = POWER_SETTLE_US,
                 spi: SpidevAccess | None = None) -> None:
        self._plan: ScanPlan = plan_scan(pinmap)
        self.power = power
        self._delay = delay
        self._select_settle_us = select_settle_us
        self._power_settle_us = power_settle_us
        self._adcs: AdcReader | None = None
        self._power: list[Any] = []
        self._mux: MuxSelect | None = None
        self._steps = self._plan_steps()
        try:
            self._open(pinmap, pin_factory, spi)
        except Exception:
            self.close()
            raise

    def _plan_steps(self) -> list[tuple[int | None, tuple[MuxStep, ...]]]:
        """The scan as (bank to power or None, steps) phases, per the power policy."""
        if self.power is PowerPolicy.ALWAYS_ON:
            return [(None, self._plan.channel_major())]
        return [(b, self._plan.bank_steps(b)) for b in range(len(self._plan.slots))]

    def _open(self, pinmap: PinMap, pin_factory: Any, spi: SpidevAccess | None) -> None:
        """Claim the select lines, the ADCs and the power switches."""
        self._mux = MuxSelect(pinmap.mux_select, pinmap.mux_enable, pin_factory=pin_factory)
        self._adcs = self._open_adcs(pinmap, pin_factory, spi)
        keep_on = self.power is PowerPolicy.ALWAYS_ON
        for bank in pinmap.banks:
            self._power.append(None if bank.power_pin is None else DigitalOutputDevice(
                bank.power_pin, initial_value=keep_on, pin_factory=pin_factory))
        if keep_on and any(p is not None for p in self._power):
            self._delay(self._power_settle_us)

    def _open_adcs(self, pinmap: PinMap, pin_factory: Any,
                   spi: SpidevAccess | None) -> AdcReader:
        """Batched through spidev if its nodes open; else one gpiozero call per conversion."""
        if spi is not None:
            try:
                return BatchedAdcs(pinmap, (s for _, steps in self._steps for s in steps), spi)
            except HardwareError as err:
                log.warning("batched SPI unavailable (%s): reading the ADCs one call per "
                            "conversion through gpiozero", err)
        return GpiozeroAdcs(pinmap, pin_factory)

    @property
    def spi_path(self) -> str:
        """How the ADCs are read, in one line (``tavla-pi diag`` shows it)."""
        if self._adcs is None:
            return "closed"
        return self._adcs.describe()

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
        for bank, steps in self._steps:
            power = None if bank is None else self._power[bank]
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
        assert adcs is not None  # open while the mux is
        for step in steps:
            if mux.select(step.channel):
                self._delay(self._select_settle_us)
            adcs.read(step, frame)

    def close(self) -> None:
        """Power the banks down and release every pin; idempotent."""
        for switch in self._power:
            if switch is not None:
                switch.off()
                switch.close()
        self._power = []
        if self._adcs is not None:
            self._adcs.close()
            self._adcs = None
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
