"""``tavla-pi calibrate``: measure every sensor on the empty board and save it.

The maker clears the board and runs this once (and again after changing a
sensor or the wiring).  It scans N frames, stores each sensor's offset and
noise in the state directory, and names any sensor that looks dead.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavla_pi.clock import MonotonicClock
from tavla_pi.decode.calibration import (
    CALIBRATION_FILENAME,
    Calibration,
    calibrate,
    default_state_dir,
    save_calibration,
    site_name,
)
from tavla_pi.hal.backends import BACKENDS, board_pinmap, open_backend
from tavla_pi.hal.base import Backend
from tavla_pi.hal.sim import SimBackend
from tavla_pi.hardware.pinmap import PinMap

DEFAULT_FRAMES = 100


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected at least {minimum}, got {value}")
        return value

    return parse


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every maker tool shares: backend, pinout, state directory, seed."""
    parser.add_argument("--backend", choices=BACKENDS, default="pi",
                        help="the real board (pi, default) or the modelled one (sim)")
    parser.add_argument("--pinout", type=Path, default=None, metavar="FILE",
                        help="the wiring (default: the packaged hardware/pinout.toml)")
    parser.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                        help="where the calibration lives (default: "
                             "$XDG_STATE_HOME/tavla-pi or ~/.local/state/tavla-pi)")
    parser.add_argument("--seed", type=int, default=1,
                        help="sim only: seeds the modelled parts' tolerances and noise")


def open_board_from_args(args: argparse.Namespace, pinmap: PinMap) -> Backend:
    """The backend the options ask for, opened on ``pinmap``."""
    return open_backend(args.backend, pinmap, MonotonicClock(), random.Random(args.seed))


def add_parser(subparsers: Any) -> None:
    """Register ``calibrate``."""
    parser = subparsers.add_parser(
        "calibrate", help="measure every sensor's offset and noise on the empty board",
        description="Scan the empty board and save each sensor's offset and noise. "
                    "Remove every checker first (on --backend sim the board is emptied).",
    )
    add_board_arguments(parser)
    parser.add_argument("--frames", type=whole_number(2), default=DEFAULT_FRAMES, metavar="N",
                        help=f"scans to average (default {DEFAULT_FRAMES})")
    parser.set_defaults(run=run)


def measure(backend: Backend, pinmap: PinMap, frames: int) -> Calibration:
    """Scan ``frames`` times and calibrate (a modelled board is emptied first)."""
    if isinstance(backend, SimBackend):
        backend.board.clear()
    scans = [backend.sensors.scan() for _ in range(frames)]
    return calibrate(scans, pinmap)


def summary(calibration: Calibration) -> str:
    """One line on what was measured."""
    offsets, noise = calibration.offsets, calibration.noise
    return (
        f"{len(offsets)} sensors from {calibration.frames} frames: "
        f"offsets {min(offsets):.0f}..{max(offsets):.0f} counts, "
        f"noise {min(noise):.1f}..{max(noise):.1f} counts rms"
    )


def run(args: argparse.Namespace) -> int:
    """Calibrate and save; exit 1 if a sensor looks dead."""
    state_dir = args.state_dir if args.state_dir is not None else default_state_dir()
    pinmap = board_pinmap(args.pinout)
    with open_board_from_args(args, pinmap) as backend:
        calibration = measure(backend, pinmap, args.frames)
    path = state_dir / CALIBRATION_FILENAME
    save_calibration(calibration, path)
    print(f"calibrated {summary(calibration)}; saved {path}")
    for index, kind in calibration.faults:
        site = site_name(pinmap.sensors[index].site)
        print(f"tavla-pi: sensor {index} ({site}): {kind.replace('_', ' ')}", file=sys.stderr)
    return 1 if calibration.faults else 0
