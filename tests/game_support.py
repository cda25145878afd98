"""Running inline scenarios through the real pipeline, for game tests."""

from __future__ import annotations

import json
from typing import Any

from sim_support import PINMAP

from tavla_pi.game.settings import GameSettings
from tavla_pi.replay.actions import ScenarioLine, parse_line
from tavla_pi.replay.runner import ScenarioRunner

GRADED = ("opening_roll", "rolled", "played", "rejected", "no_legal_move", "double_offered",
          "double_taken", "double_dropped", "game_over", "match_over", "game_started")


def scenario(*actions: dict[str, Any]) -> list[ScenarioLine]:
    """Scenario lines from action objects (as a scenario file would hold them)."""
    lines = []
    for n, action in enumerate(actions, start=1):
        parsed = parse_line(json.dumps(action), f"inline:{n}")
        assert parsed is not None
        lines.append(ScenarioLine(f"inline:{n}", parsed))
    return lines


def replay(*actions: dict[str, Any], match_length: int = 0, seed: int = 0,
           runner: ScenarioRunner | None = None) -> list[dict[str, Any]]:
    """Every event of the scenario, as JSON objects."""
    runner = runner or ScenarioRunner(PINMAP, GameSettings(match_length=match_length),
                                      seed=seed)
    return [e.to_dict() for e in runner.run(scenario(*actions))]


def graded(events: list[dict[str, Any]], *types: str) -> list[tuple[Any, ...]]:
    """The events of the given types (default: the graded ones) as compact tuples."""
    keep = types or GRADED
    out = []
    for e in events:
        if e["type"] in keep:
            fields = {k: v for k, v in e.items() if k not in ("t", "type", "reason")}
            out.append((e["type"], *(fields[k] for k in sorted(fields))))
    return out


def move(spec: str, color: str) -> dict[str, Any]:
    """A ``move`` action."""
    return {"move": spec, "color": color}


def press(button: str) -> dict[str, Any]:
    """A ``press`` action."""
    return {"press": button}


def dice(a: int, b: int) -> dict[str, Any]:
    """A ``dice`` action."""
    return {"dice": [a, b]}
