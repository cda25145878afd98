"""``/api/state`` says what the tavli lights show: the game, the match's setting, the
game's number, the pinned checkers and Fevga's first checker."""

from __future__ import annotations

from game_support import scenario
from sim_support import PINMAP

from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import GameView, Phase
from tavla_pi.pipeline.snapshot import tavli_state
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import TavliRules


def test_a_plakoto_view_in_words() -> None:
    view = GameView(Phase.MOVING, Color.WHITE, variant="plakoto", match_variant="tavli",
                    tavli_game=2, pinned={"20": Color.WHITE, "5": Color.BLACK})
    assert tavli_state(view) == {"variant": "plakoto", "match_variant": "tavli",
                                 "tavli_game": 2, "pinned": {"20": "white", "5": "black"},
                                 "first_checker": None}


def test_a_fevga_view_names_its_first_checker() -> None:
    view = GameView(Phase.MOVING, Color.BLACK, variant="fevga", match_variant="fevga",
                    first_checker="7")
    assert tavli_state(view)["first_checker"] == "7"


def test_a_portes_game_states_portes_game_one_and_nothing_pinned() -> None:
    runner = ScenarioRunner(PINMAP, GameSettings())
    runner.run(scenario({"setup": "start"}, {"wait": 1500}))
    state = runner.state()
    assert {k: state[k] for k in ("variant", "match_variant", "tavli_game", "pinned",
                                  "first_checker")} == tavli_state(GameView(Phase.SETUP))
    assert tavli_state(GameView(Phase.SETUP)) == {
        "variant": "portes", "match_variant": "portes", "tavli_game": 1, "pinned": {},
        "first_checker": None}


def test_the_cube_is_in_play_in_portes_alone_and_in_tavli_by_its_rules() -> None:
    def cube_in_play(settings: GameSettings) -> bool:
        runner = ScenarioRunner(PINMAP, settings)
        list(runner.run(scenario({"setup": "start"}, {"wait": 200})))
        return bool(runner.state()["cube_in_play"])

    assert cube_in_play(GameSettings())
    assert not cube_in_play(GameSettings(variant="plakoto"))
    assert not cube_in_play(GameSettings(variant="tavli", match_length=5))
    assert cube_in_play(GameSettings(variant="tavli", match_length=5,
                                     tavli=TavliRules(cube_in_portes=True)))
