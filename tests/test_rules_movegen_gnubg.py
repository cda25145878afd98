"""Differential test: legal plays and their notation against GNU Backgammon's.

Every case of every ``tests/fixtures/movegen*.jsonl`` (written by
``tools/gen_movegen_fixture.py`` with gnubg as the oracle), and of the file
named by ``$TAVLA_MOVEGEN_FIXTURE`` if set, must give exactly gnubg's set of
result positions, each with gnubg's notation.  gnubg is not needed here.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from programs import PROGRAMS, needs

from tavla_pi.rules import Position

FIXTURES = Path(__file__).parent / "fixtures"
TOOL = Path(__file__).parent.parent / "tools" / "gen_movegen_fixture.py"
GNUBG = PROGRAMS["gnubg"].path


def fixture_files() -> list[Path]:
    """The committed fixtures, plus a held-back one named in the environment."""
    files = sorted(FIXTURES.glob("movegen*.jsonl"))
    extra = os.environ.get("TAVLA_MOVEGEN_FIXTURE")
    if extra:
        files.append(Path(extra))
    return files


def load(path: Path) -> list[dict[str, Any]]:
    """The cases of one fixture file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def disagreements(case: dict[str, Any]) -> list[str]:
    """How the engine differs from gnubg on one case (empty when it agrees)."""
    position = Position.from_position_id(case["position_id"])
    dice = (case["dice"][0], case["dice"][1])
    ours = {p.result.position_id(): p.notation for p in position.legal_plays(dice)}
    gnubg = {r["position_id"]: r["notation"] for r in case["results"]}
    where = f"{case['position_id']} {dice[0]}-{dice[1]}"
    problems = [f"{where}: gnubg also allows {pid} ({gnubg[pid]})" for pid in gnubg.keys() - ours]
    problems += [f"{where}: gnubg forbids {pid} ({ours[pid]})" for pid in ours.keys() - gnubg]
    problems += [
        f"{where}: {pid} written {ours[pid]!r}, gnubg writes {gnubg[pid]!r}"
        for pid in ours.keys() & gnubg
        if ours[pid] != gnubg[pid]
    ]
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.name)
def test_every_case_matches_gnubg(path: Path) -> None:
    cases = load(path)
    assert cases, f"{path} has no cases"
    problems = [problem for case in cases for problem in disagreements(case)]
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:10])


def test_committed_fixture_covers_what_it_must() -> None:
    cases = load(FIXTURES / "movegen.jsonl")
    assert len(cases) >= 2000
    rolls = {tuple(sorted(c["dice"])) for c in cases}
    assert len(rolls) == 21
    tags: dict[str, int] = {}
    for case in cases:
        for tag in case["tags"]:
            tags[tag] = tags.get(tag, 0) + 1
    for tag in ("opening", "bar-closed", "bar-partial", "bearoff-higher", "bearoff-inside",
                "larger-die", "many-plays", "random-game", "gnubg-game", "no-move"):
        assert tags.get(tag, 0) >= 5, f"fixture has only {tags.get(tag, 0)} {tag!r} cases"


def test_fixture_position_ids_are_gnubgs() -> None:
    """Every Position ID gnubg wrote decodes and re-encodes to itself."""
    for case in load(FIXTURES / "movegen.jsonl"):
        for pid in [case["position_id"], *(r["position_id"] for r in case["results"])]:
            assert Position.from_position_id(pid).position_id() == pid


@pytest.mark.slow
@needs("gnubg")
def test_fresh_random_cases_match_live_gnubg(tmp_path: Path) -> None:
    """A new seed each run: some twenty fresh positions of every kind, asked of gnubg now."""
    assert GNUBG is not None
    seed = random.randrange(1 << 30)
    out = tmp_path / "live.jsonl"
    cmd = [sys.executable, str(TOOL), "--seed", str(seed), "--count", "10", "--out", str(out),
           "--gnubg", str(GNUBG)]
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    cases = [c for c in load(out) if "opening" not in c["tags"]]
    assert len(cases) >= 20
    problems = [problem for case in cases for problem in disagreements(case)]
    assert not problems, f"seed {seed}: " + "\n".join(problems[:10])
