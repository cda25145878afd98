"""A real ``tavla-pi run`` process under a stand-in for systemd's notify socket, and its HTTP API.

Waiting is bounded polling (no fixed sleeps): the notify socket's timeout
and the HTTP client's timeout end every wait.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

START_TIMEOUT_S = 30.0
HTTP_TIMEOUT_S = 30.0


def wait_for_notify(sock: socket.socket, proc: subprocess.Popen[Any],
                    wanted: Callable[[str], bool], timeout_s: float, *,
                    log: Callable[[], str], seen: list[str]) -> str:
    """The first message on the notify socket ``sock`` that ``wanted`` accepts.

    Every message read is appended to ``seen``; fails, with ``log()``, if
    ``proc`` exits first, and if ``timeout_s`` passes first.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no such notify message within {timeout_s} s: {seen}"
        sock.settimeout(min(left, 0.5))
        try:
            message = sock.recv(4096).decode()
        except TimeoutError:
            assert proc.poll() is None, log()
            continue
        seen.append(message)
        if wanted(message):
            return message


class DaemonProcess:
    """``python -m tavla_pi run --backend sim`` with a notify socket and an ephemeral port."""

    def __init__(self, state_dir: Path, notify_path: Path, config: Path,
                 watchdog_usec: int = 1_000_000, env: dict[str, str] | None = None) -> None:
        self.state_dir = state_dir
        self.env = env or {}
        self.config = config
        self.watchdog_usec = watchdog_usec
        self.notify_path = notify_path
        self.log_path = notify_path.with_name("daemon.log")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(notify_path))
        self.messages: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    def start(self) -> float:
        """Start the daemon and wait for READY=1; the seconds it took."""
        env = {**os.environ, **self.env, "NOTIFY_SOCKET": str(self.notify_path),
               "WATCHDOG_USEC": str(self.watchdog_usec)}
        env.pop("WATCHDOG_PID", None)
        began = time.monotonic()
        with self.log_path.open("a") as log:  # a file: a pipe nobody reads would fill and block
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tavla_pi", "run", "--backend", "sim", "--config",
                 str(self.config), "--state-dir", str(self.state_dir), "--http", "127.0.0.1:0"],
                env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
        ready = self.wait_for(lambda m: m.startswith("READY=1"), START_TIMEOUT_S)
        found = re.search(r"STATUS=listening on http://127\.0\.0\.1:(\d+)/", ready)
        assert found, ready
        self.port = int(found[1])
        return time.monotonic() - began

    def wait_for(self, wanted: Callable[[str], bool], timeout_s: float) -> str:
        """The first notify message ``wanted`` accepts (kept in ``messages``)."""
        assert self.proc is not None
        return wait_for_notify(self.sock, self.proc, wanted, timeout_s, log=self.stderr,
                               seen=self.messages)

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)
        self.proc = None

    def terminate(self) -> tuple[int, float]:
        """SIGTERM; the exit status and the seconds it took to exit."""
        assert self.proc is not None
        began = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        status = self.proc.wait(timeout=10)
        return status, time.monotonic() - began

    def stderr(self) -> str:
        """What the daemon logged, every run so far."""
        return self.log_path.read_text() if self.log_path.exists() else ""

    def close(self) -> None:
        """Kill the daemon if it still runs; release the socket."""
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
        self.sock.close()

    # -- HTTP -------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One request; the status and the JSON answer."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read())
        finally:
            conn.close()

    def sim(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """POST one action; the events it led to."""
        status, answer = self.request("POST", "/api/sim", action)
        assert status == 200, (action, answer)
        events: list[dict[str, Any]] = answer["events"]
        return events

    def state(self) -> dict[str, Any]:
        """GET /api/state."""
        status, answer = self.request("GET", "/api/state")
        assert status == 200, answer
        result: dict[str, Any] = answer
        return result

    def game_events(self, count: int) -> list[dict[str, Any]]:
        """The first ``count`` events of GET /api/events: the current game's, as journaled."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        try:
            conn.request("GET", "/api/events")
            answer = conn.getresponse()
            assert answer.status == 200
            events: list[dict[str, Any]] = []
            while len(events) < count:
                line = answer.fp.readline().decode()
                if line.startswith("data: "):
                    events.append(json.loads(line[6:]))
            return events
        finally:
            conn.close()
