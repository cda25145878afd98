"""The board's one connection to a game server, on threads of its own: it never blocks the
scan loop.

:class:`OnlineConnection` connects (``tcp://``, ``ws://``, ``wss://``), logs in (a guest
under the name the server gave it before, kept by a :class:`~tavla_pi.online.names.NameStore`,
so that the server rejoins it to its match), reads the server's lines through the
protocol's :class:`~tavla_pi.online.model.Dialect` and queues their events, writes the
board's commands, and writes a keep-alive when it has said nothing for a while (the
server drops a client silent for 40 s).  A link that breaks, or a server silent for too
long, is closed and opened again with a growing pause, and the board logs in again.

The scan loop calls :meth:`OnlineConnection.poll` (the events and the link's changes
since the last call, never waiting) and :meth:`OnlineConnection.send`.  What a broken or
hostile server sends is logged in one line naming what was wrong, and dropped; more of
the same kind within 10 s are counted and written as one line with the count
(:class:`~tavla_pi.ratelog.RefusalLog`), and what a link leaves counted is written as it
ends.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
from collections import deque
from dataclasses import dataclass

from tavla_pi.bounded import read_text
from tavla_pi.clock import Clock
from tavla_pi.errors import ConfigError, ProtocolError
from tavla_pi.online.model import Dialect, Notice, ServerEvent, Welcome
from tavla_pi.online.names import NameStore
from tavla_pi.online.scope import MatchScope
from tavla_pi.online.settings import OnlineSettings
from tavla_pi.online.transport import Transport, open_transport, tls_context
from tavla_pi.ratelog import RefusalLog

log = logging.getLogger("tavla_pi.online")

KEEPALIVE_MS = 20_000
"""The longest the board stays silent on a live link (the server drops a client after 40 s)."""
SILENCE_MS = 75_000
"""The longest the server may stay silent before the link is taken for dead (it pings
every 30 s)."""
TICK_S = 0.1
"""How often the threads look at the clock and at whether they should stop."""
ARRIVALS_BOUND = 1000
"""Events held for the scan loop; what comes while it is full is dropped and counted."""
OUTGOING_BOUND = 100
"""Commands waiting to be written."""
KIND_WORDS = 6
"""The words of a refusal that make its kind (numbers aside): enough to tell one fault
from another, too few to hold what the server wrote."""
_PASSWORD_LIMIT = 1024
"""The largest password file read."""


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """The link logged in (``connected``, as ``user``) or was lost, and why."""

    connected: bool
    user: str | None
    reason: str


OnlineArrival = ServerEvent | LinkStatus
"""What :meth:`OnlineConnection.poll` returns: the server's events and the link's changes."""


class OnlineConnection:
    """The connection to the server of ``settings``, speaking ``dialect`` (see the module).

    ``names`` keeps a guest's server-given name (None: a guest is a new one each time);
    ``clock`` times the keep-alive and the server's silence; ``retry_s`` is the first
    pause before connecting again (doubling up to ``retry_max_s``)."""

    def __init__(self, settings: OnlineSettings, dialect: Dialect, clock: Clock, *,
                 names: NameStore | None = None, retry_s: float = 1.0,
                 retry_max_s: float = 30.0, keepalive_ms: int = KEEPALIVE_MS,
                 silence_ms: int = SILENCE_MS) -> None:
        if not 0 < retry_s <= retry_max_s or keepalive_ms < 1 or silence_ms <= keepalive_ms:
            raise ValueError("retry_s, retry_max_s, keepalive_ms, silence_ms: out of order")
        self.settings = settings
        self._dialect = dialect
        self._clock = clock
        self._names = names
        self._password = _password(settings)
        if settings.ca_file is not None:
            tls_context(settings.ca_file)  # a CA file that is no use is said at once
        self._retry = (retry_s, retry_max_s)
        self._times = (keepalive_ms, silence_ms)
        self._arrivals: deque[OnlineArrival] = deque()
        self._outgoing: queue.Queue[str | None] = queue.Queue(OUTGOING_BOUND)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._user: str | None = None
        self._dropped = 0
        self._refusals = RefusalLog(log, clock)
        self._thread: threading.Thread | None = None
        self._transport: Transport | None = None

    # -- the scan loop's side ---------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying until the server answers); never blocks."""
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
            self._thread = threading.Thread(target=self._run, name="online-link", daemon=True)
        self._thread.start()

    def poll(self) -> list[OnlineArrival]:
        """Everything that came since the last call, oldest first; never waits."""
        with self._lock:
            items = list(self._arrivals)
            self._arrivals.clear()
        return items

    def send(self, command: str) -> bool:
        """Queue one command (a line the dialect formatted) for the server; False if the
        board is not logged in just now or too many wait (it is not sent then)."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"command {command[:40]!r}: one line")
        if self.user is None:
            return False
        try:
            self._outgoing.put_nowait(command)
        except queue.Full:
            log.warning("online: %d commands wait for the server; %s not sent",
                        OUTGOING_BOUND, command.split(" ", 1)[0])
            return False
        return True

    @property
    def user(self) -> str | None:
        """The name the board is logged in as, or None while it is not."""
        with self._lock:
            return self._user

    @property
    def connected(self) -> bool:
        """Whether the board is logged in to the server just now."""
        return self.user is not None

    @property
    def dropped(self) -> int:
        """Events dropped because the scan loop had not read the ones before."""
        with self._lock:
            return self._dropped

    def close(self) -> None:
        """Leave the server and stop the threads; safe twice."""
        self._stop.set()
        with self._lock:
            thread, transport = self._thread, self._transport
        if transport is not None:
            transport.close()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self._refusals.write_held()

    def __enter__(self) -> OnlineConnection:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the link's thread ------------------------------------------------------------

    def _run(self) -> None:
        pause, failing = self._retry[0], False
        where = str(self.settings.server)
        while not self._stop.is_set():
            try:
                transport = open_transport(self.settings.server,
                                           self._dialect.max_line_bytes, self.settings.ca_file)
            except (OSError, ConfigError) as exc:
                if not failing:
                    log.warning("online: server %s: cannot connect (%s); retrying", where, exc)
                failing = True
            except Exception as exc:  # a fault of a library's: the link must not die of it
                log.error("online: server %s: cannot connect (%s: %s); retrying", where,
                          type(exc).__name__, exc)
            else:
                failing = False
                if self._session(transport, where):
                    pause = self._retry[0]
            if self._stop.wait(pause):
                break
            pause = min(pause * 2, self._retry[1])

    def _session(self, transport: Transport, where: str) -> bool:
        """One link, from login to its end; True if the board was logged in on it."""
        with self._lock:
            self._transport = transport
        link = _Link(self, transport, where)
        writer = threading.Thread(target=link.write, name="online-write", daemon=True)
        self._outgoing.put(self._login())
        writer.start()
        reason = link.read()
        self._refusals.write_held()  # what this link left counted
        if self._stop.is_set():
            reason = "closed"
        transport.close()
        _drain(self._outgoing)
        self._outgoing.put_nowait(None)  # the writer's sign to stop (the queue is empty)
        writer.join(timeout=5)
        _drain(self._outgoing)
        with self._lock:
            self._transport = None
            user, self._user = self._user, None
        if user is not None:
            self._arrive(LinkStatus(connected=False, user=user, reason=reason))
        if self._stop.is_set():
            log.info("online: server %s: link closed", where)
        elif user is not None:
            log.warning("online: server %s: link lost (%s); connecting again", where, reason)
        else:
            log.warning("online: server %s: not logged in (%s); trying again", where, reason)
        return link.logged_in

    def _login(self) -> str:
        username = self.settings.username
        if username is None and self._names is not None:
            username = self._names.load()
        return self._dialect.login(username, self._password)

    def _logged_in(self, welcome: Welcome) -> None:
        with self._lock:
            self._user = welcome.name
        if self.settings.username is None and self._names is not None:
            self._names.save(welcome.name)
        log.info("online: server %s: logged in as %s", self.settings.server, welcome.name)
        self._arrive(LinkStatus(connected=True, user=welcome.name, reason="logged in"))

    def _arrive(self, item: OnlineArrival) -> None:
        with self._lock:
            if len(self._arrivals) < ARRIVALS_BOUND:
                self._arrivals.append(item)
                return
            self._dropped += 1
            first = self._dropped == 1
        if first:
            log.warning("online: %d events unread; dropping what comes until they are read",
                        ARRIVALS_BOUND)


class _Link:
    """One link's two loops: reading (with the scope check and the silence watch) and
    writing (with the keep-alive)."""

    def __init__(self, owner: OnlineConnection, transport: Transport, where: str) -> None:
        self.owner = owner
        self.transport = transport
        self.where = where
        self.scope = MatchScope()
        self.logged_in = False
        self.last_notice = ""
        now = owner._clock.now_ms()
        self.heard_ms = now
        self.said_ms = now

    def read(self) -> str:
        """Read until the link ends; the reason it ended."""
        owner = self.owner
        silence_ms = owner._times[1]
        while not owner._stop.is_set():
            try:
                lines = self.transport.receive(TICK_S)
            except ConnectionError as exc:
                return self._ended(str(exc))
            except Exception as exc:  # a library's fault: this link ends, the next begins
                return self._ended(f"{type(exc).__name__}: {exc}")
            owner._refusals.flush()
            now = owner._clock.now_ms()
            if lines:
                self.heard_ms = now
            elif now - self.heard_ms > silence_ms:
                return f"the server said nothing for {silence_ms // 1000} s"
            for line in lines:
                self._line(line)
        return "closed"

    def _ended(self, why: str) -> str:
        if not self.logged_in and self.last_notice:
            return f"{why}; the server said: {self.last_notice}"
        return why

    def _line(self, line: bytes) -> None:
        try:
            event = self.owner._dialect.read(line)
        except ProtocolError as exc:
            self._refused(_kind(str(exc)), str(exc))
            return
        except Exception as exc:  # a fault of the reader's own: the line is dropped
            self._refused(f"not read: {type(exc).__name__}",
                          f"server line: not read ({type(exc).__name__}: {exc})")
            return
        if event is None:
            return
        refusal = self.scope.admit(event)
        if refusal is not None:
            self._refused(f"{refusal.split(':', 1)[0]}: not of the match",
                          f"server event {refusal}: dropped")
            return
        if isinstance(event, Welcome) and not self.logged_in:
            self.logged_in = True
            self.owner._logged_in(event)
        elif isinstance(event, Notice) and not self.logged_in:
            self.last_notice = event.message
        if self.logged_in:
            self.owner._arrive(event)

    def _refused(self, kind: str, what: str) -> None:
        """Log ``what`` (a refused line, named), or count it with the others of ``kind``."""
        self.owner._refusals.refuse(kind, f"online: server {self.where}: {what}")

    def write(self) -> None:
        """Write the queued commands until told to stop, and a keep-alive when silent."""
        owner = self.owner
        keepalive_ms = owner._times[0]
        while True:
            try:
                command = owner._outgoing.get(timeout=TICK_S)
            except queue.Empty:
                if owner._clock.now_ms() - self.said_ms < keepalive_ms:
                    continue
                command = owner._dialect.keepalive()
            if command is None:
                return
            try:
                self.transport.send(command)
            except Exception:  # whatever broke it, the link ends
                self.transport.close()  # the reader sees it and ends the link
                return
            self.said_ms = owner._clock.now_ms()


def _password(settings: OnlineSettings) -> str | None:
    """The password from ``settings.password_file`` (its last line break dropped)."""
    if settings.password_file is None:
        return None
    text = read_text(settings.password_file, _PASSWORD_LIMIT, "a password file", ConfigError)
    password = text.rstrip("\r\n")
    if not password or "\n" in password:
        raise ConfigError(str(settings.password_file), "expected the password on one line")
    return password


def _kind(what: str) -> str:
    """The kind of the refusal ``what``: its first words, numbers as ``#`` (a flood of
    one fault with other numbers or other text is one kind)."""
    return " ".join(re.sub(r"\d+", "#", what).split()[:KIND_WORDS]).rstrip(":,(")


def _drain(waiting: queue.Queue[str | None]) -> None:
    """Drop the commands left for a link that ended (the next link logs in first)."""
    while True:
        try:
            waiting.get_nowait()
        except queue.Empty:
            return
