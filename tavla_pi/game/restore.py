"""The journal checked and folded: how far it follows the rules, and the state it leaves.

:func:`verify` folds the events of a journal, oldest first, with
:func:`tavla_pi.game.fold.push` (its module doc says what each event must do to
follow) as far as they follow; the first one that does not ends the trusted part:
:class:`Verified` holds the state the events before it leave, how many they are,
and why the next one does not follow.  Beyond the fold, the journal's times must
be whole milliseconds, never going back.  Nothing raises on bad journal content.

:meth:`tavla_pi.game.referee.Referee.resume` continues a referee from the
state; a turn being moved starts afresh from the committed position (the
checkers already moved are read again from the sensors).  A hint shown or a
blunder warning standing before the restart is not resumed: the coach of the
new turn asks the engine again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.game.fold import push
from tavla_pi.game.restore_clock import clocked
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.rules.match import new_match
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.tavlimatch import TavliMatch


@dataclass(frozen=True)
class Verified:
    """What the trusted events leave: the first ``trusted`` events follow the rules;
    ``reason`` says why the next one does not ("" when every event follows)."""

    state: State
    trusted: int
    reason: str = ""


def fresh(settings: GameSettings) -> State:
    """The state of an empty journal: a new match, waiting for the board's setup."""
    match = new_match(settings.match_length, settings.rules)
    tavli = TavliMatch.new(settings.variant, settings.match_length, settings.tavli)
    clock = clocked(settings.clock, settings.match_length, settings.opponent.color, 0)
    return State(match, PortesPosition.initial(), Phase.SETUP, tavli, clock=clock)


def verify(events: Sequence[Event], settings: GameSettings) -> Verified:
    """Fold ``events`` (a journal, oldest first) as far as they follow the rules."""
    state, last_t = fresh(settings), 0
    for index, event in enumerate(events):
        try:
            last_t = _checked_time(event, last_t)
            state = push(state, event, settings)
        except RefusedEventError as exc:
            return Verified(state, index, str(exc))
    return Verified(state, len(events))


def _checked_time(event: Event, last_t: int) -> int:
    """The event's time, whole milliseconds from 0 and never before the last event's."""
    t: object = event.t
    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
        raise RefusedEventError(f"{event.type}: time {t!r} is not whole milliseconds from 0")
    if t < last_t:
        raise RefusedEventError(f"{event.type}: time {t} ms is before the event before it "
                           f"({last_t} ms)")
    return t


def restore(events: Iterable[Event], settings: GameSettings) -> State:
    """The state the trusted events of ``events`` leave."""
    return verify(list(events), settings).state


def restore_steps(events: Iterable[Event], settings: GameSettings) -> Iterator[State]:
    """The state after each trusted event in turn (``restore`` of every prefix, in one pass)."""
    state, last_t = fresh(settings), 0
    for event in events:
        try:
            last_t = _checked_time(event, last_t)
            state = push(state, event, settings)
        except RefusedEventError:
            return
        yield state
