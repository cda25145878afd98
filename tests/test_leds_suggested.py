"""A suggested play (a hint, a blunder warning's better play): it walks from -> to in white."""

from __future__ import annotations

import pytest
from leds_support import frame, on_off, runs

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette, waves
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
PLAY = (("24", "18"), ("13", "11"))


def view(**fields: object) -> GameView:
    return GameView(Phase.MOVING, W, dice=(6, 2), suggested=PLAY, **fields)  # type: ignore[arg-type]


def test_each_checker_lights_its_point_then_its_destination_then_the_next() -> None:
    shown = view()
    assert runs(on_off(shown, "point.24")) == [(True, 500), (False, 1900)]
    assert runs(on_off(shown, "point.18")) == [(False, 500), (True, 500), (False, 1400)]
    assert runs(on_off(shown, "point.13")) == [(False, 1200), (True, 500), (False, 700)]
    assert runs(on_off(shown, "point.11")) == [(False, 1700), (True, 500), (False, 200)]
    assert frame(shown, 100)["point.24"] == palette.SUGGESTED
    assert palette.SUGGESTED not in (palette.DESTINATION, palette.ADD, palette.CANDIDATE)


def test_the_walk_starts_where_it_was_lit() -> None:
    late = view(since_ms=1000, suggested_since_ms=1700)  # lit 0.7 s into the turn
    assert not on_off(late, "point.24")[0]
    assert runs(on_off(late, "point.24"))[:2] == [(False, 700), (True, 500)]


def test_blacks_bar_half_and_tray_stand_for_the_bar_and_off() -> None:
    shown = GameView(Phase.MOVING, B, dice=(6, 5), suggested=(("19", "off"), ("bar", "5")))
    assert frame(shown, 100)["point.19"] == palette.SUGGESTED  # locations are the board's
    assert frame(shown, 600)["tray.black"] == palette.SUGGESTED
    assert frame(shown, 1300)["bar.black"] == palette.SUGGESTED
    assert frame(shown, 1800)["point.5"] == palette.SUGGESTED
    assert frame(shown, 600)["tray.white"] == (0, 0, 0)


def test_a_fix_on_the_same_point_wins() -> None:
    shown = view(fixes=(Fix("24", W, -1),))
    assert frame(shown, 0)["point.24"] == palette.REMOVE


def test_spans_wrap_round_the_loop_and_refuse_what_lies_outside() -> None:
    wave = waves.spans(1000, [(500, 900)], shift_ms=300)  # on 800..1000, then 0..200
    samples = (0, 199, 200, 799, 800, 999, 1150)
    assert [wave.level_at(t) for t in samples] == [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="inside the loop"):
        waves.spans(1000, [(900, 1100)])
