"""bench/online.py plays against a real bgammon-server and prints its figures: from DONE to
the opponent's last move, from the opponent's ``ok`` to the board's lit play, the aim (a
budget of a few plays here; the aim may be missed on a loaded machine: exit status 1)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from programs import needs

ROOT = Path(__file__).resolve().parent.parent

# alone: its figures (the latency between the daemon's and the server's processes) are
# the machine's own
pytestmark = [pytest.mark.slow, pytest.mark.alone, needs("bgammon-server")]

MS = r"median +\d+\.\d ms, p99 +\d+\.\d ms, max +\d+\.\d ms"


def test_the_bench_prints_both_latencies_of_a_few_plays() -> None:
    done = subprocess.run([sys.executable, "bench/online.py", "--plays", "6", "--seed", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode in (0, 1), done.stderr
    out = done.stdout
    assert re.search(r"^matches: 1 of 1 point\(s\), plays timed: \d+ of the board's, \d+ of "
                     r"the opponent's \(seed 3\)", out, re.M), out
    assert re.search(rf"^DONE request -> the opponent's last move: {MS}$", out, re.M), out
    assert re.search(rf"^the opponent's ok -> remote_play on the board: {MS}$", out, re.M), out
    assert re.search(r"^aim: p99 under 150 ms: (met|missed) \(\d+\.\d ms\)$", out, re.M), out
