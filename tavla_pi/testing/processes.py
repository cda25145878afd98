"""What the harness's outside servers (Mosquitto, bgammon-server) share: ending a process,
reading the end of its log, and waiting for what it (or a thread talking to it) does."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

POLL_S = 0.01
"""How often a wait on an outside program looks again."""
STOP_TIMEOUT_S = 10.0
"""How long a process may take to end after its signal before it is killed."""


def end_process(process: subprocess.Popen[bytes] | None, how: signal.Signals) -> None:
    """Send ``how`` to ``process`` (and SIGCONT, so that a stopped one ends too) and wait
    for it to end, killing it if it takes longer than :data:`STOP_TIMEOUT_S`."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(how)
    process.send_signal(signal.SIGCONT)
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def log_tail(log: Path, lines: int = 20) -> str:
    """The last ``lines`` lines of the log file ``log`` ("" if there is none)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return "\n".join(text.splitlines()[-lines:])


def wait_until(done: Callable[[], bool], what: str, timeout_s: float) -> None:
    """Poll ``done`` (what an outside program or another thread brings about, which no
    injected clock hastens) until it holds; fails naming ``what`` on timeout."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, f"no {what} in {timeout_s} s"
        time.sleep(POLL_S)
