"""The interfaces every backend (``pi``, ``sim``) provides.

A backend is three small devices: the sensor grid (raw frames), the pixel
strip (colour frames out) and the buttons (raw levels in).  Debouncing and
short/long press detection are pure logic on top of the levels, so the same
code runs on the real board, the modelled board and in tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, Self

from tavla_pi.hardware.pixel import RGB

RawFrame = tuple[int, ...]
"""One 12-bit ADC reading (0..4095) per sensor, in ``PinMap.sensors`` order."""


class SensorGrid(Protocol):
    """Scans every Hall sensor once per call."""

    def scan(self) -> RawFrame:
        """Read every sensor; one value per ``PinMap.sensors`` entry."""
        ...

    def close(self) -> None:
        """Release the hardware; safe to call twice."""
        ...


class PixelStrip(Protocol):
    """The LED chain; ``show`` is the one narrow hardware write."""

    def show(self, pixels: Sequence[RGB]) -> None:
        """Display one frame (already brightness-scaled), in LED index order."""
        ...

    def close(self) -> None:
        """Blank every LED and release the hardware; safe to call twice."""
        ...


class ButtonInputs(Protocol):
    """The raw level of each button (True while held down)."""

    def levels(self) -> Mapping[str, bool]:
        """Current levels keyed by button name (``pinmap.BUTTON_NAMES``)."""
        ...

    def close(self) -> None:
        """Release the hardware; safe to call twice."""
        ...


class Backend:
    """The three devices of one board, closed together (LEDs blanked first).

    ``detail`` says in one line how the backend reaches the board (for
    diagnostics; empty if there is nothing to say).  A context manager;
    ``close()`` is safe to call twice.
    """

    def __init__(self, name: str, sensors: SensorGrid, pixels: PixelStrip,
                 buttons: ButtonInputs, *, detail: str = "") -> None:
        self.name = name
        self.detail = detail
        self.sensors = sensors
        self.pixels = pixels
        self.buttons = buttons
        self._closed = False

    def close(self) -> None:
        """Blank the LEDs and release every device; idempotent."""
        if self._closed:
            return
        self._closed = True
        errors: list[Exception] = []
        for device in (self.pixels, self.sensors, self.buttons):
            try:
                device.close()
            except Exception as exc:  # close the others, then report the first failure
                errors.append(exc)
        if errors:
            raise errors[0]

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._closed

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Backend {self.name!r}{' closed' if self._closed else ''}>"
