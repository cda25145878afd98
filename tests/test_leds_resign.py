"""The light of a resignation (docs/PLAYING.md "What the lights mean"), read back by feature name.

The cube column shows the level in the resigner's colour instead of the
cube: one LED from its 2 end for a single, two for a gammon, three for a
backgammon; steady while chosen, blinking with the answerer's turn LED once
offered.  Then through the pipeline: chosen, offered, declined.
"""

from __future__ import annotations

import pytest
from game_support import press, replay
from leds_support import lit, on_off, runs
from sim_support import PINMAP

from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette, waves
from tavla_pi.leds.render import scene
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.position import Position

W, B = Color.WHITE, Color.BLACK
COLUMN = ("cube.2", "cube.4", "cube.8", "cube.16", "cube.32", "cube.64")


def column(view: GameView, ms: int = 0) -> dict[str, tuple[int, int, int]]:
    return {f: rgb for f, rgb in lit(view, ms).items() if f.startswith("cube.")}


@pytest.mark.parametrize("level", list(Resignation)[1:])
def test_choosing_shows_the_level_steady_in_the_resigners_colour(level: Resignation) -> None:
    view = GameView(Phase.AWAIT_ROLL, B, cube_value=8, cube_owner=W, resigning=B,
                    resign_level=level)
    shown = COLUMN[:int(level)]
    assert column(view) == dict.fromkeys(shown, palette.player(B))  # not the cube at 8
    assert all(all(on_off(view, feature)) for feature in shown)
    assert all(on_off(view, "turn.black"))  # still Black's turn: ROLL offers
    assert not any(on_off(view, "turn.white"))


def test_an_offer_blinks_with_the_answerers_turn_led() -> None:
    view = GameView(Phase.RESIGN_OFFERED, W, resigning=W, resign_level=Resignation.GAMMON,
                    resign_offered=True)
    assert set(column(view)) == {"cube.2", "cube.4"}
    assert column(view)["cube.4"] == palette.player(W)
    rhythm = runs(on_off(view, "cube.2"))
    assert rhythm[:2] == [(True, 500), (False, 500)]
    assert on_off(view, "turn.black") == on_off(view, "cube.2")  # together
    assert not any(on_off(view, "turn.white"))
    assert "cube.64" not in lit(view)  # the faint centred cube gives way too


def test_a_level_outside_single_to_backgammon_is_a_bug() -> None:
    with pytest.raises(ValueError, match="resign_level"):
        scene(GameView(Phase.AWAIT_ROLL, W, resigning=W))


def test_through_the_pipeline_the_column_goes_back_to_the_cube_when_declined() -> None:
    runner = ScenarioRunner(PINMAP, GameSettings())
    match = MatchState(cube=8, cube_owner=W, on_roll=B, to_act=B)
    board = Board.from_counts({"6": 3, "5": 3, "4": 3, "3": 3, "2": 3},
                              {"1": 2, "12": 5, "17": 3, "19": 5})
    position = Position.from_board(board, B)
    replay({"load": {"position_id": position.position_id(), "match_id": match.match_id()}},
           {"hold": "black.cube", "ms": 2000}, press("black.cube"), runner=runner)
    lights = scene(runner.referee.view())
    amber = palette.player(B)
    assert {f: (light.color, light.wave) for f, light in lights.items()
            if f.startswith("cube.")} == {"cube.2": (amber, waves.STEADY),
                                          "cube.4": (amber, waves.STEADY)}
    replay(press("black.roll"), runner=runner)
    lights = scene(runner.referee.view())
    assert {f for f in lights if f.startswith("cube.")} == {"cube.2", "cube.4"}
    assert lights["cube.4"].wave == lights["turn.white"].wave == waves.OFFER
    replay(press("white.cube"), runner=runner)
    lights = scene(runner.referee.view())
    assert lights["cube.8"].color == palette.CUBE  # the cube again, with its owner
    assert "cube.owner.white" in lights
