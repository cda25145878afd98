"""Figures for the Pi backend: its pure parts, its scan on MockFactory, and a scan's cost on a Pi.

Prints the CPU cost of encoding an LED frame, of one button-decoder sample,
and of one full sensor scan on this machine: against the modelled board
(tavla_pi/testing/hal_models.py, whose bit-banged mock SPI dominates), and
with a bus that answers at once (the driver's own Python per scan).  Then a
cost model of the real scan on a Pi Zero 2 W, 4 and 5 at 50 and 100 Hz, for
the per-call path (gpiozero, one SPI call per conversion) and the batched
one (SPI_IOC_MESSAGE, tavla_pi/hal/pi/adcs.py), and whether 100 Hz fits.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from tavla_pi.hal.buttons import ButtonDecoder
from tavla_pi.hal.pi.adcs import CONVERSION_BYTES
from tavla_pi.hal.pi.pixels import encode_frame
from tavla_pi.hal.pi.sensors import SELECT_SETTLE_US, PiSensorGrid
from tavla_pi.hal.pi.spidev import SPI_HZ, SpidevAccess, TransferArray
from tavla_pi.hardware.pinmap import BUTTON_NAMES, MUX_CHANNELS, PinMap
from tavla_pi.testing.hal_models import (
    HallField,
    ModelledBoard,
    SpidevModel,
    board_sites,
    reference_pinmap,
)

GPIOZERO_SPI_HZ = 500_000
"""The clock gpiozero's hardware SPI sets (``LocalPiHardwareSPI``: max_speed_hz = 500000)."""
CLOCKS_PER_BYTE = 9
"""The bcm2835 SPI controller idles one clock after each byte (spi-bcm2835.c; the
jumpnowtek "Analyzing SPI driver performance on the Raspberry Pi" notes see it on a scope)."""
LOOP_BUDGET = 0.5
"""The share of the scan loop a scan may take; the rest is decode, referee, LEDs, HTTP."""


def per_call_us(fn: Callable[[], object], repeat: int, rounds: int = 3) -> float:
    """Best-of-``rounds`` mean time per call, in microseconds (the best: least disturbed)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


# --- measured here ---------------------------------------------------------------------------

class InstantSpi:
    """gpiozero's SPI interface, answering at once: what the per-call driver costs in Python."""

    bits_per_word = 8

    def transfer(self, data: list[int]) -> list[int]:
        return [0] * len(data)

    def close(self) -> None:
        pass


class InstantSpiFactory(MockFactory):  # type: ignore[misc]
    """MockFactory pins, and SPI buses that answer at once."""

    def spi(self, **spi_args: Any) -> InstantSpi:
        return InstantSpi()


def instant_message(fd: int, transfers: TransferArray) -> int:
    """A kernel that moves every byte at once (the batched driver's own cost)."""
    return CONVERSION_BYTES * len(transfers)


@dataclass(frozen=True, slots=True)
class Measured:
    """Per-scan figures of this machine."""

    per_call_us: float
    batched_us: float
    ioctls: int


def measure_scans(pinmap: PinMap) -> Measured:
    """Time both drivers against the model, then with instant buses; print what is seen."""
    with tempfile.TemporaryDirectory() as nodes:
        factory = MockFactory()
        board = ModelledBoard(pinmap, factory, HallField(board_sites()))
        kernel = SpidevModel(pinmap, factory, Path(nodes))
        with PiSensorGrid(pinmap, pin_factory=factory, delay=lambda us: None) as grid:
            model_call_us = per_call_us(grid.scan, 10)
        with PiSensorGrid(pinmap, pin_factory=factory, delay=lambda us: None,
                          spi=kernel.access()) as grid:
            model_batched_us = per_call_us(grid.scan, 10)
            kernel.messages.clear()
            grid.scan()
            ioctls = len(kernel.messages)
        board.close()
        instant = InstantSpiFactory()
        with PiSensorGrid(pinmap, pin_factory=instant, delay=lambda us: None) as grid:
            call_us = per_call_us(grid.scan, 100, rounds=9)
        with PiSensorGrid(pinmap, pin_factory=instant, delay=lambda us: None,
                          spi=SpidevAccess(Path(nodes), instant_message, 4096)) as grid:
            batched_us = per_call_us(grid.scan, 100, rounds=9)
    n = len(pinmap.sensors)
    print(f"PiSensorGrid.scan, {n} sensors, on the modelled board (mock SPI bit-banged in "
          f"Python):\n  per call {model_call_us / 1000:6.1f} ms   batched "
          f"{model_batched_us / 1000:6.1f} ms ({ioctls} SPI_IOC_MESSAGE ioctls, spidev model)")
    print(f"  the driver's own Python per scan, buses answering at once: per call "
          f"{call_us:5.0f} us ({call_us / n:.1f} us a conversion), batched {batched_us:5.0f} us")
    return Measured(call_us, batched_us, ioctls)


# --- the cost model on a Pi ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PiCosts:
    """What one scan costs on a Pi, per SPI call, per extra transfer, and in Python."""

    name: str
    ioctl_us: float
    """Kernel CPU of one SPI_IOC_MESSAGE of one short transfer, bus time excluded."""
    transfer_us: float
    """Each further transfer of a message: spi.c's 10 us cs_change delay (udelay, busy)
    plus the chip select's two GPIO writes and the controller's setup."""
    python_factor: float
    """How many times slower than this machine the Pi runs the Python driver."""


# Sources and assumptions (state them, replace them with a Pi's own figures when measured):
# - pigpio's author (raspberrypi.stackexchange.com, question 45607): the Linux SPI driver
#   "tops out at about 20k calls per second on all but the Pi3 where it reaches about 70k".
#   Pi 3: 14 us a call at 1.2 GHz; the Zero 2 W is the same SoC at 1.0 GHz: 17 us.  The Pi 4
#   and 5 postdate that measurement: they get the pessimistic 20k calls/s (50 us), an upper
#   bound (their cores are faster than a Pi 3's).
# - mcp3008hwspi (nagimov, README benchmarks, Pi 3B+ 1.4 GHz, stock kernel): 63.5 kHz of
#   single-transfer ioctls at 3.6 MHz = 15.7 us, 7.5 us of it the bus (27 clocks): about
#   8 us a call, within pigpio's 14.  With spi.c's 10 us cs_change delay removed and 100
#   transfers a message, 104.5 kHz = 9.6 us a transfer, 7.5 us of it the bus: 2 us of
#   setup a transfer at 1.4 GHz, taken as 3 us at any Pi's clock (conservative).
# - Linux drivers/spi/spi.c: a cs_change between transfers waits 10 us by default
#   (_spi_transfer_cs_change_delay), and spidev has no field to shorten it.
# - Python speed against this machine: a rough assumption of single-core CPython speed
#   (Cortex-A53 1.0 GHz, A72 1.5 GHz, A76 2.4 GHz against a server core).
# - The bus time counts as busy: the bcm2835 driver polls short transfers and the scan
#   loop waits for the bus either way, so the shares are upper bounds of the CPU's.
PIS = (
    PiCosts("Zero 2 W", ioctl_us=17.0, transfer_us=13.0, python_factor=14.0),
    PiCosts("Pi 4", ioctl_us=50.0, transfer_us=13.0, python_factor=6.0),
    PiCosts("Pi 5", ioctl_us=50.0, transfer_us=13.0, python_factor=2.5),
)
RATES = (50, 100)


@dataclass(frozen=True, slots=True)
class ScanShape:
    """What one scan moves: conversions, ioctls and bytes, and the SPI clock."""

    path: str
    conversions: int
    ioctls: int
    spi_hz: int
    python_us: float

    @property
    def wire_bytes(self) -> int:
        return CONVERSION_BYTES * self.conversions

    @property
    def ioctl_bytes(self) -> int:
        """Data plus one 32-byte struct spi_ioc_transfer per conversion, through the ioctls."""
        return self.wire_bytes + 32 * self.conversions

    def bus_us(self) -> float:
        return self.wire_bytes * CLOCKS_PER_BYTE / self.spi_hz * 1e6

    def scan_us(self, pi: PiCosts) -> float:
        """The scan's time on ``pi``: calls, extra transfers, bus, select settling, Python."""
        settle = MUX_CHANNELS * SELECT_SETTLE_US
        return (self.ioctls * pi.ioctl_us + (self.conversions - self.ioctls) * pi.transfer_us
                + self.bus_us() + settle + self.python_us * pi.python_factor)


def cost_table(shapes: list[ScanShape]) -> list[str]:
    """The table's lines: per Pi, rate and path, the calls, bytes and the scan loop's share."""
    lines = [f"{'':10} {'Hz':>4} {'path':9} {'calls/s':>8} {'bytes/s':>8} {'scan ms':>8} "
             f"{'bus %':>6} {'loop %':>7}  fits {LOOP_BUDGET:.0%}"]
    for pi in PIS:
        for hz in RATES:
            for shape in shapes:
                scan = shape.scan_us(pi)
                share = scan * hz / 1e6
                lines.append(
                    f"{pi.name:10} {hz:4} {shape.path:9} {shape.ioctls * hz:8} "
                    f"{shape.wire_bytes * hz:8} {scan / 1000:8.2f} "
                    f"{shape.bus_us() * hz / 1e4:6.0f} {share * 100:7.0f}  "
                    f"{'yes' if share <= LOOP_BUDGET else 'no'}")
    return lines


def worst_share(shape: ScanShape, hz: int) -> float:
    """The largest share of the loop ``shape`` takes on any of the Pis at ``hz``."""
    return max(shape.scan_us(pi) for pi in PIS) * hz / 1e6


def verdict(per_call: ScanShape, batched: ScanShape) -> list[str]:
    """What the table says about 50 and 100 Hz."""
    at_50, at_100 = worst_share(batched, 50), worst_share(batched, 100)
    shares = [per_call.scan_us(pi) * 50 / 1e6 for pi in PIS]
    lines = [f"per call: {min(shares):.0%}..{max(shares):.0%} of the loop at 50 Hz, over the "
             f"budget on every Pi.",
             f"batched: at most {at_50:.0%} of the loop at 50 Hz; at 100 Hz up to {at_100:.0%}, "
             f"{batched.bus_us() * 100 / 1e6:.0%} of it the bus at the MCP3208's "
             f"{batched.spi_hz / 1e6:g} MHz, which no software change shortens."]
    if at_100 <= LOOP_BUDGET:
        lines.append(f"100 Hz fits the {LOOP_BUDGET:.0%} budget.")
    else:
        lines.append(f"100 Hz does not fit the {LOOP_BUDGET:.0%} budget: 50 Hz stays the "
                     f"default of [board] scan_hz.")
    return lines


def print_cost_model(pinmap: PinMap, measured: Measured) -> None:
    n = len(pinmap.sensors)
    shapes = [ScanShape("per call", n, n, GPIOZERO_SPI_HZ, measured.per_call_us),
              ScanShape("batched", n, measured.ioctls, SPI_HZ, measured.batched_us)]
    print(f"\none scan of the reference board: {n} conversions of {CONVERSION_BYTES} bytes "
          f"({shapes[0].wire_bytes} bytes on the wire, {shapes[0].ioctl_bytes} through "
          f"the ioctls with the transfer structs)")
    for shape in shapes:
        print(f"  {shape.path:9} {shape.ioctls:4} SPI calls a scan at {shape.spi_hz / 1e6:g} MHz,"
              f" bus {shape.bus_us() / 1000:.1f} ms")
    print("cost of the scan on a Pi (model: see bench/hal_pi.py for the figures and sources;"
          " the loop share counts the bus as busy):")
    for line in cost_table(shapes):
        print("  " + line)
    for line in verdict(*shapes):
        print(line)


def main() -> None:
    frame = [(i % 256, (3 * i) % 256, (7 * i) % 256) for i in range(70)]
    encode_us = per_call_us(lambda: encode_frame(frame), 2000)
    print(f"encode_frame, 70 LEDs GRB:        {encode_us:8.1f} us")

    decoder = ButtonDecoder()
    levels = dict.fromkeys(BUTTON_NAMES, False)
    clock = iter(range(0, 10**9, 5))
    print(f"ButtonDecoder.update, 5 buttons:  "
          f"{per_call_us(lambda: decoder.update(levels, next(clock)), 20000):8.1f} us")

    pinmap = reference_pinmap()
    measured = measure_scans(pinmap)
    print_cost_model(pinmap, measured)


if __name__ == "__main__":
    main()
