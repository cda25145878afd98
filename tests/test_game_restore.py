"""Restoring the referee from the journal's events: after any prefix, as if never stopped.

Matches are played on a bare referee (tests/journal_support.py); after every
event the state restored from the events so far must equal the live
referee's, and a referee resumed at any point must go on exactly as the
live one did when given the same inputs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from journal_support import (
    B,
    W,
    apply,
    continue_after,
    direct_match,
    graded,
    played_with_menus,
    prefixes,
    resume,
    resumed,
    snapshot,
    transient,
)

from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, Journal, encode
from tavla_pi.events.types import EventType, UnknownType
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import fresh, restore, restore_steps, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import GameState, MatchRules, MatchState, Resignation
from tavla_pi.rules.portes import gnubg_position
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import WinKind

CASES = [(seed, length) for seed in range(2) for length in (0, 1, 3, 5, 7)]


@pytest.mark.parametrize(("seed", "length"), CASES)
def test_restoring_after_every_event_gives_the_live_state(seed: int, length: int) -> None:
    match = played_with_menus(seed, length, games=2)
    events = match.events
    assert any(e.type == "game_over" for e in events)
    states = list(restore_steps(events, match.settings))
    assert len(states) == len(events)
    assert states[-1] == restore(events, match.settings)
    for count, step in prefixes(match):
        referee = resume(states[count - 1], match.settings, step.now)
        assert snapshot(referee) == step.state, (count, events[count - 1])


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
def test_a_referee_resumed_anywhere_goes_on_as_the_live_one(seed: int) -> None:
    match = played_with_menus(100 + seed, 5, games=2)
    rng = random.Random(seed)
    kills = [k for k, step in enumerate(match.steps[:-1]) if not transient(step)]
    for kill in sorted(rng.sample(kills, 15)):
        live = [e for step in match.steps[kill + 1:] for e in step.events]
        assert graded(continue_after(match, kill)) == graded(live), kill


def test_a_power_cut_mid_write_resumes_from_the_journal(tmp_path: Path) -> None:
    """The daemon's path: journal every step, lose power mid-write, reopen, go on."""
    match = played_with_menus(7, 5, games=3)
    steps = match.steps
    kill = next(k for k, s in enumerate(steps) if k > len(steps) // 3
                and "game_over" in [e.type for e in s.events[1:]])
    with Journal.open(tmp_path) as journal:
        for step in steps[:kill]:
            journal.append(step.events)
    torn = b"".join(encode(e) for e in steps[kill].events)[:-7]  # the power went off here
    with (tmp_path / JOURNAL_NAME).open("ab") as file:
        file.write(torn)
    with Journal.open(tmp_path) as journal:
        assert len(journal.warnings) == 1
        assert "half-written last line" in journal.warnings[0]
        checked = verify(journal.events, match.settings)
        assert checked.trusted == len(journal.events)
        state = checked.state
        dice = ScriptedDice()
        referee = resume(state, match.settings, steps[kill].now, dice)
        # the last line of the step is lost, but it said nothing the rest does not imply
        assert snapshot(referee) == steps[kill].state
        out = [e for step in steps[kill + 1:] for e in apply(referee, dice, step.call, step.now)]
        # what the game still owed is written first: the journal loses nothing
        lost = steps[kill].events[-1:]  # the torn line
    assert [e.type for e in lost] == [EventType.GAME_OVER]
    live = [*lost, *(e for step in steps[kill + 1:] for e in step.events)]
    assert graded(out) == graded(live)


def test_a_turn_being_moved_starts_afresh_from_the_committed_position() -> None:
    match = direct_match(1, 3, games=1)
    rolled_at = next(i for i, s in enumerate(match.steps)
                     if any(e.type == "rolled" for e in s.events))
    events = [e for s in match.steps[: rolled_at + 1] for e in s.events]
    referee = resumed(events, match.settings, 0)
    assert referee.phase is Phase.MOVING
    assert referee.turn is not None
    assert gnubg_position(referee.turn.start) == referee.position()
    assert referee.turn.mover is referee.match.on_roll
    assert referee.turn.verdict is None  # nothing read yet: the sensors tell what moved


def test_a_roll_with_no_legal_move_passes_after_the_usual_delay() -> None:
    closed = Board.from_counts({"bar": 1, "6": 5, "8": 3, "13": 6},
                               {**{str(p): 2 for p in range(19, 25)}, "12": 3})
    match = MatchState(game_state=GameState.PLAYING, dice=(6, 5))
    events = [Event(EventType.GAME_STARTED, 0, {"position_id": Position.from_board(closed, W)
                                               .position_id(), "match_id": match.match_id()})]
    referee = resumed(events, GameSettings(), 10_000)
    assert referee.phase is Phase.NO_MOVE
    assert referee.busy
    assert phase_at(referee, 11_000) is Phase.NO_MOVE
    assert phase_at(referee, 12_000) is Phase.AWAIT_ROLL
    assert referee.match.on_roll is B


def phase_at(referee: Referee, now: int) -> Phase:
    """The referee's phase after a tick at ``now``."""
    referee.tick(now, settled=True)
    return referee.phase


def test_an_empty_journal_is_a_new_match_waiting_for_the_setup() -> None:
    settings = GameSettings(match_length=7)
    state = restore([], settings)
    assert state == fresh(settings)
    assert state.phase is Phase.SETUP
    assert state.match.match_length == 7


def test_the_journal_match_length_wins_over_the_settings() -> None:
    events = [Event(EventType.NEW_MATCH, 0, {"match_length": 5})]
    assert restore(events, GameSettings(match_length=3)).match.match_length == 5


def start(match: MatchState | None = None) -> Event:
    """A game_started event for the starting position."""
    match = match or MatchState(game_state=GameState.NONE)
    return Event(EventType.GAME_STARTED, 0, {"position_id": Position.initial().position_id(),
                                             "match_id": match.match_id()})


HOSTILE: list[tuple[list[Event], str]] = [
    ([Event(EventType.ROLLED, 1, {"player": "white", "dice": [3, 1]})],
     "no roll is awaited now (setup)"),
    ([start(), Event(EventType.PLAYED, 2, {"player": "white", "dice": [3, 1],
                                           "play": "8/5 6/5", "position_id": "not an id!",
                                           "match_id": "cAkAAAAAAAAA"})],
     "no play is awaited now (opening)"),
    ([start(MatchState(dice=(3, 1))),
      Event(EventType.PLAYED, 2, {"player": "white", "dice": [3, 1], "play": "8/5 6/5",
                                  "position_id": "not an id!", "match_id": "cAkAAAAAAAAA"})],
     "no legal play of 3-1 leads from 4HPwATDgc/ABMA to not an id!"),
    ([start(), Event(EventType.GAME_STARTED, 3, {"position_id": "4HPwATDgc/ABMA",
                                                 "match_id": "////////////"})], "Match ID"),
    ([start(), Event(EventType.OPENING_ROLL, 1, {"white": 9, "black": 2})],
     'field "white" has a wrong value: 9'),
    ([start(), Event(EventType.DOUBLE_TAKEN, 1, {"player": "black", "cube": 2})],
     "no double is offered now (opening)"),
    ([start(), Event(EventType.MATCH_OVER, 1, {"winner": "white", "score": [3, 0]})],
     "only right after the game that decides the match"),
    ([start(MatchState()), Event(EventType.ROLLED, 1, {"player": "purple", "dice": [1, 2]})],
     "purple"),
    ([start(), start(MatchState(resignation=Resignation.GAMMON))], "not by the player on roll"),
    ([start(MatchState()), Event(EventType.ROLLED, 1, {"player": "white"})],
     'field "dice" is missing'),
    ([start(), Event(UnknownType("sparkle"), 5, {"colour": "gold"})],
     "not an event type this board writes"),
    ([Event(EventType.NEW_MATCH, -5, {"match_length": 3})],
     "time -5 is not whole milliseconds from 0"),
    ([Event(EventType.NEW_MATCH, 9, {"match_length": 3}), Event(EventType.IN_SYNC, 8)],
     "time 8 ms is before the event before it (9 ms)"),
    ([Event(EventType.NEW_MATCH, 9, {"match_length": 65})], "match length 65 is not 0..64"),
]


@pytest.mark.parametrize(("events", "words"), HOSTILE)
def test_the_first_event_that_does_not_follow_ends_the_trusted_journal(
        events: list[Event], words: str) -> None:
    checked = verify([*events, *events], GameSettings())
    assert checked.trusted == len(events) - 1
    assert checked.reason.startswith(f"{events[-1].type}: ")
    assert words in checked.reason
    assert checked.state == restore(events[:-1], GameSettings())


def test_a_lost_game_over_line_is_derived_from_the_last_play() -> None:
    match = direct_match(4, 3, games=1, laggard=B)
    events = match.events
    over = next(i for i, e in enumerate(events) if e.type == "game_over")
    torn = restore(events[:over], match.settings)
    whole = restore(events[: over + 1], match.settings)
    assert torn.result == whole.result
    assert torn.phase is whole.phase is Phase.GAME_OVER
    assert whole.result is not None and WinKind(whole.result.kind) is WinKind(events[over]["kind"])


def test_automatic_doubles_in_money_play_are_restored_with_the_rules() -> None:
    rules = MatchRules(automatic_doubles=2)
    settings = GameSettings(rules=rules)
    match = next(m for seed in range(50)
                 if (m := direct_match(seed, 0, games=1, rules=rules)).referee.match.cube > 1
                 and not any(e.type.startswith("double") for e in m.events))
    states = list(restore_steps(match.events, settings))
    assert len(states) == len(match.events)
    assert states[-1].match == match.referee.match


def with_reviews(events: list[Event], every: int) -> list[Event]:
    """``events`` with a ``review`` event after every ``every``-th (the daemon's come in the
    background, at any moment: after a roll with no legal move, between game_over and
    match_over when committed apart)."""
    out: list[Event] = []
    for n, event in enumerate(events, start=1):
        out.append(event)
        if n % every == 0 or event.type == EventType.GAME_OVER:
            out.append(Event(EventType.REVIEW, event.t, {"game": 1, "white": {}, "black": {},
                                                          "costly": []}))
    return out


@pytest.mark.parametrize("every", [1, 3, 7])
def test_review_events_are_accepted_anywhere_and_change_nothing(every: int) -> None:
    match = played_with_menus(0, 3, games=3)
    assert any(e.type == "no_legal_move" for e in match.events)
    reviewed = with_reviews(match.events, every)
    checked = verify(reviewed, match.settings)
    assert (checked.trusted, checked.reason) == (len(reviewed), "")
    assert checked.state == restore(match.events, match.settings)
    step = match.steps[-1]
    referee = resumed(reviewed, match.settings, step.now)
    assert snapshot(referee) == step.state
