"""MENU chooses who plays the next match: on the modelled board, through the real pipeline.

A long press arms it, short presses cycle two players -> the computer as Black at
six levels -> as White at six levels -> Plakoto, Fevga, tavli between two players
-> Portes between two players, a second long press starts
the new match in the mode shown (its ``new_match`` names it), and letting the
window pass cancels.  The cube column shows the mode meanwhile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from game_support import scenario
from sim_support import PINMAP

from tavla_pi.engine import NOT_INSTALLED, Level
from tavla_pi.game.menu import MODES, Menu, Mode
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.leds import palette
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.testing.engine import ScriptedEngine

W, B = Color.WHITE, Color.BLACK
HOLD = {"hold": "menu", "ms": 2000}
PRESS = {"press": "menu"}
LEVELS = [level.value for level in Level]


def runner(opponent: OpponentSettings | None = None, *,
           engine_missing: str | None = None) -> ScenarioRunner:
    """A scenario runner; the computer, when it plays, on an engine asked nothing (these
    tests only choose modes: any question would fail the script)."""
    settings = GameSettings(opponent=opponent or OpponentSettings())
    made = ScenarioRunner(PINMAP, settings, engine=ScriptedEngine([]))
    made.referee.menu.engine_missing = engine_missing
    return made


def run(made: ScenarioRunner, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in made.run(scenario(*actions))]


def new_matches(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in ("t", "type")}
            for e in events if e["type"] == "new_match"]


def shown(made: ScenarioRunner) -> tuple[str | None, str | None] | None:
    """The mode ``/api/state`` ``menu`` says the armed MENU shows (None: not armed)."""
    menu = made.state()["menu"]
    return None if menu is None else (menu["opponent"], menu["level"])


def leds(made: ScenarioRunner) -> dict[str, str]:
    """The cube column's LEDs as the pipeline last showed them."""
    state = made.state()
    return {f: c for f, c in zip(state["led_features"], state["leds"], strict=True)
            if f is not None and f.startswith("cube.")}


def test_the_modes_cycle_through_both_colours_and_every_level() -> None:
    assert len(MODES) == 16 and len(set(MODES)) == 16
    assert [m.index for m in MODES] == list(range(16))
    assert MODES[1] == Mode(B, Level.BEGINNER) and MODES[6] == Mode(B, Level.WORLD_CLASS)
    assert MODES[7] == Mode(W, Level.BEGINNER) and MODES[12] == Mode(W, Level.WORLD_CLASS)
    assert [m.variant for m in MODES[13:]] == ["plakoto", "fevga", "tavli"]
    assert all(m.variant == "portes" for m in MODES if m.color is not None)
    assert Mode(None, Level.CASUAL).index == 0
    assert Mode(None, Level.CASUAL, "fevga").index == 14


def test_long_long_starts_a_new_match_in_the_current_mode_as_before() -> None:
    two = run(runner(), {"setup": "start"}, HOLD, HOLD)
    assert new_matches(two) == [{"match_length": 0}]
    computer = run(runner(OpponentSettings(color=B, level=Level.CASUAL)),
                   {"setup": "start"}, HOLD, HOLD)
    assert new_matches(computer) == [{"match_length": 0, "opponent": "black",
                                      "level": "casual"}]


def test_short_presses_show_each_mode_in_turn_and_come_back_round() -> None:
    made = runner()
    run(made, {"setup": "start"}, {"wait": 400}, HOLD)
    seen = [shown(made)]
    for _ in range(13):
        run(made, PRESS)
        seen.append(shown(made))
    expected = [(None, None), *(("black", n) for n in LEVELS), *(("white", n) for n in LEVELS),
                (None, None)]
    assert seen == expected
    assert made.state()["menu_armed"] is True


def test_the_second_long_press_starts_the_mode_shown() -> None:
    made = runner()
    events = run(made, {"setup": "start"}, {"wait": 400}, HOLD, PRESS, PRESS, PRESS, HOLD)
    assert new_matches(events) == [{"match_length": 0, "opponent": "black",
                                    "level": "intermediate"}]
    assert made.referee.settings.opponent == OpponentSettings(color=B, level=Level.INTERMEDIATE)
    assert made.state()["menu"] is None
    assert [e["type"] for e in events].count("game_started") == 2  # set up: the game starts


def test_the_computer_playing_white_at_world_class() -> None:
    made = runner()
    events = run(made, {"setup": "start"}, HOLD, *[PRESS] * 12, HOLD)
    assert new_matches(events) == [{"match_length": 0, "opponent": "white",
                                    "level": "world class"}]


def test_back_to_two_players_from_the_computer() -> None:
    made = runner(OpponentSettings(color=W, level=Level.WORLD_CLASS, coach=False))
    events = run(made, {"setup": "start"}, HOLD, *[PRESS] * 4, HOLD)  # past the games
    assert new_matches(events) == [{"match_length": 0}]
    assert made.referee.settings.opponent == OpponentSettings(color=None,
                                                              level=Level.WORLD_CLASS,
                                                              coach=False)


def test_letting_the_window_pass_cancels_and_each_press_renews_it() -> None:
    made = runner()
    events = run(made, {"setup": "start"}, HOLD, PRESS, {"wait": 5100}, HOLD)
    assert new_matches(events) == []            # the last hold armed the menu afresh
    assert shown(made) == (None, None)          # from the current mode, not the one left
    run(made, {"wait": 5100})
    assert shown(made) is None
    # a long press counts when it is let go: 2 s after this hold starts
    events = run(made, HOLD, {"wait": 4000}, PRESS, {"wait": 4000}, PRESS, {"wait": 2000}, HOLD)
    assert new_matches(events) == [{"match_length": 0, "opponent": "black", "level": "casual"}]


def test_a_short_press_outside_the_menu_changes_nothing() -> None:
    made = runner()
    events = run(made, {"setup": "start"}, {"wait": 400}, PRESS, PRESS, HOLD)
    assert new_matches(events) == [] and shown(made) == (None, None)


def test_without_gnubg_only_two_players_is_offered_and_the_menu_says_why() -> None:
    made = runner(engine_missing=NOT_INSTALLED)
    run(made, {"setup": "start"}, HOLD)
    assert made.state()["menu"] == {"opponent": None, "level": None, "remote": None,
                                    "variant": "portes", "clock": False, "notice": None}
    run(made, PRESS)
    assert made.state()["menu"] == {"opponent": None, "level": None, "remote": None,
                                    "variant": "plakoto", "clock": False,
                                    "notice": NOT_INSTALLED}
    events = run(made, *[PRESS] * 3, HOLD)  # Fevga, tavli, Portes: no computer between
    assert new_matches(events) == [{"match_length": 0}]
    configured = runner(OpponentSettings(color=B), engine_missing=NOT_INSTALLED)
    run(configured, {"setup": "start"}, HOLD)
    assert shown(configured) == ("black", "expert")  # the config's mode, as it stands
    events = run(configured, PRESS, HOLD)
    assert new_matches(events) == [{"match_length": 0}]


def test_the_cube_column_shows_the_mode_being_chosen() -> None:
    made = runner()
    run(made, {"setup": "start"}, {"wait": 400})
    assert set(leds(made).values()) <= {"#000000"} | {palette.to_hex(palette.scale(
        palette.CUBE, palette.FAINT * 0.3))}
    run(made, HOLD, PRESS, PRESS, PRESS, PRESS)              # black, advanced
    lit = {f for f, c in leds(made).items() if c != "#000000"}
    assert lit == {"cube.owner.black", "cube.2", "cube.4", "cube.8", "cube.16"}
    amber = palette.to_hex(palette.scale(palette.AMBER, 0.3))
    dipped = palette.to_hex(palette.scale(palette.AMBER, 0.3 * 0.15))
    assert set(leds(made)[f] for f in lit) <= {amber, dipped}
    run(made, *[PRESS] * 9)                                  # Plakoto, two players
    lit = {f for f, c in leds(made).items() if c != "#000000"}
    assert lit == {"cube.owner.white", "cube.owner.black", "cube.4"}
    run(made, *[PRESS] * 3)                                  # Portes, two players again
    lit = {f for f, c in leds(made).items() if c != "#000000"}
    assert lit == {"cube.owner.white", "cube.owner.black"}
    run(made, {"wait": 5100})
    assert {f for f, c in leds(made).items() if c != "#000000"} == {"cube.64"}


def test_the_menu_machine_on_its_own() -> None:
    menu = Menu(confirm_ms=5000)
    assert menu.press(long=True, now=0, current=Mode(W, Level.ADVANCED)) is None
    assert menu.view(5000) is not None and menu.view(5001) is None
    assert menu.press(long=False, now=1000, current=Mode()) is None
    assert menu.mode == Mode(W, Level.EXPERT)
    assert menu.press(long=True, now=5999, current=Mode()) == Mode(W, Level.EXPERT)
    assert not menu.armed(6000)
    assert Mode(B, Level.CASUAL).apply(OpponentSettings(coach=False)) == OpponentSettings(
        color=B, level=Level.CASUAL, coach=False)


# ---- the web page's choice (Referee.choose_opponent) ------------------------------------

def test_a_choice_during_the_first_setup_applies_at_once_with_a_new_match() -> None:
    referee = Referee(GameSettings(match_length=3), ScriptedDice())
    chosen = OpponentSettings(color=W, level=Level.ADVANCED)
    events = referee.choose_opponent(chosen, now=10)
    assert [(e.type, e.fields) for e in events] == [
        ("new_match", {"match_length": 3, "opponent": "white", "level": "advanced"})]
    assert referee.settings.opponent == chosen and referee.phase is Phase.SETUP
    assert referee.choose_opponent(replace(chosen, coach=False), now=20) == []
    assert referee.settings.opponent.coach is False


def test_a_choice_during_a_game_waits_for_the_next_new_match() -> None:
    made = runner()
    run(made, {"setup": "start"}, {"wait": 400})
    assert made.referee.phase is Phase.OPENING
    chosen = OpponentSettings(color=B, level=Level.BEGINNER)
    assert made.referee.choose_opponent(chosen, made.clock.now_ms()) == []
    assert made.referee.settings.opponent == OpponentSettings()
    assert shown(made) is None
    events = run(made, HOLD)
    assert shown(made) == ("black", "beginner")      # the menu starts from the choice
    events = run(made, HOLD)
    assert new_matches(events) == [{"match_length": 0, "opponent": "black",
                                    "level": "beginner"}]
    assert made.referee.settings.opponent == chosen


@pytest.mark.parametrize("length", [0, 5])
def test_a_scenarios_new_match_takes_the_chosen_mode(length: int) -> None:
    made = runner(OpponentSettings(color=W))
    events = run(made, {"setup": "start", "match_length": length})
    assert new_matches(events) == [{"match_length": length, "opponent": "white",
                                    "level": "expert"}]


def test_menu_starts_a_match_of_a_greek_game_between_two_players() -> None:
    made = runner(OpponentSettings(color=B, coach=False))
    events = run(made, {"setup": "start"}, HOLD)
    assert shown(made) == ("black", "expert")
    events = run(made, *[PRESS] * 8, HOLD)  # past White's levels to Plakoto
    assert new_matches(events) == [{"match_length": 0, "variant": "plakoto"}]
    referee = made.referee
    assert (referee.tavli.name, referee.next_variant) == ("plakoto", "plakoto")
    assert referee.settings.opponent.color is None and referee.settings.variant == "plakoto"
    events = run(made, HOLD, *[PRESS] * 2, HOLD)  # Fevga, then a tavli match
    assert new_matches(events) == [{"match_length": 0, "variant": "tavli"}]


def test_a_variant_chosen_while_setting_up_starts_that_match_at_once() -> None:
    made = runner()
    run(made, {"wait": 400})  # the board not yet set up: the first game waits
    events = [e.to_dict() for e in made.referee.choose_variant("fevga", 5_000)]
    assert new_matches(events) == [{"match_length": 0, "variant": "fevga"}]
    assert made.referee.view().match_variant == "fevga"


def test_a_configured_friends_board_is_the_mode_after_two_players() -> None:
    friend = OpponentSettings(color=B, remote="izmir")
    menu = Menu(5000, None, (friend,))
    assert menu.modes[:3] == (Mode(), Mode(B, remote="izmir"), Mode(B, Level.BEGINNER))
    assert menu.press(long=True, now=0, current=Mode()) is None
    assert menu.press(long=False, now=10, current=Mode()) is None
    chosen = menu.press(long=True, now=20, current=Mode())
    assert chosen == Mode(B, remote="izmir")
    assert chosen.apply(OpponentSettings()) == replace(OpponentSettings(), color=B,
                                                       remote="izmir")
    assert Mode(B, Level.EXPERT).apply(friend).remote is None  # the computer's mode


def test_without_gnubg_the_friends_board_is_still_offered() -> None:
    menu = Menu(5000, NOT_INSTALLED, (OpponentSettings(color=W, remote="athens"),))
    menu.press(long=True, now=0, current=Mode())
    menu.press(long=False, now=10, current=Mode())
    friend = menu.view(10)
    assert friend is not None and friend.mode == Mode(W, remote="athens")
    menu.press(long=False, now=20, current=Mode())  # past the computer's modes
    shown = menu.view(20)
    assert shown is not None and shown.mode == Mode(variant="plakoto")
    assert shown.notice == NOT_INSTALLED


def test_the_configured_online_opponent_is_the_mode_after_two_players() -> None:
    online = OpponentSettings(color=B, online=True)
    menu = Menu(5000, NOT_INSTALLED, (online,))  # offered without gnubg too
    assert menu.modes[:2] == (Mode(), Mode(B, online=True))
    menu.press(long=True, now=0, current=Mode())
    menu.press(long=False, now=10, current=Mode())
    chosen = menu.press(long=True, now=20, current=Mode())
    assert chosen == Mode(B, online=True) and chosen.apply(OpponentSettings()) == online
    assert Mode.of(online) == chosen and chosen.seat.online
    assert Mode().apply(online) == OpponentSettings()  # two players: nobody online
