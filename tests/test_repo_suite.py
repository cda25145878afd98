"""How `make test` runs the suite: the tests marked ``alone`` apart and serially, the rest
on every core; the serial run is never empty (pytest would fail it with status 5)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALONE = re.compile(r"pytest\.mark\.alone\b")


def test_some_tests_are_marked_alone_so_the_serial_run_is_never_empty() -> None:
    marked = sorted(p.name for p in (ROOT / "tests").glob("test_*.py")
                    if ALONE.search(p.read_text(encoding="utf-8")))
    assert "test_broadcast.py" in marked and "test_speech_speaker.py" in marked, marked


def test_make_test_runs_the_alone_tests_serially_and_the_rest_on_every_core() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    unit = makefile.split("\nunit:", 1)[1].split("\n\n", 1)[0]
    assert '-m alone -n 0' in unit
    parallel = next(line for line in unit.splitlines() if '-m "not alone"' in line)
    assert "-n auto" in parallel and "--durations=25" in parallel
    assert unit.rstrip().endswith("exit $$status")
