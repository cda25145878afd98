"""The matches a state directory remembers, as far as they follow the rules (export, dice-stats).

:func:`tavla_pi.events.history.read_history` reads every match back and
leaves damaged lines out; here each match is also checked by the rules
(:func:`tavla_pi.game.restore.verify`), as the daemon checks its journal on
resume: the first event that does not follow and the rest of its match are
left out, with one warning naming file, line and reason.  Nothing on disk
is changed (the daemon may be writing the journal).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tavla_pi.events.history import History, MatchLog, read_history
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings


def trusted_history(state_dir: Path) -> History:
    """Every match of ``state_dir`` (numbered as ``read_history`` does), each cut where
    it stops following the rules; the warnings say what was left out."""
    history = read_history(state_dir)
    out = History(warnings=list(history.warnings))
    for log in history.matches:
        kept, warning = trusted(log)
        out.matches.append(kept)
        if warning:
            out.warnings.append(warning)
    return out


def trusted(log: MatchLog) -> tuple[MatchLog, str]:
    """``log`` up to its first event that does not follow, and a warning if one does not."""
    checked = verify(log.events, GameSettings(match_length=log.match_length or 0))
    if not checked.reason:
        return log, ""
    n = checked.trusted
    warning = (f"{log.where(n)}: {checked.reason} (left out, with the "
               f"{len(log.events) - n - 1} event(s) after it in this match)")
    return replace(log, events=log.events[:n], lines=log.lines[:n]), warning
