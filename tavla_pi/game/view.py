"""What the players should see right now: the game's input to the LED renderer.

A ``GameView`` is a plain value derived from the game state; the renderer in
``tavla_pi.leds`` turns it into a pixel frame and the web view into a page.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from tavla_pi.game.menu import MenuView
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import Resignation
from tavla_pi.rules.variants import DEFAULT


class Phase(enum.Enum):
    """The phases of a match, as the players experience them."""

    SETUP = "setup"                  # waiting for the starting position on the board
    OPENING = "opening"              # waiting for ROLL: one die each
    AWAIT_ROLL = "await_roll"        # the player on roll may double (CUBE) or ROLL
    DOUBLE_OFFERED = "double_offered"  # the opponent takes (ROLL) or drops (CUBE)
    RESIGN_OFFERED = "resign_offered"  # the opponent accepts (ROLL) or declines (CUBE)
    MOVING = "moving"                # dice rolled, the player moves checkers
    NO_MOVE = "no_move"              # the roll has no legal play; passes by itself
    GAME_OVER = "game_over"          # showing the winner and the points
    MATCH_OVER = "match_over"        # the match is decided


class Pins(Mapping[str, Color]):
    """The pinned checkers of a board, point -> the pinned checker's colour: a mapping
    that is immutable and hashed, so a view holding it stays a value (the lights are
    memoised by view)."""

    __slots__ = ("_pins",)

    def __init__(self, pins: Mapping[str, Color] | None = None) -> None:
        self._pins: dict[str, Color] = dict(pins or {})

    def __getitem__(self, at: str) -> Color:
        return self._pins[at]

    def __iter__(self) -> Iterator[str]:
        return iter(self._pins)

    def __len__(self) -> int:
        return len(self._pins)

    def __hash__(self) -> int:
        return hash(frozenset(self._pins.items()))

    def __repr__(self) -> str:
        return f"Pins({self._pins!r})"


@dataclass(frozen=True, slots=True)
class SeatStep:
    """One checker to move for the computer: from ``from_`` to ``to`` (locations).

    ``color`` is whose checker it is: the computer's, or the opponent's blot
    the computer hit (``to`` is then "bar").
    """

    from_: str
    to: str
    color: Color


@dataclass(frozen=True, slots=True)
class GameView:
    """Everything the light (and the web page) shows, as plain data.

    Locations are docs/CONTRACTS.md §1 strings.  ``dice`` are the two dice shown
    (for the opening roll: White's die, Black's die); ``dice_used`` says
    which of them (by position; four flags for doubles) are played.
    When plays read the same, ``candidates`` are the locations where they
    differ and ``confirms`` the play DONE confirms now (CUBE offers the next).
    ``suggested``: the play the engine suggests (a hint, or the better play of
    a blunder warning), as the mover's steps from -> to, lit since
    ``suggested_since_ms``.
    ``menu``: the armed MENU's mode (the cube column shows it), else None.
    ``resigning`` is the player choosing (before rolling) or offering a
    resignation of ``resign_level``; ``resign_offered`` once it is offered.

    Against the computer: ``seat_color`` is the colour it plays (None: two
    players), ``seat_play`` its chosen play while the hand carries it out
    and ``seat_step`` the next checker to move for it; ``seat_thinking``
    while a question to the engine is unanswered, ``seat_trouble`` why the
    engine cannot answer now (it retries; after a few tries the hand plays
    that decision for it, as between two players).

    Greek tavli (docs/VARIANTS.md): ``variant`` is the game being played now
    ("portes", "plakoto", "fevga"), ``match_variant`` the match's setting ("tavli"
    or the one game), ``tavli_game`` the game's number in the match (from 1).
    ``pinned``: location -> colour of the checker pinned there (committed board);
    ``first_checker``: in Fevga, the point of the checker the first-checker rule
    binds while it binds, else None.

    ``clock_bar``: with a tournament clock, while a player's reserve runs (the delay
    spent): that player, how many of the cube column's six value LEDs the reserve left
    lights, and whether it blinks (its last 30 s); else None (docs/CLOCK.md).
    """

    phase: Phase
    on_roll: Color | None = None
    dice: tuple[int, ...] = ()
    dice_used: tuple[bool, ...] = ()
    dice_blink: bool = False
    cube_value: int = 1
    cube_owner: Color | None = None
    double_offered_by: Color | None = None
    lifted_from: str | None = None
    destinations: tuple[str, ...] = ()
    press_done: bool = False
    no_legal_move: bool = False
    fixes: tuple[Fix, ...] = ()
    to_bar: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    confirms: str | None = None
    suggested: tuple[tuple[str, str], ...] = ()
    suggested_since_ms: int = 0
    winner: Color | None = None
    points_won: int = 0
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    since_ms: int = 0
    menu: MenuView | None = None
    resigning: Color | None = None
    resign_level: Resignation = Resignation.NONE
    resign_offered: bool = False
    seat_color: Color | None = None
    seat_play: str | None = None
    seat_step: SeatStep | None = None
    seat_thinking: bool = False
    seat_trouble: str | None = None
    variant: str = DEFAULT
    match_variant: str = DEFAULT
    tavli_game: int = 1
    pinned: Mapping[str, Color] = field(default_factory=Pins)
    first_checker: str | None = None
    clock_bar: tuple[Color, int, bool] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.pinned, Pins):  # a plain dict given: kept as a value
            object.__setattr__(self, "pinned", Pins(self.pinned))
