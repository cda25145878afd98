"""The matches a state directory remembers, as far as they follow the rules (export, dice-stats).

:func:`tavla_pi.events.history.read_history` reads every match back and
leaves damaged lines out; here each match is also checked by the rules
(:func:`tavla_pi.game.restore.verify`), as the daemon checks its journal on
resume: the first event that does not follow and the rest of its match are
left out, with one warning naming file, line and reason.  Nothing on disk
is changed (the daemon may be writing the journal).

Plakoto, Fevga and the tavli match are checked by their own rules (the
``new_match`` names the variant).  The journal does not record a tavli
match's house rules (``[tavli] cube_in_portes``, ``backgammon_points``) and the
config may have changed since, so a tavli match that does not follow the
default ones is checked by the others too, and the one it follows furthest
is kept.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tavla_pi.events.history import History, MatchLog, read_history
from tavla_pi.events.types import EventType
from tavla_pi.game.restore import Verified, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.tavlimatch import TavliRules, in_turn

HOUSE_RULES = tuple(TavliRules(cube_in_portes=cube, backgammon_points=points)
                    for cube in (False, True) for points in (2, 3))
"""Every setting of a tavli match's house rules, the default first."""


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
    checked = checked_by_rules(log)
    if not checked.reason:
        return log, ""
    n = checked.trusted
    warning = (f"{log.where(n)}: {checked.reason} (left out, with the "
               f"{len(log.events) - n - 1} event(s) after it in this match)")
    return replace(log, events=log.events[:n], lines=log.lines[:n]), warning


def checked_by_rules(log: MatchLog) -> Verified:
    """``log`` checked by the default rules; a tavli match that does not follow them by
    every house rule, the check that trusts the most events kept."""
    length = log.match_length or 0
    checks = [verify(log.events, GameSettings(match_length=length))]
    if checks[0].reason and _is_tavli(log):
        checks += [verify(log.events, GameSettings(match_length=length, tavli=rules))
                   for rules in HOUSE_RULES[1:]]
    return max(checks, key=lambda checked: (not checked.reason, checked.trusted))


def _is_tavli(log: MatchLog) -> bool:
    return any(e.type == EventType.NEW_MATCH and in_turn(e.fields.get("variant"))
               for e in log.events)
