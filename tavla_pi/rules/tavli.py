"""What the three games of tavli share: one interface for a position, its plays, its end.

Portes (backgammon), Plakoto and Fevga are each a small module behind this
interface (docs/CONTRACTS.md §2): a position is an immutable value with the
colour on roll, its legal plays for a roll, its board in the form of
:class:`BoardDict`, and, once the game is over, its :class:`Outcome`.  How
each game's rules read is in docs/VARIANTS.md.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypedDict

from tavla_pi.rules.color import Color
from tavla_pi.rules.movegen import Dice
from tavla_pi.rules.play import PlayOf
from tavla_pi.rules.position import encode_position_id
from tavla_pi.rules.side import CHECKERS


class BoardDict(TypedDict):
    """A board as docs/CONTRACTS.md §2 writes it, in the numbering of §1 for both colours.

    ``white`` and ``black`` map each location holding checkers of that colour
    ("1".."24", "bar" in Portes only, "off" for borne-off checkers) to how many;
    empty locations are left out.  ``pinned`` maps each point where a checker
    is pinned (Plakoto) to that checker's colour; the pinned checker is also
    counted in its colour's map.  It is always present, empty in Portes and Fevga.
    """

    white: dict[str, int]
    black: dict[str, int]
    pinned: dict[str, str]


class Ending(enum.Enum):
    """How a game of tavli ended: the first three as backgammon names them."""

    SINGLE = "single"
    """Borne off while the loser has borne off at least one checker."""
    GAMMON = "gammon"
    """Borne off while the loser has borne off none."""
    BACKGAMMON = "backgammon"
    """Portes only: a gammon with a loser's checker on the bar or in the winner's home."""
    MOTHER = "mother"
    """Plakoto: the loser's last checker on his starting point is pinned there."""
    DRAW = "draw"
    """Plakoto: both players' last checkers on their starting points are pinned."""

    def __repr__(self) -> str:
        return f"Ending.{self.name}"


class Movement(enum.Enum):
    """How one die moves a checker of a game: what a hand does one step at a time
    (docs/VARIANTS.md), which the board's reading of a turn follows
    (:mod:`tavla_pi.reconcile.steps` keys its single-die steps on it)."""

    HITS = "hits"
    """Portes: landing on a lone opposing checker hits it to the bar, which a checker
    enters from; the two sides run opposite ways round."""
    PINS = "pins"
    """Plakoto: landing on a lone opposing checker pins it there; no bar; the two sides
    run opposite ways round."""
    BLOCKS = "blocks"
    """Fevga: a lone opposing checker holds its point; no bar; both sides run the same
    way round, the first checker leaving the start alone."""

    def __repr__(self) -> str:
        return f"Movement.{self.name}"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (None for a draw), how it ended, the points won
    (before any cube or match setting counts them)."""

    winner: Color | None
    ending: Ending
    points: int


class VariantPosition(Protocol):
    """A position of one variant with the colour on roll: what every variant offers."""

    @property
    def variant(self) -> str:
        """The variant's name: "portes", "plakoto" or "fevga"."""
        ...

    @property
    def on_roll(self) -> Color:
        """The colour whose turn it is."""
        ...

    @property
    def mine(self) -> tuple[int, ...]:
        """The checkers of the player on roll, counted in its own numbering (index
        0..23 = own points 1..24; Portes adds its bar at index 24)."""
        ...

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's checkers, counted in the opponent's own numbering."""
        ...

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """One play per distinct result, in a deterministic order; [] if none."""
        ...

    def board(self) -> BoardDict:
        """The checkers in the form of docs/CONTRACTS.md §2."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def is_game_over(self) -> bool:
        """Whether the game has ended (an outcome exists)."""
        ...

    @property
    def has_cube(self) -> bool:
        """Whether the game is played with the doubling cube (Portes)."""
        ...

    @property
    def pins(self) -> bool:
        """Whether a checker landing on a lone opposing one pins it (Plakoto)."""
        ...

    @property
    def movement(self) -> Movement:
        """How one die moves a checker of the game (its single-die steps)."""
        ...

    def own_point(self, point: int, color: Color) -> int:
        """The absolute point ``point`` (1..24, docs/CONTRACTS.md §1) in ``color``'s own
        numbering (1..24, the home board 1..6)."""
        ...

    def position_id(self) -> str:
        """GNU Backgammon's Position ID in Portes; in Plakoto and Fevga its encoding of
        the two sides' counts in each player's own numbering (informative only)."""
        ...

    def with_on_roll(self, color: Color) -> VariantPosition:
        """The same checkers with ``color`` on roll (a turn passed without a move)."""
        ...

    def has_play(self, dice: tuple[int, int]) -> bool:
        """Whether ``dice`` give the player on roll a legal play."""
        ...

    def play_to(self, dice: tuple[int, int], board: object) -> VariantPlay | None:
        """The legal play of ``dice`` whose result's board is ``board``, or None."""
        ...

    def bound_first_checker(self) -> str | None:
        """The point of the player on roll's first checker while Fevga's first-checker
        rule binds it; None in every other case and game."""
        ...

    def recorded_play(self, dice: tuple[int, int], position_id: object,
                      board: object) -> VariantPlay | None:
        """The legal play of ``dice`` that a ``played`` event with ``position_id`` and
        ``board`` records (docs/CONTRACTS.md §4: the Position ID says it in Portes, the
        board in Plakoto and Fevga, whose IDs are informative); None if none does."""
        ...

    def state_board(self) -> Mapping[str, object]:
        """The board as ``/api/state`` shows it: §1's form in Portes (docs/CONTRACTS.md),
        §2's with its pins in Plakoto and Fevga."""
        ...


class VariantPlay(PlayOf["VariantPosition"]):
    """One legal play of a variant: where it starts, the dice, its moves and its result.

    ``moves`` are the single-die moves in the mover's own numbering (25 = bar,
    0 = off), the flag saying the move hit (Portes) or pinned (Plakoto) there;
    ``notation`` is GNU Backgammon's form of them ("24/18 13/11*", "6/off(2)").
    """

    __slots__ = ()


class ValuePosition:
    """Value semantics shared by the variants' positions: immutable, equal and hashed
    by :meth:`_key` within one class (which also rebuilds them for copy and pickle),
    ``repr()`` a call that builds the same position."""

    __slots__ = ()

    variant: str
    on_roll: Color
    has_cube = False
    pins = False
    movement: Movement

    def _key(self) -> tuple[Any, ...]:
        """The arguments of the class's constructor, which say the position entirely."""
        raise NotImplementedError

    def board(self) -> BoardDict:
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        raise NotImplementedError

    @classmethod
    def from_board(cls, board: Mapping[str, Any], on_roll: Color) -> Self:
        raise NotImplementedError

    def is_game_over(self) -> bool:
        """Whether the game has ended (an outcome exists)."""
        return self.outcome() is not None

    def with_on_roll(self, color: Color) -> Self:
        """The same checkers with ``color`` on roll (a turn passed without a move)."""
        return self if color is self.on_roll else type(self).from_board(self.board(), color)

    def has_play(self, dice: tuple[int, int]) -> bool:
        """Whether ``dice`` give the player on roll a legal play."""
        return bool(self.legal_plays(dice))

    def play_to(self, dice: tuple[int, int], board: object) -> VariantPlay | None:
        """The legal play of ``dice`` whose result's board is ``board``, or None."""
        return next((p for p in self.legal_plays(dice) if p.result.board() == board), None)

    def bound_first_checker(self) -> str | None:
        """None: only Fevga has a first-checker rule."""
        return None

    def own_point(self, point: int, color: Color) -> int:
        """White's own point n is absolute n, Black's 25 - n (Portes and Plakoto: the
        sides run opposite ways round)."""
        return point if color is Color.WHITE else 25 - point

    def recorded_play(self, dice: tuple[int, int], position_id: object,
                      board: object) -> VariantPlay | None:
        """The legal play leading to ``board`` (Plakoto and Fevga: the board is the
        authority, ``position_id`` is checked against it by the caller)."""
        return self.play_to(dice, board)

    def state_board(self) -> Mapping[str, object]:
        """The board with its pins (§2's form)."""
        return self.board()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable (cannot delete {name!r})")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ValuePosition)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._key())

    def __repr__(self) -> str:
        return (
            f"variant({self.variant!r}).from_board({self.board()!r}, "
            f"on_roll={self.on_roll.value!r})"
        )


def borne_off_outcome(winner: Color, loser_on_board: int) -> Outcome:
    """Plakoto's and Fevga's score of a game won by bearing off: 1 point, or 2 when the
    loser (with ``loser_on_board`` checkers left) has borne off none."""
    if loser_on_board == CHECKERS:
        return Outcome(winner, Ending.GAMMON, 2)
    return Outcome(winner, Ending.SINGLE, 1)


def counts_position_id(mine: tuple[int, ...], theirs: tuple[int, ...]) -> str:
    """Plakoto's and Fevga's Position ID: GNU Backgammon's encoding of the two sides'
    24 counts in each player's own numbering, with an empty bar (informative only)."""
    return encode_position_id((*theirs, 0), (*mine, 0))


def check_dice(dice: Sequence[int]) -> Dice:
    """The dice as a pair of ints 1..6, or ValueError."""
    if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two ints 1..6, got {dice!r}")
    return dice[0], dice[1]
