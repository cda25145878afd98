"""A long-lived child process spoken to in JSON lines, restarted when it dies or hangs.

The line protocol: the child first writes a hello, ``{"id": 0, "ok": true,
...}``; then for each request line ``{"id": N, "op": ..., ...}`` on its stdin
it writes exactly one answer line ``{"id": N, "ok": true, ...}`` (or ``"ok":
false`` with ``"error"``) on its stdout.  Lines on stdout that are not JSON
objects (GNU Backgammon's banner) are skipped; stderr is kept, its last
lines quoted when something fails.

:class:`LineProcess` is one run of the child; :class:`Supervisor` keeps one
running and gives each request a timeout, a restart and one retry.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from tavla_pi.errors import EngineError

Message = dict[str, Any]
_TAIL = 20  # lines of the child's output kept for error messages


class ProcessFailedError(EngineError):
    """The child died, hung or answered out of turn: restarting it may help."""


class LineProcess:
    """One run of the child process, from its hello to its end."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        self.argv = list(argv)
        self._answers: queue.Queue[Message | None] = queue.Queue()
        self._tail: collections.deque[str] = collections.deque(maxlen=_TAIL)
        self.banner: list[str] = []
        """What the child wrote on stdout that was not an answer (gnubg's banner)."""
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=None if env is None else dict(env),
                text=True,
                encoding="utf-8",
                errors="replace",
                start_new_session=True,  # a Ctrl-C at the terminal is the daemon's, not gnubg's
            )
        except OSError as exc:
            raise EngineError(f"cannot start {self.argv[0]}: {exc}") from exc
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._read_answers, args=(self._proc.stdout,), daemon=True),
            threading.Thread(target=self._read_log, args=(self._proc.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._proc.pid

    def alive(self) -> bool:
        """Whether the child is still running."""
        return self._proc.poll() is None

    def hello(self, timeout_s: float) -> Message:
        """Wait for the child's first line (id 0): ProcessFailedError if it does not come."""
        return self._receive(0, timeout_s, "starting")

    def ask(
        self, message: Message, timeout_s: float, sent: Callable[[], None] | None = None
    ) -> Message:
        """Send one request (then call ``sent``) and wait up to ``timeout_s`` for its answer."""
        line = json.dumps(message, separators=(",", ":")) + "\n"
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(line)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise self._failure(f"could not send {message.get('op')!r}: {exc}") from None
        if sent is not None:
            sent()
        return self._receive(int(message["id"]), timeout_s, f"answering {message.get('op')!r}")

    def _receive(self, ident: int, timeout_s: float, what: str) -> Message:
        while True:
            try:
                answer = self._answers.get(timeout=timeout_s)
            except queue.Empty:
                raise self._failure(f"no answer within {timeout_s:g} s while {what}") from None
            if answer is None:
                self._answers.put(None)  # every later wait sees the end too
                raise self._failure(f"it ended while {what}{self._exit_status()}")
            if answer.get("id") == ident:
                return answer
            if not isinstance(answer.get("id"), int) or answer["id"] > ident:
                raise self._failure(f"it sent answer {answer.get('id')!r} while {what}")

    def kill(self) -> None:
        """End the child at once (SIGKILL) and reap it."""
        if self.alive():
            self._proc.kill()
        self._proc.wait()
        self._close_pipes()

    def close(self, timeout_s: float = 2.0) -> None:
        """Ask the child to finish (end of its input), killing it if it does not."""
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._close_pipes()

    def tail(self) -> str:
        """The child's last lines on stderr, for error messages."""
        return " | ".join(self._tail)

    def _failure(self, problem: str) -> ProcessFailedError:
        said = self.tail()
        quoted = f" (it said: {said})" if said else ""
        return ProcessFailedError(f"{self.argv[0]}: {problem}{quoted}")

    def _exit_status(self) -> str:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return ""
        return f" (killed by signal {-code})" if code < 0 else f" (exit status {code})"

    def _read_answers(self, stream: IO[str]) -> None:
        for line in stream:
            text = line.strip()
            try:
                message = json.loads(text) if text.startswith("{") else None
            except ValueError:
                message = None
            if isinstance(message, dict):
                self._answers.put(message)
            elif text and len(self.banner) < _TAIL:
                self.banner.append(text)
        self._answers.put(None)

    def _read_log(self, stream: IO[str]) -> None:
        for line in stream:
            if line.strip():
                self._tail.append(line.strip())

    def _close_pipes(self) -> None:
        for pipe in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass


class Supervisor:
    """Keeps one child running: starts it on demand, restarts it after a failure.

    :meth:`call` sends a request; if the child dies, hangs past the timeout or
    answers out of turn, the child is killed, a new one started and the
    request sent once more.  A second failure, or an answer with ``"ok":
    false``, is an EngineError naming the request and what went wrong.
    Thread-safe: one request at a time.
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str] | None = None,
        *,
        start_timeout_s: float = 60.0,
        name: str = "gnubg",
    ) -> None:
        self.argv = list(argv)
        self.env = env
        self.start_timeout_s = start_timeout_s
        self.name = name
        self.restarts = 0
        """How many times a failed child has been replaced."""
        self.hello: Message = {}
        """The running child's hello line."""
        self.banner = ""
        """The first line the running child printed before its hello (gnubg's version)."""
        self.thinking = threading.Event()
        """Set while a request is out and its answer not yet in."""
        self._proc: LineProcess | None = None
        self._next_id = 1
        self._lock = threading.RLock()

    @property
    def pid(self) -> int | None:
        """The running child's process id (None before the first start)."""
        return None if self._proc is None else self._proc.pid

    def start(self) -> None:
        """Start the child now unless it runs (ProcessFailedError if it says no hello)."""
        with self._lock:
            self._running()

    def call(self, message: Message, timeout_s: float) -> Message:
        """The child's answer to ``message`` (an ``op`` and its fields), retried once."""
        with self._lock:
            failures: list[ProcessFailedError] = []
            while len(failures) < 2:
                request = {"id": self._next_id, **message}
                self._next_id += 1
                try:
                    answer = self._ask(request, timeout_s)
                except ProcessFailedError as exc:
                    failures.append(exc)
                    self._discard()
                    continue
                if answer.get("ok") is not True:
                    problem = answer.get("error", answer)
                    op = message.get("op")
                    raise EngineError(f"{self.name} could not answer {op!r}: {problem}")
                return answer
            raise EngineError(
                f"{self.name} failed twice on {message.get('op')!r} (restarted once): "
                f"{failures[0]}; then: {failures[1]}"
            )

    def _ask(self, request: Message, timeout_s: float) -> Message:
        proc = self._running()
        try:
            return proc.ask(request, timeout_s, sent=self.thinking.set)
        finally:
            self.thinking.clear()

    def close(self) -> None:
        """Stop the child (it may be started again by the next call)."""
        with self._lock:
            if self._proc is not None:
                self._proc.close()
                self._proc = None

    def _running(self) -> LineProcess:
        if self._proc is not None and self._proc.alive():
            return self._proc
        if self._proc is not None:
            self._discard()
        proc = LineProcess(self.argv, self.env)
        try:
            hello = proc.hello(self.start_timeout_s)
        except ProcessFailedError:
            proc.kill()
            raise
        if hello.get("ok") is not True:
            proc.kill()
            raise ProcessFailedError(f"{self.name} did not start: {hello.get('error', hello)}")
        self._proc, self.hello = proc, hello
        self.banner = proc.banner[0] if proc.banner else ""
        return proc

    def _discard(self) -> None:
        """Kill the current child after a failure; the next call starts a new one."""
        if self._proc is not None:
            self._proc.kill()
            self._proc = None
            self.restarts += 1


def clean_env(home: str, path: str | None = None) -> dict[str, str]:
    """A child's environment with nothing of ours in it: a PATH, a HOME, the C locale."""
    env = {
        "PATH": path or os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "LC_ALL": "C.UTF-8",
        "LANG": "C.UTF-8",
    }
    if "TMPDIR" in os.environ:
        env["TMPDIR"] = os.environ["TMPDIR"]
    return env
