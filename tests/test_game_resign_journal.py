"""Resignations in the journal: folded in, resumed as they stood, impossible ones refused.

Matches with resignations (offered, accepted, declined and offered again)
are played on a bare referee (tests/journal_support.py): after every event
the restored state must be the live one, a referee resumed anywhere must go
on as the live one did, and the journal written to disk must read back and
verify whole.  Hand-made journals check that ``verify`` refuses what cannot
be: an offer by the player not on roll or after the roll, an answer by the
offerer, points that are not the level times the cube, a level offered
again after it was declined.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from journal_support import (
    B,
    DirectMatch,
    W,
    continue_after,
    direct_match,
    graded,
    prefixes,
    resume,
    resumed,
    snapshot,
    transient,
)

from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
from tavla_pi.game.restore import restore, restore_steps, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.match import MatchRules, MatchState, Resignation
from tavla_pi.rules.position import Position

RESIGNING: dict[str, Any] = {"resigns": 0.15, "accepts": 0.3}


def resigning_match(seed: int, length: int, games: int = 2) -> DirectMatch:
    """A match where players resign now and then (and the answers vary)."""
    return direct_match(seed, length, games=games, **RESIGNING)


CASES = [(seed, length) for seed in range(3) for length in (0, 3, 5)]


@pytest.mark.parametrize(("seed", "length"), CASES)
def test_restoring_after_every_event_gives_the_live_state(seed: int, length: int) -> None:
    match = resigning_match(seed, length)
    events = match.events
    types = {e.type for e in events}
    assert {"resign_offered", "resign_declined"} <= types or "resign_accepted" in types
    states = list(restore_steps(events, match.settings))
    assert len(states) == len(events)
    for count, step in prefixes(match):
        referee = resume(states[count - 1], match.settings, step.now)
        assert snapshot(referee) == step.state, (count, events[count - 1])


def test_every_kind_of_answer_is_played_across_the_cases() -> None:
    types = {e.type for seed, length in CASES for e in resigning_match(seed, length).events}
    assert {"resign_offered", "resign_accepted", "resign_declined", "game_over"} <= types


def choosing(step_call: tuple[object, ...], events: list[Event]) -> bool:
    """A press of the resignation gesture before the offer: shown, never journaled."""
    return step_call[0] == "button" and not events


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
def test_a_referee_resumed_anywhere_goes_on_as_the_live_one(seed: int) -> None:
    match = resigning_match(200 + seed, 5, games=3)
    rng = random.Random(seed)
    kills = [k for k, step in enumerate(match.steps[:-1])
             if not transient(step) and not choosing(step.call, step.events)]
    offers = [k for k in kills if any(e.type == "resign_offered" for e in match.steps[k].events)]
    assert offers
    for kill in sorted({*rng.sample(kills, 12), *offers}):
        live = [e for step in match.steps[kill + 1:] for e in step.events]
        assert graded(continue_after(match, kill)) == graded(live), kill


def test_the_journal_on_disk_reads_back_and_verifies_whole(tmp_path: Path) -> None:
    match = resigning_match(3, 5, games=3)
    with Journal.open(tmp_path) as journal:
        journal.append(match.events)
    with Journal.open(tmp_path) as journal:
        assert journal.warnings == []
        checked = verify(journal.events, match.settings)
    assert (checked.trusted, checked.reason) == (len(match.events), "")
    assert checked.state == restore(match.events, match.settings)


# -- hand-made journals ------------------------------------------------------------------------

RACE = Board.from_counts({"6": 3, "5": 3, "4": 3, "3": 3, "2": 3},
                         {"1": 2, "12": 5, "17": 3, "19": 5})
BEFORE_ROLL = MatchState(cube=2, cube_owner=W, on_roll=B, to_act=B, match_length=5,
                         score=(2, 1))


def started(match: MatchState = BEFORE_ROLL) -> Event:
    position = Position.from_board(RACE, match.on_roll)
    return Event(EventType.GAME_STARTED, 0, {"position_id": position.position_id(),
                                             "match_id": match.match_id()})


def offered(player: str = "black", points: int = 2, t: int = 1) -> Event:
    return Event(EventType.RESIGN_OFFERED, t, {"player": player, "points": points})


def answered(kind: EventType, player: str = "white", points: int = 2, t: int = 2) -> Event:
    return Event(kind, t, {"player": player, "points": points})


def over(points: int = 2, kind: str = "single", score: tuple[int, int] = (4, 1)) -> Event:
    return Event(EventType.GAME_OVER, 3, {"winner": "white", "kind": kind, "cube": 2,
                                          "points": points, "score": list(score)})


ACCEPTED, DECLINED = EventType.RESIGN_ACCEPTED, EventType.RESIGN_DECLINED
SETTINGS = GameSettings(match_length=5)


def test_an_accepted_resignation_ends_the_game_for_its_points() -> None:
    events = [started(), offered(points=4), answered(ACCEPTED, points=4),
              over(4, "gammon", (6, 1)),
              Event(EventType.MATCH_OVER, 4, {"winner": "white", "score": [6, 1]})]
    checked = verify(events, SETTINGS)
    assert (checked.trusted, checked.reason) == (len(events), "")
    assert checked.state.phase is Phase.MATCH_OVER
    assert checked.state.result is not None and checked.state.result.points == 4


def test_a_resignation_on_offer_resumes_on_offer_and_is_answered() -> None:
    referee = resumed([started(), offered(points=6)], SETTINGS, 10)
    assert referee.phase is Phase.RESIGN_OFFERED
    assert referee.match.resignation is Resignation.BACKGAMMON
    events = referee.on_button("white.roll", long=False, now=20)
    assert [(e.type, e.fields.get("points")) for e in events] == [
        (ACCEPTED, 6), (EventType.GAME_OVER, 6), (EventType.MATCH_OVER, None)]  # 2 + 6 of 5


def test_a_declined_level_is_remembered_across_a_restart() -> None:
    referee = resumed([started(), offered(points=4), answered(DECLINED, points=4)], SETTINGS, 10)
    assert referee.phase is Phase.AWAIT_ROLL
    assert referee.resign.declined is Resignation.GAMMON
    referee.on_button("black.cube", long=True, now=20)  # choosing starts above the gammon declined
    assert referee.view().resign_level is Resignation.BACKGAMMON


REFUSED: list[tuple[list[Event], str]] = [
    ([started(), offered(player="white")], "white is not on roll (black is)"),
    ([started(), offered(points=5)], "1, 2 or 3 times the cube (2), not 5 points"),
    ([started(), Event(EventType.ROLLED, 1, {"player": "black", "dice": [6, 5]}),
      offered(t=2)], "no resignation may be offered now (moving)"),
    ([started(), offered(), answered(ACCEPTED, player="black")],
     "white must accept or decline the resignation"),
    ([started(), offered(), answered(DECLINED, player="black")],
     "white must accept or decline the resignation"),
    ([started(), offered(points=4), answered(ACCEPTED, points=2)],
     "the points is 4 by the rules, not 2"),
    ([started(), answered(ACCEPTED, t=1)], "no resignation is offered now (await_roll)"),
    ([started(), offered(points=4), answered(DECLINED, points=4), offered(points=2, t=3)],
     "white has already declined a gammon"),
    ([started(), offered(), answered(ACCEPTED), over(4, "gammon")], "the kind is 'single'"),
    ([started(), offered(), answered(ACCEPTED),
      Event(EventType.ROLLED, 3, {"player": "black", "dice": [6, 5]})],
     "a game_over event is due first"),
    ([started(), offered(), offered(t=2)], "no resignation may be offered now (resign_offered)"),
    ([started(BEFORE_ROLL.replace(resignation=Resignation.SINGLE, to_act=B))],
     "not by the player on roll"),
    ([started(BEFORE_ROLL.replace(resignation=Resignation.SINGLE, to_act=W, dice=(3, 1)))],
     "after the roll"),
]


@pytest.mark.parametrize(("events", "words"), REFUSED)
def test_verify_refuses_an_impossible_resignation(events: list[Event], words: str) -> None:
    checked = verify(events, SETTINGS)
    assert checked.trusted == len(events) - 1
    assert checked.reason.startswith(f"{events[-1].type}: "), checked.reason
    assert words in checked.reason


def test_a_loaded_offer_and_a_declined_one_fold_like_the_live_referee() -> None:
    loaded = BEFORE_ROLL.replace(resignation=Resignation.GAMMON, to_act=W)
    state = restore([started(loaded), answered(DECLINED, points=4, t=1)], SETTINGS)
    assert state.phase is Phase.AWAIT_ROLL
    assert state.match == BEFORE_ROLL
    assert state.resign_declined is Resignation.GAMMON


def test_money_play_with_jacoby_folds_a_resigned_gammon_for_two() -> None:
    money = MatchState(on_roll=B, to_act=B, jacoby=True)
    settings = GameSettings(rules=MatchRules(jacoby=True))
    events = [started(money), offered(points=2), answered(ACCEPTED, points=2),
              Event(EventType.GAME_OVER, 3, {"winner": "white", "kind": "gammon", "cube": 1,
                                             "points": 2, "score": [2, 0]})]
    checked = verify(events, settings)
    assert (checked.trusted, checked.reason) == (len(events), "")
