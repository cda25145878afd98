"""Whole frames: length, determinism, brightness, precedence, and rhythms
that stay distinguishable without colour."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from leds_support import LAYOUT, frame, luminance, on_off, runs

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import render, scene
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
locations = st.sampled_from([str(n) for n in range(1, 25)] + ["bar", "off"])
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def views(draw: st.DrawFn) -> GameView:
    """Any consistent view the game could hand the renderer."""
    phase = draw(st.sampled_from(Phase))
    on_roll = draw(st.sampled_from(Color))
    cube = draw(st.sampled_from([1, 2, 4, 8, 16, 32]))
    fixes = draw(st.lists(st.builds(Fix, locations, st.sampled_from(Color),
                                    st.integers(1, 3) | st.integers(-3, -1)), max_size=4))
    return GameView(
        phase=phase,
        on_roll=on_roll,
        dice=draw(st.just(()) | dice),
        dice_used=tuple(draw(st.lists(st.booleans(), max_size=4))),
        dice_blink=draw(st.booleans()),
        cube_value=cube,
        cube_owner=None if cube == 1 else draw(st.sampled_from(Color)),
        double_offered_by=draw(st.none() | st.sampled_from(Color)),
        lifted_from=draw(st.none() | locations),
        destinations=tuple(draw(st.lists(locations, max_size=4))),
        press_done=draw(st.booleans()),
        no_legal_move=draw(st.booleans()),
        fixes=tuple(fixes),
        to_bar=tuple(draw(st.lists(locations, max_size=2))),
        candidates=tuple(draw(st.lists(locations, max_size=3))),
        winner=draw(st.none() | st.sampled_from(Color)),
        points_won=draw(st.integers(0, 192)),
        since_ms=draw(st.integers(0, 10**9)),
    )


@given(views(), st.integers(-5000, 10**6), st.floats(0, 1))
def test_any_view_gives_one_pixel_per_led_deterministically(
    view: GameView, dt: int, brightness: float
) -> None:
    now = view.since_ms + dt
    pixels = render(view, LAYOUT, now, brightness)
    assert len(pixels) == LAYOUT.count
    assert all(len(p) == 3 and all(0 <= c <= 255 for c in p) for p in pixels)
    assert render(view, LAYOUT, now, brightness) == pixels


@given(views(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_blinks_run_from_since_ms(view: GameView, dt: int, shift: int) -> None:
    later = replace(view, since_ms=view.since_ms + shift)
    assert render(later, LAYOUT, later.since_ms + dt, 1.0) == render(
        view, LAYOUT, view.since_ms + dt, 1.0)


@given(views(), st.integers(0, 5000), st.floats(0.05, 1))
def test_brightness_scales_every_pixel(view: GameView, dt: int, brightness: float) -> None:
    full = render(view, LAYOUT, view.since_ms + dt, 1.0)
    dimmed = render(view, LAYOUT, view.since_ms + dt, brightness)
    assert render(view, LAYOUT, view.since_ms + dt, 0.0) == ((0, 0, 0),) * LAYOUT.count
    for f, d in zip(full, dimmed, strict=True):
        for cf, cd in zip(f, d, strict=True):
            assert cd <= cf
            assert abs(cd - cf * brightness) <= 1.0 + 0.5  # rounding, and lit stays >= 1
            assert (cd == 0) == (cf == 0)


def test_half_brightness_halves_a_full_pixel() -> None:
    view = GameView(Phase.AWAIT_ROLL, W, cube_value=2, cube_owner=W)
    assert frame(view, brightness=0.5)["cube.2"] == (45, 95, 128)
    assert frame(view, brightness=1.0)["cube.2"] == (90, 190, 255)


def test_point_rhythms_differ_without_colour() -> None:
    """Every pattern a point LED can show has its own on/off timing."""
    view = GameView(
        Phase.MOVING, W, dice=(6, 5), lifted_from="24", destinations=("18",),
        fixes=(Fix("3", W, 1), Fix("4", W, -1)), to_bar=("9",), candidates=("11",),
    )
    blinking = {
        "add": on_off(view, "point.3"),
        "remove": on_off(view, "point.4"),
        "to bar": on_off(view, "point.9"),
        "candidate": on_off(view, "point.11"),
    }
    steady = {"destination": on_off(view, "point.18"), "source": on_off(view, "point.24")}
    signatures = {name: tuple(runs(r)[:4]) for name, r in (blinking | steady).items()}
    assert len(set(signatures.values())) == len(blinking) + 1, signatures
    assert all(all(r) for r in steady.values())
    # the two steady ones differ in level: the source is a dim mark
    now = frame(view)
    assert luminance(now["point.24"]) < 0.5 * luminance(now["point.18"])
    # add and remove: four times slower, and mostly on rather than half on
    assert len(runs(blinking["remove"])) >= 4 * len(runs(blinking["add"])) - 1
    assert sum(blinking["add"]) > sum(blinking["remove"])


def test_the_board_must_match_first() -> None:
    """A fix outranks a destination or candidate on the same point."""
    view = GameView(Phase.MOVING, W, lifted_from="13", destinations=("8",),
                    candidates=("8",), fixes=(Fix("8", B, -1),))
    assert runs(on_off(view, "point.8"))[:2] == [(True, 150), (False, 150)]
    assert scene(view)["point.8"].wave.period_ms == 300


@pytest.mark.parametrize(
    ("view", "message"),
    [
        (GameView(Phase.MOVING, dice=(1, 2)), "GameView.dice needs on_roll"),
        (GameView(Phase.MOVING, to_bar=("5",)), "GameView.to_bar needs on_roll"),
        (GameView(Phase.MOVING, W, lifted_from="27"), "not a board location: '27'"),
        (GameView(Phase.MOVING, W, dice=(7, 2)), "a die shows 1..6, got 7"),
        (GameView(Phase.MOVING, W, dice=(3,)), "expected two dice"),
        (GameView(Phase.MOVING, W, fixes=(Fix("5", W, 0),)), "a fix of 0 checkers"),
        (GameView(Phase.DOUBLE_OFFERED, W, cube_value=64, double_offered_by=W),
         "a double from cube 64"),
    ],
)
def test_an_inconsistent_view_is_a_clear_error(view: GameView, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render(view, LAYOUT, 0, 1.0)
