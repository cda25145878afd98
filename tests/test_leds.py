"""Every meaning of docs/PLAYING.md "What the lights mean", read back by feature name."""

from __future__ import annotations

import pytest
from leds_support import frame, lit, luminance, on_off, runs

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette
from tavla_pi.leds.dice import PIPS, points_faces
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color

W, B = Color.WHITE, Color.BLACK
SAMPLES = range(0, 2400, 10)


def pips(color: str, die: int, value: int) -> set[str]:
    return {f"die.{color}.{die}.pip.{k}" for k in PIPS[value]}


def steady_on(view: GameView, feature: str) -> bool:
    return all(on_off(view, feature))


def always_off(view: GameView, feature: str) -> bool:
    return not any(on_off(view, feature))


# ---- whose turn, press DONE ----

def test_whose_turn_is_the_steady_turn_led_of_the_player_on_roll() -> None:
    for player, other in ((W, B), (B, W)):
        view = GameView(Phase.AWAIT_ROLL, player)
        assert steady_on(view, f"turn.{player.value}")
        assert always_off(view, f"turn.{other.value}")
        assert frame(view)[f"turn.{player.value}"] == palette.player(player)


def test_press_done_breathes_the_movers_turn_led() -> None:
    view = GameView(Phase.MOVING, W, dice=(5, 2), dice_used=(True, True), press_done=True)
    levels = [luminance(frame(view, t)["turn.white"]) for t in SAMPLES]
    assert min(levels) > 0                      # never dark: still White's turn
    assert max(levels) > 5 * min(levels)        # a deep, visible swell
    assert len(set(levels)) > 20                # smooth, not an on/off blink
    assert levels[0] == levels[200]             # a 2 s loop
    assert levels[100] == max(levels)
    assert always_off(view, "turn.black")


# ---- the dice ----

def test_opening_roll_shows_each_die_on_its_owners_side() -> None:
    view = GameView(Phase.OPENING, dice=(5, 2))
    on = set(lit(view))
    assert pips("white", 0, 5) | pips("black", 0, 2) <= on
    dice_on = {n for n in on if n.startswith("die.")}
    assert dice_on == pips("white", 0, 5) | pips("black", 0, 2)
    assert {"turn.white", "turn.black"} <= on    # either player may roll


def test_rolled_dice_show_on_the_rollers_faces_and_used_ones_dim() -> None:
    view = GameView(Phase.MOVING, B, dice=(6, 4), dice_used=(True, False))
    now = lit(view)
    assert {n for n in now if n.startswith("die.")} == pips("black", 0, 6) | pips("black", 1, 4)
    used = luminance(now["die.black.0.pip.0"])
    unused = luminance(now["die.black.1.pip.0"])
    assert 0 < used < unused / 5
    assert all(steady_on(view, n) for n in ("die.black.0.pip.0", "die.black.1.pip.0"))


@pytest.mark.parametrize(
    ("used", "faces"),
    [(0, ("full", "full")), (1, ("half", "full")), (2, ("used", "full")),
     (3, ("used", "half")), (4, ("used", "used"))],
)
def test_doubles_show_used_quarters(used: int, faces: tuple[str, str]) -> None:
    flags = tuple(i < used for i in range(4))
    view = GameView(Phase.MOVING, W, dice=(3, 3), dice_used=flags)
    now = frame(view)
    level = {"full": 1.0, "half": palette.HALF, "used": palette.USED}
    for die, face in enumerate(faces):
        for name in pips("white", die, 3):
            expected = palette.scale(palette.DICE, level[face])
            assert now[name] == expected


def test_no_legal_move_makes_both_faces_flicker_fast() -> None:
    view = GameView(Phase.NO_MOVE, B, dice=(6, 6), no_legal_move=True)
    for name in pips("black", 0, 6) | pips("black", 1, 6):
        assert runs(on_off(view, name))[:4] == [(True, 120), (False, 120)] * 2
    assert frame(view)["die.black.0.pip.0"] == palette.UNPLAYABLE
    assert steady_on(view, "turn.black")


def test_rejected_done_blinks_only_the_unused_dice() -> None:
    view = GameView(Phase.MOVING, W, dice=(4, 1), dice_used=(False, True), dice_blink=True)
    assert runs(on_off(view, "die.white.0.pip.0"))[:2] == [(True, 300), (False, 300)]
    assert steady_on(view, "die.white.1.pip.3")          # the played 1 stays dim
    quiet = GameView(Phase.MOVING, W, dice=(4, 1), dice_used=(False, True))
    assert steady_on(quiet, "die.white.0.pip.0")


# ---- the cube ----

def test_centred_cube_is_a_faint_mark_on_the_64() -> None:
    now = lit(GameView(Phase.AWAIT_ROLL, W))
    cube = {n: rgb for n, rgb in now.items() if n.startswith("cube.")}
    assert set(cube) == {"cube.64"}
    assert luminance(cube["cube.64"]) < 0.1 * luminance(palette.CUBE)
    assert not any(n.startswith("cube.") for n in lit(GameView(Phase.SETUP)))


def test_cube_value_and_owner() -> None:
    view = GameView(Phase.AWAIT_ROLL, B, cube_value=4, cube_owner=W)
    cube = {n for n in lit(view) if n.startswith("cube.")}
    assert cube == {"cube.4", "cube.owner.white"}
    assert steady_on(view, "cube.4")
    assert frame(view)["cube.4"] == palette.CUBE
    with pytest.raises(ValueError, match="cube_value"):
        frame(GameView(Phase.AWAIT_ROLL, B, cube_value=3))


def test_pending_double_blinks_the_offer_and_the_takers_turn_together() -> None:
    view = GameView(Phase.DOUBLE_OFFERED, W, cube_value=2, cube_owner=W, double_offered_by=W)
    offer = on_off(view, "cube.4")
    assert runs(offer)[:2] == [(True, 500), (False, 500)]
    assert on_off(view, "turn.black") == offer
    assert steady_on(view, "cube.2") and steady_on(view, "cube.owner.white")
    assert always_off(view, "turn.white")
    first = GameView(Phase.DOUBLE_OFFERED, B, double_offered_by=B)
    assert runs(on_off(first, "cube.2"))[0] == (True, 500)
    assert on_off(first, "turn.white") == on_off(first, "cube.2")


# ---- a lifted checker ----

def test_lifted_checker_lights_source_and_destinations() -> None:
    view = GameView(Phase.MOVING, W, dice=(6, 3), lifted_from="13",
                    destinations=("4", "7", "10"))
    now = lit(view)
    points = {n for n in now if n.startswith("point.")}
    assert points == {"point.13", "point.4", "point.7", "point.10"}
    assert now["point.7"] == palette.DESTINATION
    assert luminance(now["point.13"]) < 0.5 * luminance(now["point.7"])
    assert all(steady_on(view, f"point.{p}") for p in (4, 7, 10, 13))


def test_bar_and_tray_stand_for_bar_and_off() -> None:
    view = GameView(Phase.MOVING, W, dice=(3, 1), lifted_from="3", destinations=("2", "off"))
    assert lit(view)["tray.white"] == palette.DESTINATION
    entering = GameView(Phase.MOVING, B, dice=(3, 1), lifted_from="bar", destinations=("3",))
    now = lit(entering)
    assert "bar.black" in now and "bar.white" not in now
    assert now["point.3"] == palette.DESTINATION


# ---- out of sync and setup ----

def test_out_of_sync_add_blinks_slow_and_remove_fast() -> None:
    view = GameView(Phase.MOVING, W, dice=(2, 1),
                    fixes=(Fix("8", W, 1), Fix("6", W, -2), Fix("bar", B, -1), Fix("off", W, 1)))
    add, remove = on_off(view, "point.8"), on_off(view, "point.6")
    assert runs(add)[:2] == [(True, 800), (False, 400)]
    assert runs(remove)[:2] == [(True, 150), (False, 150)]
    assert on_off(view, "bar.black") == remove
    assert on_off(view, "tray.white") == add
    assert always_off(view, "bar.white")
    assert frame(view)["point.8"] == palette.ADD
    assert frame(view)["point.6"] == palette.REMOVE


def test_removal_shows_first_where_a_point_needs_both() -> None:
    view = GameView(Phase.MOVING, W, fixes=(Fix("5", W, 1), Fix("5", B, -1)))
    assert runs(on_off(view, "point.5"))[0] == (True, 150)


def test_setup_guidance_uses_the_same_add_and_remove_patterns() -> None:
    view = GameView(Phase.SETUP, fixes=(Fix("24", W, 2), Fix("1", B, 2), Fix("20", B, -1)))
    assert runs(on_off(view, "point.24"))[:2] == [(True, 800), (False, 400)]
    assert runs(on_off(view, "point.1"))[:2] == [(True, 800), (False, 400)]
    assert runs(on_off(view, "point.20"))[:2] == [(True, 150), (False, 150)]
    assert set(lit(view)) == {"point.24", "point.1", "point.20"}
    assert lit(GameView(Phase.SETUP)) == {}


# ---- hits and ambiguity ----

def test_hit_checker_point_and_bar_half_alternate() -> None:
    view = GameView(Phase.MOVING, W, dice=(4, 2), to_bar=("5",))
    point, bar = on_off(view, "point.5"), on_off(view, "bar.black")
    assert runs(point)[:2] == [(True, 400), (False, 400)]
    assert all(p != b for p, b in zip(point, bar, strict=True))  # exactly one lit at a time
    assert frame(view)["point.5"] == palette.TO_BAR
    assert always_off(view, "bar.white")


def test_ambiguous_candidates_double_flash() -> None:
    view = GameView(Phase.MOVING, W, dice=(5, 1), candidates=("8", "7"))
    for name in ("point.8", "point.7"):
        assert runs(on_off(view, name))[:4] == [(True, 120), (False, 120), (True, 120),
                                                 (False, 640)]


# ---- the end ----

def test_winner_and_points_won() -> None:
    view = GameView(Phase.GAME_OVER, winner=B, points_won=2)
    now = lit(view)
    assert {"turn.black", "tray.black"} <= set(now)
    assert {n for n in now if n.startswith("die.")} == pips("black", 0, 2)
    assert steady_on(view, "tray.black") and always_off(view, "turn.white")
    assert now["die.black.0.pip.0"] == palette.player(B)


@pytest.mark.parametrize(
    ("points", "cube", "faces"),
    [(0, 1, ()), (1, 1, (1,)), (6, 2, (6,)), (9, 4, (6, 3)), (12, 4, (6, 6)),
     (24, 8, (3,)), (64, 64, (1,)), (192, 64, (3,)), (13, 1, (6, 6))],
)
def test_points_read_as_dice(points: int, cube: int, faces: tuple[int, ...]) -> None:
    assert points_faces(points, cube) == faces


def test_big_win_shows_the_cube_times_the_die() -> None:
    view = GameView(Phase.GAME_OVER, cube_value=8, cube_owner=B, winner=W, points_won=24)
    now = lit(view)
    assert {n for n in now if n.startswith("die.")} == pips("white", 0, 3)
    assert "cube.8" in now


def test_match_over_beats_slowly() -> None:
    view = GameView(Phase.MATCH_OVER, winner=W, points_won=4, score=(7, 3), match_length=7)
    assert runs(on_off(view, "turn.white"))[:2] == [(True, 900), (False, 300)]
    assert on_off(view, "tray.white") == on_off(view, "turn.white")
    assert steady_on(view, "die.white.0.pip.0")
