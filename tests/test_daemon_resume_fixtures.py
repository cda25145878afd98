"""Journals written by older code resume to the state they were left in.

The fixtures in ``tests/fixtures/journals/`` were written by the daemon at
517ff92, before the package layers moved; the real daemon process resumes a
copy of each and must answer ``GET /api/state`` as it did then.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from daemon_process import DaemonProcess

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "journals"
CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", CASES)
def test_an_older_journal_resumes_to_the_same_state(tmp_path: Path, name: str) -> None:
    shutil.copytree(FIXTURES / name / "state", tmp_path / "state")
    expected = json.loads((FIXTURES / name / "state.json").read_text())
    config = tmp_path / "config.toml"
    config.write_text("")
    daemon = DaemonProcess(tmp_path / "state", tmp_path / "notify", config)
    try:
        daemon.start()
        assert _settled_state(daemon, list(expected)) == expected
        assert daemon.terminate()[0] == 0
    finally:
        daemon.close()
    log = daemon.stderr()
    assert "resumed from" in log
    assert "WARNING" not in log and not list((tmp_path / "state").glob("journal.untrusted-*"))


def _settled_state(daemon: DaemonProcess, keys: list[str],
                   timeout_s: float = 15.0) -> dict[str, object]:
    """The state once the resumed daemon has a stable reading of its board (what the
    player sees: ``dice_used`` follows the checkers already moved)."""
    deadline = time.monotonic() + timeout_s
    state = daemon.state()
    while (state["sensed"] is None or state["fix"]) and time.monotonic() < deadline:
        time.sleep(0.05)  # a real process: its scans run on the real clock
        state = daemon.state()
    time.sleep(0.3)  # a few more scans: the stability filter passes the board
    state = daemon.state()
    return {key: state[key] for key in keys}
