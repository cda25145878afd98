"""Journals written by older code resume to the state they were left in.

The fixtures in ``tests/fixtures/journals/`` were written by the daemon at
517ff92, before the package layers moved; the real daemon process resumes a
copy of each and must answer ``GET /api/state`` as it did then.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tavla_pi.testing.daemon_process import DaemonProcess

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "journals"
CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", CASES)
def test_an_older_journal_resumes_to_the_same_state(tmp_path: Path, name: str) -> None:
    shutil.copytree(FIXTURES / name / "state", tmp_path / "state")
    expected = json.loads((FIXTURES / name / "state.json").read_text())
    config = tmp_path / "config.toml"
    config.write_text("")
    daemon = DaemonProcess(tmp_path / "state", tmp_path / "notify", config,
                           watchdog_usec=100_000)
    try:
        daemon.start()
        assert _settled_state(daemon, list(expected)) == expected
        assert daemon.terminate()[0] == 0
    finally:
        daemon.close()
    log = daemon.stderr()
    assert "resumed from" in log
    assert "WARNING" not in log and not list((tmp_path / "state").glob("journal.untrusted-*"))


def _settled_state(daemon: DaemonProcess, keys: list[str]) -> dict[str, object]:
    """The state once the resumed daemon has read its board and the stability filter has
    passed it (``dice_used`` follows the checkers already moved).  The daemon's own
    watchdog pings (every 50 ms) pace the polling."""
    for _ in range(200):
        if daemon.state()["sensed"] is not None:
            break
        daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
    for _ in range(6):  # 300 ms more: longer than the 150 ms stability filter
        daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
    state = daemon.state()
    return {key: state[key] for key in keys}
