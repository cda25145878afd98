"""Continuing where the journal left off: open it, rebuild the state, say what was repaired.

Every repair the journal made (a torn last line cut off, damaged lines set
aside) and every event the fold had to skip is one warning line in the log.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tavla_pi.events.journal import Journal
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import restore

log = logging.getLogger("tavla_pi.daemon")


def open_journal(state_dir: Path) -> Journal:
    """The state directory's journal, open for appending, its events read back."""
    journal = Journal.open(state_dir)
    for warning in journal.warnings:
        log.warning("journal: %s", warning)
    return journal


def resume_from_journal(referee: Referee, journal: Journal, now: int) -> None:
    """Bring ``referee`` to the state the journal's events leave (nothing is emitted)."""
    if not journal.events:
        return
    state = restore(journal.events, referee.settings, journal.where)
    for warning in state.warnings:
        log.warning("journal: %s", warning)
    referee.resume(state, now)
    log.info("resumed from %d journaled events: %s", len(journal.events), state.phase.value)
