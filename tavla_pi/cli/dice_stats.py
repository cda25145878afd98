"""``tavla-pi dice-stats``: the distribution of recorded rolls, with chi-square tests."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.errors import BadInputError
from tavla_pi.events.history import journal_files
from tavla_pi.events.journal import JOURNAL_NAME
from tavla_pi.events.reader import read_events
from tavla_pi.stats.dice import (
    FACE_VALUES,
    ROLLS,
    ChiSquare,
    dice_from_events,
    face_counts,
    face_test,
    roll_counts,
    roll_probability,
    roll_test,
)


def add_parser(subparsers: Any) -> None:
    """Register ``dice-stats``."""
    parser = subparsers.add_parser(
        "dice-stats", help="distribution of recorded dice rolls with a chi-square test",
        description="Counts every recorded roll (journal or replay output) and tests the "
                    "faces and the 21 rolls for fairness with Pearson's chi-square test.")
    parser.add_argument("files", nargs="*", type=Path,
                        help="event files (JSON lines); default: every match in --state-dir")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="state directory holding journal.jsonl and matches/")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the distributions and the tests."""
    files: list[Path] = args.files or _journal_files(args.state_dir or default_state_dir())
    rolls = [roll for path in files for roll in dice_from_events(read_events(path))]
    if not rolls:
        raise BadInputError(", ".join(map(str, files)), "no recorded rolls")
    print(report(rolls))
    return 0


def _journal_files(state_dir: Path) -> list[Path]:
    """The current journal and every archived match, oldest first."""
    files = journal_files(state_dir)
    if not files:
        raise BadInputError(str(state_dir / JOURNAL_NAME), "no journal here (nothing recorded)")
    return files


def report(rolls: list[tuple[int, int]]) -> str:
    """The text report for a list of rolls."""
    n = len(rolls)
    faces, combos = face_counts(rolls), roll_counts(rolls)
    lines = [f"{n} rolls ({2 * n} dice)", "", "face  count  share   expected"]
    lines += [f"{f:>4}  {faces[f]:>5}  {faces[f] / (2 * n):6.2%}  {1 / 6:7.2%}"
              for f in FACE_VALUES]
    lines += ["", "roll  count  share   expected"]
    lines += [f"{a}-{b}   {combos[(a, b)]:>5}  {combos[(a, b)] / n:6.2%}  "
              f"{roll_probability((a, b)):7.2%}" for a, b in ROLLS]
    lines += ["", _verdict("faces", face_test(rolls)), _verdict("rolls", roll_test(rolls))]
    if n < 100:
        lines.append("(fewer than 100 rolls: too few for the test to say much)")
    return "\n".join(lines)


def _verdict(what: str, test: ChiSquare) -> str:
    judgement = "consistent with fair dice" if test.p_value >= 0.01 else "SUSPICIOUS (p < 0.01)"
    return (f"chi-square {what}: {test.statistic:.2f} with {test.dof} degrees of freedom, "
            f"p = {test.p_value:.4f}: {judgement}")
