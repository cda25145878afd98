"""Scenario actions written back as docs/CONTRACTS.md §4 JSON lines (the inverse of parsing).

The soak writes the scenario of a failing session with these, so that
``tavla-pi replay`` plays it again exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tavla_pi.replay.actions import (
    Action,
    DiceAction,
    GlitchAction,
    LiftAction,
    LoadAction,
    MoveAction,
    PlaceAction,
    PressAction,
    SetupAction,
    WaitAction,
)


def action_json(action: Action) -> dict[str, Any]:
    """The docs/CONTRACTS.md §4 JSON object of one action."""
    out: dict[str, Any]
    match action:
        case SetupAction(match_length, _, variant):
            out = {"setup": "start"}
            if match_length is not None:
                out["match_length"] = match_length
            if variant is not None:
                out["variant"] = variant
        case LoadAction(position_id, match_id):
            out = {"load": {"position_id": position_id, "match_id": match_id}}
        case DiceAction(a, b):
            out = {"dice": [a, b]}
        case PressAction(button, ms, long):
            out = {"hold": button, "ms": ms} if long else {"press": button}
        case LiftAction(at, color):
            out = {"lift": at, "color": color.value}
        case PlaceAction(at, color):
            out = {"place": at, "color": color.value}
        case MoveAction(source, target, color):
            out = {"move": f"{source}/{target}", "color": color.value}
        case GlitchAction(at, color, ms):
            out = {"glitch": {"at": at, "color": color.value, "ms": ms}}
        case WaitAction(ms):
            out = {"wait": ms}
    return out


def scenario_lines(lines: Iterable[Action | str]) -> list[str]:
    """Scenario file lines: each action as JSON, each note as a ``#`` comment."""
    return [f"# {x}" if isinstance(x, str) else json.dumps(action_json(x)) for x in lines]
