"""The journal's fold of the match's clock (:mod:`tavla_pi.game.matchclock`).

A match's clock is set by its ``new_match`` (``clock``: the rules; none: no clock)
and its figures by each ``clock`` event, which may come at any time in such a match
(one whose time runs, or falls, for the other side than a turn with no move says that
turn passed):
the fold keeps the last one, and its wall-clock time, for the resume to count the time
that ran since.  A flag fall ends the match: the ``match_over`` that gives it to the
flag's opponent is due next.
"""

from __future__ import annotations

from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.fold_checks import Folding, same
from tavla_pi.game.matchclock import FLAG_KIND, ClockRules, MatchClock, timed_colors
from tavla_pi.game.tavli import EndOfGame
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color


def clocked(rules: ClockRules | None, match_length: int, opponent: Color | None,
            t: int) -> MatchClock | None:
    """The clock of a new match with these rules (None: no clock; nor in money play)
    against ``opponent`` (the computer's or the friend's board's colour, not timed here)."""
    if rules is None or match_length < 1:
        return None
    return MatchClock.started(rules, match_length, timed_colors(opponent), t)


def flag_result(flag: Color) -> EndOfGame:
    """What a flag fall leaves as the match's last result: the opponent wins, no points."""
    return EndOfGame(flag.opponent, FLAG_KIND, 0)


def clock_event(fold: Folding, event: Event) -> None:
    """A ``clock`` event: the clock's figures from now on; a flag fall ends the match."""
    clock = fold.state.clock
    if clock is None:
        raise RefusedEventError("no clock runs in this match")
    if clock.flag is not None:
        raise RefusedEventError(f"{clock.flag.value}'s flag has fallen: the clock stands")
    now = MatchClock.from_fields(clock.rules, clock.timed, event.fields, event.t)
    side = now.flag if now.flag is not None else now.running
    if side is not fold.match.on_roll:  # the time runs on: a turn with no move passed
        fold.pass_if_stuck()
    if now.running is not None and now.running not in clock.timed:
        raise RefusedEventError(f"{now.running.value}'s time does not run on this board")
    fold.set(clock=now, clock_wall_ms=int(event["wall_ms"]))
    if now.flag is not None:
        same("the flag's reserve", now.reserve_of(now.flag), 0)
        fold.set(phase=Phase.MATCH_OVER, result=flag_result(now.flag), dice=())
        fold.due = EventType.MATCH_OVER
