"""What the referee's part for the games of tavli shares: its state and the hooks it calls.

:class:`~tavla_pi.game.referee.Referee` takes its methods for the games of tavli
(:mod:`tavla_pi.game.variant_game`) from a class over this state; its other
parts are objects it holds: the cube and resignations (:mod:`tavla_pi.game.offers`),
the seat (:mod:`tavla_pi.game.seat`) and the coach (:mod:`tavla_pi.game.coach`).
"""

from __future__ import annotations

from typing import Any

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.tavli import VariantResult
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


class RefereeBase:
    """The state every part of the referee reads and changes, and the hooks it calls."""

    match: MatchState
    tavli: TavliMatch
    board: Board
    variant_position: VariantPosition | None
    phase: Phase
    resign: ResignDesk
    _now: int

    @property
    def settings(self) -> GameSettings:
        raise NotImplementedError

    def position(self) -> Position:
        raise NotImplementedError

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        raise NotImplementedError

    def _enter(self, phase: Phase) -> None:
        raise NotImplementedError

    def _reject(self, color: Color, reason: str) -> None:
        raise NotImplementedError

    def _game_over(self, result: GameResult | VariantResult) -> None:
        raise NotImplementedError

    def _flush(self) -> list[Event]:
        raise NotImplementedError
