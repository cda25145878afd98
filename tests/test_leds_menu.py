"""The armed MENU on the cube column (docs/PLAYING.md "What the lights mean"), read back by name."""

from __future__ import annotations

from typing import Any

import pytest
from leds_support import frame, lit, luminance, on_off, runs

from tavla_pi.engine.levels import Level
from tavla_pi.game.menu import MenuView, Mode
from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette
from tavla_pi.leds.layout import CUBE_VALUES
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
COLUMN = {*(f"cube.{v}" for v in CUBE_VALUES), "cube.owner.white", "cube.owner.black"}


def menu_view(mode: Mode, phase: Phase = Phase.AWAIT_ROLL, **fields: Any) -> GameView:
    return GameView(phase, W, menu=MenuView(mode), **fields)


def column(view: GameView) -> set[str]:
    return set(lit(view)) & COLUMN


@pytest.mark.parametrize("color", [W, B])
@pytest.mark.parametrize("level", list(Level))
def test_the_computers_mode_lights_its_end_and_one_led_per_level(color: Color,
                                                                   level: Level) -> None:
    view = menu_view(Mode(color, level))
    number = list(Level).index(level) + 1
    values = {f"cube.{v}" for v in CUBE_VALUES[:number]}
    assert column(view) == values | {f"cube.owner.{color.value}"}
    assert {frame(view)[f] for f in column(view)} == {palette.player(color)}


def test_two_players_light_both_ends_in_their_own_colours_and_no_value() -> None:
    view = menu_view(Mode())
    assert column(view) == {"cube.owner.white", "cube.owner.black"}
    assert frame(view)["cube.owner.white"] == palette.player(W)
    assert frame(view)["cube.owner.black"] == palette.player(B)


@pytest.mark.parametrize("color", [W, B])
def test_a_friends_board_lights_its_end_and_the_64_in_the_cubes_colour(color: Color) -> None:
    view = menu_view(Mode(color, remote="izmir"))
    assert column(view) == {f"cube.owner.{color.value}", "cube.64"}
    assert frame(view)[f"cube.owner.{color.value}"] == palette.player(color)
    assert frame(view)["cube.64"] == palette.CUBE
    assert column(view) != column(menu_view(Mode(color, Level.WORLD_CLASS)))


def test_the_menu_dips_each_second_and_is_never_dark() -> None:
    view = menu_view(Mode(B, Level.EXPERT))
    assert all(on_off(view, "cube.16"))
    levels = [luminance(frame(view, t)["cube.16"]) for t in range(0, 2000, 10)]
    assert max(levels) > 5 * min(levels) > 0
    dim = [level < max(levels) for level in levels]
    assert runs(dim) == [(False, 700), (True, 300), (False, 700), (True, 300)]


def test_the_menu_hides_the_cube_and_a_pending_double_on_the_column() -> None:
    cube = menu_view(Mode(W, Level.BEGINNER), cube_value=32, cube_owner=B)
    assert column(cube) == {"cube.2", "cube.owner.white"}
    offer = menu_view(Mode(), phase=Phase.DOUBLE_OFFERED, cube_value=2, cube_owner=W,
                      double_offered_by=W)
    assert column(offer) == {"cube.owner.white", "cube.owner.black"}
    assert "turn.black" in lit(offer)  # the offer's other half still shows
    centred = menu_view(Mode())
    assert "cube.64" not in lit(centred)


def test_the_rest_of_the_board_is_as_without_the_menu() -> None:
    plain = GameView(Phase.MOVING, W, dice=(6, 4), dice_used=(True, False), cube_value=2,
                     cube_owner=B)
    with_menu = menu_view(Mode(B, Level.CASUAL), phase=Phase.MOVING, dice=(6, 4),
                          dice_used=(True, False), cube_value=2, cube_owner=B)
    outside = set(frame(plain)) - COLUMN
    assert {f: frame(plain)[f] for f in outside} == {f: frame(with_menu)[f] for f in outside}


@pytest.mark.parametrize(("match", "values"), [
    ("portes", set()), ("plakoto", {4}), ("fevga", {8}), ("tavli", {2, 4, 8})])
def test_two_players_of_a_greek_game_light_its_slot_and_tavli_all_three(match: str,
                                                                        values: set[int]) -> None:
    view = menu_view(Mode(variant=match))
    shown = {f"cube.{v}" for v in values}
    assert column(view) == {"cube.owner.white", "cube.owner.black"} | shown
    assert {frame(view)[f] for f in shown} <= {palette.CUBE}


@pytest.mark.parametrize("color", [W, B])
def test_the_online_opponent_lights_its_end_and_the_32_and_64_in_the_cubes_colour(
        color: Color) -> None:
    view = menu_view(Mode(color, online=True))
    assert column(view) == {f"cube.owner.{color.value}", "cube.32", "cube.64"}
    assert {frame(view)[f"cube.{v}"] for v in (32, 64)} == {palette.CUBE}
    assert column(view) != column(menu_view(Mode(color, remote="izmir")))


def test_an_online_opponent_sought_breathes_on_the_cube_column() -> None:
    view = GameView(Phase.OPENING, None, seat_color=B, seat_thinking=True)
    assert column(view) == {"cube.owner.black", "cube.32", "cube.64"}
    assert frame(view, 1200)["cube.32"] == palette.CUBE  # bright in its second half
    assert all(on_off(view, "cube.32"))  # a breath: never dark
    assert luminance(frame(view, 100)["cube.32"]) < luminance(palette.CUBE) / 3
    assert "cube.32" not in column(GameView(Phase.OPENING, None, seat_color=B))  # not sought
    moving = GameView(Phase.AWAIT_ROLL, B, seat_color=B, seat_thinking=True)
    assert {"cube.32", "cube.64"} - column(moving)  # the computer thinking: not this light
