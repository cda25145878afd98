"""The computer opponent in the daemon: GNU Backgammon started in the background at start.

Whenever gnubg is installed (the MENU and the web page may choose the computer at any
new match, and hints need it in two-player games too), gnubg is launched with its preferences in the
state directory (``gnubg -s``: the service's sandbox has no home) and started
on the engine's worker thread, so the daemon is ready at once and the scan
loop never waits for it.  Each decision has a deadline; a gnubg that dies or
hangs is restarted by its supervisor, and the game asks again.  Without gnubg
the daemon says once how to install it, and two players play.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tavla_pi.clock import Clock
from tavla_pi.engine import BackgroundEngine, GnubgEngine
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import OpponentSettings

log = logging.getLogger("tavla_pi.daemon")

PREFS_DIR = "gnubg"
"""gnubg's preferences folder, inside the state directory."""
DECISION_DEADLINE_MS = 15_000
"""The longest the game waits for one decision before asking again (world class takes
about 2 s on a Pi Zero 2 W)."""
GNUBG_TIMEOUT_S = 10.0
"""How long gnubg's supervisor waits for one answer before it restarts gnubg."""


def open_engine(opponent: OpponentSettings, state_dir: Path, clock: Clock,
                program: Path | None) -> BackgroundEngine | None:
    """GNU Backgammon's ``program``, starting in the background; None when it is not
    installed (the daemon says so once: :func:`tavla_pi.daemon.startup.engine_missing`)."""
    if program is None:
        return None
    gnubg = GnubgEngine.launch(state_dir / PREFS_DIR, program, timeout_s=GNUBG_TIMEOUT_S)
    engine = BackgroundEngine(gnubg, clock, deadline_ms=DECISION_DEADLINE_MS)
    engine.start()
    computer = seating(opponent).engine_color
    if computer is not None:
        log.info("the computer plays %s at level %s (%s)", computer.value,
                 opponent.level.value, program)
    return engine
