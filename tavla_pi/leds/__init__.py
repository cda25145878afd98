"""The LED renderer: what the players should see, as a pixel frame.

``render(view, layout, now_ms, brightness)`` turns a ``GameView`` into one
RGB per LED.  Pure: colour logic is in ``palette``, timing in ``waves``,
one function per meaning in ``patterns``, precedence in ``render``.  The
docs/PLAYING.md "What the lights mean" is the player's guide to it.
"""

from tavla_pi.hardware.pixel import RGB
from tavla_pi.leds.layout import REQUIRED_FEATURES, LedLayout, location_feature
from tavla_pi.leds.light import Light
from tavla_pi.leds.palette import check_brightness, to_hex
from tavla_pi.leds.render import render, scene

__all__ = [
    "REQUIRED_FEATURES",
    "RGB",
    "LedLayout",
    "Light",
    "check_brightness",
    "location_feature",
    "render",
    "scene",
    "to_hex",
]
