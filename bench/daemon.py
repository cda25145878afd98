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
    step_costs()


def step_costs(steps: int = 2000) -> None:
    """CPU time of one scan step on the set-up board, and of its parts (timed inside it)."""
    from tavla_pi.config import Config
    from tavla_pi.daemon.notify import Notifier
    from tavla_pi.daemon.startup import open_daemon
    from tavla_pi.engine import find_gnubg

    with tempfile.TemporaryDirectory() as folder:
        opened = open_daemon(Config(backend="sim"), Path(folder), Notifier(None),
                             gnubg=find_gnubg())
        try:
            board = opened.backend.board  # type: ignore[attr-defined]
            board.setup_start()
            pipeline = opened.core.pipeline
            parts = {"scan": 0.0, "decode": 0.0}
            pipeline.backend.sensors = Timed(board, "scan", parts)  # type: ignore[assignment]
            pipeline.decoder = Timed(pipeline.decoder, "decode", parts)  # type: ignore[assignment]
            start = time.process_time()
            for _ in range(steps):
                opened.core.step()
            total = (time.process_time() - start) / steps * 1000
        finally:
            opened.close()
    scan, decode = (parts[k] / steps * 1000 for k in ("scan", "decode"))
    print(f"one scan step:        {total:7.3f} ms CPU ({total * 5:.1f} % of a core at 50 Hz): "
          f"sensor model {scan:.3f}, decode {decode:.3f}, "
          f"the rest {total - scan - decode:.3f}")


class Timed:
    """Adds the CPU time of ``scan`` or ``decode`` calls of ``inner`` to ``parts[name]``."""

    def __init__(self, inner: object, name: str, parts: dict[str, float]) -> None:
        self._inner, self._name, self._parts = inner, name, parts

    def __getattr__(self, attribute: str) -> object:
        value = getattr(self._inner, attribute)
        if attribute != self._name:
            return value

        def timed(*args: object) -> object:
            start = time.process_time()
            try:
                return value(*args)
            finally:
                self._parts[self._name] += time.process_time() - start
        return timed


if __name__ == "__main__":
    main()
