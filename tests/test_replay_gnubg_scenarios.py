"""Whole games refereed by GNU Backgammon, replayed through the product.

Every scenario in tests/scenarios/gnubg/ and examples/ (clean and clumsy hands,
matches of 1, 3 and 5 points, money games with the cube, loaded positions)
runs through ``tavla-pi replay``; every committed play, pass, double, rejected
DONE and result must be exactly what gnubg said (tests/scenario_compare.py).
Regenerate or extend them with tools/gen_gnubg_scenarios.py; for a soak run,
``TAVLA_SCENARIOS=DIR pytest tests/test_replay_gnubg_scenarios.py`` replays DIR too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from scenario_compare import compare, load_events, parse_events, plays_tavli

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings

pytestmark = pytest.mark.slow  # every scenario through `tavla-pi replay`: 1 to 11 s each

ROOT = Path(__file__).resolve().parent.parent
# more folders (soak runs of the generator) may be named in TAVLA_SCENARIOS, os.pathsep apart
EXTRA = [Path(p) for p in os.environ.get("TAVLA_SCENARIOS", "").split(os.pathsep) if p]
SCENARIOS = sorted(
    path
    for folder in (ROOT / "tests" / "scenarios" / "gnubg", ROOT / "examples", *EXTRA)
    for path in folder.glob("*.jsonl")
    if not path.name.endswith(".expected.jsonl") and not plays_tavli(path)
)  # the tavli games are in tests/test_replay_tavli_scenarios.py


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replay_emits_what_gnubg_said(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert status == 0, err
    actual = parse_events(out.splitlines(), f"replay {path.name}")
    expected = load_events(path.with_name(path.name.removesuffix(".jsonl") + ".expected.jsonl"))
    problems = compare(expected, actual)
    assert not problems, f"{path.name}:\n" + "\n".join(problems) + "\n" + _tail(actual)
    # the same events in a journal are trusted whole on resume
    checked = verify([Event.from_dict(e) for e in actual], GameSettings())
    assert checked.reason == "", (checked.trusted, checked.reason)


def _tail(events: list[dict[str, object]]) -> str:
    """The last events printed, to see where the game went its own way."""
    return "last events:\n" + "\n".join(json.dumps(e) for e in events[-8:])
