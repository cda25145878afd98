"""The differential check (issue 37): the referee's state equals the fold of its journal.

After every call that emits events, :class:`RunningFold` folds those events (as the
journal writes and reads them back) on top of the ones before, and :func:`differences`
names each field in which the referee's state and the fold's state disagree.  Both
sides are projected to one comparable value (:class:`Compared`) by :func:`live_state`
and :func:`folded_state`: the ONE place to change once the referee holds its state as
one value (``Referee.state`` == ``restore(...)``).

The fold is incremental (:func:`~tavla_pi.game.restore.restore_steps` fed one event at
a time), so a soak session pays for each event once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace

from tavla_pi.events.event import Event
from tavla_pi.events.journal import encode
from tavla_pi.events.schema import parse_event
from tavla_pi.game.matchclock import MatchClock
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import fresh, restore_steps, verify
from tavla_pi.game.resumed import Resumed
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.tavli import VariantResult
from tavla_pi.game.transitions import after_pass
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.scoring import GameResult
from tavla_pi.rules.tavli import ValuePosition, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch

SHOWN_DICE = (Phase.OPENING, Phase.MOVING, Phase.NO_MOVE)
"""The phases in which the dice shown are the game's (elsewhere they are left over)."""


@dataclass(frozen=True)
class Compared:
    """The game's state as both sides hold it, field by field.

    ``seat_play``: the seat's chosen play of the roll being moved (notation, Position
    ID); ``takeback``: the last play while it may be taken back (its player and the
    Position ID it goes back to); ``clock``: the match's clock without its ``since``
    (the time its figures were last taken, which the referee takes at every switch)."""

    match: MatchState
    position: VariantPosition
    phase: Phase
    tavli: TavliMatch
    dice: tuple[int, ...]
    result: GameResult | VariantResult | None
    opening_throws: tuple[tuple[int, int], ...]
    opponent: OpponentSettings
    resign_declined: Resignation
    seat_play: tuple[str, str] | None
    takeback: tuple[Color, str] | None
    clock: tuple[object, ...] | None


def live_state(referee: Referee) -> Compared:
    """The referee's state, from its public fields (to be ``referee.state``)."""
    turn, undo = referee.turn, referee.undo
    seat_play = turn.seat_play if turn is not None else None
    return Compared(
        match=referee.match, position=referee.game_position(), phase=referee.phase,
        tavli=referee.tavli,
        dice=referee.shown_dice if referee.phase in SHOWN_DICE else (),
        result=referee.result, opening_throws=tuple(referee.opening_throws),
        opponent=referee.settings.opponent, resign_declined=referee.resign.declined,
        seat_play=None if seat_play is None else (seat_play.notation,
                                                  seat_play.result.position_id()),
        takeback=None if undo is None else (undo.player, undo.start.position_id()),
        clock=_clock(referee.clock))


def folded_state(state: Resumed, settings: GameSettings, referee: Referee) -> Compared:
    """The fold's state projected as :func:`live_state` projects the referee's (the
    takeback as the referee's seat would resume it)."""
    before = state.before_play
    undoes = referee.seat.undoes
    takeback = None
    if before is not None and undoes(before.match.on_roll):
        takeback = (before.match.on_roll, before.game_position().position_id())
    seat_play = state.seat_play
    return Compared(
        match=state.match, position=state.game_position(), phase=state.phase,
        tavli=state.tavli, dice=state.dice if state.phase in SHOWN_DICE else (),
        result=state.result, opening_throws=state.opening_throws,
        opponent=state.opponent or settings.opponent, resign_declined=state.resign_declined,
        seat_play=None if seat_play is None else (seat_play.notation,
                                                  seat_play.result.position_id()),
        takeback=takeback, clock=_clock(state.clock))


def _clock(clock: MatchClock | None) -> tuple[object, ...] | None:
    if clock is None:
        return None
    return (clock.rules, clock.reserve, clock.timed, clock.running, clock.delay, clock.flag)


def differences(live: Compared, folded: Compared) -> list[str]:
    """The fields in which ``live`` and ``folded`` differ, each with both values."""
    out = []
    for f in fields(Compared):
        a, b = getattr(live, f.name), getattr(folded, f.name)
        if a != b:
            out.append(f"{f.name}: referee {_short(a)} != fold {_short(b)}")
    return out


def passed(state: Resumed) -> Resumed:
    """``state`` with its turn of no legal move passed: the one transition that has no
    event (the fold takes it at the next event).  TOLERATED HERE until the lead's
    ``GameState.passed()`` exists (issue 37): the referee may stand one pass ahead."""
    return replace(state, match=after_pass(state.match), phase=Phase.AWAIT_ROLL)


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
        self.state: Resumed = fresh(settings)
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
        state = self.fold.state
        if state.phase is Phase.NO_MOVE and self.referee.phase is not Phase.NO_MOVE:
            state = passed(state)  # the pass the referee made silently
        return differences(live_state(self.referee),
                           folded_state(state, self.fold.settings, self.referee))
