"""The LED colours, brightness levels and the final scaling to 8-bit pixels.

Colours follow the Okabe-Ito palette where it matters (blue against orange,
never red against green), and no meaning rests on colour alone: every
pattern also differs in position and in its on/off timing (see ``waves``).
"""

from __future__ import annotations

import functools
import math

from tavla_pi.errors import ConfigError
from tavla_pi.hardware.pixel import DARK, RGB
from tavla_pi.rules.color import Color

# The players: White's light is ivory, Black's is amber.
IVORY: RGB = (255, 214, 160)
AMBER: RGB = (255, 110, 0)

DICE: RGB = (200, 200, 255)        # pips of a die face
CUBE: RGB = (90, 190, 255)         # the cube column (sky blue)
DESTINATION: RGB = (0, 210, 110)   # a legal destination (bluish green)
ADD: RGB = (0, 80, 255)            # out of sync: put a checker here (blue)
REMOVE: RGB = (255, 50, 0)         # out of sync: take a checker away (vermillion)
UNPLAYABLE: RGB = (255, 20, 0)     # the dice when the roll cannot be played (red)
TO_BAR: RGB = (210, 40, 170)       # a hit checker to put on the bar (reddish purple)
CANDIDATE: RGB = (255, 200, 0)     # one of several plays the board may mean (yellow)
SUGGESTED: RGB = (255, 255, 255)   # a play the engine suggests, walking from -> to (white)

# Brightness levels (fractions of full) for lit-but-secondary LEDs.
FULL = 1.0
HALF = 0.4        # a doubles face with one of its two moves left
USED = 0.08       # a die already played: still readable, clearly spent
SOURCE = 0.35     # where a lifted checker came from
PINNED = 0.5      # a pinned checker's point (Plakoto), closed to its side
GAME_OTHER = 0.1  # the tavli cycle's games not being played (the one played is full)
FAINT = 0.06      # the centred cube (worth 1): a faint mark on the 64


def player(color: Color) -> RGB:
    """The light of a player's own LEDs (turn, owner, tray, winner)."""
    return IVORY if color is Color.WHITE else AMBER


def check_brightness(value: object, where: str = "brightness") -> float:
    """``value`` as a brightness 0..1, or a :class:`ConfigError` naming ``where``.

    For settings files and the renderer alike: bools, strings, NaN and
    numbers outside 0..1 are refused.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(where, f"expected a number 0..1, got {value!r}")
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ConfigError(where, f"expected a number 0..1, got {value!r}")
    return float(value)


PIXELS_KEPT = 1024
"""How many scaled pixels :func:`scale` keeps: a frame's colours and steady levels repeat
scan after scan (a ramp's levels are many, and push the oldest out)."""


@functools.lru_cache(maxsize=PIXELS_KEPT)
def scale(color: RGB, level: float) -> RGB:
    """``color`` at ``level`` (0..1, already times the brightness setting).

    A channel that is lit stays at least 1, so dim marks (a used die, the
    centred cube) do not vanish at low brightness; level 0 is always off.
    Memoised: a pure function of its arguments, so an entry never goes stale.
    """
    if level <= 0.0:
        return DARK
    r, g, b = (_channel(c, level) for c in color)
    return (r, g, b)


def _channel(value: int, level: float) -> int:
    if value == 0:
        return 0
    return max(1, min(255, round(value * level)))


def to_hex(color: RGB) -> str:
    """``#rrggbb``, as the web view and ``/api/state`` show a pixel."""
    return "#{:02x}{:02x}{:02x}".format(*color)
