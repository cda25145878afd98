"""The ``sim`` backend: the modelled board, its pixels and buttons as one bundle."""

from __future__ import annotations

import random

from tavla_pi.clock import Clock
from tavla_pi.hal.base import Backend
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.hal.sim.devices import SimButtons, SimPixels
from tavla_pi.hardware.physics import REFERENCE, BoardDesign
from tavla_pi.hardware.pinmap import PinMap


class SimBackend(Backend):
    """A :class:`~tavla_pi.hal.base.Backend` whose devices are simulated.

    ``board`` (also ``sensors``) is the :class:`SimBoard` that scenarios and
    the simulator page act on; ``pixels`` and ``buttons`` keep plain state.
    """

    def __init__(self, board: SimBoard, pixels: SimPixels, buttons: SimButtons) -> None:
        super().__init__("sim", board, pixels, buttons)
        self.board = board
        self.sim_pixels = pixels
        self.sim_buttons = buttons


def open_sim_backend(pinmap: PinMap, clock: Clock, rng: random.Random | None = None,
                     design: BoardDesign = REFERENCE) -> SimBackend:
    """A modelled board for ``pinmap`` (empty: every checker in its tray)."""
    board = SimBoard(pinmap, clock, rng, design)
    return SimBackend(board, SimPixels(pinmap.leds.count), SimButtons(tuple(pinmap.buttons)))
