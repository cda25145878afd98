"""Continuing where the journal left off: open it, check it, rebuild the state, say so.

Every repair the journal made (a torn last line cut off, damaged lines set
aside, a missing journal) is one warning line in the log.  Then the events
are checked by the rules (:func:`tavla_pi.game.restore.verify`): the first
one that does not follow ends the trusted journal; it and everything after
it are moved aside (:meth:`Journal.cut`), said in one warning line naming
file, line and reason, and the game resumes from the events before it.
When the board then differs from that state, the usual reconcile shows the
fixes ("sync").
"""

from __future__ import annotations

import logging
from pathlib import Path

from tavla_pi.events.files import OS_FILES, Files
from tavla_pi.events.journal import Journal
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State

log = logging.getLogger("tavla_pi.daemon")


def open_journal(state_dir: Path, settings: GameSettings,
                 files: Files = OS_FILES) -> tuple[Journal, State]:
    """The state directory's journal, open for appending, holding only events that
    follow the rules; and the state they leave."""
    journal = Journal.open(state_dir, files)
    try:
        for warning in journal.warnings:
            log.warning("journal: %s", warning)
        checked = verify(journal.events, settings)
        if checked.reason:
            where, count = journal.where(checked.trusted), len(journal.events) - checked.trusted
            aside = journal.cut(checked.trusted, checked.reason)
            log.warning("journal: %s: %s: the game resumes from the %d event(s) before it; "
                        "this event and the %d after it are moved to %s", where,
                        checked.reason, checked.trusted, count - 1, aside.name)
    except BaseException:
        journal.close()
        raise
    return journal, checked.state


def resume_from_journal(referee: Referee, journal: Journal, state: State, now: int) -> None:
    """Bring ``referee`` to ``state``, what the journal's events leave (nothing is emitted)."""
    if journal.events:
        referee.resume(state, now)


def report_resume(journal: Journal, state: State) -> None:
    """Say in the log where the game goes on (once everything is open)."""
    if journal.events:
        log.info("resumed from %d journaled events: %s", len(journal.events), state.phase.value)
    else:
        log.info("journal: %s holds no events: a new match starts", journal.path)
