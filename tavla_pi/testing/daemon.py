"""The daemon's parts on a virtual clock, for in-process tests of the API and the simulator.

``VirtualDaemon`` wires what ``tavla-pi run --backend sim`` wires, but time
passes only when the simulator sleeps: each 20 ms of virtual time is one
scan (``Core.step``), as the daemon's scan loop would do in real time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tavla_pi.clock import VirtualClock
from tavla_pi.daemon.core import Core, EventJournal
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.reviews import Reviews
from tavla_pi.daemon.settings import SettingsDesk
from tavla_pi.daemon.simdesk import QueuedDice, SimDesk
from tavla_pi.daemon.speech import SpeechDesk
from tavla_pi.daemon.startup import SIM_SEED, board_calibration
from tavla_pi.engine import Reviewer
from tavla_pi.events.event import Event
from tavla_pi.events.files import OS_FILES, Files
from tavla_pi.events.hub import EventHub
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings
from tavla_pi.hal.sim.backend import open_sim_backend
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.pipeline.step import SCAN_MS, Pipeline
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.speech.voice import TimedVoice
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response

PINMAP = load_pinmap()
"""The reference board's wiring (``hardware/pinout.toml``), read once."""

class MemoryJournal:
    """Keeps appended events in a list; ``fail`` makes the next append fail like a full disk."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.fail = False
        self.closed = False

    def append(self, events: Sequence[Event]) -> None:
        if self.fail:
            raise OSError(28, "No space left on device")
        self.events.extend(events)

    def close(self) -> None:
        self.closed = True


class SeededDice:
    """Reproducible dice past the queue."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll_one(self) -> int:
        return self._rng.randint(1, 6)

    def roll(self) -> tuple[int, int]:
        return self.roll_one(), self.roll_one()


class VirtualDaemon:
    """Core, simulator and API of a sim daemon whose time is virtual."""

    def __init__(self, state_dir: Path, *, settings: GameSettings | None = None,
                 token: str | None = None, notify: str | None = None,
                 journal: EventJournal | None = None, files: Files = OS_FILES,
                 engine_missing: str | None = None,
                 reviewer: Reviewer | None = None,
                 speech: SpeechSettings | None = None) -> None:
        self.clock = VirtualClock()
        self.backend = open_sim_backend(PINMAP, self.clock, random.Random(SIM_SEED))
        self.dice = QueuedDice(SeededDice(1))
        self.referee = Referee(settings or GameSettings(), self.dice,
                               engine_missing=engine_missing)
        calibration = board_calibration(self.backend, PINMAP, state_dir)
        self.pipeline = Pipeline(self.backend, PINMAP, calibration, self.referee, self.clock)
        self.speech = SpeechDesk(self.pipeline, speech or SpeechSettings(),
                                 voices=lambda s: TimedVoice(s.rate))
        """Speech as the daemon's, with a silent voice on the virtual clock."""
        self.journal = journal if journal is not None else MemoryJournal()
        self.hub = EventHub()
        self.notifier = Notifier(notify)
        self.reviews = None if reviewer is None else Reviews(reviewer, self.clock)
        self.core = Core(self.pipeline, self.journal, self.hub, self.notifier,
                         reviews=self.reviews)
        self.desk = SimDesk(self.core, self.backend, self.dice, state_dir, settle_ms=200,
                            sleep_ms=self.sleep, files=files)
        self.api = Api(self.core.state, self.hub, self.desk, token=token, loopback=True,
                       settings=SettingsDesk(self.core, self.speech), reviews=self.reviews,
                       speech=self.speech)

    @property
    def memory(self) -> MemoryJournal:
        """The journal when it is the default in-memory one."""
        assert isinstance(self.journal, MemoryJournal), self.journal
        return self.journal

    async def sleep(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass, one scan per 20 ms."""
        while ms > 0:
            step = min(SCAN_MS, ms)
            self.clock.advance(step)
            ms -= step
            self.core.step()
            await asyncio.sleep(0)

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None,
                      query: dict[str, str] | None = None) -> Response:
        """One request straight to the API (no sockets)."""
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        if body is None:
            raw = b""
        head = {"host": "127.0.0.1:8750", "content-type": "application/json", **(headers or {})}
        answer = await self.api.handle(Request(method, path, query or {}, head, raw))
        assert isinstance(answer, Response)
        return answer

    async def sim(self, action: dict[str, Any]) -> dict[str, Any]:
        """POST one action; its answer, which must be 200."""
        answer = await self.request("POST", "/api/sim", action)
        assert answer.status == 200, answer.body
        result: dict[str, Any] = json.loads(answer.body)
        return result

    async def reviewed(self) -> None:
        """Let the reviews under way and waiting finish, each committed by a scan."""
        assert self.reviews is not None
        for _ in range(100):
            if not self.reviews.busy:
                return
            assert self.reviews.wait(10), "a review took more than 10 s"
            await self.sleep(SCAN_MS)
        raise AssertionError("the reviews never finished")

    async def state(self) -> dict[str, Any]:
        """GET /api/state."""
        answer = await self.request("GET", "/api/state")
        assert answer.status == 200
        result: dict[str, Any] = json.loads(answer.body)
        return result


def body(answer: Response) -> Any:
    """A response's JSON body."""
    return json.loads(answer.body)


def notify_socket(path: Path) -> socket.socket:
    """A datagram socket standing in for systemd's notify socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    return sock


def reset_logging() -> None:
    """Undo ``setup_logging`` (which ``tavla-pi run`` calls) for the tests that follow."""
    logger = logging.getLogger("tavla_pi")
    logger.handlers.clear()
    logger.setLevel(logging.NOTSET)
    logger.propagate = True
