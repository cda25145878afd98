"""Scenarios with an engine behind the referee: the coach's hints and blunder warnings.

``Coached`` runs inline scenarios on the modelled board with a
:class:`BackgroundEngine` in front of the scripted engine (or the real gnubg);
replay waits for the engine's answers before each scan, so every run is the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from game_support import scenario
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import BackgroundEngine, Engine, Level
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.leds import LedLayout, render
from tavla_pi.leds.palette import SUGGESTED
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color

START = ({"setup": "start"}, {"wait": 400})
HOLD_MS = 1600  # past the long-press threshold (1.5 s)


def opponent(color: Color | None, *, coach: bool = True, threshold: float = 0.08,
             level: Level = Level.EXPERT) -> GameSettings:
    """Settings with the computer playing ``color`` (None: two humans)."""
    return GameSettings(opponent=OpponentSettings(color=color, level=level, coach=coach,
                                                  blunder_threshold=threshold))


class Coached:
    """A scenario runner whose referee has an engine; events kept as JSON objects."""

    def __init__(self, engine: Engine, settings: GameSettings) -> None:
        self.background = BackgroundEngine(engine, VirtualClock())
        self.background.start()
        self.runner = ScenarioRunner(PINMAP, settings, engine=self.background)
        self.events: list[dict[str, Any]] = []
        self.layout = LedLayout.from_pinmap(PINMAP)

    def play(self, *actions: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply the actions (the board is not settled at the end); their events."""
        out = []
        for line in scenario(*actions):
            out += [e.to_dict() for e in self.runner.apply(line.action)]
        self.events += out
        return out

    def settle(self) -> list[dict[str, Any]]:
        """Let the board settle and the timers run out, as a scenario's end does."""
        out = [e.to_dict() for e in self.runner.finish()]
        self.events += out
        return out

    def lit(self, feature: str, after_ms: int) -> bool:
        """Whether ``feature`` shows the suggestion's white ``after_ms`` into its walk."""
        view = self.runner.referee.view()
        frame = render(view, self.layout, view.suggested_since_ms + after_ms, 1.0)
        return frame[self.layout.index(feature)] == SUGGESTED


@contextmanager
def coached(engine: Engine, settings: GameSettings) -> Iterator[Coached]:
    """A :class:`Coached` run; the engine closed at the end (a scripted one checks that
    every answer was used)."""
    run = Coached(engine, settings)
    try:
        yield run
    finally:
        run.background.close()


def of_type(events: list[dict[str, Any]], *types: str) -> list[dict[str, Any]]:
    """The events of these types, without their times."""
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["type"] in types]


def hold(button: str) -> dict[str, Any]:
    """A long press."""
    return {"hold": button, "ms": HOLD_MS}
