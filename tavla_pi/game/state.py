"""The game's state as one value: what the referee plays on and the journal's fold builds.

:func:`tavla_pi.game.fold.push` is the only way from one state to the next (an
event applied, or refused); the referee reaches its state through it, and the
journal's check, resume, export and the dice statistics fold the journal with it.
The pass of a turn with no legal move is the one step that has no event
(:meth:`State.passed`): the referee takes it when the pass's time has come, the
fold at the next event.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavla_pi.events.types import EventType
from tavla_pi.game.matchclock import MatchClock
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.game.tavli import EndOfGame
from tavla_pi.game.transitions import after_pass
from tavla_pi.game.view import Phase
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.play import Play
from tavla_pi.rules.portes import portes_only
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


@dataclass(frozen=True)
class State:
    """The game's state: equal by value, changed only by :func:`~tavla_pi.game.fold.push`.

    ``dice`` are the dice shown (the turn's dice while moving or passing, a
    tied opening throw while rolling for the start); ``result`` is the
    finished game's; ``opening_throws`` the ties thrown so far; ``opponent``
    the match's opponent as its ``new_match`` says (None: the journal does not
    say, the config decides); ``resign_declined`` the resignation declined this
    turn (the player on roll may only offer more before rolling);
    ``seat_play`` the seat's play of the roll being moved, once chosen;
    ``before_play`` the state before the last play while it may be taken back;
    ``tavli`` the match of Portes, Plakoto, Fevga or tavli, ``committed`` its
    game's committed position (:meth:`game_position` has the match's player on roll);
    ``clock`` the match's clock as its last ``clock`` event (or its ``new_match``) left
    it, ``clock_wall_ms`` the wall-clock time of that event (None: none yet), from which
    a resume counts the time that ran since (:mod:`tavla_pi.game.matchclock`);
    ``due`` the event that must come next (None: none must); ``cubes`` the other cube
    values automatic doubles may have given the game, which a journal written under
    other optional rules may show (until an event shows the cube).
    """

    match: MatchState
    committed: VariantPosition
    phase: Phase
    tavli: TavliMatch
    dice: tuple[int, ...] = ()
    result: EndOfGame | None = None
    opening_throws: tuple[tuple[int, int], ...] = ()
    opponent: OpponentSettings | None = None
    resign_declined: Resignation = Resignation.NONE
    seat_play: Play | None = None
    before_play: State | None = None
    clock: MatchClock | None = None
    clock_wall_ms: int | None = None
    due: EventType | None = None
    cubes: tuple[int, ...] = ()

    def game_position(self) -> VariantPosition:
        """The committed position with the match's player on roll."""
        return self.committed.with_on_roll(self.match.on_roll)

    def position(self) -> Position:
        """GNU Backgammon's committed position, from the side of the player on roll."""
        return portes_only(self.game_position())

    @property
    def stuck(self) -> bool:
        """True while a turn with no legal move waits to pass (its event written)."""
        return self.phase is Phase.NO_MOVE and self.due is None

    def passed(self) -> State:
        """The turn with no legal move passed: the opponent on roll, to roll (the same
        state when no such turn waits)."""
        if not self.stuck:
            return self
        return replace(self, match=after_pass(self.match), phase=Phase.AWAIT_ROLL,
                       resign_declined=Resignation.NONE)
