"""The lights of Greek tavli: a pinned checker's point, Fevga's first checker, and the
cube column that shows the game where there is no cube."""

from __future__ import annotations

from dataclasses import replace

import pytest
from leds_support import frame, lit, luminance, on_off, runs

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette, scene
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import Resignation

W, B = Color.WHITE, Color.BLACK
PLAKOTO = GameView(Phase.MOVING, W, dice=(3, 1), variant="plakoto", match_variant="plakoto")
FEVGA = GameView(Phase.MOVING, W, dice=(6, 5), variant="fevga", match_variant="fevga")
CUBE_COLUMN = ("cube.2", "cube.4", "cube.8", "cube.16", "cube.32", "cube.64")


def test_a_pinned_checker_lights_its_point_in_its_colour_with_a_short_break() -> None:
    view = replace(PLAKOTO, pinned={"5": B, "20": W})
    shown = scene(view)
    assert shown["point.5"].color == palette.AMBER    # Black's checker is pinned on 5
    assert shown["point.20"].color == palette.IVORY
    assert runs(on_off(view, "point.5", 3200)) == [(True, 1400), (False, 200),
                                                   (True, 1400), (False, 200)]
    assert luminance(frame(view)["point.5"]) < luminance(palette.AMBER)  # half bright


def test_the_closed_point_gives_way_to_a_destination_of_the_pinner() -> None:
    """White may pile on its own pin: the point is then lit as a destination."""
    view = replace(PLAKOTO, pinned={"5": B}, lifted_from="8", destinations=("5", "7"))
    assert scene(view)["point.5"].color == palette.DESTINATION


def test_no_pin_lights_nothing_of_one() -> None:
    assert "point.5" not in lit(PLAKOTO)


def test_fevgas_first_checker_swells_in_the_movers_colour_while_the_rule_binds() -> None:
    view = replace(FEVGA, first_checker="18", destinations=("12", "13"))
    shown = scene(view)
    assert shown["point.18"].color == palette.IVORY
    levels = [luminance(frame(view, t)["point.18"]) for t in range(0, 800, 100)]
    assert min(levels) > 0 and levels[4] > 4 * levels[0]   # never dark, a quick swell


def test_the_first_checker_keeps_swelling_in_the_hand() -> None:
    """Lifted, the source is the rule's checker still: it swells, not the dim source."""
    view = replace(FEVGA, first_checker="18", lifted_from="18", destinations=("12", "13"))
    assert scene(view)["point.18"].wave != scene(replace(view, first_checker=None))[
        "point.18"].wave
    assert {"point.12", "point.13"} <= set(lit(view))


def test_the_first_checker_is_shown_only_while_moving() -> None:
    view = replace(FEVGA, phase=Phase.AWAIT_ROLL, dice=(), first_checker="18")
    assert "point.18" not in lit(view)


@pytest.mark.parametrize("variant, bright", [("portes", "cube.2"), ("plakoto", "cube.4"),
                                             ("fevga", "cube.8")])
def test_a_tavli_match_shows_the_game_of_the_cycle_on_the_cube_column(
        variant: str, bright: str) -> None:
    view = GameView(Phase.SETUP, variant=variant, match_variant="tavli", tavli_game=2)
    shown = lit(view)
    assert set(shown) & set(CUBE_COLUMN) == {"cube.2", "cube.4", "cube.8"}
    assert max(("cube.2", "cube.4", "cube.8"), key=lambda f: luminance(shown[f])) == bright
    assert "cube.64" not in shown   # no faint centred cube: there is none


def test_plakoto_and_fevga_show_nothing_of_a_cube() -> None:
    for view in (PLAKOTO, FEVGA, replace(PLAKOTO, phase=Phase.AWAIT_ROLL, dice=())):
        assert scene(view)["cube.4" if view.variant == "plakoto" else "cube.8"].level == 1.0
        assert "cube.64" not in lit(view)
        assert all(scene(view)[f].color == palette.CUBE for f in ("cube.2", "cube.4", "cube.8"))


def test_portes_on_its_own_keeps_its_cube() -> None:
    view = GameView(Phase.AWAIT_ROLL, W)
    assert set(lit(view)) & set(CUBE_COLUMN) == {"cube.64"}


def test_a_turned_cube_in_a_tavli_portes_is_the_cube() -> None:
    """With the cube in Portes on, a turned cube shows as in Portes on its own."""
    view = GameView(Phase.AWAIT_ROLL, W, cube_value=4, cube_owner=B, match_variant="tavli")
    assert set(lit(view)) & set(CUBE_COLUMN) == {"cube.4"}


def test_a_resignation_holds_the_column_in_a_game_without_a_cube() -> None:
    view = replace(PLAKOTO, phase=Phase.AWAIT_ROLL, dice=(), resigning=W,
                   resign_level=Resignation.SINGLE)
    assert set(lit(view)) & set(CUBE_COLUMN) == {"cube.2"}
    assert scene(view)["cube.2"].color == palette.IVORY


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"GameView\.variant"):
        scene(GameView(Phase.SETUP, variant="narde"))


def test_a_view_with_pins_is_a_value_the_lights_can_be_memoised_by() -> None:
    one = GameView(phase=Phase.MOVING, variant="plakoto", match_variant="plakoto",
                   pinned={"19": Color.BLACK})
    other = GameView(phase=Phase.MOVING, variant="plakoto", match_variant="plakoto",
                     pinned={"19": Color.BLACK})
    assert one == other and hash(one) == hash(other)
    assert one.pinned == {"19": Color.BLACK} and dict(one.pinned) == {"19": Color.BLACK}
    assert frame(one) == frame(other) and lit(one)  # rendered, not refused as unhashable
