"""bench/remote.py runs two boards through a real Mosquitto and prints its figures: the
latency from DONE to the other board's lights, the messages and bytes per game, the aim
(a budget of a few plays here; the aim may be missed on a loaded machine: exit status 1)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from programs import needs

ROOT = Path(__file__).resolve().parent.parent

# alone: its figures (the latency between two boards' processes) are the machine's own
pytestmark = [pytest.mark.slow, pytest.mark.alone, needs("mosquitto")]

MS = r"median +\d+\.\d ms, p99 +\d+\.\d ms, max +\d+\.\d ms"


def test_the_bench_prints_the_latency_and_the_traffic_of_a_few_plays() -> None:
    done = subprocess.run([sys.executable, "bench/remote.py", "--plays", "4", "--seed", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode in (0, 1), done.stderr
    out = done.stdout
    assert re.search(r"^games: 1 \(stopped at 4 plays\), plays: 4 \(seed 3\)", out, re.M), out
    assert re.search(rf"^DONE request -> remote_play on the other board: {MS}$", out, re.M), out
    assert re.search(rf"^played on the mover -> remote_play on the other: {MS}$", out, re.M)
    for what in ("messages published", "payload bytes"):
        found = re.search(rf"^{what} per game: game (\d+), sync (\d+), status \d+ "
                          r"\(total \d+\)$", out, re.M)
        assert found and int(found[1]) >= 4 and int(found[2]) > 0, out
    assert re.search(r"^aim: p99 under 250 ms .*: (met|missed) \(\d+\.\d ms\)$", out, re.M), out
