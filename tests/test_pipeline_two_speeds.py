"""Two speeds of one board: the provisional board lights the LEDs within two scans, the
stable board alone makes decisions; DONE is acted on at its press edge."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import GameView, Phase
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.replay.actions import parse_line
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color


def act(runner: ScenarioRunner, *actions: dict[str, Any]) -> list[Event]:
    """Apply scenario actions; their events."""
    events: list[Event] = []
    for action in actions:
        parsed = parse_line(json.dumps(action), "inline")
        assert parsed is not None
        events += runner.apply(parsed)
    return events


def moving(pinmap: PinMap) -> ScenarioRunner:
    """White to move 3-1 from the starting position, the board settled."""
    runner = ScenarioRunner(pinmap, GameSettings())
    list(runner.advance(0))
    act(runner, {"setup": "start"}, {"wait": 1500}, {"dice": [3, 1]},
        {"press": "white.roll"}, {"wait": 1000})
    assert runner.referee.phase is Phase.MOVING
    return runner


def shown(runner: ScenarioRunner) -> GameView:
    assert runner.pipeline.view is not None
    return runner.pipeline.view


def types(events: Iterable[Event]) -> list[str]:
    return [str(e.type) for e in events]


def test_a_lift_is_lit_after_two_scans_and_decided_on_after_the_stable_time(
        pinmap: PinMap) -> None:
    runner = moving(pinmap)
    verdict = runner.referee.turn.verdict if runner.referee.turn else None
    act(runner, {"lift": "8", "color": "white"})
    events = act(runner, {"wait": 40})
    assert shown(runner).lifted_from == "8"
    assert shown(runner).destinations == ("4", "5", "7")
    assert runner.referee.view().lifted_from is None  # the game has decided nothing yet
    assert runner.referee.turn is not None and runner.referee.turn.verdict is verdict
    assert events == []
    events = act(runner, {"wait": 140})
    assert [(e.type, e.fields["from"]) for e in events] == [(EventType.LIFTED, "8")]


def test_a_phantom_may_light_a_fix_but_never_decides(pinmap: PinMap) -> None:
    runner = moving(pinmap)
    act(runner, {"glitch": {"at": "3", "color": "black", "ms": 120}})
    lit = []
    events = []
    for _ in range(8):
        events += act(runner, {"wait": 20})
        lit.append(bool(shown(runner).fixes))
    assert any(lit) and not lit[-1]  # lit while the phantom lasted, then withdrawn
    assert events == []  # no out_of_sync, no in_sync: the stable board never changed
    assert runner.referee.view().fixes == ()


def test_a_phantom_beside_a_lift_lights_the_lift(pinmap: PinMap) -> None:
    runner = moving(pinmap)
    act(runner, {"lift": "8", "color": "white"},
        {"glitch": {"at": "20", "color": "black", "ms": 120}}, {"wait": 40})
    assert shown(runner).lifted_from == "8" and shown(runner).fixes == ()


def test_a_phantom_of_the_movers_colour_before_a_lift_is_not_its_placement(
        pinmap: PinMap) -> None:
    runner = moving(pinmap)
    act(runner, {"glitch": {"at": "20", "color": "white", "ms": 140}}, {"wait": 40},
        {"lift": "8", "color": "white"}, {"wait": 40})  # 8 -> 20 would read as no play
    assert shown(runner).lifted_from == "8" and shown(runner).fixes == ()


def test_a_placement_and_a_fix_are_lit_at_once(pinmap: PinMap) -> None:
    runner = moving(pinmap)
    act(runner, {"lift": "6", "color": "white"}, {"wait": 300},
        {"place": "4", "color": "white"}, {"wait": 40})  # 6/4 is no play of 3-1
    assert [(f.at, f.delta) for f in shown(runner).fixes] == [("4", -1), ("6", 1)]
    assert runner.referee.view().fixes == ()
    events = act(runner, {"wait": 300})
    assert types(events) == ["out_of_sync"]
    act(runner, {"lift": "4", "color": "white"}, {"wait": 40})
    assert shown(runner).fixes == ()  # the fix made: lit off at once
    assert types(act(runner, {"wait": 300})) == ["in_sync", "lifted"]


def test_done_commits_on_the_press_edge_and_the_release_does_nothing(pinmap: PinMap) -> None:
    runner = moving(pinmap)
    act(runner, {"move": "8/5", "color": "white"}, {"move": "6/5", "color": "white"},
        {"wait": 200})
    buttons = runner.backend.sim_buttons
    buttons.press("white.roll")
    events = act(runner, {"wait": 60})
    assert types(events) == ["played"]  # while the button is still held
    assert shown(runner).phase is Phase.AWAIT_ROLL and shown(runner).on_roll is Color.BLACK
    events = act(runner, {"wait": 2000})  # held past the long threshold
    buttons.release("white.roll")
    events += act(runner, {"wait": 200})
    assert events == []  # not a second press: Black's turn to roll is untouched


def test_a_press_is_acted_on_at_its_edge_only_for_the_movers_done(pinmap: PinMap) -> None:
    runner = ScenarioRunner(pinmap, GameSettings())
    referee = runner.referee
    assert not any(referee.acts_on_press(name) for name in runner.pipeline.buttons.names)
    runner = moving(pinmap)
    referee = runner.referee
    edge = [name for name in runner.pipeline.buttons.names if referee.acts_on_press(name)]
    assert edge == ["white.roll"]


def test_preview_changes_nothing(pinmap: PinMap) -> None:
    runner = moving(pinmap)
    referee = runner.referee
    act(runner, {"lift": "8", "color": "white"}, {"wait": 40})
    seen = runner.pipeline.provisional.current
    assert seen is not None and seen != runner.pipeline.stable
    turn = referee.turn
    assert turn is not None
    before = (turn.verdict, turn.tracker.belief, turn.tracker.verdict, referee.sync_fixes,
              referee.view())
    assert referee.preview(seen).lifted_from == "8"
    assert (turn.verdict, turn.tracker.belief, turn.tracker.verdict, referee.sync_fixes,
            referee.view()) == before


def test_setting_up_lights_the_last_fix_off_at_once_and_starts_when_stable(
        pinmap: PinMap) -> None:
    runner = ScenarioRunner(pinmap, GameSettings())
    list(runner.advance(0))
    act(runner, {"setup": "start"}, {"lift": "6", "color": "white"},
        {"place": "off", "color": "white"}, {"wait": 400})
    assert [(f.at, f.delta) for f in shown(runner).fixes] == [("6", 1)]
    act(runner, {"lift": "off", "color": "white"}, {"place": "6", "color": "white"})
    events = act(runner, {"wait": 40})
    assert shown(runner).fixes == () and events == []
    assert types(act(runner, {"wait": 200})) == ["game_started"]
