"""Figures for the Pi backend's pure parts and its scan loop on MockFactory.

Prints the CPU cost of encoding an LED frame, of one button-decoder sample,
and of one full sensor scan against the modelled board (tavla_pi/testing/hal_models.py).
The scan figure is dominated by the mock's bit-banged SPI, so it bounds the
driver's own overhead from above; on a Pi, spidev does the transfers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from tavla_pi.hal.buttons import ButtonDecoder
from tavla_pi.hal.pi.pixels import encode_frame
from tavla_pi.hal.pi.sensors import PiSensorGrid
from tavla_pi.hardware.pinmap import BUTTON_NAMES
from tavla_pi.testing.hal_models import HallField, ModelledBoard, board_sites, reference_pinmap


def per_call_us(fn: Callable[[], object], repeat: int) -> float:
    """Best-of-three mean time per call, in microseconds."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def main() -> None:
    frame = [(i % 256, (3 * i) % 256, (7 * i) % 256) for i in range(70)]
    encode_us = per_call_us(lambda: encode_frame(frame), 2000)
    print(f"encode_frame, 70 LEDs GRB:        {encode_us:8.1f} us")

    decoder = ButtonDecoder()
    levels = dict.fromkeys(BUTTON_NAMES, False)
    clock = iter(range(0, 10**9, 5))
    print(f"ButtonDecoder.update, 5 buttons:  "
          f"{per_call_us(lambda: decoder.update(levels, next(clock)), 20000):8.1f} us")

    pinmap = reference_pinmap(shuffle_seed=1)
    factory = MockFactory()
    board = ModelledBoard(pinmap, factory, HallField(board_sites()))
    with PiSensorGrid(pinmap, pin_factory=factory, delay=lambda us: None) as grid:
        scan_us = per_call_us(grid.scan, 20)
    board.close()
    print(f"PiSensorGrid.scan, 152 sensors, mock SPI: {scan_us / 1000:6.1f} ms "
          f"({scan_us / 152:.0f} us per conversion, mostly the mock's bit-banging)")


if __name__ == "__main__":
    main()
