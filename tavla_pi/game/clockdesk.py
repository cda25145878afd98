"""The match's tournament clock as the referee runs it (docs/CLOCK.md).

:class:`ClockDesk` reads the game's state and rules on the clock: a ``clock`` event
when whose time runs changes (:func:`~tavla_pi.game.transitions.clock_side`), the
``clock`` event of a flag's fall, and the clock the next new match
is on.  The clock's figures live in the state (:class:`~tavla_pi.game.state.State`),
stamped with the wall clock so that a resume counts the time a power cut took.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tavla_pi.clock import Clock
from tavla_pi.events.types import EventType
from tavla_pi.game.matchclock import ClockRules, MatchClock
from tavla_pi.game.rulings import Ruled
from tavla_pi.game.state import State
from tavla_pi.game.transitions import clock_side
from tavla_pi.rules.color import Color


class ClockDesk:
    """Rules on the match's clock; ``next_rules`` the next new match's clock (None: none),
    ``menu_rules`` the clock MENU puts a match on (the config's, else the federation's)."""

    def __init__(self, configured: ClockRules | None, wall: Clock) -> None:
        self.wall = wall
        self.next_rules = configured
        self.menu_rules = configured or ClockRules()
        self.acting: Color | None = None  # whose turn the clock last switched to

    def follow(self, state: State, now: int) -> list[Ruled]:
        """A ``clock`` event when whose time runs changed (none otherwise)."""
        clock = state.clock
        if clock is None or clock.flag is not None:
            return []
        side = clock_side(state.phase, state.match)
        if side is self.acting:
            return []
        self.acting = side
        switched = clock.switched(side, now)
        if switched.running is None and clock.running is None:
            return []
        return [self.clock_event(switched)]

    def fallen(self, state: State, now: int) -> list[Ruled]:
        """The events of a flag that fell by ``now`` (none while every reserve lasts)."""
        clock = state.clock
        if clock is None or clock.flag is not None:
            return []
        ticked = clock.at(now)
        return [] if ticked.flag is None else self._flag_fall(ticked)

    def lost_on_time(self, state: State, color: Color, now: int) -> list[Ruled]:
        """``color``'s flag fell where another board times it (a friend's board)."""
        clock = state.clock
        if clock is None or clock.flag is not None:
            return []
        return self._flag_fall(clock.lost_on_time(color, now))

    def _flag_fall(self, clock: MatchClock) -> list[Ruled]:
        """``clock``'s flag fell: its ``clock`` event (the fold then owes the ``match_over``
        that gives the match to the flag's opponent at the score standing)."""
        self.acting = None
        return [self.clock_event(clock)]

    def clock_event(self, clock: MatchClock) -> Ruled:
        """A ``clock`` event of ``clock``'s figures, stamped with the wall clock."""
        f = clock.fields(self.wall.now_ms())
        return Ruled(EventType.CLOCK, {"reserve_ms": f["reserve_ms"], "running": f["running"],
                                       "delay_ms": f["delay_ms"], "flag": f["flag"],
                                       "wall_ms": f["wall_ms"]})

    def resumed(self, state: State, now: int) -> State:
        """``state`` with the wall-clock time since its last ``clock`` event counted for
        the side whose time ran (a power cut's included)."""
        clock = state.clock
        if clock is None:
            self.acting = None
            return state
        elapsed = 0 if state.clock_wall_ms is None else self.wall.now_ms() - state.clock_wall_ms
        self.acting = clock_side(state.phase, state.match)
        return replace(state, clock=clock.resumed(elapsed, now))

    def match_fields(self, length: int) -> dict[str, Any]:
        """The ``new_match`` fields of the next match's clock (none in money play)."""
        self.acting = None
        if self.next_rules is None or length < 1:
            return {}
        return {"clock": self.next_rules.fields()}

    def choose(self, rules: ClockRules | None) -> None:
        """The clock of the next new match (None: none); MENU's from now on too."""
        self.next_rules = rules
        if rules is not None:
            self.menu_rules = rules

    @staticmethod
    def due(state: State) -> int | None:
        """When the running flag falls unless someone presses first (None: no time runs)."""
        return None if state.clock is None else state.clock.falls_at()

    @staticmethod
    def shown(state: State, now: int) -> dict[str, Any] | None:
        """``/api/state``'s ``clock`` at ``now`` (None: no clock in this match)."""
        return None if state.clock is None else state.clock.state(now)

    @staticmethod
    def bar(state: State, now: int) -> tuple[Color, int, bool] | None:
        """The cube column's bar of the running reserve at ``now`` (None: none shown)."""
        if state.clock is None:
            return None
        return state.clock.bar(now, state.match.match_length)
