"""MENU on the board: what the next match plays and who plays it, chosen without a screen.

A long press arms the menu; while it is armed each short press shows the next
mode, and a second long press starts a new match in the mode shown.  Letting
the window (``GameSettings.menu_confirm_ms``, renewed by each press) pass
cancels.  So "long, long" is a new match in the current mode, as it always was.

The modes, in order (:data:`MODES`): Portes between two players; Portes with
each friend's board the config names (``[opponent] remote``, :meth:`Menu.modes`), or
against the online opponent it names (``[opponent] online``); Portes with
the computer playing Black at each level, beginner to world class; with the
computer playing White at each level; Plakoto, Fevga and a tavli match (the
three in turn) between two players (the computer plays Portes only); then
Portes between two players again.  Without GNU Backgammon the computer's modes
are passed over (a computer's mode, as the config may set it, goes on to Portes
between two players), and the first press that would have shown one says so
with the one line the referee was given (``engine_missing``).  While armed, the cube
column shows the mode being chosen (:func:`tavla_pi.leds.patterns.menu`).

While it is armed, a short press of either CUBE button puts the match it starts on the
tournament clock, or takes it off (:meth:`Menu.toggle_clock`; docs/CLOCK.md): both
trays lit in the cube's colour say it is on.  Money play has no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavla_pi.engine.levels import Level
from tavla_pi.game.seating import Seating, seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import MATCHES, computer_may_play
from tavla_pi.rules.variants import DEFAULT


@dataclass(frozen=True, slots=True)
class Mode:
    """What a match plays and who: the computer's colour (None: two players), its
    level, and the game (``variant``: "portes", "plakoto", "fevga" or "tavli");
    ``remote``: the friend's board that plays ``color`` instead of the computer;
    ``online``: the online opponent plays it."""

    color: Color | None = None
    level: Level = Level.EXPERT
    variant: str = DEFAULT
    remote: str | None = None
    online: bool = False

    @classmethod
    def of(cls, opponent: OpponentSettings, variant: str = DEFAULT) -> Mode:
        """The mode of ``opponent`` playing ``variant`` (the two-player modes of a game are
        one mode whatever the level kept for next time)."""
        seat = seating(opponent)
        return cls(seat.color, seat.level or Level.EXPERT, variant, seat.friend, seat.online)

    @property
    def seat(self) -> Seating:
        """Who plays in this mode (the seat as a value)."""
        return seating(OpponentSettings(self.color, self.level, remote=self.remote,
                                        online=self.online))

    def apply(self, opponent: OpponentSettings) -> OpponentSettings:
        """``opponent`` in this mode (two players keep the level for the next time)."""
        if self.color is None:
            return replace(opponent, color=None, remote=None, online=False)
        return replace(opponent, color=self.color, level=self.level, remote=self.remote,
                       online=self.online)

    @property
    def level_number(self) -> int:
        """The level counted from 1 (beginner) to 6 (world class): the LEDs it lights."""
        return list(Level).index(self.level) + 1

    @property
    def key(self) -> Mode:
        """The mode as :data:`MODES` lists it (two players whatever the level kept)."""
        return self if self.color is not None else Mode(variant=self.variant)

    @property
    def index(self) -> int:
        """Where this mode stands in :data:`MODES` (a friend's or the online mode is not
        there)."""
        return MODES.index(self.key)


GREEK_GAMES: tuple[str, ...] = tuple(m for m in MATCHES if not computer_may_play(m))
"""The games MENU offers after Portes, between two players: the matches the computer
does not play (Plakoto, Fevga, tavli)."""

MODES: tuple[Mode, ...] = (
    Mode(),
    *(Mode(Color.BLACK, level) for level in Level),
    *(Mode(Color.WHITE, level) for level in Level),
    *(Mode(variant=name) for name in GREEK_GAMES),
)
"""The modes in the order short MENU presses show them."""


@dataclass(frozen=True, slots=True)
class MenuView:
    """The armed menu as the lights and the page show it: the mode a long press would
    start, and the line saying what to install when the computer cannot be chosen."""

    mode: Mode
    notice: str | None = None
    clock: bool = False


class Menu:
    """The MENU state machine; the referee feeds it presses and starts the match it names."""

    def __init__(self, confirm_ms: int, engine_missing: str | None = None,
                 friends: tuple[OpponentSettings, ...] = ()) -> None:
        self.confirm_ms = confirm_ms
        self.engine_missing = engine_missing
        self.modes: tuple[Mode, ...] = (MODES[0], *(Mode.of(f) for f in friends), *MODES[1:])
        """The modes short presses show, the friends' boards (and the online opponent: the
        seats the config names beyond the computer) after two players."""
        self.armed_until = -1
        self.mode = Mode()
        self.notice: str | None = None
        self.clock = False
        """Whether the match a long press starts is on the tournament clock."""

    def armed(self, now: int) -> bool:
        """Whether a long press now would start a new match."""
        return now <= self.armed_until

    def press(self, *, long: bool, now: int, current: Mode, clock: bool = False) -> Mode | None:
        """A MENU press at ``now``: the mode to start a new match in, when it confirms one
        (then :attr:`clock` says whether it is on the clock).

        ``current`` is the mode the next match has so far (shown first), ``clock``
        whether it is on the clock so far.
        """
        if not self.armed(now):
            if long:
                self.armed_until, self.mode, self.notice = now + self.confirm_ms, current, None
                self.clock = clock
            return None
        if long:
            self.cancel()
            return self.mode
        self.mode = self._after(self.mode)
        self.armed_until = now + self.confirm_ms
        return None

    def toggle_clock(self, now: int) -> bool:
        """A CUBE press while armed: the clock on or off for the match to start (the
        window renewed); False when the menu is not armed (the press is the cube's)."""
        if not self.armed(now):
            return False
        self.clock = not self.clock
        self.armed_until = now + self.confirm_ms
        return True

    def cancel(self) -> None:
        """Disarm (a new match began some other way)."""
        self.armed_until = -1

    def view(self, now: int) -> MenuView | None:
        """What the menu shows now (None when it is not armed)."""
        return MenuView(self.mode, self.notice, self.clock) if self.armed(now) else None

    def _after(self, mode: Mode) -> Mode:
        modes = self.modes
        at = modes.index(mode.key) if mode.key in modes else 0
        following = modes[(at + 1) % len(modes)]
        computer = following.seat.engine_color is not None
        if self.engine_missing is not None and computer:
            self.notice = self.engine_missing  # past the computer: Portes, or the next game
            mine = mode.seat.engine_color is not None
            following = Mode() if mine else Mode(variant=GREEK_GAMES[0])
        return following
