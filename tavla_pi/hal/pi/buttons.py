"""The players' buttons: switches to ground on GPIO inputs with the Pi's pull-ups.

Each is a gpiozero ``DigitalInputDevice(pull_up=True)``: the level a
``Button`` reports as ``is_pressed``, without ``Button``'s hold thread (one
per button, polling, and delaying ``close()`` up to a second while a button
is held).  Press and hold logic is :class:`tavla_pi.hal.buttons.ButtonDecoder`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpiozero import DigitalInputDevice

from tavla_pi.errors import PinMapError
from tavla_pi.hardware.pinmap import BUTTON_NAMES


class PiButtons:
    """Raw button levels (True while held); implements :class:`tavla_pi.hal.base.ButtonInputs`.

    A context manager; ``close()`` releases the pins and is safe twice.
    """

    def __init__(self, pins: Mapping[str, int], *, pin_factory: Any = None) -> None:
        _check_names(pins)
        self._buttons: dict[str, Any] = {}
        try:
            for name in BUTTON_NAMES:
                self._buttons[name] = DigitalInputDevice(pins[name], pull_up=True,
                                                         pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def levels(self) -> dict[str, bool]:
        """Current levels keyed by button name."""
        return {name: bool(button.is_active) for name, button in self._buttons.items()}

    def close(self) -> None:
        """Release the pins; idempotent."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return not self._buttons

    def __enter__(self) -> PiButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<PiButtons closed>" if self.closed else f"<PiButtons {sorted(self._buttons)}>"


def _check_names(pins: Mapping[str, int]) -> None:
    """Every known button has a pin, and nothing else does."""
    for name in pins:
        if name not in BUTTON_NAMES:
            raise PinMapError(f"buttons.{name}",
                              f"unknown button; expected one of {', '.join(BUTTON_NAMES)}")
    for name in BUTTON_NAMES:
        if name not in pins:
            raise PinMapError("buttons", f"no pin for {name!r}")
