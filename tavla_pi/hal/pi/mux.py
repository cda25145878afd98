"""The CD74HC4067 multiplexers' shared select lines and common enable.

Every mux of the board sees the same four select lines (S0..S3, S0 the least
significant bit) and one active-low enable, so one :class:`MuxSelect` picks
the same channel on all of them at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import DigitalOutputDevice

from tavla_pi.errors import HardwareError, PinMapError
from tavla_pi.hardware.pinmap import MUX_CHANNELS, SELECT_LINES


def gray_order(channels: Sequence[int] = range(MUX_CHANNELS)) -> tuple[int, ...]:
    """``channels`` sorted along the 4-bit Gray code (one select line flips per step)."""
    rank = {n ^ (n >> 1): i for i, n in enumerate(range(MUX_CHANNELS))}
    return tuple(sorted(set(channels), key=rank.__getitem__))


class MuxSelect:
    """Four select lines and an optional active-low enable, as gpiozero outputs.

    The lines start low (channel 0) and the muxes disabled.  :meth:`select`
    writes only the lines whose bit changes.  A context manager; ``close()``
    disables the muxes, releases the pins and is safe to call twice.
    """

    def __init__(self, select_pins: Sequence[int], enable_pin: int | None = None, *,
                 pin_factory: Any = None) -> None:
        if len(select_pins) != SELECT_LINES:
            raise PinMapError("mux_select", f"a CD74HC4067 needs {SELECT_LINES} select "
                                            f"lines, got {len(select_pins)}")
        self._lines: list[Any] = []
        self._enable: Any = None
        try:
            for pin in select_pins:
                self._lines.append(
                    DigitalOutputDevice(pin, initial_value=False, pin_factory=pin_factory))
            if enable_pin is not None:
                self._enable = DigitalOutputDevice(
                    enable_pin, active_high=False, initial_value=False, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self._channel = 0
        self._closed = False

    @property
    def channel(self) -> int:
        """The channel the select lines point at now."""
        return self._channel

    @property
    def enabled(self) -> bool:
        """True while the muxes pass their selected channel (always, without an enable)."""
        return self._enable is None or bool(self._enable.value)

    def select(self, channel: int) -> bool:
        """Point every mux at ``channel``; True if any line had to change."""
        self._check_open()
        if not 0 <= channel < MUX_CHANNELS:
            raise ValueError(f"mux channel {channel} is outside 0..{MUX_CHANNELS - 1}")
        changed = self._channel ^ channel
        for bit, line in enumerate(self._lines):
            if changed >> bit & 1:
                line.value = channel >> bit & 1
        self._channel = channel
        return changed != 0

    def enable(self) -> None:
        """Connect every mux's selected channel to its output."""
        self._check_open()
        if self._enable is not None and not self._enable.value:
            self._enable.on()

    def disable(self) -> None:
        """Disconnect the mux outputs (they float, read as pulled down)."""
        self._check_open()
        if self._enable is not None and self._enable.value:
            self._enable.off()

    def close(self) -> None:
        """Disable the muxes and release the pins; idempotent.

        A released enable pin floats: the board's pull-up keeps the muxes off.
        """
        if self._enable is not None:
            self._enable.off()
            self._enable.close()
            self._enable = None
        for line in self._lines:
            line.close()
        self._lines = []
        self._closed = True

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise HardwareError("the mux select lines are closed")

    def __enter__(self) -> MuxSelect:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"channel={self._channel}"
        return f"<MuxSelect {state}>"
