"""Which Raspberry Pi this is, and the gpiozero pin factory that drives it.

Pi 0-4 use RPi.GPIO; the Pi 5 family (RP1 I/O chip) uses lgpio.  The model
comes from the device tree; the path is a parameter so tests can hand in a
file of their own.  Libraries load here, lazily, never at import time.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tavla_pi.errors import HardwareError

MODEL_PATH = Path("/proc/device-tree/model")


@dataclass(frozen=True, slots=True)
class PiModel:
    """A Raspberry Pi as the device tree names it, e.g. ``Raspberry Pi 4 Model B Rev 1.4``."""

    name: str
    family: int

    @property
    def has_rp1(self) -> bool:
        """True on the Pi 5 family: lgpio for pins, PIO for the LEDs."""
        return self.family >= 5


def detect_model(path: Path = MODEL_PATH) -> PiModel:
    """Read the model from the device tree; HardwareError if this is no Raspberry Pi."""
    try:
        name = path.read_bytes().decode("ascii", "replace").strip("\x00\r\n ")
    except FileNotFoundError:
        raise HardwareError(f"no Raspberry Pi found: {path} does not exist") from None
    except OSError as err:
        raise HardwareError(f"cannot read the board model from {path}: {err}") from err
    if not name.startswith("Raspberry Pi"):
        raise HardwareError(f"not a Raspberry Pi: {path} says {name!r}")
    return PiModel(name, _family(name, path))


def _family(name: str, path: Path) -> int:
    """1..5: the generation whose chip and GPIO block the model shares."""
    rest = name.removeprefix("Raspberry Pi").strip().removeprefix("Compute Module").strip()
    if rest.startswith("Zero 2"):
        return 3
    if rest.startswith(("Zero", "Model")):
        return 1
    if rest[:1].isdigit():
        return int(rest[0])
    raise HardwareError(f"unknown Raspberry Pi model {name!r} in {path}")


def load_library(module: str, purpose: str, extra: str) -> ModuleType:
    """Import a hardware library, or explain in one line what is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise HardwareError(f"the {err.name or module} library is not installed, needed for "
                            f"{purpose} (pip install 'tavla-pi[{extra}]')") from err


def open_pin_factory(model: PiModel) -> Any:
    """gpiozero's factory for this model: lgpio on the Pi 5 family, RPi.GPIO before."""
    if model.has_rp1:
        module, factory, extra = "gpiozero.pins.lgpio", "LGPIOFactory", "pi5"
    else:
        module, factory, extra = "gpiozero.pins.rpigpio", "RPiGPIOFactory", "pi"
    lib = load_library(module, f"GPIO on a {model.name}", extra)
    try:
        return getattr(lib, factory)()
    except Exception as err:  # each library fails in its own way
        raise HardwareError(f"cannot open the GPIO pins of the {model.name} "
                            f"({factory}): {err}") from err
