"""One pixel of the LED chain as the software holds it, before any wire byte order.

The lowest home both the renderer (:mod:`tavla_pi.leds`) and the devices
(:mod:`tavla_pi.hal`) may import: a frame is a sequence of these, in LED index
order.
"""

from __future__ import annotations

RGB = tuple[int, int, int]
"""One pixel: red, green, blue, each 0..255."""

DARK: RGB = (0, 0, 0)
"""An unlit pixel."""
