"""Whole Plakoto and Fevga games and tavli matches, replayed through the product.

The scenarios of tests/scenarios/tavli/ (clean hands, noisy hands, checkers put
on wrong points and corrected) and the tavli examples in examples/ were
written by tools/gen_tavli_scenarios.py from games played through
tavla_pi.rules.  Here their expected events are checked against the rules
once more (every play legal, its board the rules' result, every score), and
``tavla-pi replay`` must print exactly them: noisy hands also on other seeds
of the modelled board's tolerances and noise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from scenario_compare import compare, load_events, parse_events

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules import variant
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "scenarios" / "tavli"
EXAMPLES = ("plakoto_pin_and_mother", "fevga_first_checker_and_block", "tavli_match_to_3")
SCENARIOS = sorted(CORPUS.glob("*.jsonl")) + [ROOT / "examples" / f"{n}.jsonl" for n in EXAMPLES]
SCENARIOS = [p for p in SCENARIOS if not p.name.endswith(".expected.jsonl")]
NOISE_SEEDS = {"clean": (0,), "noisy": (3,), "corrected": (4,)}
"""The seeds of the modelled board (its tolerances and noise) each kind of hand plays on."""


def expected_of(path: Path) -> list[dict[str, Any]]:
    return load_events(path.with_name(path.name.removesuffix(".jsonl") + ".expected.jsonl"))


def setup_of(path: Path) -> dict[str, Any]:
    return next(line for line in load_events(path) if "setup" in line)


def seeds_of(path: Path) -> tuple[int, ...]:
    return NOISE_SEEDS.get(path.stem.rsplit("_", 1)[-1], (0,))


def test_the_tavli_scenarios_are_there() -> None:
    assert {p.stem.rsplit("_", 1)[-1] for p in SCENARIOS if p.parent == CORPUS} == set(NOISE_SEEDS)
    kinds = {setup_of(p)["variant"] for p in SCENARIOS}
    assert kinds == {"plakoto", "fevga", "tavli"}
    for path in SCENARIOS:
        assert expected_of(path), path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_expected_events_are_the_rules(path: Path) -> None:
    """Every play is a legal play of its dice with the board the rules give, every end
    scored as the match counts it, every game started by the right player."""
    setup = setup_of(path)
    match = TavliMatch.new(setup["variant"], setup["match_length"])
    position: VariantPosition | None = None
    for event in expected_of(path):
        kind = event["type"]
        if kind == "game_started":
            assert event["variant"] == match.variant, event
            position = variant(match.variant).initial()
        elif kind == "opening_roll" and event["starter"]:
            match = match.opened_by(_color(event["starter"]))
        elif kind in ("played", "no_legal_move"):
            assert position is not None
            position = _turn(position, event, match)
        elif kind == "game_over":
            assert position is not None and position.outcome() is not None, event
            outcome = position.outcome()
            assert outcome is not None
            points = match.points(outcome)
            match = match.after(outcome)
            winner = outcome.winner.value if outcome.winner else None
            assert [winner, outcome.ending.value, points, list(match.score)] == [
                event["winner"], event["kind"], event["points"], event["score"]], event
        elif kind == "match_over":
            assert match.match_winner is not None and match.match_winner.value == event["winner"]


def _turn(position: VariantPosition, event: dict[str, Any], match: TavliMatch
          ) -> VariantPosition:
    if position.board() == variant(match.variant).initial().board():
        assert match.starter is not None and event["player"] == match.starter.value, event
    mover = _color(event["player"])
    if position.on_roll is not mover:
        position = variant(position.variant).from_board(position.board(), mover)
    high, low = event["dice"]
    # a play is named as the dice were rolled: "10/4" rolled 2-4 is "10/6*/4" rolled 4-2
    plays = {p.notation: p for dice in ((low, high), (high, low))
             for p in position.legal_plays(dice)}
    if event["type"] == "no_legal_move":
        assert not plays, event
        return variant(position.variant).from_board(position.board(), mover.opponent)
    assert event["play"] in plays, (position.board(), event, sorted(plays))
    after = plays[event["play"]].result
    assert after.board() == event["board"], event
    return after


def _color(name: str) -> Color:
    return Color(name)


CASES = [(path, seed) for path in SCENARIOS for seed in seeds_of(path)]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "seed"), CASES,
                         ids=lambda c: f"{c.parent.name}/{c.stem}" if isinstance(c, Path)
                         else f"seed{c}")
def test_replay_commits_exactly_the_expected_plays(
    path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["replay", "--seed", str(seed), str(path)])
    out, err = capsys.readouterr()
    assert status == 0, err
    actual = parse_events(out.splitlines(), f"replay {path.name}")
    problems = compare(expected_of(path), actual)
    tail = "\n".join(json.dumps(e) for e in actual[-8:])
    assert not problems, f"{path.name}:\n" + "\n".join(problems) + "\nlast events:\n" + tail
    checked = verify([Event.from_dict(e) for e in actual], GameSettings())
    assert checked.reason == "", (checked.trusted, checked.reason)
    assert checked.trusted == len(actual)
