"""The MCP3208 conversions of a scan: batched through spidev, or one call each via gpiozero.

The sensor grid sets the select lines, then asks an :class:`AdcReader` for
the conversions at that setting (one :class:`MuxStep`).  Two readers:

- :class:`BatchedAdcs`: each ADC chip's conversions at one select setting
  are one ``SPI_IOC_MESSAGE`` (``cs_change`` between them).  A message cannot
  span a select change (the lines are GPIO writes between ioctls) nor two
  chips (each chip select is its own ``/dev/spidevB.C``), so a scan needs
  one ioctl per (select setting, chip) that has conversions: 32 on the
  reference board, against 152 calls one at a time.  Per-bank power visits
  a new select setting for every conversion: no batching is possible there.
- :class:`GpiozeroAdcs`: one gpiozero ``MCP3208`` per bank, one SPI call per
  conversion (the fallback where no spidev node opens; also MockFactory's
  software SPI).
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, Protocol

from gpiozero import MCP3208, Device

from tavla_pi.hal.pi.scanplan import MuxStep
from tavla_pi.hal.pi.spidev import (
    Spidev,
    SpidevAccess,
    SpiIocTransfer,
    TransferArray,
    message_sizes,
)
from tavla_pi.hardware.pinmap import PinMap

CONVERSION_BYTES = 3
"""An MCP3208 conversion in 8-bit SPI words: 5 leading zeros, start, SGL, D2..D0, 14 out."""


def mcp3208_command(channel: int) -> bytes:
    """The three bytes that start a single-ended conversion of ``channel`` (as gpiozero sends)."""
    return bytes((0x06 | channel >> 2, (channel & 3) << 6, 0))


def mcp3208_result(answer: bytes, offset: int = 0) -> int:
    """The 12-bit count in the last two bytes of a conversion's answer."""
    return (answer[offset + 1] & 0x0F) << 8 | answer[offset + 2]


class AdcReader(Protocol):
    """Reads the conversions of one select setting into a frame."""

    def read(self, step: MuxStep, frame: list[int]) -> None:
        """Convert every ``(bank, slot)`` of ``step``; each count into ``frame[slot]``."""
        ...

    def describe(self) -> str:
        """One line for diagnostics: how the ADCs are read."""
        ...

    def close(self) -> None:
        """Release the ADCs; safe twice."""
        ...


# --- batched: SPI_IOC_MESSAGE ----------------------------------------------------------------

class _Message:
    """One prepared ``SPI_IOC_MESSAGE``: conversions of one chip, ``cs_change`` between them."""

    def __init__(self, device: Spidev, reads: list[tuple[int, int]], speed_hz: int) -> None:
        count = len(reads)
        self.device = device
        self.slots = [slot for _, slot in reads]
        self.expected = CONVERSION_BYTES * count
        self.tx = ctypes.create_string_buffer(
            b"".join(mcp3208_command(channel) for channel, _ in reads), self.expected)
        self.rx = ctypes.create_string_buffer(self.expected)
        self.transfers: TransferArray = (SpiIocTransfer * count)()
        for k, transfer in enumerate(self.transfers):
            transfer.tx_buf = ctypes.addressof(self.tx) + CONVERSION_BYTES * k
            transfer.rx_buf = ctypes.addressof(self.rx) + CONVERSION_BYTES * k
            transfer.len = CONVERSION_BYTES
            transfer.speed_hz = speed_hz
            transfer.bits_per_word = 8
            transfer.cs_change = int(k < count - 1)

    def run(self, frame: list[int]) -> None:
        self.device.transfer(self.transfers, self.expected)
        answer = self.rx.raw
        for k, slot in enumerate(self.slots):
            frame[slot] = mcp3208_result(answer, CONVERSION_BYTES * k)


class BatchedAdcs:
    """Every ADC chip on its own spidev node; a select setting's conversions in few ioctls.

    Opening fails with :class:`~tavla_pi.errors.HardwareError` (nothing left
    open) when a node does not open.  ``close()`` is safe twice.
    """

    def __init__(self, pinmap: PinMap, steps: Iterable[MuxStep], access: SpidevAccess) -> None:
        self._devices: list[Spidev] = []
        with ExitStack() as stack:
            for chip in pinmap.adcs:
                self._devices.append(
                    stack.enter_context(Spidev(chip.spi_port, chip.spi_device, access)))
            stack.pop_all()
        bufsiz = access.message_bytes()
        chip_of = [(bank.adc, bank.adc_channel) for bank in pinmap.banks]
        self._messages = {step: self._prepare(step, chip_of, bufsiz, access.speed_hz)
                          for step in steps}

    def _prepare(self, step: MuxStep, chip_of: list[tuple[int, int]], bufsiz: int,
                 speed_hz: int) -> list[_Message]:
        """The messages of one select setting: per chip, split under spidev's bufsiz."""
        by_chip: dict[int, list[tuple[int, int]]] = {}
        for bank, slot in step.reads:
            adc, channel = chip_of[bank]
            by_chip.setdefault(adc, []).append((channel, slot))
        messages = []
        for adc, reads in sorted(by_chip.items()):
            start = 0
            for size in message_sizes([CONVERSION_BYTES] * len(reads), bufsiz):
                messages.append(_Message(self._devices[adc], reads[start:start + size], speed_hz))
                start += size
        return messages

    def read(self, step: MuxStep, frame: list[int]) -> None:
        for message in self._messages[step]:
            message.run(frame)

    @property
    def ioctls_per_scan(self) -> int:
        """``SPI_IOC_MESSAGE`` calls of one scan (every prepared select setting once)."""
        return sum(len(messages) for messages in self._messages.values())

    def describe(self) -> str:
        nodes = ", ".join(str(d.path) for d in self._devices)
        return f"SPI batched: {self.ioctls_per_scan} SPI_IOC_MESSAGE ioctls a scan on {nodes}"

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices = []


# --- one call per conversion: gpiozero -------------------------------------------------------

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


class GpiozeroAdcs:
    """One gpiozero ``MCP3208`` channel per bank: one SPI call per conversion.

    ``close()`` is safe twice; a failed open closes what it opened.
    """

    def __init__(self, pinmap: PinMap, pin_factory: Any = None) -> None:
        self._adcs: list[Any] = []
        try:
            with _spi_opening(pin_factory):
                for bank in pinmap.banks:
                    chip = pinmap.adcs[bank.adc]
                    self._adcs.append(MCP3208(channel=bank.adc_channel, port=chip.spi_port,
                                              device=chip.spi_device, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def read(self, step: MuxStep, frame: list[int]) -> None:
        adcs = self._adcs
        for bank, slot in step.reads:
            frame[slot] = int(adcs[bank].raw_value)

    def describe(self) -> str:
        return "SPI per call: one gpiozero MCP3208 call per conversion"

    def close(self) -> None:
        for adc in self._adcs:
            adc.close()
        self._adcs = []
