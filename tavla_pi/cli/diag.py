"""``tavla-pi diag``: watch every sensor, the decoded board, the LEDs and buttons.

A maker's bench tool: a live text map of every sensor's raw reading laid
out like the board, the board as the decoder reads it (with any faults), an
LED test pattern (solid colours, then one LED at a time, named) and the
buttons' levels and presses.  ``--once`` or ``--frames N`` make it finite.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import count
from typing import Any, TextIO

from tavla_pi.cli.calibrate import add_board_arguments, open_board_from_args, whole_number
from tavla_pi.decode.calibration import calibration_for, default_state_dir
from tavla_pi.decode.decoder import Decoder
from tavla_pi.decode.textmap import render_observation, render_raw
from tavla_pi.hal.backends import board_pinmap
from tavla_pi.hal.base import Backend
from tavla_pi.hal.sim import SimBackend
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.hardware.pixel import DARK, RGB

LED_LEVEL = 64
SOLID: tuple[tuple[str, RGB], ...] = (
    ("red", (LED_LEVEL, 0, 0)), ("green", (0, LED_LEVEL, 0)), ("blue", (0, 0, LED_LEVEL)),
    ("white", (LED_LEVEL, LED_LEVEL, LED_LEVEL)),
)
CLEAR_SCREEN = "\x1b[H\x1b[2J"


def add_parser(subparsers: Any) -> None:
    """Register ``diag``."""
    parser = subparsers.add_parser(
        "diag", help="live view of every sensor, the decoded board, LEDs and buttons",
        description="Show every sensor's raw reading laid out like the board and the board "
                    "as decoded; optionally run an LED test pattern and a button test. "
                    "On --backend sim the modelled board is set up in the starting position.",
    )
    add_board_arguments(parser)
    parser.add_argument("--once", action="store_true", help="show one frame and exit")
    parser.add_argument("--frames", type=whole_number(1), default=None, metavar="N",
                        help="show N frames and exit (default: until Ctrl-C)")
    parser.add_argument("--leds", action="store_true",
                        help="LED test: solid colours, then each LED in turn")
    parser.add_argument("--buttons", action="store_true", help="button test: levels and presses")
    parser.add_argument("--interval", type=float, default=0.2, metavar="SECONDS",
                        help="time between frames (default 0.2)")
    parser.set_defaults(run=run)


def led_pattern(step: int, pinmap: PinMap) -> tuple[str, list[RGB]]:
    """Step ``step`` of the LED test: its description and the pixel frame."""
    n = pinmap.leds.count
    if step < len(SOLID):
        name, rgb = SOLID[step]
        return f"all {name}", [rgb] * n
    index = (step - len(SOLID)) % n
    names = {f.index: f.name for f in pinmap.led_features}
    pixels: list[RGB] = [DARK] * n
    pixels[index] = SOLID[-1][1]
    return f"LED {index} ({names.get(index, 'unassigned')})", pixels


@dataclass
class DiagSession:
    """One diag run: decodes frames and writes the report of each step."""

    backend: Backend
    pinmap: PinMap
    decoder: Decoder
    leds: bool = False
    buttons: bool = False
    _levels: dict[str, bool] = field(default_factory=dict)

    def step(self, n: int) -> str:
        """Scan once (and drive the LED/button tests); the text for this frame."""
        frame = self.backend.sensors.scan()
        observation = self.decoder.decode(frame)
        calibrated = self.decoder.calibration
        lines = [
            f"tavla-pi diag: frame {n + 1}, backend {self.backend.name}"
            + (f" ({self.backend.detail})" if self.backend.detail else "") + ", "
            + (f"calibrated from {calibrated.frames} frames" if calibrated.calibrated
               else "uncalibrated: datasheet defaults (run tavla-pi calibrate)"),
            "raw readings (ADC counts; quiescent ~2048, White above, Black below):",
            render_raw(frame, [c.site for c in self.pinmap.sensors]),
            "decoded (W/B colour and count, '.' empty, '?' colour unknown):",
            render_observation(observation),
        ]
        if self.leds:
            name, pixels = led_pattern(n, self.pinmap)
            self.backend.pixels.show(pixels)
            lines.append(f"leds: {name}")
        if self.buttons:
            lines.append(self._button_line(self.backend.buttons.levels()))
        return "\n".join(lines) + "\n"

    def _button_line(self, levels: Mapping[str, bool]) -> str:
        events = [
            f"{name} {'pressed' if down else 'released'}"
            for name, down in levels.items() if self._levels.get(name, False) != down
        ]
        self._levels = dict(levels)
        shown = " ".join(f"{name}={'down' if down else 'up'}" for name, down in levels.items())
        return f"buttons: {shown}" + (f"; {', '.join(events)}" if events else "")


def _steps(args: argparse.Namespace) -> Iterator[int]:
    limit = 1 if args.once else args.frames
    return iter(range(limit)) if limit is not None else count()


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Show frames until done (or Ctrl-C)."""
    out = out or sys.stdout
    state_dir = args.state_dir if args.state_dir is not None else default_state_dir()
    pinmap = board_pinmap(args.pinout)
    calibration = calibration_for(state_dir, pinmap)
    with open_board_from_args(args, pinmap) as backend:
        if isinstance(backend, SimBackend):
            backend.board.setup_start()
        session = DiagSession(backend, pinmap, Decoder(calibration, pinmap),
                              args.leds, args.buttons)
        live = out.isatty()
        for n in _steps(args):
            if n and args.interval > 0:
                time.sleep(args.interval)
            out.write((CLEAR_SCREEN if live else "") + session.step(n))
            out.flush()
    return 0
