"""Each finished game reviewed by GNU Backgammon in the background; the match on demand.

The daemon hands every committed event to :meth:`Reviews.note`.  After a
``game_over`` the game's record (:mod:`tavla_pi.export`) is kept and its
review queued; each scan :meth:`Reviews.poll` starts the next review on a
:class:`~tavla_pi.engine.Worker` (one at a time, the match file of the games
so far, so that gnubg knows the score and the Crawford game) and turns a
finished one into a ``review`` event: ``game`` (its number in the match,
counting every ``game_started``), ``white``, ``black`` and ``costly`` (see
:mod:`tavla_pi.engine.review`).  Nothing here waits for gnubg.

A review that arrives once the next game has begun still goes to the
journal; one under way when a new match begins is dropped (the journal
file is the new match's).  A review that fails is one warning in the log.
Games that started from a loaded position cannot be written as a match file
and get no review.  On start, the finished games of the journal's match
that have no review yet are reviewed.  The whole match is reviewed only
when asked (``GET /api/review?match=1``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tavla_pi.clock import Clock
from tavla_pi.engine import NOT_INSTALLED, Job, Review, Reviewer, ReviewRequest, Worker
from tavla_pi.errors import TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.export import GameBook, format_match
from tavla_pi.rules import MatchRules

log = logging.getLogger("tavla_pi.daemon")

REVIEW_DEADLINE_MS = 10 * 60 * 1000
"""How long one review may take, on the daemon's clock, before it is given up."""
WHOLE = 0
"""The number a review of the whole match is queued under."""


@dataclass(frozen=True)
class ReviewStatus:
    """What ``GET /api/review`` answers: an HTTP status and its JSON body."""

    status: int
    body: dict[str, Any]


class Reviews:
    """The reviews of the current match: made in the background, kept, served."""

    def __init__(self, reviewer: Reviewer | None, clock: Clock,
                 rules: MatchRules | None = None, *,
                 deadline_ms: int = REVIEW_DEADLINE_MS) -> None:
        self.reviewer = reviewer
        self.rules = rules or MatchRules()
        self.worker = Worker(clock, deadline_ms=deadline_ms, name="review")
        self.book = GameBook()
        """The match's finished games, numbered as in the match."""
        self.done: dict[int, dict[str, Any]] = {}
        """The fields of each game's ``review`` event, by game number."""
        self._queue: list[int] = []
        self._job: tuple[int, list[int], Job[Review]] | None = None
        self._whole: tuple[tuple[int, ...], dict[str, Any] | str] | None = None

    # -- following the match ---------------------------------------------------------

    def load(self, events: Iterable[Event]) -> None:
        """Take the journal's events; queue the finished games that have no review yet."""
        for event in events:
            self._follow(event)
        self._queue = [n for n in sorted(self.book.records) if n not in self.done]

    def note(self, events: Iterable[Event]) -> None:
        """Events just journaled: a finished game is queued for its review."""
        for event in events:
            if self._follow(event):
                self._queue.append(self.book.number)

    def _follow(self, event: Event) -> bool:
        """Take one event of the match; True if it ends a game a match file holds."""
        if event.type == EventType.NEW_MATCH:
            self._new_match()
        elif event.type == EventType.REVIEW:
            self.done[int(event["game"])] = dict(event.fields)
        recorded = self.book.follow(event) is not None
        if event.type == EventType.GAME_OVER and not recorded:
            log.info("game %d gets no review: %s", self.book.number,
                     self.book.skipped.get(self.book.number, ""))
        return recorded

    def _new_match(self) -> None:
        if self._job is not None:
            log.warning("the review of %s is dropped: a new match began",
                        _what(self._job[0]))
            self.worker.cancel(self._job[2])
            if self.reviewer is not None:
                self.reviewer.stop()
        self._job, self._whole, self.done, self._queue = None, None, {}, []

    # -- the background work --------------------------------------------------------

    def poll(self, now: int) -> list[Event]:
        """The ``review`` event of a review just done, if any; starts the next review."""
        events: list[Event] = []
        if self._job is not None:
            events = self._finished(now)
        if self._job is None and self.reviewer is not None and self._queue:
            self._start(self._queue.pop(0))
        return events

    def _start(self, number: int) -> None:
        """Review game ``number`` in the match file of the games up to it (or all)."""
        record, order = self.book.match_file(None if number == WHOLE else number)
        game = None if number == WHOLE else len(order)
        request = ReviewRequest(format_match(record), game, rules=self.rules)
        reviewer = self.reviewer
        assert reviewer is not None
        self.worker.start()
        job = self.worker.submit(f"review of {_what(number)}", lambda: reviewer.review(request))
        self._job = (number, order, job)

    def _finished(self, now: int) -> list[Event]:
        assert self._job is not None
        number, order, job = self._job
        try:
            review = self.worker.poll(job)
        except TavlaError as exc:
            self._job = None
            log.warning("no review of %s: %s", _what(number), exc)
            if number == WHOLE:
                self._whole = (tuple(order), str(exc))
            return []
        if review is None:
            return []
        self._job = None
        fields = renumbered(review, order)
        if number == WHOLE:
            self._whole = (tuple(order), fields)
            return []
        return [_emit(EventType.REVIEW, now, game=number, white=fields["white"],
                      black=fields["black"], costly=fields["costly"])]

    @property
    def busy(self) -> bool:
        """Whether a review is under way or waiting to start."""
        return self._job is not None or bool(self._queue and self.reviewer is not None)

    def wait(self, timeout_s: float) -> bool:
        """Block until the review under way is done (True if it is, or none is under way):
        for tools and tests, never the scan loop."""
        return self._job is None or self._job[2].wait(timeout_s)

    def close(self) -> None:
        """Stop the review under way and the worker."""
        if self.reviewer is not None and self._job is not None:
            self.reviewer.stop()
        self.worker.close(timeout_s=2.0)

    # -- what GET /api/review answers -------------------------------------------------

    def game_review(self, number: int | None) -> ReviewStatus:
        """The review of game ``number`` (None: the latest reviewed)."""
        if number is None and self.done:
            number = max(self.done)
        if number is not None and number in self.done:
            return ReviewStatus(200, self.done[number])
        which = "any game" if number is None else f"game {number}"
        if self.reviewer is None:
            return ReviewStatus(404, {"error": f"no review of {which}: {NOT_INSTALLED}"})
        return ReviewStatus(404, {"error": f"no review of {which} yet"})

    def match_review(self) -> ReviewStatus:
        """The whole match's review: computed on the first request, 202 until it is done."""
        if self.reviewer is None:
            return ReviewStatus(503, {"error": f"no review of the match: {NOT_INSTALLED}"})
        if not self.book.records:
            return ReviewStatus(404, {"error": "no finished game to review yet"})
        if self._whole is not None and self._whole[0] == self._whole_key():
            result = self._whole[1]
            if isinstance(result, dict):
                return ReviewStatus(200, result)
            self._whole = None  # answered once: the next request tries again
            return ReviewStatus(503, {"error": result})
        running = self._job is not None and self._job[0] == WHOLE
        if not running and WHOLE not in self._queue:
            self._queue.append(WHOLE)
        return ReviewStatus(202, {"status": "running"})

    def _whole_key(self) -> tuple[int, ...]:
        return tuple(sorted(self.book.records))


def renumbered(review: Review, order: list[int]) -> dict[str, Any]:
    """The review's fields, each game numbered as in the match (``order``: the number of
    each game of the match file, which leaves out the games it cannot hold)."""
    fields = review.to_json()
    for decision in fields["costly"]:
        decision["game"] = order[decision["game"] - 1]
    if review.game is not None:
        fields["game"] = order[review.game - 1]
    return fields


def _what(number: int) -> str:
    return "the match" if number == WHOLE else f"game {number}"


def _emit(kind: EventType, t: int, /, **fields: Any) -> Event:
    """An event made here (docs/CONTRACTS.md §4)."""
    return Event(kind, t, fields)
