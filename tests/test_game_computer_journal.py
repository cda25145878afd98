"""The computer's events in the journal: checked by the rules, folded, and resumed from.

A game against the scripted computer is played on the modelled board; its
events must all follow (``restore.verify``), an ``seat_play`` that is not a
legal play and a ``takeback`` out of place must not, and a referee resumed
from the journal goes on exactly: after ``seat_play`` it keeps the play to
carry out without asking again; resumed while the engine was thinking it
asks again and gets the same play; a takeback stays possible.
"""

from __future__ import annotations

import functools
from typing import Any

from computer_support import Table, move
from test_game_computer import DONE, RUN, black_to_play

from tavla_pi.events.event import Event
from tavla_pi.events.schema import parse_event
from tavla_pi.events.types import EventType
from tavla_pi.export.games import record_match
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.hal.sim.board import counts_of
from tavla_pi.rules.color import Color

SETTINGS = GameSettings()


def journal(events: list[dict[str, Any]]) -> list[Event]:
    """The events as a journal reads them back."""
    return [parse_event(Event.from_dict(e).to_json()) for e in events]


@functools.cache
def played_game() -> list[dict[str, Any]]:
    """White opens, Black (the computer) chooses 24/13, White takes back and plays again,
    Black rolls anew, chooses 13/11 13/9, and it is carried out."""
    table = Table([*RUN, ("cube", "no double"), ("play", "13/11 13/9")])
    black_to_play(table)
    table.act(move("5/8", "white"), move("5/6", "white"), move("24/23", "white"),
              move("13/10", "white"), {"dice": [4, 2]}, DONE, move("12/16"), move("12/14"))
    return table.close()


def test_a_game_against_the_computer_follows_the_rules_event_by_event() -> None:
    events = journal(played_game())
    kinds = [e.type for e in events]
    assert kinds.count(EventType.ENGINE_PLAY) == 2 and kinds.count(EventType.TAKEBACK) == 1
    checked = verify(events, SETTINGS)
    assert (checked.trusted, checked.reason) == (len(events), "")
    assert checked.state.phase is Phase.AWAIT_ROLL
    assert checked.state.seat_play is None


def test_an_engine_play_that_is_not_a_legal_play_is_refused() -> None:
    events = journal(played_game())
    first = next(i for i, e in enumerate(events) if e.type == "engine_play")
    bad = Event.from_dict({**events[first].to_dict(), "position_id": "4HPwATDgc/ABMA"})
    checked = verify([*events[:first], bad], SETTINGS)
    assert checked.trusted == first
    assert checked.reason.startswith("engine_play: no legal play of 6-5 leads from")
    twice = verify([*events[:first + 1], events[first]], SETTINGS)
    assert twice.reason == "engine_play: the computer's play of this roll is already chosen"
    wrong_notation = Event.from_dict({**events[first].to_dict(), "play": "13/2"})
    assert "notation" in verify([*events[:first], wrong_notation], SETTINGS).reason


def test_a_takeback_out_of_place_is_refused() -> None:
    events = journal(played_game())
    back = next(i for i, e in enumerate(events) if e.type == "takeback")
    at_start = verify([events[0], events[back]], SETTINGS)
    assert at_start.trusted == 1 and at_start.reason.startswith("takeback: only the last play")
    other = Event.from_dict({**events[back].to_dict(), "dice": [4, 2]})
    assert verify([*events[:back], other], SETTINGS).reason.startswith("takeback: dice")
    lifted = Event.from_dict({"t": events[back].t, "type": "lifted", "player": "black",
                              "from": "1", "destinations": ["12"]})
    after_lift = verify([*events[:back], lifted, events[back]], SETTINGS)
    assert after_lift.reason.startswith("takeback: only the last play")


def test_a_takeback_leaves_the_play_out_of_the_exported_match() -> None:
    events = journal(played_game())
    t = events[-1].t
    ending = [{"t": t, "type": "double_offered", "player": "white", "cube": 2},
              {"t": t, "type": "double_dropped", "player": "black", "cube": 2},
              {"t": t, "type": "game_over", "winner": "white", "kind": "single", "cube": 1,
               "points": 1, "score": [1, 0]}]
    record = record_match([*events, *journal(ending)], str)
    assert record.skipped == ()
    (game,) = record.games
    assert [(e.player.value, e.text) for e in game.entries] == [
        ("white", "31: 13/10 24/23"), ("black", "42: 13/9 13/11"),
        ("white", "Doubles => 2"), ("black", "Drops")]


def resumed(events: list[dict[str, Any]], script: list[tuple[str, Any]]) -> Table:
    """A fresh board and referee resumed from ``events``, the computer scripted anew."""
    state: State = verify(journal(events), SETTINGS).state
    table = Table(script)
    runner = table.runner
    runner.referee.set_opponent(OpponentSettings(color=Color.BLACK), runner.background())
    runner.backend.board.lay_out(counts_of(state.position().to_board(state.match.on_roll)))
    runner.referee.resume(state, runner.clock.now_ms())
    table.act({"wait": 400})
    return table


def until(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events up to and with the first of ``kind``."""
    end = next(i for i, e in enumerate(events) if e["type"] == kind)
    return events[:end + 1]


def test_resumed_after_engine_play_the_play_is_carried_out_without_asking_again() -> None:
    table = resumed(until(played_game(), "engine_play"), [])  # no answer to give
    assert table.state()["engine_play"]["play"] == "24/13"
    table.act(move("1/12"))
    events = table.close()
    assert [e["play"] for e in events if e["type"] == "played"] == ["24/13"]


def test_resumed_while_the_engine_thought_it_asks_again_and_gets_the_same_play() -> None:
    table = resumed(until(played_game(), "rolled"), [("play", "24/13")])
    assert table.of("engine_play") == [{"type": "engine_play", "player": "black",
                                        "dice": [6, 5], "play": "24/13",
                                        "position_id": "4HPwAyCwZ/ABMA"}]
    table.act(move("1/12"))
    assert [e["play"] for e in table.close() if e["type"] == "played"] == ["24/13"]


def test_resumed_before_the_computers_play_the_human_may_still_take_back() -> None:
    table = resumed(until(played_game(), "engine_play"), [])
    table.act(move("5/8", "white"))
    assert [e["type"] for e in table.of("takeback")] == ["takeback"]
    assert table.state()["on_roll"] == "white"
    table.close()
