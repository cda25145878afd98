"""Games against the computer on the modelled board, one action at a time, for game tests.

A :class:`Table` runs scenario actions through a :class:`ScenarioRunner` whose
computer is a scripted engine (or any engine handed in), keeping every event,
so that a test can look at ``/api/state`` between actions.
"""

from __future__ import annotations

from typing import Any

from game_support import scenario
from sim_support import PINMAP

from tavla_pi.engine import Engine
from tavla_pi.game.settings import GameSettings
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.engine import ScriptedEngine
from tavla_pi.testing.hand import location

BLACK_EXPERT = {"setup": "start", "opponent": {"color": "black", "level": "expert"}}
"""A setup with the computer playing Black at level expert."""
WHITE_OPENS = (BLACK_EXPERT, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
               {"move": "8/5", "color": "white"}, {"move": "6/5", "color": "white"})
"""White wins the opening with 3-1 and moves 8/5 6/5 (DONE still to press)."""


class Table:
    """A game against ``engine`` (default: one scripted by ``script``), action by action."""

    def __init__(self, script: list[tuple[str, Any]] | None = None, *,
                 engine: Engine | None = None, settings: GameSettings | None = None,
                 seed: int = 0) -> None:
        self.scripted = ScriptedEngine(script or []) if engine is None else None
        self.runner = ScenarioRunner(PINMAP, settings or GameSettings(), seed=seed,
                                     engine=engine or self.scripted)
        self.events: list[dict[str, Any]] = [e.to_dict() for e in self.runner.advance(0)]

    def act(self, *actions: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply ``actions``; the events they led to (also kept in ``events``)."""
        new: list[dict[str, Any]] = []
        for line in scenario(*actions):
            new += [e.to_dict() for e in self.runner.apply(line.action)]
        self.events += new
        return new

    def state(self) -> dict[str, Any]:
        """``GET /api/state`` now."""
        return self.runner.state()

    def close(self) -> list[dict[str, Any]]:
        """Let the board settle, stop the engine (a script must be used up); the events."""
        self.events += [e.to_dict() for e in self.runner.finish()]
        self.runner.close()
        return self.events

    def of(self, *types: str) -> list[dict[str, Any]]:
        """The events so far of these types, without their time."""
        return [{k: v for k, v in e.items() if k != "t"} for e in self.events
                if e["type"] in types]


def move(spec: str, color: str = "black") -> dict[str, Any]:
    """A ``move`` action (Black's by default: the computer's checkers)."""
    return {"move": spec, "color": color}


def hand(play: Play, color: Color) -> list[dict[str, Any]]:
    """The moves of a hand carrying ``play`` out for ``color``: one single-die move at a
    time, a hit blot put on the bar before the hitter arrives."""
    actions: list[dict[str, Any]] = []
    for frm, to, hit in play.moves:
        if hit:
            actions.append(move(f"{location(to, color)}/bar", color.opponent.value))
        actions.append(move(f"{location(frm, color)}/{location(to, color)}", color.value))
    return actions


def chosen(table: Table) -> Play:
    """The computer's play being carried out now."""
    turn = table.runner.referee.turn
    assert turn is not None and turn.seat_play is not None, "no computer's play to carry out"
    return turn.seat_play


def load(white: dict[str, int], black: dict[str, int], on_roll: Color,
         **match: Any) -> dict[str, Any]:
    """A ``load`` action: the board of these counts, ``on_roll`` to roll in a game under way."""
    board = Board.from_counts(white, black)
    state = MatchState(on_roll=on_roll, to_act=match.pop("to_act", on_roll),
                       game_state=GameState.PLAYING, **match)
    return {"load": {"position_id": Position.from_board(board, on_roll).position_id(),
                     "match_id": state.match_id()}}
