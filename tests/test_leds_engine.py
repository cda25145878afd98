"""The computer's lights: its next checker to move, and an engine that cannot answer."""

from __future__ import annotations

from leds_support import frame, luminance

from tavla_pi.game.view import GameView, Phase, SeatStep
from tavla_pi.leds import palette
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
STEP = GameView(Phase.MOVING, B, dice=(5, 2), seat_color=B, seat_play="13/8 6/4",
                seat_step=SeatStep("12", "17", B))


def test_the_computers_checker_and_its_destination_take_turns() -> None:
    first, second = frame(STEP, 100), frame(STEP, 700)
    assert first["point.12"] == palette.player(B) and second["point.17"] == palette.DESTINATION
    assert luminance(first["point.17"]) < luminance(second["point.17"]) / 4
    assert luminance(second["point.12"]) < luminance(first["point.12"]) / 4
    assert frame(STEP, 1300) == first  # a 1.2 s loop


def test_a_hit_blot_is_lit_from_its_point_to_its_bar_half() -> None:
    view = GameView(Phase.MOVING, B, dice=(4, 2), seat_color=B,
                    seat_step=SeatStep("5", "bar", W))
    assert frame(view, 100)["point.5"] == palette.player(W)
    assert frame(view, 700)["bar.white"] == palette.DESTINATION


def test_a_lifted_checker_outshines_the_step_where_they_meet() -> None:
    view = GameView(Phase.MOVING, B, dice=(5, 2), seat_color=B, lifted_from="12",
                    destinations=("17",), seat_step=SeatStep("12", "17", B))
    assert {frame(view, t)["point.17"] for t in (100, 700)} == {palette.DESTINATION}


def test_an_engine_that_cannot_answer_flashes_the_computers_turn_led() -> None:
    view = GameView(Phase.AWAIT_ROLL, B, seat_color=B, seat_trouble="gnubg died")
    assert frame(view, 100)["turn.black"] == palette.REMOVE
    assert frame(view, 600)["turn.black"] == (0, 0, 0)
    assert frame(GameView(Phase.AWAIT_ROLL, B, seat_color=B), 600)["turn.black"] == \
        palette.player(B)
