"""The WS2812B chain: pure frame-to-bytes logic and one narrow hardware write.

As in Adafruit's Pixelbuf, colour order and frame checks are plain Python
(:func:`encode_frame`); the only thing that touches hardware is a
:class:`PixelWriter`, which clocks finished bytes out to the chain.  The
renderer has already applied brightness: bytes go out as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Protocol

from tavla_pi.errors import BadInputError, HardwareError, PinMapError
from tavla_pi.hardware.pixel import RGB

COLOR_ORDERS = frozenset("".join(p) for p in permutations("RGB"))


class PixelWriter(Protocol):
    """Sends wire-order bytes (3 per LED) to the chain; the one hardware write."""

    def write(self, data: bytes) -> None:
        """Clock ``data`` out to the LEDs."""
        ...

    def close(self) -> None:
        """Release the hardware behind the writer."""
        ...


def check_order(order: str) -> str:
    """``order`` if it is a WS2812 colour order such as ``"GRB"``."""
    if order not in COLOR_ORDERS:
        raise PinMapError("leds.order", f"expected one of {', '.join(sorted(COLOR_ORDERS))}, "
                                        f"got {order!r}")
    return order


def encode_frame(pixels: Sequence[RGB], order: str = "GRB") -> bytes:
    """The bytes the chain expects for ``pixels``: 3 per LED, in ``order``."""
    picks = tuple("RGB".index(c) for c in check_order(order))
    out = bytearray(3 * len(pixels))
    for i, pixel in enumerate(pixels):
        if len(pixel) != 3:
            raise BadInputError(f"LED frame[{i}]", f"expected (r, g, b), got {pixel!r}")
        for k, pick in enumerate(picks):
            value = pixel[pick]
            if not isinstance(value, int) or not 0 <= value <= 255:
                raise BadInputError(f"LED frame[{i}]",
                                    f"colour component {value!r} is not an integer 0..255")
            out[3 * i + k] = value
    return bytes(out)


class NeoPixelStrip:
    """The board's LED chain; implements :class:`tavla_pi.hal.base.PixelStrip`.

    The strip owns the writer (it closes it even when the settings are
    refused).  A context manager; ``close()`` blanks every LED, then releases
    the writer, and is safe to call twice.
    """

    def __init__(self, count: int, writer: PixelWriter, *, order: str = "GRB") -> None:
        self._writer: PixelWriter | None = writer
        try:
            if count <= 0:
                raise PinMapError("leds.count", f"expected a positive number of LEDs, "
                                                f"got {count}")
            self.order = check_order(order)
        except PinMapError:
            self._writer = None
            writer.close()
            raise
        self.count = count

    def show(self, pixels: Sequence[RGB]) -> None:
        """Display one frame (already brightness-scaled), in LED index order."""
        if self._writer is None:
            raise HardwareError("the LED strip is closed")
        if len(pixels) != self.count:
            raise BadInputError("LED frame", f"expected {self.count} pixels, got {len(pixels)}")
        self._writer.write(encode_frame(pixels, self.order))

    def close(self) -> None:
        """Blank every LED and release the writer; idempotent."""
        writer, self._writer = self._writer, None
        if writer is None:
            return
        try:
            writer.write(bytes(3 * self.count))
        finally:
            writer.close()

    @property
    def closed(self) -> bool:
        """True once ``close()`` has run."""
        return self._writer is None

    def __enter__(self) -> NeoPixelStrip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = " closed" if self._writer is None else ""
        return f"<NeoPixelStrip {self.count} LEDs {self.order}{state}>"
