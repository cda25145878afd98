"""Plakoto and the tavli match through the referee on the modelled board, journaled."""

from __future__ import annotations

from typing import Any

from game_support import dice, move, press, scenario
from sim_support import PINMAP

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.menu import MODES
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color

PLAKOTO_PIN = (
    {"setup": "start", "variant": "plakoto", "match_length": 3},
    dice(5, 3), press("white.roll"),                     # the opening roll: White starts
    dice(2, 1), press("white.roll"),                     # and rolls both dice
    move("24/22", "white"), move("24/23", "white"), press("white.roll"),
    press("black.cube"),                                 # no cube in Plakoto
    dice(6, 6), press("black.roll"),
    move("1/7", "black"), move("7/13", "black"), move("13/19", "black"), move("1/7", "black"),
    press("black.roll"),
    dice(5, 3), press("white.roll"),
    move("24/19", "white"), move("22/19", "white"), press("white.roll"),   # the pin
)


def run(*actions: dict[str, Any]) -> tuple[ScenarioRunner, list[Event]]:
    runner = ScenarioRunner(PINMAP, GameSettings())
    return runner, list(runner.run(scenario(*actions)))


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.fields) for e in events if e.type == kind]


def test_plakoto_opening_winner_rolls_both_dice() -> None:
    _, events = run(*PLAKOTO_PIN[:5])
    assert of_type(events, "new_match") == [{"match_length": 3, "variant": "plakoto"}]
    assert of_type(events, "game_started")[0]["variant"] == "plakoto"
    assert of_type(events, "opening_roll") == [{"white": 5, "black": 3, "starter": "white"}]
    assert of_type(events, "rolled") == [{"player": "white", "dice": [2, 1]}]


def test_no_cube_in_plakoto() -> None:
    _, events = run(*PLAKOTO_PIN)
    assert {"player": "black", "reason": "no cube in plakoto"} in of_type(events, "rejected")
    assert not of_type(events, "double_offered")


def test_a_checker_landing_on_a_lone_checker_pins_it_and_played_carries_the_board() -> None:
    runner, events = run(*PLAKOTO_PIN)
    last = of_type(events, "played")[-1]
    assert last["play"] == "24/19* 22/19"
    assert last["board"] == {"white": {"19": 2, "23": 1, "24": 12},
                             "black": {"1": 13, "7": 1, "19": 1}, "pinned": {"19": "black"}}
    assert runner.referee.view().phase is Phase.AWAIT_ROLL


def test_a_plakoto_game_resumes_exactly_from_the_journal() -> None:
    runner, events = run(*PLAKOTO_PIN)
    checked = verify(events, GameSettings())
    assert (checked.trusted, checked.reason) == (len(events), "")
    live, state = runner.referee, checked.state
    assert state.game_position() == live.game_position()
    assert (state.match, state.tavli, state.phase) == (live.match, live.tavli, live.phase)
    assert state.game_position().variant == "plakoto"
    assert state.game_position().on_roll is Color.BLACK


def test_a_takeback_in_a_plakoto_journal_is_refused() -> None:
    _, events = run(*PLAKOTO_PIN)
    last = max(i for i, e in enumerate(events) if e.type == "played")
    played = events[last]
    fields = {"player": played["player"], "dice": played["dice"],
              "position_id": "AACA/z8AAID/Pw", "match_id": played["match_id"]}
    takeback = Event(EventType.TAKEBACK, played.t, fields)
    checked = verify([*events[:last + 1], takeback], GameSettings())
    assert checked.trusted == last + 1
    assert checked.reason.startswith("takeback: only the last play may be taken back")


def test_every_prefix_of_a_plakoto_journal_folds() -> None:
    _, events = run(*PLAKOTO_PIN)
    for n in range(len(events)):
        assert verify(events[:n], GameSettings()).trusted == n


def test_a_forged_plakoto_board_is_not_trusted() -> None:
    _, events = run(*PLAKOTO_PIN)
    forged = list(events)
    i = max(k for k, e in enumerate(forged) if e.type == "played")
    fields = dict(forged[i].fields, board={"white": {"24": 15}, "black": {"1": 15},
                                           "pinned": {}})
    forged[i] = Event(forged[i].type, forged[i].t, fields)
    assert verify(forged, GameSettings()).trusted == i


def test_a_tavli_match_starts_with_portes_and_no_cube() -> None:
    runner, events = run({"setup": "start", "variant": "tavli", "match_length": 3},
                         dice(5, 3), press("white.roll"), press("black.cube"))
    assert of_type(events, "new_match") == [{"match_length": 3, "variant": "tavli"}]
    assert of_type(events, "game_started")[0]["variant"] == "portes"
    assert runner.referee.phase is Phase.MOVING  # Portes plays the opening dice
    assert runner.referee.tavli.variant == "portes"


def test_the_computer_is_not_offered_with_plakoto() -> None:
    assert all(mode.variant == "portes" for mode in MODES if mode.color is not None)
    runner, _ = run({"setup": "start", "variant": "plakoto"})
    runner.referee.choose_opponent(OpponentSettings(color=Color.BLACK), 5_000)
    events = runner.referee.new_match(0, 6_000)
    assert runner.referee.settings.opponent.color is None  # a Plakoto match: two players
    started = [e.to_dict() for e in events if e.type == "new_match"]
    assert [e["variant"] for e in started] == ["plakoto"] and "opponent" not in started[0]


def test_the_view_shows_the_game_its_number_and_the_pins() -> None:
    runner, _ = run(*PLAKOTO_PIN)
    view = runner.referee.view()
    assert (view.variant, view.match_variant, view.tavli_game) == ("plakoto", "plakoto", 1)
    assert view.pinned == {"19": Color.BLACK}
    assert view.first_checker is None


def test_fevga_first_checker_rule_is_shown_while_it_binds() -> None:
    runner, events = run({"setup": "start", "variant": "fevga"},
                         dice(5, 3), press("white.roll"), dice(2, 1), press("white.roll"),
                         move("24/21", "white"), press("white.roll"),
                         dice(6, 5), press("black.roll"), move("12/1", "black"),
                         press("black.roll"))
    first = of_type(events, "played")[0]
    assert first["board"]["white"] == {"21": 1, "24": 14}
    assert runner.referee.view().first_checker == "21"  # White's first checker, not yet past 12
