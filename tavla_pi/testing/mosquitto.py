"""A real Mosquitto broker for the tests and the benchmarks: its own config in a tmp
directory, a free port on 127.0.0.1 (or the listener of the configuration files it is
given), started and stopped (or killed) at will, restarted on the same port.

Tests that use it carry ``needs("mosquitto")`` (tests/programs.py finds the program, in
/usr/sbin too); the ``mosquitto`` fixture of tests/conftest.py yields a started broker and
stops it after.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from tavla_pi.remote.settings import Broker
from tavla_pi.testing.processes import POLL_S, end_process, log_tail

HOST = "127.0.0.1"
BROKER_START_TIMEOUT_S = 10.0
BROKER_STOP_TIMEOUT_S = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now (the kernel's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def listening(port: int) -> bool:
    """True if something on 127.0.0.1 accepts a TCP connection on ``port``."""
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def _program(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin")  # off users' PATH
    if found is None:
        raise FileNotFoundError(f"needs {name}: apt install mosquitto")
    return found


class Mosquitto:
    """A Mosquitto broker on 127.0.0.1: anonymous, or with one ``user`` (name, password),
    or as the configuration files of a folder say, as a broker host's ``conf.d``
    (``include``: the folder, and the port on 127.0.0.1 where their listener is);
    ``persistence`` keeps sessions and retained messages over a restart (a stop saves them)."""

    def __init__(self, directory: Path, *, user: tuple[str, str] | None = None,
                 persistence: bool = False, include: tuple[Path, int] | None = None) -> None:
        self.directory = directory
        self.port = free_port() if include is None else include[1]
        self.conf = directory / "mosquitto.conf"
        self.log = directory / "mosquitto.log"
        self._process: subprocess.Popen[bytes] | None = None
        listener = self._listener(user) if include is None else [f"include_dir {include[0]}"]
        self.conf.write_text(self._config(listener, persistence=persistence))

    def _listener(self, user: tuple[str, str] | None) -> list[str]:
        lines = [f"listener {self.port} {HOST}"]
        if user is None:
            return [*lines, "allow_anonymous true"]
        return [*lines, "allow_anonymous false", f"password_file {self._password_file(*user)}"]

    def _config(self, listener: list[str], *, persistence: bool) -> str:
        lines = [*listener, "log_dest stderr", "log_type all"]
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to user mosquitto: no tmp dir for it
        if persistence:
            lines += ["persistence true", f"persistence_location {self.directory}/"]
        else:
            lines.append("persistence false")
        return "\n".join(lines) + "\n"

    def _password_file(self, name: str, password: str) -> Path:
        path = self.directory / "passwords"
        subprocess.run([_program("mosquitto_passwd"), "-b", "-c", str(path), name, password],
                       check=True, capture_output=True, timeout=BROKER_STOP_TIMEOUT_S)
        path.chmod(0o600)
        return path

    @property
    def url(self) -> str:
        """The broker's address as a config names it: ``mqtt://127.0.0.1:PORT``."""
        return f"mqtt://{HOST}:{self.port}"

    @property
    def broker(self) -> Broker:
        """The broker's address as the settings hold it."""
        return Broker(HOST, self.port)

    @property
    def running(self) -> bool:
        """True while the broker's process runs."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Start the broker (again, on the same port) and wait until it accepts connections."""
        if self.running:
            return
        with self.log.open("ab") as log:
            self._process = subprocess.Popen([_program("mosquitto"), "-c", str(self.conf)],
                                             stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + BROKER_START_TIMEOUT_S
        while not listening(self.port):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"mosquitto did not start on port {self.port}:\n{self.tail()}")
            time.sleep(POLL_S)

    def stop(self) -> None:
        """Stop the broker as a service manager would (SIGTERM) and wait for it to end."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill the broker (SIGKILL): no goodbye to its clients, nothing saved."""
        self._end(signal.SIGKILL)

    def freeze(self) -> None:
        """Stop the broker's process (SIGSTOP): its clients' connections stay open, and
        nothing they send is read or answered, as from a broker that hangs."""
        assert self._process is not None and self.running
        self._process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen broker go on (SIGCONT)."""
        assert self._process is not None
        self._process.send_signal(signal.SIGCONT)

    def _end(self, how: signal.Signals) -> None:
        process, self._process = self._process, None
        end_process(process, how)

    def tail(self, lines: int = 20) -> str:
        """The last lines of the broker's log (for a failure's message)."""
        return log_tail(self.log, lines)

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

