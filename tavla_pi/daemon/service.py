"""The daemon at run time: the scan loop, the HTTP interface, systemd, signals, shutdown.

The scan loop steps the pipeline at the configured rate and, only while
steps succeed, tells systemd's watchdog it is alive; a board that stops
answering for :data:`HARDWARE_GRACE_MS` ends the daemon (status 1) so that
systemd restarts it.  SIGTERM and SIGINT end it cleanly: the HTTP interface
closes, then the caller closes the journal and the devices (LEDs blanked).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from tavla_pi.config.fields import Listen
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.online import OnlineDesk
from tavla_pi.daemon.settings import SettingsDesk
from tavla_pi.daemon.simdesk import SimDesk
from tavla_pi.daemon.speech import SpeechDesk
from tavla_pi.errors import HardwareError, TavlaError
from tavla_pi.web.api import Api
from tavla_pi.web.server import HttpServer

log = logging.getLogger("tavla_pi.daemon")

HARDWARE_GRACE_MS = 5000
"""How long the board may fail to answer before the daemon gives up."""
ANSWER_GRACE_S = 1.0
"""How long a simulator request under way may take to answer once the daemon stops."""


class ListenError(TavlaError, OSError):
    """The HTTP address cannot be bound (taken, or not this machine's)."""


class Service:
    """Runs an opened daemon until a signal (status 0) or a fault (status 1)."""

    def __init__(self, core: Core, sim: SimDesk | None, listen: Listen, *, token: str | None,
                 scan_hz: int, state_dir: Path, speech: SpeechDesk,
                 on_ready: Callable[[str], None] | None = None) -> None:
        self.core = core
        self.state_dir = state_dir
        self.sim = sim
        self.listen = listen
        self.period = 1.0 / scan_hz
        online = None if core.online is None else OnlineDesk(core, core.online,
                                                            core.online.color)
        self.api = Api(core.state, core.hub, sim, token=token, loopback=listen.loopback,
                       leds=lambda: core.pipeline.frame, settings=SettingsDesk(core, speech),
                       speech=speech, reviews=core.reviews, online=online)
        self.http = HttpServer(self.api.handle, listen.host, listen.port)
        self.url = ""
        self.on_ready = on_ready
        self._stop = asyncio.Event()
        self._failed = False
        core.on_fatal = self._fatal

    def stop(self) -> None:
        """Ask the daemon to end (what SIGTERM does)."""
        self._stop.set()

    def _fatal(self, exc: BaseException) -> None:
        log.error("stopping: %s", exc)
        self._failed = True
        self._stop.set()

    async def run(self) -> int:
        """Serve until stopped; the exit status."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop)
        await self._bind()
        self.core.notifier.ready(f"listening on {self.url}")
        self.core.update_status()
        log.info("ready: %s on the %s board, state in %s", self.url,
                 self.core.pipeline.backend.name, self.state_dir)
        if self.on_ready is not None:
            self.on_ready(self.url)
        scan = asyncio.create_task(self._scan_loop())
        stop = asyncio.create_task(self._stop.wait())
        await asyncio.wait({scan, stop}, return_when=asyncio.FIRST_COMPLETED)
        status = 0 if stop.done() and not self._failed else 1
        self.core.notifier.stopping()
        for task in (scan, stop):
            task.cancel()
        await asyncio.gather(scan, stop, return_exceptions=True)
        if self.sim is not None:  # its client hears why (a full disk), not a closed socket
            await self.sim.idle(ANSWER_GRACE_S)
        self.core.hub.close()
        await self.http.close(ANSWER_GRACE_S)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        return status

    async def _bind(self) -> None:
        try:
            await self.http.start()
        except OSError as exc:
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            raise ListenError(f"cannot listen on {self.listen}: {reason}") from None
        host = f"[{self.listen.host}]" if ":" in self.listen.host else self.listen.host
        self.url = f"http://{host}:{self.http.port}/"

    async def _scan_loop(self) -> None:
        try:
            await self._scan()
        except TavlaError as exc:
            if not self._failed:
                log.error("stopping: %s", exc)
            raise
        except Exception:
            if not self._failed:
                log.exception("the scan loop failed; stopping")
            raise

    async def _scan(self) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        failing_since: float | None = None
        while True:
            try:
                self.core.step()
            except HardwareError as exc:
                failing_since = self._hardware_fault(exc, failing_since)
            else:
                if failing_since is not None:
                    log.warning("the board answers again")
                failing_since = None
                self.core.notifier.watchdog()
            next_at += self.period
            delay = next_at - loop.time()
            if delay < -self.period:  # fell behind (a slow step): skip, do not burst
                next_at, delay = loop.time(), 0.0
            await asyncio.sleep(max(delay, 0.0))

    @staticmethod
    def _hardware_fault(exc: HardwareError, since: float | None) -> float:
        now = time.monotonic()
        if since is None:
            log.error("the board does not answer: %s", exc)
            return now
        if (now - since) * 1000 >= HARDWARE_GRACE_MS:
            raise HardwareError(f"the board has not answered for {HARDWARE_GRACE_MS} ms: {exc}")
        return since
