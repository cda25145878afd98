"""LedLayout from a pin map, location names, brightness, palette and waves."""

from __future__ import annotations

import math
import re

import pytest
from leds_support import SPARE, frame, pinmap

from tavla_pi.errors import ConfigError, PinMapError
from tavla_pi.game.view import GameView, Phase
from tavla_pi.hardware import pinmap as pinmap_module
from tavla_pi.hardware.pinmap import LedFeature, LedStrip, PinMap
from tavla_pi.leds import REQUIRED_FEATURES, LedLayout, check_brightness, location_feature, render
from tavla_pi.leds.palette import scale, to_hex
from tavla_pi.leds.waves import PRESS_DONE, Segment, Wave, blink
from tavla_pi.rules.color import Color


def test_required_features_are_the_66_of_the_pinmap_docstring() -> None:
    assert len(REQUIRED_FEATURES) == 66
    assert len(set(REQUIRED_FEATURES)) == 66
    doc = pinmap_module.__doc__ or ""
    for stem in ("point.", "bar.", "tray.", "cube.", "cube.owner.", "die.", "turn."):
        assert stem in doc
    for name in REQUIRED_FEATURES:
        assert re.fullmatch(
            r"point\.([1-9]|1\d|2[0-4])|(bar|tray|turn|cube\.owner)\.(white|black)"
            r"|cube\.(2|4|8|16|32|64)|die\.(white|black)\.[01]\.pip\.[0-6]",
            name,
        ), name


def test_layout_follows_the_pinmap_indices_and_counts_spares() -> None:
    layout = LedLayout.from_pinmap(pinmap())
    assert layout.count == 66 + SPARE
    assert layout.index("point.1") == 65
    assert layout.index("turn.black") == 0
    pixels = render(GameView(Phase.OPENING, dice=(6, 6)), layout, 0, 1.0)
    assert len(pixels) == 70
    assert pixels[66:] == ((0, 0, 0),) * SPARE


def test_a_missing_feature_is_refused_by_name() -> None:
    names = tuple(n for n in REQUIRED_FEATURES if n not in ("turn.black", "cube.64"))
    with pytest.raises(PinMapError) as err:
        LedLayout.from_pinmap(pinmap(names), "pinout.toml")
    assert str(err.value).startswith("pinout.toml: LED features: 2 missing")
    assert "cube.64" in str(err.value)
    assert "turn.black" in str(err.value)


def _custom(features: tuple[LedFeature, ...], count: int = 80) -> PinMap:
    # built here, not from the reference: only the LED chain matters to the layout
    base = tuple(LedFeature(n, i) for i, n in enumerate(REQUIRED_FEATURES))
    return PinMap((), None, (), (), (), {}, LedStrip("pwm", 18, count), base + features)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (LedFeature("point.25", 70), "'point.25': unknown feature name"),
        (LedFeature("cube.1", 70), "'cube.1': unknown feature name"),
        (LedFeature("point.3", 70), "'point.3': named twice"),
        (LedFeature("die.white.0.pip.7", 70), "unknown feature name"),
    ],
)
def test_bad_features_are_refused_with_their_name(extra: LedFeature, message: str) -> None:
    with pytest.raises(PinMapError, match=re.escape(message)):
        LedLayout.from_pinmap(_custom((extra,)))


def test_indices_must_be_on_the_strip_and_unshared() -> None:
    with pytest.raises(PinMapError, match=r"'point.1': index 65 is outside 0..64"):
        LedLayout.from_pinmap(pinmap(count=65))
    names = REQUIRED_FEATURES
    shared = (*(LedFeature(n, i) for i, n in enumerate(names[:-1])), LedFeature(names[-1], 3))
    clash = PinMap((), None, (), (), (), {}, LedStrip("spi", 10, 66), shared)  # LEDs only
    with pytest.raises(PinMapError, match=r"'turn.black': index 3 is already 'point.4'"):
        LedLayout.from_pinmap(clash)
    assert isinstance(PinMapError("a", "b"), ValueError)


def test_locations_map_to_features() -> None:
    assert location_feature("13", Color.WHITE) == "point.13"
    assert location_feature("bar", Color.BLACK) == "bar.black"
    assert location_feature("off", Color.WHITE) == "tray.white"
    for bad in ("0", "25", "013", "", "tray", " 5"):
        with pytest.raises(ValueError, match="not a board location"):
            location_feature(bad, Color.WHITE)


def test_brightness_is_validated_like_a_setting() -> None:
    assert check_brightness(0) == 0.0
    assert check_brightness(1) == 1.0
    assert check_brightness(0.25) == 0.25
    for bad in (True, "high", -0.01, 1.5, math.nan, None):
        with pytest.raises(ConfigError) as err:
            check_brightness(bad, "config.toml: [leds] brightness")
        assert str(err.value).startswith("config.toml: [leds] brightness: expected a number 0..1")
    with pytest.raises(ConfigError, match="LED brightness"):
        frame(GameView(Phase.SETUP), brightness=2.0)


def test_scale_keeps_dim_marks_visible_and_zero_off() -> None:
    assert scale((255, 100, 0), 1.0) == (255, 100, 0)
    assert scale((255, 100, 0), 0.5) == (128, 50, 0)
    assert scale((255, 100, 0), 0.001) == (1, 1, 0)
    assert scale((255, 100, 0), 0.0) == (0, 0, 0)
    assert to_hex((255, 16, 0)) == "#ff1000"


def test_waves_loop_from_the_start() -> None:
    wave = blink(100, 300)
    assert wave.period_ms == 400
    assert [wave.level_at(t) for t in (-50, 0, 99, 100, 399, 400, 450)] == [1, 1, 1, 0, 0, 1, 1]
    assert PRESS_DONE.level_at(0) == pytest.approx(0.1)
    assert PRESS_DONE.level_at(500) == pytest.approx(0.55)
    assert PRESS_DONE.level_at(1000) == pytest.approx(1.0)
    assert PRESS_DONE.level_at(3500) == pytest.approx(0.55)
    assert not wave.steady
    assert Wave.steps((5, 0.3)).steady
    with pytest.raises(ValueError, match="positive length"):
        Wave((Segment(0, 1.0, 1.0),))
    with pytest.raises(ValueError, match="positive length"):
        Wave(())
