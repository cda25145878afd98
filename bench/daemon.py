"""The daemon's footprint: time to READY, resident memory, idle CPU, time to stop.

Starts ``tavla-pi run --backend sim`` (default config: 50 scans a second)
under a stand-in for systemd's notify socket, sets up the starting position
through POST /api/sim, then measures the process's CPU time over an idle
stretch (the board waiting for the opening roll, LEDs animating) and its
resident memory, then the time from SIGTERM to exit.  Aims on this machine:
READY under 1 s, under 60 MB, under 3 % of one core.
Run: ``python bench/daemon.py [--seconds 30]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB."""
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found
    return int(found[1]) / 1024


def wait_ready(sock: socket.socket) -> int:
    """The port from the READY message."""
    sock.settimeout(30)
    while True:
        message = sock.recv(4096).decode()
        if message.startswith("READY=1"):
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", message)
            assert found, message
            return int(found[1])


def post(port: int, action: dict[str, object]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/api/sim", json.dumps(action), {"Content-Type": "application/json"})
    assert conn.getresponse().status == 200
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="idle stretch (default 30)")
    seconds = parser.parse_args().seconds
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "config.toml").write_text("")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(base / "notify"))
        env = {**os.environ, "NOTIFY_SOCKET": str(base / "notify"), "WATCHDOG_USEC": "10000000"}
        began = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "tavla_pi", "run", "--backend", "sim", "--config",
             str(base / "config.toml"), "--state-dir", str(base / "state"), "--http",
             "127.0.0.1:0"], env=env, stderr=subprocess.DEVNULL)
        try:
            port = wait_ready(sock)
            ready_s = time.perf_counter() - began
            post(port, {"setup": "start"})
            post(port, {"wait": 1000})
            cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            time.sleep(seconds)
            cpu = (cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0)
            rss = rss_mb(proc.pid)
            stop0 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            status = proc.wait(timeout=10)
            stop_s = time.perf_counter() - stop0
        finally:
            if proc.poll() is None:
                proc.kill()
            sock.close()
    print(f"time to READY:        {ready_s * 1000:7.0f} ms   (aim < 1000 ms)")
    print(f"resident memory:      {rss:7.1f} MB   (aim < 60 MB)")
    print(f"idle CPU, {seconds:.0f} s at 50 Hz: {cpu * 100:6.2f} %    of one core (aim < 3 %)")
    print(f"SIGTERM to exit:      {stop_s * 1000:7.0f} ms   (exit status {status})")


if __name__ == "__main__":
    main()
