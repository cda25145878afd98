"""The simulated pixel strip and buttons: plain state a test or page can read and set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from tavla_pi.errors import HardwareError
from tavla_pi.hardware.pinmap import BUTTON_NAMES
from tavla_pi.hardware.pixel import DARK, RGB


class SimPixels:
    """A LED chain that keeps the last frame shown; ``close`` blanks it."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.frame: tuple[RGB, ...] = (DARK,) * count
        self.shows = 0
        self._closed = False

    def show(self, pixels: Sequence[RGB]) -> None:
        """Keep ``pixels`` as the displayed frame (one colour per LED, 0..255 each)."""
        if self._closed:
            raise HardwareError("the simulated pixel strip is closed")
        if len(pixels) != self.count:
            raise ValueError(f"a frame of {len(pixels)} pixels for a strip of {self.count}")
        frame = tuple(map(tuple, pixels))
        if not all(_is_rgb(rgb) for rgb in set(frame)):  # a few colours: each checked once
            i = next(i for i, rgb in enumerate(frame) if not _is_rgb(rgb))
            raise ValueError(f"pixel {i}: {pixels[i]!r} is not an (r, g, b) of 0..255")
        self.frame = cast("tuple[RGB, ...]", frame)
        self.shows += 1

    def close(self) -> None:
        """Blank every LED; safe to call twice."""
        self.frame = (DARK,) * self.count
        self._closed = True

    @property
    def closed(self) -> bool:
        """True once closed."""
        return self._closed


def _is_rgb(rgb: tuple[int, ...]) -> bool:
    return len(rgb) == 3 and all(0 <= v <= 255 for v in rgb)


class SimButtons:
    """Button levels set by ``press``/``release`` (True while held down)."""

    def __init__(self, names: Sequence[str] = BUTTON_NAMES) -> None:
        self._levels = dict.fromkeys(names, False)
        self._closed = False

    def press(self, name: str) -> None:
        """Hold button ``name`` down."""
        self._set(name, level=True)

    def release(self, name: str) -> None:
        """Let button ``name`` go."""
        self._set(name, level=False)

    def _set(self, name: str, *, level: bool) -> None:
        if name not in self._levels:
            raise ValueError(f"unknown button {name!r} (one of {', '.join(self._levels)})")
        self._levels[name] = level

    def levels(self) -> Mapping[str, bool]:
        """Current level of every button."""
        if self._closed:
            raise HardwareError("the simulated buttons are closed")
        return dict(self._levels)

    def close(self) -> None:
        """Release every button; safe to call twice."""
        self._levels = dict.fromkeys(self._levels, False)
        self._closed = True
