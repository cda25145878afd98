"""The simulator page in a real browser: a ``tavla-pi run --backend sim`` process on a free
port, and Debian's chromium driven by Playwright (never a downloaded browser).

Every wait is bounded: the daemon's start by its READY=1 on a stand-in for systemd's
notify socket (sent once its HTTP socket listens), the page by Playwright's own
timeouts.  Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tavla_pi.testing.daemon_process import wait_for_notify

if TYPE_CHECKING:  # playwright is imported by the page tests, after their skip
    from playwright.sync_api import Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
START_TIMEOUT_S = 30.0
HTTP_TIMEOUT_S = 15.0


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class SimDaemon:
    """``python -m tavla_pi run --backend sim`` on a fixed free port, restartable."""

    def __init__(self, workdir: Path, token: str | None = None) -> None:
        self.state_dir = workdir / "state"
        self.config = workdir / "config.toml"
        self.token = token
        self.config.write_text(f'[http]\ntoken = "{token}"\n' if token else "# the defaults\n")
        self.log_path = workdir / "daemon.log"
        self.notify_path = workdir / "notify"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the daemon and wait for its READY=1 (it listens then)."""
        self.notify_path.unlink(missing_ok=True)  # left by the run before a restart
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(str(self.notify_path))
            with self.log_path.open("ab") as log:  # a file: a pipe nobody reads would block it
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "tavla_pi", "run", "--backend", "sim",
                     "--config", str(self.config), "--state-dir", str(self.state_dir),
                     "--http", f"127.0.0.1:{self.port}"],
                    stdout=subprocess.DEVNULL, stderr=log,
                    env={**os.environ, "NOTIFY_SOCKET": str(self.notify_path)})
            wait_for_notify(notify, self.proc, lambda m: m.startswith("READY=1"),
                            START_TIMEOUT_S, log=self.log, seen=[])

    def stop(self) -> None:
        """SIGTERM and wait; SIGKILL if it does not end."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = HTTP_TIMEOUT_S) -> tuple[int, Any]:
        """One request; the status and the JSON answer."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        auth = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        try:
            conn.request(method, path, body, {**auth, **(headers or {})})
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            conn.close()

    def sim(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """POST one action (it must be accepted); the events it led to."""
        status, answer = self.request("POST", "/api/sim", json.dumps(action).encode(),
                                      {"Content-Type": "application/json"})
        assert status == 200, (action, answer)
        events: list[dict[str, Any]] = answer["events"]
        return events

    def state(self) -> dict[str, Any]:
        status, answer = self.request("GET", "/api/state")
        assert status == 200, answer
        result: dict[str, Any] = answer
        return result


# ---- what a hand does on a page ---------------------------------------------------------

def centre(page: Page, selector: str) -> tuple[float, float]:
    """The middle of the last element ``selector`` finds (found again if redrawn meanwhile)."""
    page.wait_for_selector(selector)
    for _ in range(50):
        box = page.locator(selector).last.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(20)
    raise AssertionError(f"{selector} is not drawn")


def target_of(location: str, color: str) -> str:
    """The page's element for a place on the board (a point, the bar, a tray)."""
    if location == "bar":
        return "rect.bar"
    if location == "off":
        return f"rect.tray[data-color={color}]"
    return f"polygon.point[data-loc='{location}']"
