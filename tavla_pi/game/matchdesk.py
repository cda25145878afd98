"""What the next new match plays and who plays it, and the ``new_match`` that starts it.

MENU (:class:`~tavla_pi.game.menu.Menu`), the page and a scenario's ``setup``
choose the next match's opponent, game and clock here; :class:`MatchDesk` rules
whether a choice starts a match at once (while the board is set up for the first
game of a match), and writes the ``new_match`` event: the seat in its one encoding
(:func:`~tavla_pi.game.seat.seat_fields`), the game and the clock.
"""

from __future__ import annotations

from dataclasses import replace

from tavla_pi.events.types import EventType
from tavla_pi.game.clockdesk import ClockDesk
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.menu import Menu, Mode
from tavla_pi.game.rulings import Refused, Ruled
from tavla_pi.game.seat import seat_fields
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.rules.tavlimatch import TavliMatch

MONEY_HAS_NO_CLOCK = "money play has no clock: play a match of 1 point or more"
"""Why a CUBE press with MENU armed cannot put a money session on the clock."""


class MatchDesk:
    """The next match's opponent (``next_opponent``), game (``next_variant``) and clock
    (``clocks.next_rules``), and MENU (``menu``) that chooses them on the board."""

    def __init__(self, settings: GameSettings, menu: Menu, clocks: ClockDesk) -> None:
        self.next_opponent: OpponentSettings = settings.opponent
        self.next_variant = settings.variant
        self.menu = menu
        self.clocks = clocks

    @staticmethod
    def first_setup(state: State) -> bool:
        """Whether the board is set up for the first game of a match (a choice then
        starts a new match at once)."""
        return state.phase is Phase.SETUP and state.match.score == (0, 0)

    def start(self, length: int, variant: str | None,
              settings: GameSettings) -> tuple[GameSettings, Ruled]:
        """A new match of ``length`` points of ``variant`` (None: the next one chosen):
        the match's settings and its ``new_match``.  The computer and a friend's board
        play Portes only: another game is between two players."""
        self.menu.cancel()
        if variant is not None:
            self.next_variant = variant
        name = self.next_variant
        tavli = TavliMatch.new(name, length, settings.tavli)
        if not tavli.is_backgammon:
            self.next_opponent = replace(self.next_opponent, color=None, remote=None)
        opponent = self.next_opponent
        fields = {"match_length": length, **seat_fields(opponent, tavli),
                  **self.clocks.match_fields(length)}
        return (replace(settings, opponent=opponent, variant=name),
                Ruled(EventType.NEW_MATCH, fields))

    def resumed(self, state: State, settings: GameSettings) -> GameSettings:
        """The settings of the match a resumed ``state`` plays (its game, its opponent
        when its ``new_match`` named one), the next match's too."""
        self.next_variant = state.tavli.name
        settings = replace(settings, variant=state.tavli.name)
        if state.opponent is None:
            return settings
        self.next_opponent = state.opponent
        return replace(settings, opponent=state.opponent)

    def choose_opponent(self, opponent: OpponentSettings, state: State,
                        settings: GameSettings) -> bool:
        """The next match's opponent; True when a new match starts at once (set up for
        the first game, in another mode)."""
        self.next_opponent = opponent
        return self.first_setup(state) and Mode.of(opponent) != Mode.of(settings.opponent)

    def choose_variant(self, variant: str, state: State) -> bool:
        """The next match's game; True when a new match starts at once."""
        self.next_variant = variant
        return self.first_setup(state) and variant != state.tavli.name

    def choose_clock(self, rules: ClockRules | None, state: State) -> bool:
        """The next match's clock (None: none); True when a new match starts at once."""
        self.clocks.choose(rules)
        current = None if state.clock is None else state.clock.rules
        wanted = rules if state.match.match_length >= 1 else None
        return self.first_setup(state) and wanted != current

    def menu_press(self, *, long: bool, now: int) -> str | None:
        """A MENU press: the game of the match to start now (its mode chosen), or None."""
        current = Mode.of(self.next_opponent, self.next_variant)
        chosen = self.menu.press(long=long, now=now, current=current,
                                 clock=self.clocks.next_rules is not None)
        if chosen is None:
            return None
        self.next_opponent = chosen.apply(self.next_opponent)
        if self.menu.clock != (self.clocks.next_rules is not None):
            self.clocks.next_rules = self.clocks.menu_rules if self.menu.clock else None
        return chosen.variant

    def menu_clock(self, match_length: int, now: int) -> Refused | None:
        """A CUBE press while MENU is armed: the new match on the clock, or off it."""
        if match_length < 1:
            return Refused(MONEY_HAS_NO_CLOCK)
        self.menu.toggle_clock(now)
        return None
