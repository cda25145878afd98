"""The compositor: a game view to one pixel frame, purely.

``render(view, layout, now_ms, brightness)`` is a function of its
arguments only: the same inputs give the same frame, so the daemon, the
web view, the tests and the documentation pictures all show the same light.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from tavla_pi.game.view import GameView
from tavla_pi.hardware.pixel import DARK, RGB
from tavla_pi.leds import patterns, tavli
from tavla_pi.leds.layout import LedLayout
from tavla_pi.leds.light import Light
from tavla_pi.leds.palette import check_brightness

Pattern = Callable[[GameView], list[Light]]

PRIORITY: tuple[Pattern, ...] = (
    patterns.fixes,         # the board must match before anything else counts
    patterns.menu,          # the armed MENU holds the cube column while it chooses
    patterns.seat_waiting,  # an online opponent sought: the cube column breathes
    patterns.to_bar,
    patterns.candidates,
    tavli.first_checker_lights,  # Fevga: the one checker that may move, even in the hand
    patterns.lifted,
    patterns.seat_step,
    patterns.seat_trouble,
    patterns.suggested,
    tavli.pinned,
    patterns.winner,
    patterns.double_offer,
    patterns.resignation,
    patterns.dice_shown,
    patterns.clock,         # a running reserve holds the cube column as a bar
    patterns.cube,
    tavli.game,             # where there is no cube, the column shows the game
    patterns.turn,
)
"""The meanings, most urgent first: where two want one LED, the earlier wins."""


def scene(view: GameView) -> dict[str, Light]:
    """Every lit feature of ``view`` and its light, after priorities."""
    lights: dict[str, Light] = {}
    for pattern in PRIORITY:
        for light in pattern(view):
            lights.setdefault(light.feature, light)
    return lights


SCENES_KEPT = 64
"""How many views' lights :func:`render` keeps (a view stands for many scans; the
lights of a few recent ones are asked for again)."""


@functools.lru_cache(maxsize=SCENES_KEPT)
def _lights(view: GameView) -> tuple[Light, ...]:
    """The lights of ``view``'s scene, memoised: a view is a value and its scene a
    function of it alone, so an entry never goes stale (only the oldest are dropped)."""
    return tuple(scene(view).values())


def render(view: GameView, layout: LedLayout, now_ms: int, brightness: float) -> tuple[RGB, ...]:
    """The frame for ``view`` at ``now_ms``: one RGB per LED, in index order.

    Blinks run from ``view.since_ms``; ``brightness`` (0..1, the setting)
    scales every pixel.  Unlit and spare LEDs are off.
    """
    level = check_brightness(brightness, "LED brightness")
    elapsed = now_ms - view.since_ms
    frame = [DARK] * layout.count
    for light in _lights(view):
        frame[layout.index(light.feature)] = light.rgb_at(elapsed, level)
    return tuple(frame)
