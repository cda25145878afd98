"""``POST /api/sim``: scenario actions (docs/CONTRACTS.md §4) on the simulated board, in real time.

Lifts, places and glitches happen at once; a press holds the simulated
button for its time while the scan loop keeps running (the release is
scheduled, never waited for in a blocking way); ``move`` is lift, settle,
place, settle; ``wait`` sleeps; ``setup`` lays out the start of the game being
played (Portes', Plakoto's or Fevga's; a pile of fifteen layer by layer, a scan
between, as a hand does), and starts the new match its ``variant`` or
``match_length`` asks for.  In Plakoto a checker put on a lone opposing one
is laid on top of it, as a hand pins.  Actions run one at a time in the order they
arrive; a request whose client hangs up is cancelled (a move is undone: its
checker goes back where it was; a press still releases its button).  After each change the
board and the dice queue are saved
(:mod:`tavla_pi.daemon.simstore`), so a restart finds the checkers where they were.

An action happens completely or not at all: when the save fails (a full
disk) the change is undone and the request gets a :class:`SimSaveError`;
the journal is written only once the board is saved; when the journal fails
(the daemon then stops, and resumes from the journal) the request gets a
:class:`StoppingError`.  A press is the exception: its events are journaled
before its save, which only repeats what the journal holds, so a failed save
after a press is said in the log and the press stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from tavla_pi.daemon import simstore
from tavla_pi.errors import BadInputError, TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.files import OS_FILES, Files
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.hal.sim.backend import SimBackend
from tavla_pi.hal.sim.board import counts_of
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
    SetupAction,
    WaitAction,
)
from tavla_pi.replay.runner import start_steps
from tavla_pi.rules.dice import DiceSource, SecureDice
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavlimatch import cycle_of
from tavla_pi.rules.variants import variant

log = logging.getLogger("tavla_pi.daemon")

MAX_ACTION_MS = 5000
"""The longest ``wait`` or ``hold`` one request may ask for: the simulator is held
meanwhile (a long press needs 1.5 s)."""
PRESS_LIMIT_MS = 2000
"""How long a press waits for the scan loop to see the button down, then up (on a
loaded machine the loop can fall behind the request)."""
SETTLE_LIMIT_MS = 1000
"""How long a press waits for a moving board to settle first."""
DONE_LIMIT_MS = 3000
"""How long a press waits for the DONE it caused to resolve."""


Sleep = Callable[[int], Awaitable[None]]
"""How the simulator lets time pass: real time in the daemon, a virtual clock in tests."""


class SimActionError(BadInputError):
    """An action the simulator refuses before changing anything."""


class SimSaveError(TavlaError, OSError):
    """The simulated board could not be saved; the action was undone."""


class StoppingError(TavlaError, RuntimeError):
    """The journal failed while the action ran: the daemon stops and resumes from it."""


class QueuedDice:
    """The simulator's dice: queued values first (``{"dice": [a, b]}``), then real random ones."""

    def __init__(self, fallback: DiceSource | None = None) -> None:
        self.queue: deque[int] = deque()
        self._fallback = fallback or SecureDice()

    def roll_one(self) -> int:
        """The next queued die, or a random one."""
        return self.queue.popleft() if self.queue else self._fallback.roll_one()

    def roll(self) -> tuple[int, int]:
        """The next two dice."""
        return self.roll_one(), self.roll_one()


class SimCore(Protocol):
    """What the simulator needs of the running daemon (:class:`~tavla_pi.daemon.core.Core`)."""

    referee: Referee
    pipeline: Pipeline
    rolls: simstore.RollCount
    failure: BaseException | None

    def commit(self, events: list[Event]) -> None:
        """Journal ``events``, then publish them."""
        ...


class SimDesk:
    """Applies scenario actions to the simulated board on the real clock."""

    def __init__(self, core: SimCore, backend: SimBackend, dice: QueuedDice, state_dir: Path,
                 *, settle_ms: int, sleep_ms: Sleep | None = None,
                 files: Files = OS_FILES) -> None:
        self.core = core
        self.files = files
        self.sleep_ms = sleep_ms or real_sleep_ms
        self.backend = backend
        self.board = backend.board
        self.dice = dice
        self.state_dir = state_dir
        self.settle_ms = settle_ms
        self._lock = asyncio.Lock()

    def restore(self, rolls_now: simstore.RollCount) -> bool:
        """Lay the board out as saved, and the dice queue; False when nothing was saved."""
        snap = simstore.load(self.state_dir)
        if snap is None:
            return False
        snap.restore(self.board)
        self.dice.queue.extend(snap.dice_left(rolls_now))
        return True

    def save(self) -> None:
        """Write the board and the dice queue to the state directory."""
        snap = simstore.SimSnapshot.of(self.board, self.dice.queue, self.core.rolls)
        simstore.save(self.state_dir, snap, self.files)

    async def idle(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) for the action under way to end and answer."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s), self._lock:
                pass

    @staticmethod
    def check(action: Action) -> None:
        """Refuse an action too long for one request, and speech set by a scenario line."""
        ms = action.ms if isinstance(action, PressAction | WaitAction) else 0
        if ms > MAX_ACTION_MS:
            raise SimActionError("ms", f"at most {MAX_ACTION_MS} ms per request, got {ms}")
        if isinstance(action, SetupAction) and action.speech is not None:
            raise SimActionError("speech", 'the daemon speaks as its settings say: POST '
                                 '/api/settings {"speech": {"enabled": true, ...}}')

    async def apply(self, action: Action) -> None:
        """Apply ``action``, completely or not at all; board errors (no such checker, ...)
        and a failed save change nothing."""
        self.check(action)
        async with self._lock:
            await self._apply(action)
            self._check_journal()

    async def _apply(self, action: Action) -> None:
        board, queue = self.board, self.dice.queue
        board.pin_on_top = variant(self.core.referee.tavli.variant).pins  # as hands pin
        match action:
            case SetupAction(match_length, opponent, game):
                await self._set_up(match_length, opponent, game)
            case LoadAction(position_id, match_id):
                self._load(position_id, match_id)
            case DiceAction(a, b):
                self._saved(lambda: queue.extend((a, b)), lambda: [queue.pop() for _ in "ab"])
            case PressAction():
                await self._press(action)  # a roll, or a new match: saved with the count
                self._check_journal()
                self._save_after_press()
            case LiftAction(location, color):
                self._saved(lambda: board.lift(location, color),
                            lambda: board.place(location, color))
            case PlaceAction(location, color):
                self._saved(lambda: board.place(location, color),
                            lambda: board.lift(location, color))
            case MoveAction():
                await self._move(action)
            case GlitchAction(at, color, ms):
                board.glitch(at, color, ms)
            case WaitAction(ms):
                await self.sleep_ms(ms)

    async def _set_up(self, match_length: int | None, opponent: OpponentSettings | None,
                      variant: str | None) -> None:
        """``setup``: the opponent; the start of the game to be played (its variant's) on
        the board, saved; then a new match when a length or a game is given."""
        referee = self.core.referee
        if opponent is not None:  # played by the daemon's engine, if it runs one
            referee.set_opponent(opponent)
        anew = match_length is not None or variant is not None
        name = cycle_of(variant or referee.next_variant)[0] if anew else referee.tavli.variant
        await self._lay_out_start(name)
        if anew:
            length = referee.match.match_length if match_length is None else match_length
            now = self.core.pipeline.clock.now_ms()
            self.core.commit(referee.new_match(length, now, variant))

    async def _lay_out_start(self, name: str) -> None:
        """Lay out the start of ``name`` as a hand would, a scan between layers
        (:func:`~tavla_pi.replay.runner.start_steps`), and save it; all or nothing: a
        failed save or a cancelled request lays the board out as it was."""
        before = simstore.SimSnapshot.of(self.board, self.dice.queue, self.core.rolls)
        try:
            first, *rest = start_steps(self.board, name)
            first()
            for step in rest:
                await self.sleep_ms(SCAN_MS)
                step()
            self.save()
        except OSError as exc:
            before.restore(self.board)
            raise _not_saved(exc) from None
        except asyncio.CancelledError:
            before.restore(self.board)
            raise

    def _saved(self, change: Callable[[], object],
               undo: Callable[[], object] | None = None) -> None:
        """Make ``change`` and save it; if the save fails, undo it (by ``undo``, or by
        laying the board out as it was) and raise :class:`SimSaveError`."""
        before = simstore.SimSnapshot.of(self.board, self.dice.queue, self.core.rolls)
        change()
        try:
            self.save()
        except OSError as exc:
            if undo is not None:
                undo()
            else:
                before.restore(self.board)
            raise _not_saved(exc) from None

    def _save_after_press(self) -> None:
        try:
            self.save()
        except OSError as exc:  # the journal holds the press: a restart derives the rest
            log.warning("the simulated board cannot be saved (%s); the press stands",
                        exc.strerror)

    def _check_journal(self) -> None:
        failure = self.core.failure
        if failure is not None:
            raise StoppingError(f"{failure}: the daemon stops and resumes from its journal")

    def _load(self, position_id: str, match_id: str) -> None:
        position = Position.from_position_id(position_id)
        match = MatchState.from_match_id(match_id)
        counts = counts_of(position.to_board(match.on_roll))
        self._saved(lambda: self.board.lay_out(counts))
        self.core.commit(self.core.referee.load(position, match,
                                                self.core.pipeline.clock.now_ms()))

    async def _move(self, move: MoveAction) -> None:
        """Lift, settle, place, save, settle: saved once, at the end, so that a failed
        save or a restart in the middle leaves the checker where it was."""
        board = self.board
        board.lift(move.source, move.color)
        try:
            await self.sleep_ms(self.settle_ms)
            self._saved(lambda: board.place(move.target, move.color),
                        lambda: board.lift(move.target, move.color))
        except BaseException:
            if board.in_hand(move.color):
                board.place(move.source, move.color)
            raise
        await self.sleep_ms(self.settle_ms)

    async def _press(self, press: PressAction) -> None:
        await self._until(lambda: self.core.pipeline.settled, SETTLE_LIMIT_MS)
        buttons, seen = self.backend.sim_buttons, self.core.pipeline.buttons
        buttons.press(press.button)
        try:
            await self.sleep_ms(press.ms)
            await self._until(lambda: seen.pressed(press.button), PRESS_LIMIT_MS)
        finally:
            buttons.release(press.button)
        await self._until(lambda: not seen.pressed(press.button), PRESS_LIMIT_MS)
        await self._until(self._done_resolved, DONE_LIMIT_MS)

    def _done_resolved(self) -> bool:
        referee = self.core.referee
        return not referee.busy or referee.phase is Phase.NO_MOVE

    async def _until(self, done: Callable[[], bool], limit_ms: int) -> None:
        waited = 0
        while not done() and waited < limit_ms and self.core.failure is None:
            await self.sleep_ms(SCAN_MS)
            waited += SCAN_MS


def _not_saved(exc: OSError) -> SimSaveError:
    """The error of a change undone because the board could not be saved."""
    return SimSaveError(f"the simulated board cannot be saved ({exc.strerror}): "
                        "nothing was changed")


async def real_sleep_ms(ms: int) -> None:
    """Let ``ms`` of real time pass (the scan loop runs meanwhile)."""
    await asyncio.sleep(ms / 1000)
