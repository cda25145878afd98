"""``tavla-pi run --backend sim`` as systemd runs it: READY, STATUS, WATCHDOG, a clean SIGTERM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla_pi.events.journal import JOURNAL_NAME
from tavla_pi.testing.daemon_process import DaemonProcess


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[DaemonProcess]:
    config = tmp_path / "config.toml"
    config.write_text("[daemon]\nlog_level = \"info\"\n")
    process = DaemonProcess(tmp_path / "state", tmp_path / "notify", config,
                            watchdog_usec=400_000)
    yield process
    process.close()


def test_ready_watchdog_status_and_a_clean_stop(daemon: DaemonProcess) -> None:
    daemon.start()
    ready = daemon.messages[-1]
    assert ready.startswith("READY=1\nSTATUS=listening on http://127.0.0.1:")
    for _ in range(3):  # every 200 ms: half the watchdog interval
        daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
    assert daemon.state()["phase"] == "setup"
    daemon.sim({"setup": "start"})
    daemon.wait_for(lambda m: m == "STATUS=opening roll, score 0-0", 10)
    daemon.sim({"dice": [5, 2]})
    events = daemon.sim({"press": "black.roll"})
    assert [e["type"] for e in events][-1] == "opening_roll"
    daemon.wait_for(lambda m: m.startswith("STATUS=white moving"), 10)
    status, seconds = daemon.terminate()
    assert status == 0
    assert seconds < 5  # bench/daemon.py measures it: well under a second
    log = daemon.stderr()
    assert "Traceback" not in log
    assert "ready: http://127.0.0.1:" in log and log.rstrip().endswith("INFO stopped")
    assert "white starts" in log
    daemon.wait_for(lambda m: m.startswith("STOPPING=1"), 5)
    journal = (daemon.state_dir / JOURNAL_NAME).read_text()
    assert '"type": "opening_roll"' in journal


def test_a_taken_port_is_one_line_and_status_1(daemon: DaemonProcess, tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        done = subprocess.run([sys.executable, "-m", "tavla_pi", "run", "--backend", "sim",
                               "--config", str(daemon.config), "--state-dir",
                               str(tmp_path / "s2"), "--http", f"127.0.0.1:{port}"],
                              capture_output=True, text=True, timeout=60, check=False)
    finally:
        holder.close()
    assert done.returncode == 1
    assert f"tavla-pi: cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr
    assert "Traceback" not in done.stderr


def test_tavla_pi_sim_prints_its_address_and_cleans_up(tmp_path: Path) -> None:
    import http.client
    import json
    import re
    import signal
    import subprocess
    import sys

    (tmp_path / "config.toml").write_text("")
    proc = subprocess.Popen([sys.executable, "-m", "tavla_pi", "sim", "--config",
                             str(tmp_path / "config.toml"), "--http", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.fullmatch(r"tavla-pi sim: the simulated board is at "
                             r"http://127\.0\.0\.1:(\d+)/  \(Ctrl-C stops it\)\n", line)
        assert found, line
        conn = http.client.HTTPConnection("127.0.0.1", int(found[1]), timeout=30)
        conn.request("GET", "/api/state")
        state = json.loads(conn.getresponse().read())
        conn.close()
        assert state["backend"] == "sim" and state["phase"] == "setup"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
        log = proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
    state_dir = re.search(r"state in (\S+)", log)
    assert state_dir, log
    assert "tavla-pi-sim-" in state_dir[1] and not Path(state_dir[1]).exists()
