"""Opening everything the daemon runs on, in order, from a checked config.

State directory, pin map, journal (and the game it holds), board backend
(``auto`` falls back to the simulated board when no hardware is found),
the computer opponent's engine (:mod:`tavla_pi.daemon.opponent`), calibration, referee,
pipeline, its speech (:mod:`tavla_pi.daemon.speech`),
the games' reviews (by gnubg, if installed), the friend's board and the
broadcast (:mod:`tavla_pi.daemon.remote`), the online server
(:mod:`tavla_pi.daemon.online`).  What fails to open closes what was opened.
A state directory, journal or saved simulated board that cannot be used is a
:class:`StateDirError` (exit status 1, as when the journal fails at run time);
a bad config stays a ``ConfigError`` (status 2).
"""

from __future__ import annotations

import logging
import os
import random
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from tavla_pi.clock import Clock
from tavla_pi.config import Config
from tavla_pi.daemon import resume
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.online import open_online
from tavla_pi.daemon.opponent import PREFS_DIR, open_engine
from tavla_pi.daemon.remote import board_key, friends_of, open_network
from tavla_pi.daemon.reviews import Reviews
from tavla_pi.daemon.simdesk import QueuedDice, SimDesk
from tavla_pi.daemon.simstore import RollCount, SimStoreError
from tavla_pi.daemon.speech import SpeechDesk
from tavla_pi.decode.calibration import Calibration, calibrate, calibration_for
from tavla_pi.engine import NOT_INSTALLED, BackgroundEngine, GnubgReviewer
from tavla_pi.errors import HardwareError, JournalError, TavlaError
from tavla_pi.events.hub import EventHub
from tavla_pi.events.journal import Journal
from tavla_pi.game.referee import Referee
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.hal.backends import open_backend
from tavla_pi.hal.base import Backend
from tavla_pi.hal.sim.backend import SimBackend
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.hardware.pinmap import PinMap, load_pinmap
from tavla_pi.pipeline.step import Pipeline, PipelineSettings
from tavla_pi.replay.runner import CALIBRATION_FRAMES
from tavla_pi.rules import MatchRules
from tavla_pi.rules.dice import DiceSource, SecureDice

log = logging.getLogger("tavla_pi.daemon")

SIM_SEED = 0
"""The modelled board's parts: the same board on every start, as a real one."""
SETTLE_MARGIN_MS = 50
"""The simulator's hand settles this long beyond the stability time (200 ms by default)."""


class ContinuedClock:
    """The monotonic clock in ms, continuing from ``start_ms`` (the journal's last event).

    Event times then never go backwards across restarts, or reboots.
    """

    def __init__(self, start_ms: int = 0) -> None:
        self._base = start_ms - time.monotonic_ns() // 1_000_000

    def now_ms(self) -> int:
        """Milliseconds on the continued timeline."""
        return self._base + time.monotonic_ns() // 1_000_000


class StateDirError(TavlaError, OSError):
    """The state directory, the journal in it or the saved simulated board cannot be used."""


@dataclass
class Opened:
    """The daemon's parts once open; ``close()`` releases them (LEDs blanked)."""

    core: Core
    backend: Backend
    sim: SimDesk | None
    state_dir: Path
    stack: ExitStack
    speech: SpeechDesk

    def close(self) -> None:
        """Close the journal and the devices; safe twice."""
        self.stack.close()


def prepare_state_dir(path: Path) -> Path:
    """Create the state directory if needed; a :class:`StateDirError` if it is unusable."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StateDirError(f"{path}: cannot create the state directory ({exc.strerror})") \
            from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise StateDirError(f"{path}: the state directory is not writable")
    return path


def open_daemon(config: Config, state_dir: Path, notifier: Notifier, *,
                gnubg: Path | None) -> Opened:
    """Open every part in order; on failure nothing stays open.  ``gnubg``: GNU
    Backgammon's program (:func:`~tavla_pi.engine.find_gnubg`), looked up once by the
    caller; None where it is not installed (two players, no hints, no reviews)."""
    with ExitStack() as stack:
        key = board_key(config, state_dir)
        pinmap = load_pinmap(config.pinout)
        game = GameSettings(match_length=config.match_length, variant=config.variant,
                            rules=config.rules, tavli=config.tavli, opponent=config.opponent,
                            clock=config.clock)
        journal, state = _open_journal(state_dir, game)
        stack.callback(journal.close)
        events = list(journal.events)
        clock = ContinuedClock(events[-1].t + 1 if events else 0)
        backend = open_board(config.backend, pinmap, clock)
        stack.callback(backend.close)
        sim = isinstance(backend, SimBackend)
        dice: DiceSource = QueuedDice() if sim else SecureDice()
        engine = open_engine(config.opponent, state_dir, clock, gnubg)
        if engine is not None:
            stack.callback(engine.close)
        referee = Referee(game, dice, engine=engine, friends=friends_of(config),
                          engine_missing=engine_missing(config, engine))
        resume.resume_from_journal(referee, journal, state, clock.now_ms())
        settings = PipelineSettings(stable_ms=config.stable_ms, brightness=config.brightness)
        pipeline = Pipeline(backend, pinmap, board_calibration(backend, pinmap, state_dir),
                            referee, clock, settings=settings)
        speech = SpeechDesk(pipeline, config.speech)
        stack.callback(speech.close)
        hub = EventHub()
        hub.load(events)
        reviews = open_reviews(state_dir, game.rules, clock, gnubg)
        stack.callback(reviews.close)
        reviews.load(events)
        network = open_network(config, events, stack, key, clock)
        online = open_online(config, events, state_dir, clock, stack)
        if online is not None:
            online.chat.heard = speech.say_chat
        core = Core(pipeline, journal, hub, notifier, rolls=RollCount().add(events),
                    reviews=reviews, remote=network.remote, broadcast=network.broadcast,
                    players=config.players, online=online)
        desk = None
        if isinstance(backend, SimBackend) and isinstance(dice, QueuedDice):
            desk = _open_desk(core, backend, dice, state_dir, config)
        pipeline.show(clock.now_ms())
        core.cast([])  # the state as the board starts, for a viewer
        resume.report_resume(journal, state)
        opened = Opened(core, backend, desk, state_dir, stack.pop_all(), speech)
    return opened


def engine_missing(config: Config, engine: BackgroundEngine | None) -> str | None:
    """None when GNU Backgammon runs (``engine``); else the line that says how to install
    it, logged once (a warning when the config asks for the computer): without gnubg
    there is no computer opponent, no hint and no review."""
    if engine is not None:
        return None
    computer = seating(config.opponent).engine_color
    if computer is not None:
        log.warning("[opponent] color = %s, but GNU Backgammon is not installed: %s",
                    computer.value, NOT_INSTALLED)
    else:
        log.info("no computer opponent, no hints and no reviews: %s", NOT_INSTALLED)
    return NOT_INSTALLED


def _open_journal(state_dir: Path, game: GameSettings) -> tuple[Journal, State]:
    """The journal, checked (:func:`resume.open_journal`); its faults are the state dir's."""
    try:
        return resume.open_journal(state_dir, game)
    except JournalError as exc:
        raise StateDirError(str(exc)) from None


def _open_desk(core: Core, backend: SimBackend, dice: QueuedDice, state_dir: Path,
               config: Config) -> SimDesk:
    """The simulator, its board laid out as saved."""
    desk = SimDesk(core, backend, dice, state_dir, settle_ms=config.stable_ms + SETTLE_MARGIN_MS)
    try:
        desk.restore(core.rolls)
    except SimStoreError as exc:
        raise StateDirError(str(exc)) from None
    return desk


def open_reviews(state_dir: Path, rules: MatchRules, clock: Clock,
                 program: Path | None) -> Reviews:
    """The games' reviews by gnubg's ``program`` (its preferences in the state directory);
    without gnubg, none are made (:func:`engine_missing` has said so)."""
    if program is None:
        return Reviews(None, clock, rules)
    return Reviews(GnubgReviewer.launch(state_dir / PREFS_DIR, program), clock, rules)


def open_board(name: str, pinmap: PinMap, clock: Clock) -> Backend:
    """Backend ``name``; ``auto`` tries the real board, then says so and simulates one."""
    if name in ("auto", "pi"):
        try:
            return open_backend("pi", pinmap, clock)
        except HardwareError as exc:
            if name == "pi":
                raise
            log.warning("no board hardware found (%s): running on the simulated board", exc)
    return open_backend("sim", pinmap, clock, random.Random(SIM_SEED))


def board_calibration(backend: Backend, pinmap: PinMap, state_dir: Path) -> Calibration:
    """The real board's saved calibration; the simulated board's measured on its empty twin."""
    if not isinstance(backend, SimBackend):
        return calibration_for(state_dir, pinmap)
    twin = SimBoard(pinmap, ContinuedClock(), random.Random(SIM_SEED), backend.board.design)
    return calibrate([twin.scan() for _ in range(CALIBRATION_FRAMES)], pinmap)
