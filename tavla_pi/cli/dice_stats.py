"""``tavla-pi dice-stats``: the distribution of recorded rolls, with chi-square tests.

The state directory's matches are read as ``export`` reads them
(:mod:`tavla_pi.cli.trusted`): damaged lines, impossible dice (the journal's
schema takes dice 1..6 only) and events that do not follow the rules, with
the rest of their match, are left out, each with a warning naming file and
line.  Files named on the command line (replay output, a copied journal)
are read line by line the same way, without the rules' check (they need not
hold whole games).  The rolls of a match with a friend's board are checked
against both boards' commitments and contributions
(:func:`tavla_pi.remote.audit.dice_problems`): a roll that is not the two
boards' fair dice is a warning naming the match and the roll.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tavla_pi.cli.trusted import trusted_history
from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.errors import BadInputError
from tavla_pi.events.journal import JOURNAL_NAME
from tavla_pi.events.scan import scan_file
from tavla_pi.remote.audit import dice_problems
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
    if args.files:
        rolls, warnings, where = _file_rolls(args.files)
    else:
        rolls, warnings, where = _state_rolls(args.state_dir or default_state_dir())
    for warning in warnings:
        print(f"tavla-pi: warning: {warning}", file=sys.stderr)
    if not rolls:
        raise BadInputError(where, "no recorded rolls")
    print(report(rolls))
    return 0


Rolls = tuple[list[tuple[int, int]], list[str], str]
"""The rolls found, the warnings, and what was read (for "no recorded rolls")."""


def _file_rolls(files: list[Path]) -> Rolls:
    """Every roll in ``files``, each line checked (a torn last line is dropped silently)."""
    rolls: list[tuple[int, int]] = []
    warnings: list[str] = []
    for path in files:
        scan = scan_file(path)
        warnings += [f"{path}:{line}: {problem} (left out)" for line, problem in scan.bad]
        warnings += [f"{path}: the dice: {problem}" for problem in dice_problems(scan.events)]
        rolls += dice_from_events(scan.events)
    return rolls, warnings, ", ".join(map(str, files))


def _state_rolls(state_dir: Path) -> Rolls:
    """Every roll of the state directory's matches, as far as they follow the rules."""
    history = trusted_history(state_dir)
    if not history.matches and not history.warnings:
        raise BadInputError(str(state_dir / JOURNAL_NAME), "no journal here (nothing recorded)")
    rolls = [roll for log in history.matches for roll in dice_from_events(log.events)]
    unfair = [f"{state_dir}: the dice: {problem}" for log in history.matches
              for problem in dice_problems(log.events)]
    return rolls, history.warnings + unfair, str(state_dir)


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
