"""Decoding speed and the sensing margins of the reference board.

Prints the CPU time to decode one full frame (152 sensors) in three cases:
a still board (the common case at 50 Hz), a frame in which a checker has
moved (the crosstalk estimate is rebuilt) and the one-shot ``decode()``
(builds its per-sensor state from scratch).  Then the worst-case reading
bands of 0, 1 and 2 stacked checkers.  Run: ``python bench/scan.py``.
"""

from __future__ import annotations

import random
import time

from tavla_pi.clock import VirtualClock
from tavla_pi.decode import Decoder, calibrate, decode
from tavla_pi.hal.backends import board_pinmap
from tavla_pi.hal.sim import SimBoard
from tavla_pi.hardware.physics import REFERENCE, separation, stack_field_mt
from tavla_pi.rules.color import Color

FRAMES = 2000


def cpu_ms(run: object, repeat: int) -> float:
    """CPU milliseconds per call of ``run`` (a zero-argument callable)."""
    assert callable(run)
    start = time.process_time()
    for _ in range(repeat):
        run()
    return (time.process_time() - start) / repeat * 1000.0


def main() -> None:
    pinmap = board_pinmap()
    board = SimBoard(pinmap, VirtualClock(), random.Random(1))
    calibration = calibrate([board.scan() for _ in range(100)], pinmap)
    board.setup_start()
    decoder = Decoder(calibration, pinmap)
    still = [board.scan() for _ in range(FRAMES)]
    board.lift("13", Color.WHITE)
    board.place("9", Color.WHITE)
    moved = [board.scan() for _ in range(50)]
    for frame in still[:20]:
        decoder.decode(frame)
    frames = iter(still)
    steady = cpu_ms(lambda: decoder.decode(next(frames)), FRAMES)
    flips = iter([still[i % 50] if i % 2 else moved[i % 50] for i in range(400)])
    changing = cpu_ms(lambda: decoder.decode(next(flips)), 400)
    one_shot = cpu_ms(lambda: decode(still[0], calibration, pinmap), 50)
    print(f"decode one frame of {len(pinmap.sensors)} sensors (CPU time per frame):")
    print(f"  still board       {steady:6.3f} ms   (Decoder.decode, {FRAMES} frames)")
    print(f"  a checker moved   {changing:6.3f} ms   (every frame a change: crosstalk updated)")
    print(f"  one-shot decode() {one_shot:6.3f} ms   (fresh per-sensor state each call)")
    print_sim_cost(board)
    print_margins()


def print_sim_cost(board: SimBoard) -> None:
    """What the modelled board costs per scan (scenarios scan every 20 virtual ms)."""
    still = cpu_ms(board.scan, 500)

    def move() -> None:
        board.lift("9", Color.WHITE)
        board.place("9", Color.WHITE)
        board.scan()

    print("modelled board (SimBoard.scan, CPU time per scan):")
    print(f"  still board       {still:6.3f} ms")
    print(f"  after a move      {cpu_ms(move, 50):6.3f} ms   (every magnet's field recomputed)")


def print_margins() -> None:
    cpm = REFERENCE.counts_per_mt
    bands = separation(REFERENCE)
    print(f"reference board: {cpm:.2f} counts/mT, quiescent {REFERENCE.quiescent_counts:.0f}, "
          f"output swing {REFERENCE.swing_counts[0]:.0f}..{REFERENCE.swing_counts[1]:.0f}")
    for n in (1, 2, 3):
        field = stack_field_mt(REFERENCE, n)
        print(f"  {n} stacked: {field:5.2f} mT nominal, +{field * cpm:5.0f} counts")
    print("worst-case bands (counts from quiescent; tolerances and 4.5 sigma noise):")
    for name, band in (("empty", bands.empty), ("one", bands.one), ("two", bands.two)):
        print(f"  {name:5} {band.low:7.0f} .. {band.high:5.0f}")
    print(f"  gap empty/one {bands.gap_empty_one:+.0f} counts, "
          f"gap one/two {bands.gap_one_two:+.0f} counts (negative: overlap, read as 'one or more')")


if __name__ == "__main__":
    main()
