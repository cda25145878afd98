"""The latency table of ``tavla-pi replay --timings``: what a hand's action is answered
with, and how long the event and the lit frame take, in virtual ms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import GameView, Phase
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.replay.actions import Action, parse_line
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.replay.timings import (
    DONE_PRESS,
    DONE_RELEASE,
    LIFT,
    PLACE,
    FlickerCount,
    Mark,
    Timeline,
    lights,
)
from tavla_pi.rules.color import Color

OPENED = ['{"setup": "start"}', '{"wait": 1500}', '{"dice": [3, 1]}',
          '{"press": "white.roll"}', '{"wait": 1000}']
"""The starting position, and White to move 3-1."""


def actions(lines: list[str]) -> list[Action]:
    parsed = [parse_line(line, f"line {n}") for n, line in enumerate(lines, 1)]
    return [a for a in parsed if a is not None]


def replay(pinmap: PinMap, lines: list[str]) -> tuple[Timeline, list[Event]]:
    """Run the scenario lines with a timeline; it and the events."""
    runner = ScenarioRunner(pinmap, GameSettings())
    timeline = Timeline()
    runner.watchers.append(timeline)
    events = list(runner.advance(0))
    for action in actions(lines):
        events += runner.apply(action)
    events += runner.finish()
    timeline.close()
    return timeline, events


def test_a_lift_is_timed_from_the_hand_to_its_event(pinmap: PinMap) -> None:
    timeline, events = replay(pinmap, [*OPENED, '{"lift": "8", "color": "white"}',
                                       '{"wait": 1000}'])
    lifted = [e for e in events if e.type == EventType.LIFTED]
    assert [e.fields["from"] for e in lifted] == ["8"]
    lift = timeline.answers[LIFT]
    assert lift.event == [lifted[0].t - 2680]  # the hand lifted at 2680 ms
    assert lift.event == [180]  # the stable time (150 ms, on 20 ms scans) and a scan
    assert lift.frame == [40]  # two scans agree: the provisional board is lit
    assert timeline.quick_lifts == 0


def test_done_is_timed_from_the_press_and_from_the_release(pinmap: PinMap) -> None:
    timeline, events = replay(pinmap, [*OPENED, '{"move": "8/5", "color": "white"}',
                                       '{"move": "6/5", "color": "white"}',
                                       '{"press": "white.roll"}'])
    assert [e.fields["play"] for e in events if e.type == EventType.PLAYED] == ["8/5 6/5"]
    press, release = timeline.answers[DONE_PRESS], timeline.answers[DONE_RELEASE]
    assert len(press.event) == len(release.event) == 1
    assert press.event[0] - release.event[0] == 100  # a short press is held 100 ms
    assert press.frame == press.event  # the committed play lights in the same scan
    assert press.event == [60] and release.event == [-40]  # acted on at the press edge
    assert len(timeline.answers[LIFT].event) == 2
    assert len(timeline.answers[PLACE].event) == 2


def test_a_lift_put_down_before_it_was_answered_is_a_quick_lift(pinmap: PinMap) -> None:
    timeline, _ = replay(pinmap, [*OPENED, '{"lift": "8", "color": "white"}',
                                  '{"wait": 60}', '{"place": "8", "color": "white"}',
                                  '{"wait": 500}'])
    assert timeline.answers[LIFT].event == []
    assert timeline.quick_lifts == 1


MOVING = GameView(Phase.MOVING, on_roll=Color.WHITE, dice=(3, 1))


def test_latencies_are_counted_from_views() -> None:
    timeline = Timeline()
    lifted = GameView(Phase.MOVING, on_roll=Color.WHITE, dice=(3, 1), lifted_from="8",
                      destinations=("5", "7"))
    timeline.mark(Mark("lift", 1000, "8", Color.WHITE, (1, 0)), MOVING)
    timeline.scan(1020, [], MOVING, MOVING)
    timeline.scan(1040, [], MOVING, lifted)
    timeline.scan(1060, [], lifted, lifted)
    timeline.mark(Mark("place", 1100, "5", Color.WHITE, (0, 0)), lifted)
    timeline.scan(1120, [], lifted, lifted)
    timeline.close()  # the game never answered the placement: not counted
    assert timeline.answers[LIFT].event == [60] and timeline.answers[LIFT].frame == [40]
    assert timeline.answers[PLACE].event == []
    summary = timeline.summary()
    assert summary[LIFT]["frame"] == {"median": 40, "p99": 40, "max": 40}
    assert summary[PLACE]["event"] is None


def test_done_committed_before_the_release_has_a_negative_latency_from_it() -> None:
    timeline = Timeline()
    played = Event(EventType.PLAYED, 1060, {})
    after = GameView(Phase.AWAIT_ROLL, on_roll=Color.BLACK)
    timeline.mark(Mark("press", 1000, "white.roll"), MOVING)
    timeline.scan(1060, [played], after, after)
    timeline.mark(Mark("release", 1100, "white.roll"), after)
    timeline.close()
    assert timeline.answers[DONE_PRESS].event == [60]
    assert timeline.answers[DONE_RELEASE].event == [-40]
    assert timeline.answers[DONE_RELEASE].frame == [-40]


def test_the_cli_prints_the_table_on_stderr(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "lift.jsonl"
    scenario.write_text("\n".join([*OPENED, '{"lift": "8", "color": "white"}',
                                   '{"wait": 1000}']) + "\n")
    assert main(["replay", str(scenario), "--timings"]) == 0
    out, err = capsys.readouterr()
    assert all(json.loads(line)["type"] for line in out.splitlines())  # events only
    assert err.splitlines()[0].startswith("answer (virtual ms from the hand)")
    row = next(line for line in err.splitlines() if line.startswith(LIFT))
    assert row.split()[3] == "1"  # one answer


def test_a_light_withdrawn_within_100_ms_flickered() -> None:
    count = FlickerCount()
    lit = GameView(Phase.MOVING, on_roll=Color.WHITE, dice=(3, 1), lifted_from="8",
                   destinations=("5", "7"))
    count.scan(1000, [], MOVING, MOVING)
    count.scan(1020, [], MOVING, lit)  # lit by the frame, never by the game: a glitch
    count.scan(1060, [], MOVING, MOVING)
    assert (count.flickers, count.unseen) == (3, 3)  # the origin and two destinations
    count.scan(1100, [], lit, lit)
    count.scan(1200, [], MOVING, MOVING)  # lit 100 ms: no flicker
    count.scan(1220, [], lit, lit)
    count.scan(1240, [], MOVING, MOVING)  # the game showed it too: seen
    assert (count.flickers, count.unseen) == (6, 3)
    assert lights(lit) == {("lifted", "8"), ("destination", "5"), ("destination", "7")}
    assert count.phantom == 0
    count.mark(Mark("glitch", 1300, "3", Color.BLACK, ms=60), MOVING)
    count.scan(1320, [], MOVING, lit)
    count.scan(1340, [], MOVING, MOVING)  # lit while the phantom stood
    assert (count.flickers, count.unseen, count.phantom) == (9, 6, 3)


def test_a_light_the_hand_put_out_within_100_ms_did_not_flicker() -> None:
    count = FlickerCount()
    lit = GameView(Phase.MOVING, on_roll=Color.WHITE, dice=(3, 1), lifted_from="8",
                   destinations=("5", "7"))
    count.scan(1000, [], MOVING, MOVING)
    count.mark(Mark("lift", 1000, "8", Color.WHITE, (1, 0)), MOVING)
    count.scan(1020, [], MOVING, MOVING)
    count.scan(1040, [], MOVING, lit)  # the lift lit
    count.mark(Mark("place", 1060, "7", Color.WHITE), MOVING)
    count.scan(1060, [], MOVING, lit)
    count.scan(1080, [], MOVING, lit)
    count.scan(1100, [], MOVING, MOVING)  # put out by the placement, 60 ms on
    assert (count.flickers, count.followed) == (0, 3)
    count.scan(1120, [], MOVING, lit)
    count.scan(1140, [], MOVING, MOVING)  # the hand did nothing since: a flicker
    assert (count.flickers, count.followed) == (3, 3)
