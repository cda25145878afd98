"""The ``sim`` backend: a modelled physical board (magnets, Hall sensors, noise).

No hardware is touched; the same decode -> reconcile -> game path runs on it
as on the real board.
"""

from tavla_pi.hal.sim.backend import SimBackend, open_sim_backend
from tavla_pi.hal.sim.board import START, SimBoard
from tavla_pi.hal.sim.devices import SimButtons, SimPixels
from tavla_pi.hal.sim.places import BoardActionError

__all__ = [
    "START",
    "BoardActionError",
    "SimBackend",
    "SimBoard",
    "SimButtons",
    "SimPixels",
    "open_sim_backend",
]
