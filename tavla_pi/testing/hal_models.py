"""Behavioural models of the board's analogue front end, on gpiozero's MockFactory.

The Pi backend's driver code runs unchanged against these models:

- :class:`MockMCP3208`: the ADC's SPI protocol (start bit, single/diff bit,
  three channel bits, sample, null bit, 12 result bits MSB first), as a
  gpiozero ``MockSPIDevice`` on the mock SPI pins.  It samples its input at
  the moment the channel bits arrive.
- :class:`Cd74hc4067`: a 16-channel mux that reads the mock select and enable
  pins at that moment to decide what reaches its output.
- :class:`HallField`: each DRV5055A2's output voltage from the checkers laid
  over it, plus a tiny per-site offset so that every site reads differently.
- :class:`ModelledBoard`: all of it wired as a :class:`PinMap` says, with
  faults to inject (swapped select lines, a dead power switch).
- :class:`SpidevModel`: the kernel's side of ``SPI_IOC_MESSAGE`` (spidev and
  the SPI controller): it reads the transfer array as the kernel lays it
  out and clocks each byte through the mock SPI pins to the chip models.

Also :func:`reference_pinmap`: the reference board's real pin map
(``hardware/pinout.toml``), rewired on request for a driver test.
"""

from __future__ import annotations

import ctypes
import errno
import math
import os
import random
import struct
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockSPIDevice

from tavla_pi.hal.pi.spidev import KMALLOC_ALIGN, SpidevAccess, TransferArray
from tavla_pi.hardware.pinmap import (
    MUX_CHANNELS,
    SPI_BUSES,
    PinMap,
    SensorChannel,
    SensorSite,
    load_pinmap,
)
from tavla_pi.hardware.pinmap import sensor_sites as _sensor_sites
from tavla_pi.rules.color import Color

VREF = 3.3
SUPPLY = 3.3
BUTTONS: dict[str, int] = dict(load_pinmap().buttons)
"""The reference board's button pins (``hardware/pinout.toml``)."""
POWER_PINS = (0, 1, 4, 12, 14, 15, 17, 18, 19, 21)
"""Bank power switches for tests: GPIOs no gpiozero device of the reference board opens,
without Pi pull-ups (18, 19 and 21 are SPI1's, which the LED chain drives through
spidev, never as pins)."""


# --- the reference board, rewired for a test ----------------------------------------------

def board_sites() -> list[SensorSite]:
    """All 152 sites in frame order: points 1..24 slots 0..5, then each bar half."""
    return list(_sensor_sites())


def reference_pinmap(*, power_pins: bool = False, shuffle_seed: int | None = None) -> PinMap:
    """The reference board's pin map (``hardware/pinout.toml``), rewired as a test asks.

    ``shuffle_seed`` scatters the sensors over the banks' 160 mux inputs (so
    that a driver that assumes an order fails); ``power_pins`` gives every
    bank a power switch (the reference board powers its sensors permanently).
    """
    pinmap = load_pinmap()
    if shuffle_seed is not None:
        pinmap = _scattered(pinmap, random.Random(shuffle_seed))
    if power_pins:
        pinmap = replace(pinmap, banks=tuple(replace(bank, power_pin=POWER_PINS[i])
                                             for i, bank in enumerate(pinmap.banks)))
    return pinmap


def _scattered(pinmap: PinMap, rng: random.Random) -> PinMap:
    """``pinmap`` with its sensors on randomly chosen mux inputs, the rest spare."""
    inputs = [(bank, ch) for bank in pinmap.banks for ch in range(MUX_CHANNELS)]
    rng.shuffle(inputs)
    used = inputs[:len(pinmap.sensors)]
    sensors = tuple(SensorChannel(s.site, bank.adc, bank.adc_channel, ch)
                    for s, (bank, ch) in zip(pinmap.sensors, used, strict=True))
    banks = tuple(replace(bank, spare=tuple(sorted(ch for b, ch in inputs[len(used):]
                                                   if b == bank)))
                  for bank in pinmap.banks)
    return replace(pinmap, banks=banks, sensors=sensors)


# --- the chips -----------------------------------------------------------------------------

class MockMCP3208(MockSPIDevice):  # type: ignore[misc]
    """An MCP3208 on the mock SPI pins; ``source(channel)`` gives the input in volts."""

    rx_buf: list[int]

    def __init__(self, port: int, device: int, source: Callable[[int], float], *,
                 pin_factory: MockFactory) -> None:
        bus = SPI_BUSES[port]
        super().__init__(bus.sclk, bus.mosi, bus.miso, bus.ce[device], pin_factory=pin_factory)
        self.source = source
        self.conversions: list[int] = []
        self._state = "idle"

    def on_start(self) -> None:
        super().on_start()
        self._state = "idle"

    def on_bit(self) -> None:
        if self._state == "idle":
            if self.rx_buf[-1]:  # the start bit
                self._state = "command"
                self.rx_buf = []
        elif self._state == "command" and len(self.rx_buf) == 4:
            single, channel = self.rx_buf[0], int(self.rx_word() & 0b111)
            self._convert(single=bool(single), channel=channel)
            self._state = "result"

    def _convert(self, *, single: bool, channel: int) -> None:
        """Sample now; shift out the sample clock, a null bit and 12 bits MSB first."""
        if single:
            volts = self.source(channel)
        else:  # pairs CH0/CH1 ..., D0 picks which input is IN+
            pair = channel & ~1
            plus, minus = (pair, pair + 1) if channel == pair else (pair + 1, pair)
            volts = self.source(plus) - self.source(minus)
        self.conversions.append(channel)
        self.tx_word(volts_to_counts(volts), 14)


def volts_to_counts(volts: float) -> int:
    """The MCP3208 transfer function: 4096 * Vin / Vref, clipped to 12 bits."""
    return min(4095, max(0, math.floor(4096 * volts / VREF)))


class Cd74hc4067:
    """A CD74HC4067 mux: S0..S3 pick one of 16 inputs; EN (active low) connects it.

    ``inputs(channel)`` is the voltage on an input.  A disabled mux leaves
    its output floating: ``None`` (the ADC input's pull-down reads 0 V).
    """

    def __init__(self, select: Sequence[Any], enable: Any, inputs: Callable[[int], float]):
        self.select = list(select)
        self.enable = enable
        self.inputs = inputs

    def output(self) -> float | None:
        if self.enable is not None and self.enable.state:
            return None
        channel = sum(1 << bit for bit, pin in enumerate(self.select) if pin.state)
        return self.inputs(channel)


# --- the field ---------------------------------------------------------------------------

class HallField:
    """The output of each DRV5055A2 (3.3 V supply): 1.65 V + 30 mV/mT.

    White checkers' magnets raise the reading, Black ones lower it.  Every
    site carries a distinct small offset (``fingerprint_mt`` per frame index),
    so a reading routed to the wrong slot cannot pass for the right one.
    """

    QUIESCENT_V = SUPPLY / 2
    SENSITIVITY_V_PER_MT = 0.030
    CHECKER_MT = 30.0

    def __init__(self, sites: Sequence[SensorSite], *, fingerprint_mt: float = 0.05) -> None:
        middle = len(sites) // 2
        self._offset_mt = {site: (i - middle) * fingerprint_mt for i, site in enumerate(sites)}
        self._laid: dict[SensorSite, Color] = {}

    def lay(self, site: SensorSite, color: Color) -> None:
        self._laid[site] = color

    def lift(self, site: SensorSite) -> None:
        del self._laid[site]

    def field_mt(self, site: SensorSite) -> float:
        field = self._offset_mt[site]
        if site in self._laid:
            field += self.CHECKER_MT if self._laid[site] is Color.WHITE else -self.CHECKER_MT
        return field

    def voltage(self, site: SensorSite) -> float:
        """The sensor's output, clamped to its 0.2 V .. VCC - 0.2 V swing."""
        volts = self.QUIESCENT_V + self.SENSITIVITY_V_PER_MT * self.field_mt(site)
        return min(SUPPLY - 0.2, max(0.2, volts))

    def counts(self, site: SensorSite) -> int:
        """What a correct scan reads for this site."""
        return volts_to_counts(self.voltage(site))


# --- the wiring ----------------------------------------------------------------------------

class ModelledBoard:
    """The sensor board of ``pinmap``: field -> sensors -> muxes -> MCP3208s on mock pins.

    Build it before the driver opens its pins (the mock SPI pins must be the
    model's).  Faults: ``select_wiring[k]`` is the pinmap select line wired
    to a mux's S<k> (swap two to miswire); ``enable_wired_to`` is a BCM pin the
    muxes' EN really goes to; ``dead_power`` banks never power up.
    """

    def __init__(self, pinmap: PinMap, factory: MockFactory, field: HallField, *,
                 select_wiring: Sequence[int] = (0, 1, 2, 3),
                 enable_wired_to: int | None = None,
                 dead_power: frozenset[str] = frozenset()) -> None:
        self.pinmap = pinmap
        self.factory = factory
        self.field = field
        self.dead_power = dead_power
        select = [factory.pin(pinmap.mux_select[k]) for k in select_wiring]
        enable_pin = pinmap.mux_enable if enable_wired_to is None else enable_wired_to
        enable = None if enable_pin is None else factory.pin(enable_pin)
        self._sites = {(s.adc, s.adc_channel, s.mux_channel): s.site for s in pinmap.sensors}
        self.muxes = {(b.adc, b.adc_channel): Cd74hc4067(select, enable, self._inputs_of(i))
                      for i, b in enumerate(pinmap.banks)}
        self.adcs = [MockMCP3208(chip.spi_port, chip.spi_device, self._adc_input(a),
                                 pin_factory=factory) for a, chip in enumerate(pinmap.adcs)]

    def _inputs_of(self, bank_index: int) -> Callable[[int], float]:
        bank = self.pinmap.banks[bank_index]

        def inputs(channel: int) -> float:
            site = self._sites.get((bank.adc, bank.adc_channel, channel))
            if site is None or not self.bank_powered(bank_index):
                return 0.0  # a spare input tied to ground, or a sensor without supply
            return self.field.voltage(site)
        return inputs

    def _adc_input(self, adc: int) -> Callable[[int], float]:
        def source(channel: int) -> float:
            mux = self.muxes.get((adc, channel))
            out = None if mux is None else mux.output()
            return 0.0 if out is None else out
        return source

    def bank_powered(self, bank_index: int) -> bool:
        bank = self.pinmap.banks[bank_index]
        if bank.name in self.dead_power:
            return False
        return bank.power_pin is None or bool(self.factory.pin(bank.power_pin).state)

    def expected_frame(self) -> tuple[int, ...]:
        """The frame a correct driver reads from this board now."""
        return tuple(self.field.counts(s.site) for s in self.pinmap.sensors)

    def conversions(self) -> int:
        return sum(len(adc.conversions) for adc in self.adcs)

    def close(self) -> None:
        for adc in self.adcs:
            adc.close()


# --- the kernel's spidev ----------------------------------------------------------------------

TRANSFER_LAYOUT = struct.Struct("=QQIIHBBBBBB")
"""``struct spi_ioc_transfer`` as ``linux/spi/spidev.h`` lays it out: 32 bytes, no padding."""


def _os_error(code: int) -> OSError:
    return OSError(code, os.strerror(code))


class SpidevModel:
    """``/dev/spidevB.C`` nodes of the board's ADCs and the kernel's answer to ``SPI_IOC_MESSAGE``.

    :meth:`message` is the seam the batched reader calls instead of the
    ioctl.  It finds the node by the fd's inode, checks the message as
    spidev does (each transfer rounded up to ``KMALLOC_ALIGN`` bytes of
    ``bufsiz``), then runs it as the SPI core does: chip select asserted,
    each byte clocked out MSB first in mode 0 on the mock pins, the chip
    deselected and selected again after a transfer with ``cs_change``
    except the last (there ``cs_change`` leaves it selected), and the bytes
    transferred returned.  The select pin is written only when its level
    changes, so a chip that is never deselected never starts a new
    conversion.  Faults: ``fail`` (raised), ``short_by`` (bytes missing).
    """

    def __init__(self, pinmap: PinMap, factory: MockFactory, dev_dir: Path, *,
                 bufsiz: int = 4096) -> None:
        self.factory = factory
        self.dev_dir = dev_dir
        self.bufsiz = bufsiz
        self.messages: list[tuple[str, int]] = []
        """Every message run: (node name, transfers)."""
        self.speeds: set[int] = set()
        self.fail: OSError | None = None
        self.short_by = 0
        self._nodes: dict[tuple[int, int], tuple[str, int, int]] = {}
        self._selected: set[int] = set()
        for chip in pinmap.adcs:
            name = f"spidev{chip.spi_port}.{chip.spi_device}"
            node = dev_dir / name
            node.touch()
            info = node.stat()
            self._nodes[info.st_dev, info.st_ino] = (name, chip.spi_port, chip.spi_device)
            self._deselect(SPI_BUSES[chip.spi_port].ce[chip.spi_device])

    def access(self, speed_hz: int = 1_000_000) -> SpidevAccess:
        """What the Pi backend needs to reach these nodes through this model."""
        return SpidevAccess(self.dev_dir, self.message, self.bufsiz, speed_hz)

    def message(self, fd: int, transfers: TransferArray) -> int:
        """The kernel's ``SPI_IOC_MESSAGE(len(transfers))`` on ``fd``."""
        if self.fail is not None:
            raise self.fail
        info = os.fstat(fd)
        node = self._nodes.get((info.st_dev, info.st_ino))
        if node is None:
            raise _os_error(errno.ENOTTY)
        name, port, device = node
        raw = ctypes.string_at(ctypes.addressof(transfers), ctypes.sizeof(transfers))
        fields = [TRANSFER_LAYOUT.unpack_from(raw, k * TRANSFER_LAYOUT.size)
                  for k in range(len(raw) // TRANSFER_LAYOUT.size)]
        self._check(fields)
        self.messages.append((name, len(fields)))
        bus = SPI_BUSES[port]
        total = 0
        for k, (tx_buf, rx_buf, length, speed_hz, _, _, cs_change, *_rest) in enumerate(fields):
            self.speeds.add(speed_hz)
            self._select(bus.ce[device])
            sent = ctypes.string_at(tx_buf, length) if tx_buf else bytes(length)
            answer = self._shift(port, sent)
            if rx_buf:
                ctypes.memmove(rx_buf, answer, length)
            total += length
            # cs_change deselects between transfers; on the last one it keeps the chip selected
            if bool(cs_change) != (k == len(fields) - 1):
                self._deselect(bus.ce[device])
        return total - self.short_by

    def _check(self, fields: list[tuple[int, ...]]) -> None:
        """spidev's checks: lengths, word size, the bounce buffers' room."""
        tx_total = rx_total = 0
        for tx_buf, rx_buf, length, _, _, bits, *_rest in fields:
            if length == 0 or bits not in (0, 8):
                raise _os_error(errno.EINVAL)
            room = -(-length // KMALLOC_ALIGN) * KMALLOC_ALIGN
            tx_total += room if tx_buf else 0
            rx_total += room if rx_buf else 0
        if max(tx_total, rx_total) > self.bufsiz:
            raise _os_error(errno.EMSGSIZE)

    def _select(self, ce: int) -> None:
        if ce not in self._selected:
            self._selected.add(ce)
            self._drive(ce, level=False)

    def _deselect(self, ce: int) -> None:
        self._selected.discard(ce)
        self._drive(ce, level=True)

    def _drive(self, pin_number: int, *, level: bool) -> None:
        pin = self.factory.pin(pin_number)
        if pin.function != "output":
            pin.function = "output"
        pin.state = level

    def _shift(self, port: int, sent: bytes) -> bytes:
        """Mode 0, MSB first: data out, clock up (the chip answers), read, clock down."""
        bus = SPI_BUSES[port]
        for number in (bus.sclk, bus.mosi):
            pin = self.factory.pin(number)
            if pin.function != "output":
                pin.function = "output"
        sclk, mosi, miso = (self.factory.pin(n) for n in (bus.sclk, bus.mosi, bus.miso))
        answer = bytearray()
        for byte in sent:
            got = 0
            for bit in range(7, -1, -1):
                mosi.state = byte >> bit & 1
                sclk.state = True
                got = got << 1 | int(bool(miso.state))
                sclk.state = False
            answer.append(got)
        return bytes(answer)


# --- the LED chain --------------------------------------------------------------------------

class RecordingWriter:
    """A narrow LED write target that keeps every frame of bytes it is given."""

    def __init__(self, *, fail_on_write: bool = False) -> None:
        self.frames: list[bytes] = []
        self.closes = 0
        self.fail_on_write = fail_on_write

    def write(self, data: bytes) -> None:
        if self.fail_on_write:
            raise OSError("the chain is unplugged")
        self.frames.append(bytes(data))

    def close(self) -> None:
        self.closes += 1


class PixelBufModel:
    """Adafruit PixelBuf's behaviour as a pass-through (byte order RGB, brightness 1).

    Pixels are set by index or slice as (r, g, b) tuples of 0..255; ``show``
    transmits the buffer; ``deinit`` blanks the strip and releases the pin.
    """

    def __init__(self, count: int) -> None:
        self.buffer = bytearray(3 * count)
        self.transmitted: list[bytes] = []
        self.released = False

    def __setitem__(self, index: slice, values: Sequence[tuple[int, ...]]) -> None:
        slots = range(*index.indices(len(self.buffer) // 3))
        if len(values) != len(slots):
            raise ValueError("slice and values differ in length")
        for slot, value in zip(slots, values, strict=True):
            self.buffer[3 * slot:3 * slot + 3] = bytes(value)

    def show(self) -> None:
        self.transmitted.append(bytes(self.buffer))

    def deinit(self) -> None:
        self.buffer[:] = bytes(len(self.buffer))
        self.show()
        self.released = True
