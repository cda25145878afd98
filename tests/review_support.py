"""A short finished game for the review tests, and a scripted stand-in for gnubg's reviewer.

The game: White opens 3-1 with 24/20 (gnubg plays 8/5 6/5), Black
doubles at once (too early), White drops (it should take): three costly
decisions in a game of one play.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from game_support import scenario
from sim_support import PINMAP

from tavla_pi.engine import Review, ReviewRequest
from tavla_pi.engine.review import CostlyDecision, Errors, PlayerReview
from tavla_pi.errors import EngineError
from tavla_pi.events.event import Event
from tavla_pi.game.settings import GameSettings
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules import Color, MatchState, Position

SHORT_GAME: tuple[dict[str, Any], ...] = (
    {"setup": "start"}, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
    {"move": "24/21", "color": "white"}, {"move": "21/20", "color": "white"},
    {"press": "white.roll"}, {"press": "black.cube"}, {"press": "white.cube"},
)
"""The short game as scenario actions (money play)."""

LAST_CHECKER: tuple[dict[str, Any], ...] = (
    {"load": {"position_id": "AwAACAAAAAAAAA", "match_id": "MAEAAAAAAAAE"}}, {"wait": 400},
    {"dice": [2, 1]}, {"press": "white.roll"}, {"move": "1/off", "color": "white"},
    {"press": "white.roll"},
)
"""A game loaded near its end: White bears off its last checker (a match file cannot hold
it: it does not start from the starting position)."""


_PLAYED: dict[str, list[Event]] = {}


def short_game_events(*then: dict[str, Any]) -> list[Event]:
    """The short game's events, played on the modelled board (and those of ``then``),
    once per test session."""
    key = json.dumps(then)
    if key not in _PLAYED:
        runner = ScenarioRunner(PINMAP, GameSettings())
        _PLAYED[key] = list(runner.run(scenario(*SHORT_GAME, *then)))
    return list(_PLAYED[key])


def made_up_review(game: int | None = 1) -> Review:
    """A review with figures of no meaning and one costly decision: Black's opening double."""
    player = PlayerReview(Errors(0.25, 1, 4), Errors(0.5, 1, 2), 0.1, 5, "Beginner")
    double = CostlyDecision(1, Color.BLACK, "cube", Position.initial().position_id(),
                      MatchState(on_roll=Color.BLACK, to_act=Color.BLACK).match_id(), None,
                      "double", "no double", 0.5)
    return Review(game, player, player, (double,))


class ScriptedReviewer:
    """A :class:`~tavla_pi.engine.Reviewer` that answers a made-up review at once, or, with
    ``hold``, once released; ``fail`` makes every review fail.  Keeps the requests."""

    def __init__(self, *, hold: bool = False, fail: str = "") -> None:
        self.requests: list[ReviewRequest] = []
        self.fail = fail
        self.released = threading.Event()
        self.stopped = threading.Event()
        if not hold:
            self.released.set()

    def review(self, request: ReviewRequest) -> Review:
        self.requests.append(request)
        while not self.released.wait(0.01):
            if self.stopped.is_set():
                raise EngineError("the review was stopped")
        if self.fail:
            raise EngineError(self.fail)
        return made_up_review(request.game)

    def stop(self) -> None:
        self.stopped.set()
