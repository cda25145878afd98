"""A real bgammon-server for the tests and the benchmarks, and a plain-socket opponent.

:class:`BgammonServer` runs the ``bgammon-server`` found on the ``PATH`` or at
``$TAVLA_BGAMMON_SERVER`` (built from bgammon's source as ``.ci/run`` builds it) on a free
port of 127.0.0.1, with a WebSocket listener over TLS and a self-signed certificate when
asked (bgammon's WebSocket listener is always TLS: ``BGAMMON_CERT_FILE`` and
``BGAMMON_CERT_KEY``), waits until it accepts connections (polling, with a deadline) and
stops or kills it.  It keeps its matches in memory only: a restart forgets them.

:class:`SocketPlayer` is the opponent at the other end: one TCP connection speaking the
protocol as any client does (login, create or join, roll, move, ok, double, resign,
say, leave), reading the server's events with a deadline and keeping the last board.
Tests carry ``needs("bgammon-server")`` (tests/programs.py); the ``bgammon_server``
fixture of tests/conftest.py yields a started server.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from tavla_pi.clock import Clock, MonotonicClock
from tavla_pi.online.board import position_of, server_moves
from tavla_pi.online.connection import OnlineArrival, OnlineConnection
from tavla_pi.online.model import ME, GameBoard, Joined, ServerEvent, ServerMove, Welcome
from tavla_pi.online.names import NameStore
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.settings import OnlineSettings, ServerAddress
from tavla_pi.online.transport import LineBuffer
from tavla_pi.rules import Play
from tavla_pi.testing.certs import self_signed_certificate
from tavla_pi.testing.mosquitto import HOST, free_port, listening
from tavla_pi.testing.processes import POLL_S, end_process, log_tail

BGAMMON_SERVER_VARIABLE = "TAVLA_BGAMMON_SERVER"
"""The environment variable naming the bgammon-server to run (else it is looked up on the
``PATH``)."""
SERVER_START_TIMEOUT_S = 10.0
SERVER_STOP_TIMEOUT_S = 10.0
EVENT_TIMEOUT_S = 10.0
"""How long a :class:`SocketPlayer` waits for an event it expects."""
_SALTS = {"BGAMMON_SALT_RESET": "tavla-reset", "BGAMMON_SALT_PASSWORD": "tavla-password",
          "BGAMMON_SALT_IP": "tavla-ip"}
E = TypeVar("E")


def find_bgammon_server() -> Path | None:
    """The bgammon-server to run: ``$TAVLA_BGAMMON_SERVER`` if set (and executable), else
    the one on the ``PATH``, else None."""
    named = os.environ.get(BGAMMON_SERVER_VARIABLE, "")
    if named:
        path = Path(named)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which("bgammon-server")
    return Path(found) if found else None


class BgammonServer:
    """bgammon-server on 127.0.0.1 (see the module): ``port`` for TCP, and ``ws_port`` for
    WebSocket over TLS when ``tls`` (``ca_file`` is then its certificate)."""

    def __init__(self, directory: Path, *, tls: bool = False) -> None:
        program = find_bgammon_server()
        if program is None:
            raise FileNotFoundError("needs bgammon-server: build it as .ci/run does and set "
                                    f"{BGAMMON_SERVER_VARIABLE}")
        self.program = program
        self.directory = directory
        self.port = free_port()
        self.ws_port = free_port() if tls else None
        self.ca_file: Path | None = None
        self._key: Path | None = None
        if tls:
            self.ca_file, self._key = self_signed_certificate(directory)
        self.log = directory / "bgammon-server.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> ServerAddress:
        """The TCP listener, as the settings hold it."""
        return ServerAddress("tcp", HOST, self.port)

    @property
    def wss_address(self) -> ServerAddress:
        """The WebSocket listener (TLS), as the settings hold it."""
        if self.ws_port is None:
            raise ValueError("this server was started without tls=True")
        return ServerAddress("wss", HOST, self.ws_port)

    def settings(self, username: str | None = None, password_file: Path | None = None, *,
                 tls: bool = False) -> OnlineSettings:
        """``[online]`` settings for this server: its TCP listener, or with ``tls`` its
        WebSocket listener with its certificate as the ``ca_file``."""
        if tls:
            return OnlineSettings(self.wss_address, username, password_file, self.ca_file)
        return OnlineSettings(self.address, username, password_file)

    @property
    def running(self) -> bool:
        """True while the server's process runs."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Start the server (again, on the same ports: with no matches) and wait until
        every listener accepts connections."""
        if self.running:
            return
        command = [str(self.program), "-tcp", f"{HOST}:{self.port}"]
        env = {**os.environ, **_SALTS}
        if self.ws_port is not None:
            command += ["-ws", f"{HOST}:{self.ws_port}"]
            env |= {"BGAMMON_CERT_FILE": str(self.ca_file), "BGAMMON_CERT_KEY": str(self._key)}
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                             stderr=log, env=env, cwd=self.directory)
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        ports = [p for p in (self.port, self.ws_port) if p is not None]
        while not all(listening(p) for p in ports):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"bgammon-server did not start on {ports}:\n{self.tail()}")
            time.sleep(POLL_S)

    def stop(self) -> None:
        """Stop the server (SIGTERM: it forgets its matches) and wait for it to end."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill the server (SIGKILL): its clients' links break."""
        self._end(signal.SIGKILL)

    def _end(self, how: signal.Signals) -> None:
        process, self._process = self._process, None
        end_process(process, how)

    def tail(self, lines: int = 20) -> str:
        """The last lines of the server's log (for a failure's message)."""
        return log_tail(self.log, lines)

    def __enter__(self) -> BgammonServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


class PolledConnection:
    """An :class:`~tavla_pi.online.connection.OnlineConnection` polled as the scan loop
    polls it: every arrival kept in ``seen`` (the last board in ``board``), the slowest
    poll timed, and waits with a deadline."""

    def __init__(self, connection: OnlineConnection) -> None:
        self.connection = connection
        self.seen: list[OnlineArrival] = []
        self.board: GameBoard | None = None
        self.slowest_poll_s = 0.0
        self._cursor = 0  # seen[_cursor:]: not yet looked at by wait

    def pump(self) -> list[OnlineArrival]:
        """What came since the last call."""
        began = time.perf_counter()
        new = self.connection.poll()
        self.slowest_poll_s = max(self.slowest_poll_s, time.perf_counter() - began)
        for item in new:
            if isinstance(item, GameBoard):
                self.board = item
        self.seen += new
        return new

    def wait(self, where: Callable[[OnlineArrival], bool],
             timeout_s: float = EVENT_TIMEOUT_S) -> OnlineArrival:
        """The first arrival not yet waited past for which ``where`` holds."""
        deadline = time.monotonic() + timeout_s
        while True:
            while self._cursor < len(self.seen):
                item = self.seen[self._cursor]
                self._cursor += 1
                if where(item):
                    return item
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing came in {timeout_s} s; the last: {self.seen[-5:]}")
            self.pump()
            time.sleep(POLL_S / 5)

    def until(self, done: Callable[[list[OnlineArrival]], bool],
              timeout_s: float = EVENT_TIMEOUT_S) -> None:
        """Poll until ``done(seen)`` holds."""
        deadline = time.monotonic() + timeout_s
        while not done(self.seen):
            if time.monotonic() > deadline:
                raise TimeoutError(f"not done in {timeout_s} s: {self.seen[-5:]}")
            self.pump()
            time.sleep(POLL_S / 5)

    def send(self, command: str) -> None:
        """Send a command; AssertionError if the connection is not logged in."""
        if not self.connection.send(command):
            raise AssertionError(f"not sent (not logged in): {command}")


class ConnectionOpener:
    """Opens connections for a test (each started, polled through a
    :class:`PolledConnection`) and closes them all at the end (:meth:`close`)."""

    def __init__(self) -> None:
        self.opened: list[OnlineConnection] = []

    def __call__(self, settings: OnlineSettings, clock: Clock | None = None,
                 names: NameStore | None = None) -> PolledConnection:
        """A started connection to ``settings``' server (a short pause between retries)."""
        connection = OnlineConnection(settings, Bgammon(client_name("test", "en")),
                                      clock or MonotonicClock(), names=names, retry_s=0.02,
                                      retry_max_s=0.2)
        self.opened.append(connection)
        connection.start()
        return PolledConnection(connection)

    def close(self) -> None:
        """Close every connection opened."""
        for connection in self.opened:
            connection.close()


class SocketPlayer:
    """An opponent on one plain TCP connection to the server (see the module).

    Each command method sends and returns at once; :meth:`wait_for` reads events until
    one of a kind comes (every event read is in ``events``, the last board in ``board``).
    """

    def __init__(self, port: int, *, host: str = HOST) -> None:
        self.protocol = Bgammon(client_name("socket", "en"))
        self._sock = socket.create_connection((host, port), timeout=EVENT_TIMEOUT_S)
        self._lines = LineBuffer(self.protocol.max_line_bytes)
        self._pending: list[bytes] = []
        self.events: list[ServerEvent] = []
        self.name: str | None = None
        self.match_id: int | None = None
        self.board: GameBoard | None = None

    # -- commands -------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one raw line."""
        self._sock.sendall(line.encode("utf-8") + b"\n")

    def login(self, name: str | None = None, password: str | None = None) -> str:
        """Log in (None: a guest the server names) and wait for the welcome; the name."""
        self.send(self.protocol.login(name, password))
        self.name = self.wait_for(Welcome).name
        return self.name

    def create(self, points: int = 1, name: str = "socket match") -> int:
        """Open a public match and wait until the server has put this player in it."""
        self.send(self.protocol.create_match(points, name))
        joined = self.wait_for(Joined, lambda e: e.player == self.name)
        self.wait_for(GameBoard)
        self.match_id = joined.match_id
        return joined.match_id

    def join(self, target: int | str) -> GameBoard:
        """Join a match by id or by a player in it; its first board."""
        command = (self.protocol.join_match(target) if isinstance(target, int)
                   else self.protocol.join_player(target))
        self.send(command)
        self.match_id = self.wait_for(Joined, lambda e: e.player == self.name).match_id
        return self.wait_for(GameBoard)

    def roll(self) -> None:
        """Roll."""
        self.send(self.protocol.roll())

    def move(self, moves: tuple[ServerMove, ...]) -> None:
        """Move checkers (server numbering, from this player's side)."""
        self.send(self.protocol.move(moves))

    def ok(self) -> None:
        """End the turn, or take a double."""
        self.send(self.protocol.ok())

    def double(self) -> None:
        """Offer a double."""
        self.send(self.protocol.double())

    def resign(self) -> None:
        """Resign, or drop a double."""
        self.send(self.protocol.resign())

    def say(self, text: str) -> None:
        """Chat."""
        self.send(self.protocol.say(text))

    def leave(self) -> None:
        """Leave the match."""
        self.send(self.protocol.leave())

    def play(self, rng: random.Random) -> Play:
        """Play a random legal play (our rules) of the roll on the board now (this
        player's turn, rolled), and end the turn."""
        board = self.board
        if board is None or board.turn != ME or not board.dice[0] or board.pending:
            raise AssertionError(f"{self.name}: not a rolled turn of this player: {board}")
        position = position_of(board.spaces, ME)
        plays = position.legal_plays(board.dice)
        if not plays:
            self.ok()
            return Play(position, board.dice, (), position.swap())
        play = rng.choice(plays)
        for command in self.protocol.play(server_moves(play)):
            self.send(command)
        self.ok()
        return play

    # -- events ---------------------------------------------------------------------

    def next_event(self, timeout_s: float = EVENT_TIMEOUT_S) -> ServerEvent:
        """The next event the server sends; TimeoutError if none comes in time."""
        deadline = time.monotonic() + timeout_s
        while True:
            while self._pending:
                event = self.protocol.read(self._pending.pop(0))
                if event is not None:
                    self._seen(event)
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no event in {timeout_s} s; the last: "
                                   f"{self.events[-3:]}")
            self._sock.settimeout(left)
            try:
                data = self._sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                raise ConnectionError(f"{self.name}: the server closed the connection")
            self._pending += self._lines.feed(data, lambda n: None)

    def wait_for(self, kind: type[E], where: Callable[[E], bool] | None = None,
                 timeout_s: float = EVENT_TIMEOUT_S) -> E:
        """Read until an event of ``kind`` (for which ``where`` holds) comes; it."""
        deadline = time.monotonic() + timeout_s
        while True:
            event = self.next_event(max(deadline - time.monotonic(), 0.001))
            if isinstance(event, kind) and (where is None or where(event)):
                return event

    def wait_board(self, where: Callable[[GameBoard], bool],
                   timeout_s: float = EVENT_TIMEOUT_S) -> GameBoard:
        """The latest board if ``where`` holds for it, else the next board it holds for."""
        if self.board is not None and where(self.board):
            return self.board
        return self.wait_for(GameBoard, where, timeout_s)

    def _seen(self, event: ServerEvent) -> None:
        self.events.append(event)
        if isinstance(event, GameBoard):
            self.board = event

    def close(self) -> None:
        """Close the connection (the server keeps this player's seat for a rejoin)."""
        self._sock.close()

    def __enter__(self) -> SocketPlayer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
