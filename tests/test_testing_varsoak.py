"""The soak of Plakoto, Fevga and the tavli match: the bugs the variant soak found,
each as the smallest scenario that shows it."""

from __future__ import annotations

from pathlib import Path

from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner

FAILURES = Path(__file__).parent / "soak_failures"


def replay(name: str, seed: int) -> list[str]:
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=seed)
    return [e.type for e in runner.run(list(read_scenario(FAILURES / name)))]


def test_fifteen_on_a_point_set_up_are_laid_layer_by_layer() -> None:
    assert "game_started" in replay("fifteen_laid_at_once.jsonl", seed=1000003)
