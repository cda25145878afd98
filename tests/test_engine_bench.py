"""bench/engine.py runs to the end and prints its figures: decision times, the scan loop's
worst step while gnubg thinks at world class, and the memory (the numbers are its verdict)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from programs import needs

ROOT = Path(__file__).resolve().parent.parent

# alone: its figures (the scan loop's worst step while gnubg thinks) are the machine's own
pytestmark = [pytest.mark.slow, pytest.mark.alone, needs("gnubg")]


def test_the_bench_prints_the_scan_loop_while_the_engine_thinks() -> None:
    done = subprocess.run([sys.executable, "bench/engine.py", "--levels", "expert",
                           "--idle", "0.5"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("expert: play") for line in lines), done.stdout
    scan = [line for line in lines if line.startswith("scan loop, ")]
    assert len(scan) == 2, done.stdout
    assert "w.c. plays" in scan[1]
    for line in scan:
        assert re.search(r"worst +\d+\.\d+ ms", line) and "late by more than 20 ms: " in line
    assert re.search(r"with gnubg \d+\.\d MB", done.stdout)
