"""Helpers for the LED tests (no tests here): a full layout, readings by name."""

from __future__ import annotations

from dataclasses import replace

from sim_support import PINMAP

from tavla_pi.game.view import GameView
from tavla_pi.hardware.pinmap import LedFeature, PinMap
from tavla_pi.leds import REQUIRED_FEATURES, RGB, LedLayout, render

SPARE = 4


def pinmap(names: tuple[str, ...] = REQUIRED_FEATURES, count: int | None = None) -> PinMap:
    """A pin map whose LED chain holds ``names`` in reverse order, then spares.

    Reversed so that a renderer using the reference order instead of the
    layout would light the wrong LEDs; the rest of the wiring is the reference's.
    """
    features = tuple(LedFeature(n, len(names) - 1 - i) for i, n in enumerate(names))
    strip = replace(PINMAP.leds, count=len(names) + SPARE if count is None else count)
    return replace(PINMAP, leds=strip, led_features=features)


LAYOUT = LedLayout.from_pinmap(pinmap())


def frame(view: GameView, ms: int = 0, brightness: float = 1.0) -> dict[str, RGB]:
    """Every feature's pixel ``ms`` after ``view.since_ms``."""
    pixels = render(view, LAYOUT, view.since_ms + ms, brightness)
    return {n: pixels[LAYOUT.index(n)] for n in REQUIRED_FEATURES}


def lit(view: GameView, ms: int = 0) -> dict[str, RGB]:
    """The features that are on at that instant."""
    return {n: rgb for n, rgb in frame(view, ms).items() if rgb != (0, 0, 0)}


def on_off(view: GameView, feature: str, until_ms: int = 2400, step: int = 10) -> list[bool]:
    """Whether ``feature`` is lit, sampled every ``step`` ms: colour ignored."""
    return [frame(view, t)[feature] != (0, 0, 0) for t in range(0, until_ms, step)]


def runs(samples: list[bool], step: int = 10) -> list[tuple[bool, int]]:
    """The on/off rhythm: (lit, duration ms) for each run of equal samples."""
    out: list[tuple[bool, int]] = []
    for s in samples:
        if out and out[-1][0] == s:
            out[-1] = (s, out[-1][1] + step)
        else:
            out.append((s, step))
    return out


def luminance(rgb: RGB) -> float:
    """Brightness only, as a colour-blind (or monochrome) eye would judge it."""
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
