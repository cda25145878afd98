"""Open a backend by name: ``sim`` (the modelled board) or ``pi`` (the real one).

The Pi backend is imported only when asked for, so nothing here pulls a
hardware library into a desktop run.
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import cast

from tavla_pi.clock import Clock
from tavla_pi.errors import ConfigError, HardwareError
from tavla_pi.hal.base import Backend
from tavla_pi.hardware.pinmap import PinMap

BACKENDS = ("pi", "sim")


def open_backend(name: str, pinmap: PinMap, clock: Clock,
                 rng: random.Random | None = None) -> Backend:
    """The devices of backend ``name`` for ``pinmap``.

    ``rng`` seeds the modelled board's tolerances and noise (``sim`` only).
    Raises :class:`~tavla_pi.errors.ConfigError` for an unknown name.
    """
    if name == "sim":
        from tavla_pi.hal.sim import open_sim_backend

        return open_sim_backend(pinmap, clock, rng)
    if name == "pi":
        try:
            module = importlib.import_module("tavla_pi.hal.pi")
        except ModuleNotFoundError as exc:
            if exc.name != "tavla_pi.hal.pi":
                raise
            raise HardwareError("this build has no Raspberry Pi backend") from None
        return cast(Backend, module.open_pi_backend(pinmap))
    raise ConfigError("backend", f"unknown backend {name!r} (one of {', '.join(BACKENDS)})")


def board_pinmap(path: Path | None = None) -> PinMap:
    """The board's pin map: ``path``, or the packaged ``hardware/pinout.toml``.

    Goes through ``tavla_pi.hardware.pinmap.load_pinmap``, which raises
    :class:`~tavla_pi.errors.PinMapError` naming the file and key at fault.
    """
    module = importlib.import_module("tavla_pi.hardware.pinmap")
    loader = getattr(module, "load_pinmap", None)
    if loader is None:
        raise ConfigError("pin map", "this build has no pinout loader (pinmap.load_pinmap)")
    return cast(PinMap, loader(path))
