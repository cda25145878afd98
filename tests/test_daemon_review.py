"""The daemon reviews each finished game in the background and emits ``review``.

On a virtual daemon (tavla_pi/testing/daemon.py) with the scripted reviewer of
tests/review_support.py, and with the real gnubg where it is installed: the
event after the game, into the journal and the stream, also when the next
game has begun; nothing for a game loaded mid-way, a failed review or one
overtaken by a new match; the reviews a restart finds missing; a journal
holding reviews resumes and verifies as before.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from programs import needs
from review_support import (
    LAST_CHECKER,
    SHORT_GAME,
    ScriptedReviewer,
    made_up_review,
    short_game_events,
)

from tavla_pi.clock import VirtualClock
from tavla_pi.daemon import resume
from tavla_pi.daemon.reviews import Reviews
from tavla_pi.engine import GnubgReviewer, find_gnubg
from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.testing.daemon import MemoryJournal, VirtualDaemon

GNUBG = find_gnubg()


async def play(daemon: VirtualDaemon, *actions: dict[str, Any]) -> None:
    for action in actions:
        await daemon.sim(action)


def journaled(daemon: VirtualDaemon) -> list[Event]:
    assert isinstance(daemon.journal, MemoryJournal)
    return daemon.journal.events


def reviews_of(daemon: VirtualDaemon) -> list[Event]:
    return [e for e in journaled(daemon) if e.type == EventType.REVIEW]


def test_a_finished_game_is_reviewed_into_the_journal_and_the_stream(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer()
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> None:
        await play(daemon, *SHORT_GAME)
        await daemon.reviewed()

    asyncio.run(run())
    events = journaled(daemon)
    over = next(i for i, e in enumerate(events) if e.type == EventType.GAME_OVER)
    (review,) = reviews_of(daemon)
    assert events.index(review) > over and review.t >= events[over].t
    assert dict(review.fields) == {**made_up_review(1).to_json(), "game": 1}
    assert daemon.hub.game[-1] == review
    (request,) = reviewer.requests
    assert (request.game, request.games) == (1, 1) and "24/21 21/20" in request.mat


def test_a_review_after_the_next_game_began_still_goes_to_the_journal(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer(hold=True)
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> None:
        await play(daemon, *SHORT_GAME, {"setup": "start"}, {"wait": 400})
        assert reviews_of(daemon) == []
        reviewer.released.set()
        await daemon.reviewed()

    asyncio.run(run())
    types = [e.type for e in journaled(daemon) if e.type in (EventType.GAME_STARTED,
                                                             EventType.REVIEW)]
    assert types == [EventType.GAME_STARTED, EventType.GAME_STARTED, EventType.REVIEW]
    assert reviews_of(daemon)[0]["game"] == 1
    assert daemon.hub.game[-1].type == EventType.REVIEW  # the stream of the game now on


def test_a_new_match_drops_the_review_under_way(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    reviewer = ScriptedReviewer(hold=True)
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> None:
        await play(daemon, *SHORT_GAME, {"hold": "menu", "ms": 2000}, {"hold": "menu", "ms": 2000})
        assert any(e.type == EventType.NEW_MATCH for e in journaled(daemon))
        assert reviewer.stopped.is_set()
        await daemon.reviewed()

    with caplog.at_level(logging.WARNING, "tavla_pi.daemon"):
        asyncio.run(run())
    assert reviews_of(daemon) == []
    assert "the review of game 1 is dropped: a new match began" in caplog.text


def test_a_failed_review_is_one_warning_and_no_event(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    daemon = VirtualDaemon(tmp_path, reviewer=ScriptedReviewer(fail="gnubg died"))

    async def run() -> None:
        await play(daemon, *SHORT_GAME)
        await daemon.reviewed()

    with caplog.at_level(logging.WARNING, "tavla_pi.daemon"):
        asyncio.run(run())
    assert reviews_of(daemon) == []
    assert caplog.text.count("no review of game 1: gnubg died") == 1


def test_a_game_loaded_mid_way_gets_no_review(tmp_path: Path,
                                             caplog: pytest.LogCaptureFixture) -> None:
    reviewer = ScriptedReviewer()
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> None:
        await play(daemon, *LAST_CHECKER)
        assert any(e.type == EventType.GAME_OVER for e in journaled(daemon))
        await daemon.reviewed()

    with caplog.at_level(logging.INFO, "tavla_pi.daemon"):
        asyncio.run(run())
    assert reviewer.requests == [] and reviews_of(daemon) == []
    assert "game 1 gets no review: " in caplog.text and "loaded position" in caplog.text


def test_on_start_the_games_without_a_review_are_reviewed() -> None:
    events = short_game_events(*LAST_CHECKER, *SHORT_GAME, *SHORT_GAME)
    over = [i for i, e in enumerate(events) if e.type == EventType.GAME_OVER]
    review = Event(EventType.REVIEW, events[over[0]].t, {**made_up_review(1).to_json()})
    events.insert(over[0] + 1, review)
    reviewer = ScriptedReviewer()
    reviews = Reviews(reviewer, VirtualClock())
    reviews.load(events)
    made: list[Event] = []
    while reviews.busy:
        made += reviews.poll(0)
        reviews.wait(10)
    assert [e["game"] for e in made] == [3, 4]  # 1 was reviewed, 2 was loaded
    assert [(r.game, r.games) for r in reviewer.requests] == [(2, 2), (3, 3)]
    assert made[1]["costly"][0]["game"] == 1  # game 1 of the match file is the match's 1


def test_a_journal_with_reviews_resumes_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "first").mkdir()
    daemon = VirtualDaemon(tmp_path / "first", reviewer=ScriptedReviewer())

    async def first() -> None:
        await play(daemon, *SHORT_GAME, {"setup": "start"}, {"wait": 400})
        await daemon.reviewed()

    asyncio.run(first())
    with Journal.open(tmp_path) as journal:
        journal.append(journaled(daemon))
    journal, state = resume.open_journal(tmp_path, GameSettings())
    try:
        assert len(journal.events) == len(journaled(daemon))
        assert any(e.type == EventType.REVIEW for e in journal.events)
        assert state.phase.value == "opening"
    finally:
        journal.close()


@pytest.mark.slow
@needs("gnubg")
def test_gnubg_reviews_the_game_the_daemon_played(tmp_path: Path) -> None:
    assert GNUBG is not None
    daemon = VirtualDaemon(tmp_path, reviewer=GnubgReviewer.launch(tmp_path / "gnubg", GNUBG))

    async def run() -> None:
        await play(daemon, *SHORT_GAME)
        await daemon.reviewed()
        answer = await daemon.request("GET", "/api/review")
        assert answer.status == 200

    asyncio.run(run())
    (review,) = reviews_of(daemon)
    assert [(d["player"], d["played"], d["best"]) for d in review["costly"]] == [
        ("white", "drop", "take"), ("black", "double", "no double"),
        ("white", "24/20", "8/5 6/5")]
    assert review["white"]["chequer"] == {"errors": review["costly"][2]["loss"], "count": 1,
                                          "decisions": 1}
