"""The differential check: the referee's state equals the fold of its journal.

After every call that emits events, :class:`RunningFold` folds those events (as the
journal writes and reads them back) on top of the ones before, and :func:`differences`
names each field in which the referee's state (``Referee.state``) and the fold's
disagree.  The pass of a turn with no legal move is the one step without an event: the
referee may stand one pass ahead of the fold (:meth:`State.passed`).

The fold is incremental (:func:`~tavla_pi.game.restore.restore_steps` fed one event at
a time), so a soak session pays for each event once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields

from tavla_pi.events.event import Event
from tavla_pi.events.journal import encode
from tavla_pi.events.schema import parse_event
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import fresh, restore_steps, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.tavli import ValuePosition, VariantPosition


def differences(live: State, folded: State) -> list[str]:
    """The fields in which the referee's state and the fold's differ, with both values."""
    out = []
    for f in fields(State):
        a, b = getattr(live, f.name), getattr(folded, f.name)
        if a != b:
            out.append(f"{f.name}: referee {_short(a)} != fold {_short(b)}")
    return out


def _short(value: object) -> str:
    if isinstance(value, MatchState):
        return value.match_id()
    if isinstance(value, ValuePosition):
        position: VariantPosition = value  # type: ignore[assignment]
        return f"{position.variant}:{position.position_id()}"
    text = repr(value)
    return text if len(text) < 200 else text[:200] + "..."


def journaled(events: Iterable[Event]) -> list[Event]:
    """``events`` as the journal writes them and reads them back."""
    return [parse_event(encode(e).decode("ascii")) for e in events]


class _Feed:
    """The events handed to the fold one at a time (it never reads ahead)."""

    def __init__(self) -> None:
        self.queue: deque[Event] = deque()

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        return self.queue.popleft()


class RunningFold:
    """The fold of a journal so far, kept as its events come (each folded once).

    ``events``: every event folded (as read back from the journal); ``state`` the state
    they leave; ``refused``: why the first event that does not follow does not (then
    nothing more is folded)."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.events: list[Event] = []
        self.state: State = fresh(settings)
        self.refused = ""
        self._feed = _Feed()
        self._steps = restore_steps(self._feed, settings)

    def add(self, events: Sequence[Event]) -> str:
        """Fold ``events`` in; why one does not follow ("": all do)."""
        for event in journaled(events):
            if self.refused:
                return self.refused
            self.events.append(event)
            self._feed.queue.append(event)
            state = next(self._steps, None)
            if state is None:
                self.refused = _why(self.events, self.settings)
                return self.refused
            self.state = state
        return ""


def _why(events: list[Event], settings: GameSettings) -> str:
    """The verdict on the journal that stopped folding: where and why."""
    checked = verify(events, settings)
    return f"event {checked.trusted} ({events[checked.trusted].type}): {checked.reason}"


@dataclass
class Differential:
    """The referee and the fold of its journal, compared after every batch of events;
    once they differ (or the fold refuses an event) that is said once, and the check
    stops (what follows a drift is no news)."""

    referee: Referee
    fold: RunningFold
    said: bool = False

    @classmethod
    def of(cls, referee: Referee) -> Differential:
        """Follow ``referee`` from now on (made afresh: nothing emitted yet)."""
        return cls(referee, RunningFold(referee.settings))

    def check(self, events: Sequence[Event]) -> list[str]:
        """Fold ``events`` (the referee's last call's); what differs (or why one was
        refused), [] when the two agree."""
        if self.said:
            return []
        refused = self.fold.add(events)
        found = [f"refused: {refused}"] if refused else self._compare()
        self.said = bool(found)
        return found

    def _compare(self) -> list[str]:
        state, live = self.fold.state, self.referee.state
        if live != state and live == state.passed():
            return []  # the pass the referee made silently
        return differences(live, state)
