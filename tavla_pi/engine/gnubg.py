"""GNU Backgammon as the :class:`~tavla_pi.engine.interface.Engine`: one long-lived process.

``gnubg -t -q -r -s PREFS -p bridge.py`` runs the bridge script inside
gnubg's embedded Python: no display (``-t``), no sound (``-q``), none of the
user's rc files (``-r``), its preferences in ``PREFS`` (the service's state
directory: the systemd sandbox has no home), niced below the scan loop.  The
:class:`~tavla_pi.engine.process.Supervisor` restarts it when it dies or
hangs and retries the decision once.

:func:`find_gnubg` tells whether gnubg is installed; without it the mode is
offered with the one line :data:`NOT_INSTALLED`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tavla_pi.engine import wire
from tavla_pi.engine.interface import (
    CubeAction,
    EnginePlay,
    EngineRequest,
    Evaluation,
    RankedPlay,
    ResignAnswer,
    TakeDecision,
    check_play,
    check_resign_offer,
    may_engine_double,
)
from tavla_pi.engine.process import Supervisor, clean_env
from tavla_pi.errors import EngineError
from tavla_pi.rules import Resignation
from tavla_pi.rules.resign import in_contact

NOT_INSTALLED = "install gnubg (apt install gnubg)"
"""What to tell a user who wants to play the computer on a board without gnubg."""

BRIDGE = Path(__file__).with_name("bridge.py")
"""The script gnubg runs (package data)."""

NICE = 10
"""How much lower than the daemon gnubg runs (``nice -n``)."""

_NOISE_TOLERANCE = 1e-6  # gnubg holds the noise as a C float


def find_gnubg(search_path: str | None = None) -> Path | None:
    """gnubg on ``search_path`` (default: the PATH, then /usr/games, Debian's place), or None."""
    if search_path is None:
        search_path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/games"])
    found = shutil.which("gnubg", path=search_path)
    return Path(found) if found else None


def require_gnubg(search_path: str | None = None) -> Path:
    """gnubg's path; EngineError saying how to install it when it is missing."""
    program = find_gnubg(search_path)
    if program is None:
        raise EngineError(f"GNU Backgammon is not installed: {NOT_INSTALLED}")
    return program


def gnubg_argv(program: Path, prefs_dir: Path, nice: int = NICE) -> list[str]:
    """The command line that runs the bridge inside gnubg (behind ``nice`` if it exists)."""
    argv = [str(program), "-t", "-q", "-r", "-s", str(prefs_dir), "-p", str(BRIDGE)]
    nicer = shutil.which("nice")
    return [nicer, "-n", str(nice), *argv] if nice and nicer else argv


class GnubgEngine:
    """The computer opponent played by GNU Backgammon through the bridge.

    Blocking: every method waits for gnubg (up to ``timeout_s``, restarted
    and retried once).  The game calls it through
    :class:`~tavla_pi.engine.background.BackgroundEngine`, never from the
    scan loop.
    """

    def __init__(self, supervisor: Supervisor, *, timeout_s: float = 30.0) -> None:
        self.supervisor = supervisor
        self.timeout_s = timeout_s

    @classmethod
    def launch(
        cls,
        prefs_dir: Path,
        program: Path | None = None,
        *,
        timeout_s: float = 30.0,
        start_timeout_s: float = 60.0,
        nice: int = NICE,
    ) -> GnubgEngine:
        """An engine on the installed gnubg (EngineError if there is none), not yet started."""
        program = program or require_gnubg()
        prefs_dir.mkdir(parents=True, exist_ok=True)
        supervisor = Supervisor(
            gnubg_argv(program, prefs_dir, nice),
            clean_env(str(prefs_dir)),
            start_timeout_s=start_timeout_s,
        )
        return cls(supervisor, timeout_s=timeout_s)

    def start(self) -> None:
        """Start gnubg now (it loads its weights and bear-off databases)."""
        self.supervisor.start()

    def close(self) -> None:
        """Stop gnubg."""
        self.supervisor.close()

    def play(self, request: EngineRequest) -> EnginePlay:
        """gnubg's play: the first of its ranking at the level's settings."""
        best = self.hint(request, 1)
        return EnginePlay(best[0].play, best[0].equity) if best else EnginePlay(None)

    def hint(self, request: EngineRequest, n: int = 5) -> list[RankedPlay]:
        """gnubg's ``n`` best plays (``hint``), each one of the rules' legal plays."""
        if n < 1:
            raise ValueError(f"a hint lists at least one play, not {n}")
        dice = check_play(request)
        if not request.position.legal_plays(dice):
            return []
        answer = self._call(wire.hint_request(request, n))
        _check_context(request, answer.get("context"))
        ranked = wire.hint_answer(request, answer)
        if not ranked:
            where = f"{dice[0]}-{dice[1]} in {request.position.position_id()}"
            raise EngineError(f"gnubg found no play of {where}: {answer.get('note', '')}")
        return ranked

    def cube_action(self, request: EngineRequest) -> CubeAction:
        """gnubg's computer player's choice before its roll (no question when it may not double)."""
        if not may_engine_double(request):
            return CubeAction.NO_DOUBLE
        return wire.double_answer(self._call(wire.double_request(request)))

    def take_decision(self, request: EngineRequest) -> TakeDecision:
        """gnubg's computer player's answer to the double (or beaver) on offer."""
        return wire.take_answer(request, self._call(wire.take_request(request)))

    def resign_answer(self, request: EngineRequest) -> ResignAnswer:
        """gnubg's computer player's answer to the resignation on offer."""
        return wire.resign_answer(self._call(wire.resign_request(request)))

    def resign_offer(self, request: EngineRequest) -> Resignation:
        """gnubg's computer player's resignation before its cube decision (none in contact,
        where gnubg does not consider it, so no question is sent)."""
        check_resign_offer(request)
        if in_contact(request.position):
            return Resignation.NONE
        return wire.resign_offer_answer(self._call(wire.resign_offer_request(request)))

    def evaluate(self, request: EngineRequest) -> Evaluation:
        """gnubg's ``evaluate`` and ``cfevaluate`` at the level's settings."""
        return wire.evaluate_answer(self._call(wire.evaluate_request(request)))

    def _call(self, fields: wire.Fields) -> wire.Fields:
        return self.supervisor.call(fields, self.timeout_s)


def _check_context(request: EngineRequest, echoed: object) -> None:
    """The evaluation gnubg reports for its best play must be the level's.

    The plies may be fewer: a move filter that keeps a single move stops
    the search early (a forced or a clearly best play).
    """
    settings = request.level.settings
    if not isinstance(echoed, dict):
        raise EngineError(f"gnubg did not say how it evaluated the play: {echoed!r}")
    plies, noise = echoed.get("plies"), echoed.get("noise")
    fits = (
        isinstance(plies, int)
        and 0 <= plies <= settings.plies
        and bool(echoed.get("cubeful")) == settings.cubeful
        and bool(echoed.get("deterministic")) == settings.deterministic
        and isinstance(noise, float | int)
        and abs(noise - settings.noise) <= _NOISE_TOLERANCE
    )
    if not fits:
        raise EngineError(f"gnubg evaluated with {echoed}, not the {request.level.value} settings")
