"""Run a scenario on the modelled board with a virtual clock (docs/CONTRACTS.md §4).

The real pipeline runs: the modelled board's sensor frames are decoded,
filtered for stability and reconciled by the referee; buttons go through
the debouncer.  Time moves only when an action says so (``wait``, ``hold``,
``move`` and the settling before a press), 20 ms per scan.

While nothing can change (the board still, no timer due, no button pending, no
glitch due) the scans of a long wait are skipped but for the last
:data:`TAIL_SCANS`; the modelled board's noise moves on as if they had been run,
so the events are the same and an hour's wait costs a fraction of a second.

Against the computer (a ``setup`` with an ``opponent``) the engine is GNU
Backgammon, or the engine a test hands in, behind a
:class:`~tavla_pi.engine.BackgroundEngine` on the virtual clock with no
deadline.  Before each scan the runner waits, in real time, for a question
the referee has out: the answer is taken at the first scan after the
question however fast the engine is, so a replay's output is always the same.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any

from tavla_pi.clock import VirtualClock
from tavla_pi.decode.calibration import calibrate
from tavla_pi.engine import NOT_INSTALLED, BackgroundEngine, Engine, GnubgEngine, find_gnubg
from tavla_pi.errors import DiceError, EngineError, ScenarioError, TavlaError
from tavla_pi.events.event import Event
from tavla_pi.game.referee import Referee
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.hal.sim.backend import SimBackend, open_sim_backend
from tavla_pi.hal.sim.board import SimBoard, counts_of
from tavla_pi.hardware.pinmap import POINT_SLOTS, PinMap
from tavla_pi.pipeline.snapshot import snapshot
from tavla_pi.pipeline.step import SCAN_MS, Pipeline
from tavla_pi.replay.actions import (
    Action,
    DiceAction,
    GlitchAction,
    LiftAction,
    LoadAction,
    MoveAction,
    PlaceAction,
    PressAction,
    ScenarioLine,
    SetupAction,
    WaitAction,
)
from tavla_pi.replay.timings import Mark, Watcher
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position
from tavla_pi.rules.variants import variant
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.speech.speaker import Speech
from tavla_pi.speech.voice import timed_voice

SETTLE_MS = 200
"""How long a hand's checker takes to settle (longer than the stability time)."""
RELEASE_MS = 60
"""Time after a button's release for the debouncer to report it."""
BUSY_LIMIT_MS = 5000
"""The most a press or the end of a scenario waits for pending DONE or a pass."""
CALIBRATION_FRAMES = 32
"""Scans of the empty modelled board its calibration averages (replay and the sim daemon)."""
TAIL_SCANS = 100
"""Scans still run at the end of a skipped still stretch (2 s), so the decoder's running
means and the stack watch are as if every scan of the stretch had been run."""
SPEECH_LIMIT_MS = 60_000
"""The most the end of a scenario waits for the sentences still to be said."""
ENGINE_WAIT_S = 300.0
"""The longest a scan waits, in real time, for the engine's answer (gnubg restarts itself
when it hangs)."""


class ReplayDice:
    """The scenario's queued dice; past them, a seeded generator (reproducible)."""

    def __init__(self, seed: int) -> None:
        self.queue = ScriptedDice()
        self._fallback = random.Random(seed)

    def roll_one(self) -> int:
        """The next queued die, or a seeded random one."""
        try:
            return self.queue.roll_one()
        except DiceError:
            return self._fallback.randint(1, 6)

    def roll(self) -> tuple[int, int]:
        """The next two dice."""
        return self.roll_one(), self.roll_one()


def start_steps(board: SimBoard, name: str) -> list[Callable[[], None]]:
    """The start of a game of ``name`` ("portes", "plakoto", "fevga") laid on the simulated
    board as a hand lays it: one step per layer, a scan to pass between steps.  A pile of
    more than six (Plakoto's and Fevga's fifteen) goes down layer by layer: a second
    layer put down in the same scan as the first would read as one checker
    (hardware/GEOMETRY.md, "How the fifteen lie")."""
    counts = {(at, color): n for color in Color
              for at, n in variant(name).start_board()[color.value].items()}
    layers = [{key: min(n - layer * POINT_SLOTS, POINT_SLOTS) for key, n in counts.items()}
              for layer in range(max(counts.values()) // POINT_SLOTS + 1)]
    return [partial(board.lay_out, layers[0]),
            *(partial(_lay_on, board, layer) for layer in layers[1:])]


def _lay_on(board: SimBoard, layer: dict[tuple[str, Color], int]) -> None:
    """Put the layer's checkers from the tray on the piles below (none where negative)."""
    for (at, color), n in layer.items():
        for _ in range(n):
            board.lift("off", color)
            board.place(at, color)


class ScenarioRunner:
    """Drives the modelled board, the buttons and the dice through a scenario.

    ``engine`` plays the computer (a test's scripted one, or one already in the
    background, which the coach also uses); without it GNU Backgammon does,
    started when an opponent is first asked for.  Close the runner (or use it
    in a ``with``) to stop the engine.
    """

    def __init__(self, pinmap: PinMap, settings: GameSettings, seed: int = 0, *,
                 engine: Engine | BackgroundEngine | None = None) -> None:
        self.clock = VirtualClock()
        self.backend: SimBackend = open_sim_backend(pinmap, self.clock, random.Random(seed))
        self.dice = ReplayDice(seed)
        running = isinstance(engine, BackgroundEngine)
        self.engine: BackgroundEngine | None = engine if isinstance(engine, BackgroundEngine) \
            else None
        self._given = None if isinstance(engine, BackgroundEngine) else engine
        self._prefs: tempfile.TemporaryDirectory[str] | None = None
        self.engine_wait_s = ENGINE_WAIT_S
        computer = seating(settings.opponent).engine_color
        playing = self.background() if running or computer is not None else None
        self.referee = Referee(settings, self.dice, engine=playing, wall=self.clock)
        calibration = calibrate([self.backend.board.scan() for _ in range(CALIBRATION_FRAMES)],
                                pinmap)
        self.pipeline = Pipeline(self.backend, pinmap, calibration, self.referee, self.clock)
        self.pipeline.speech = Speech(SpeechSettings(), timed_voice, "en", switch_taps=None)
        self.watchers: list[Watcher] = []
        """Told every hand action and scan (``tavla-pi replay --timings``, the soak)."""

    def background(self) -> BackgroundEngine:
        """The engine that plays the computer (started on first use): the one handed in,
        else GNU Backgammon (EngineError saying how to install it when it is missing)."""
        if self.engine is None:
            engine = self._given or self._gnubg()
            self.engine = BackgroundEngine(engine, self.clock)
            self.engine.start()
        return self.engine

    def _gnubg(self) -> Engine:
        program = find_gnubg()
        if program is None:
            raise EngineError(f"the opponent needs GNU Backgammon: {NOT_INSTALLED}")
        self._prefs = tempfile.TemporaryDirectory(prefix="tavla-pi-gnubg-")
        return GnubgEngine.launch(Path(self._prefs.name), program)

    def close(self) -> None:
        """Stop the engine, if one was started (a scripted one then checks its script)."""
        engine, self.engine = self.engine, None
        try:
            if engine is not None:
                engine.close()
        finally:
            if self._prefs is not None:
                self._prefs.cleanup()
                self._prefs = None

    def __enter__(self) -> ScenarioRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def state(self) -> dict[str, Any]:
        """The board and the game now, as ``GET /api/state`` gives them (without its
        ``events`` count); ``physical`` says where the modelled checkers really are."""
        return snapshot(self.referee, self.pipeline, self.backend.name)

    @property
    def settled(self) -> bool:
        """True when nothing on the board is moving and the game has seen it as it is
        (what a press waits for)."""
        return self.pipeline.settled

    def run(self, lines: Iterable[ScenarioLine]) -> Iterator[Event]:
        """Every event, in order, as the actions are applied; then the board settles.

        An opponent's engine is started before anything runs (a ScenarioError at
        the first line that asks for one, when it cannot be).
        """
        lines = list(lines)
        self._engine_for(lines)
        yield from self.advance(0)
        for line in lines:
            try:
                yield from self.apply(line.action)
            except ScenarioError:
                raise
            except TavlaError as exc:
                raise ScenarioError(line.where, str(exc)) from None
        yield from self.finish()

    def _engine_for(self, lines: list[ScenarioLine]) -> None:
        for line in lines:
            action = line.action
            if isinstance(action, SetupAction) and action.opponent is not None \
                    and seating(action.opponent).engine_color is not None:
                try:
                    self.background()
                except EngineError as exc:
                    raise ScenarioError(line.where, str(exc)) from None
                return

    def apply(self, action: Action) -> Iterator[Event]:
        """Apply one action; the events it leads to."""
        board = self.backend.board
        match action:
            case SetupAction():
                yield from self._setup(action)
            case LoadAction(position_id, match_id):
                yield from self._load(position_id, match_id)
                self._mark("other")
            case DiceAction(a, b):
                self.dice.queue.extend([(a, b)])
            case PressAction():
                yield from self._press(action)
            case LiftAction(location, color):
                board.lift(location, color)
                self._mark("lift", location, color)
            case PlaceAction(location, color):
                board.place(location, color)
                self._mark("place", location, color)
            case MoveAction(source, target, color):
                board.lift(source, color)
                self._mark("lift", source, color)
                yield from self.advance(SETTLE_MS)
                board.place(target, color)
                self._mark("place", target, color)
                yield from self.advance(SETTLE_MS)
            case GlitchAction(at, color, ms):
                board.glitch(at, color, ms)
                self._mark("glitch", at, color, ms)
            case WaitAction(ms):
                yield from self.advance(ms)

    def _setup(self, action: SetupAction) -> Iterator[Event]:
        """``setup``: the opponent, speech and clock it names, a new match when it
        names a length, variant or clock, and the board laid out for its game."""
        if action.opponent is not None:
            self._set_opponent(action.opponent)
        if action.speech is not None:
            self._speak(action.speech)
        if action.clock is not None:
            self.referee.clocks.choose(action.clock)
        if action.match_length is not None or action.variant is not None \
                or action.clock is not None:
            length = self.referee.match.match_length if action.match_length is None \
                else action.match_length
            if action.clock is not None and length == 0:
                raise TavlaError("a clock needs a match of 1 point or more: give "
                                 "setup a match_length (money play has no clock)")
            yield from self.referee.new_match(length, self.clock.now_ms(), action.variant)
        yield from self._set_up(self.backend.board)
        self._mark("other")

    def _set_up(self, board: SimBoard) -> Iterator[Event]:
        """Lay out the start of the match's game now, as a person setting up would
        (:func:`start_steps`: a scan between layers).  In Plakoto a checker put on a lone
        opposing one is laid on top of it (a pin)."""
        name = self.referee.tavli.variant
        board.pin_on_top = variant(name).pins
        first, *rest = start_steps(board, name)
        first()
        for step in rest:
            yield from self.advance(SCAN_MS)
            step()

    def _speak(self, language: str) -> None:
        """Speech on from now on, in ``language``: a silent voice that takes as long as
        the board's would, on the virtual clock."""
        self.pipeline.speech.set(SpeechSettings(enabled=True), language)

    def _set_opponent(self, opponent: OpponentSettings) -> None:
        engine = self.background() if seating(opponent).engine_color is not None else None
        self.referee.set_opponent(opponent, engine)

    def advance(self, ms: int) -> Iterator[Event]:
        """Let ``ms`` of virtual time pass, scanning every 20 ms (and once now if 0).

        Before each scan the engine's pending answers are waited for (in real time,
        up to :attr:`engine_wait_s`): an answer is taken at the first scan after its
        question, however long the engine took, so a replay is the same every time.
        """
        if ms == 0:
            yield from self._scan()
        while ms > 0:
            step = min(SCAN_MS, ms)
            self.clock.advance(step)
            ms -= step
            yield from self._scan()
            # judged on a scan of the board as it is now (an action may just have changed it)
            ms -= self._skip_still(ms // SCAN_MS - TAIL_SCANS) * SCAN_MS

    def _scan(self) -> list[Event]:
        """One scan, once the engine has answered the questions out (if any); the
        watchers are told what it decided and showed.  The computer's question has no
        deadline in replay: one unanswered is an error; the coach's has its own, on the
        virtual clock.  ``engine_wait_s`` 0 waits for nothing (tests of an engine that
        hangs)."""
        if self.referee.thinking and not self.referee.wait_engine(self.engine_wait_s) \
                and self.referee.seat.thinking and self.engine_wait_s > 0:
            raise EngineError(f"the engine gave no answer within {self.engine_wait_s:g} s")
        events = self.pipeline.step()
        shown = self.pipeline.view
        if self.watchers and shown is not None:
            stable, now = self.referee.view(), self.clock.now_ms()
            for watcher in self.watchers:
                watcher.scan(now, events, stable, shown)
        return events

    def _mark(self, kind: str, where: str = "", color: Color | None = None,
              ms: int = 0) -> None:
        """Tell the watchers what the hand just did."""
        if not self.watchers:
            return
        board = self.backend.board
        mark = Mark(kind, self.clock.now_ms(), where, color,
                    (board.in_hand(Color.WHITE), board.in_hand(Color.BLACK)), ms)
        stable = self.referee.view()
        for watcher in self.watchers:
            watcher.mark(mark, stable)

    def _skip_still(self, scans: int) -> int:
        """Skip up to ``scans`` scans if none of them could change anything; how many."""
        if scans <= 0 or not self.pipeline.still or self.referee.busy \
                or not self.pipeline.buttons.quiet or not self.pipeline.speech.quiet:
            return 0
        dues = [d for d in (self.backend.board.next_change_ms(), self.referee.clock_due())
                if d is not None]
        due = min(dues, default=None)
        if due is not None:
            scans = min(scans, (due - self.clock.now_ms()) // SCAN_MS - TAIL_SCANS)
            if scans <= 0:
                return 0
        self.clock.advance(scans * SCAN_MS)
        self.backend.board.skip_scans(scans)
        return scans

    def finish(self) -> Iterator[Event]:
        """Let the board settle, pending timers run out and what is to be said be said."""
        yield from self.advance(SETTLE_MS)
        yield from self._until_idle()
        yield from self._until(lambda: self.pipeline.speech.quiet, SPEECH_LIMIT_MS)

    def _load(self, position_id: str, match_id: str) -> Iterator[Event]:
        position = Position.from_position_id(position_id)
        match = MatchState.from_match_id(match_id)
        self.backend.board.lay_out(counts_of(position.to_board(match.on_roll)))
        yield from self.referee.load(position, match, self.clock.now_ms())

    def _press(self, press: PressAction) -> Iterator[Event]:
        yield from self.advance(SCAN_MS)  # see the board as it is now, then let it settle
        yield from self._until(lambda: self.settled, SETTLE_MS * 5)
        buttons = self.backend.sim_buttons
        buttons.press(press.button)
        self._mark("press", press.button)
        yield from self.advance(press.ms)
        buttons.release(press.button)
        self._mark("release", press.button)
        yield from self.advance(RELEASE_MS)
        yield from self._until_idle()

    def _until_idle(self) -> Iterator[Event]:
        yield from self._until(lambda: not self.referee.busy, BUSY_LIMIT_MS)

    def _until(self, done: object, limit_ms: int) -> Iterator[Event]:
        assert callable(done)
        waited = 0
        while not done() and waited < limit_ms:
            waited += SCAN_MS
            yield from self.advance(SCAN_MS)
