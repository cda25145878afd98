"""A backgammon position as a value: checkers of both sides, the side on roll first.

A :class:`Position` is seen from the player on roll, as GNU Backgammon sees
it: ``mine`` are the checkers of the player on roll and ``theirs`` those of the
opponent, each counted on that side's own numbering (index 0..23 are points
1..24, index 24 is the bar; checkers not on the board are borne off).  Its
Position ID is GNU Backgammon's.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable
from typing import Any, cast

from tavla_pi.errors import InvalidIdError, InvalidPositionError
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.movegen import generate, is_open, may_enter, may_move
from tavla_pi.rules.play import Play
from tavla_pi.rules.side import BAR_INDEX, CHECKERS, SLOTS

_ID_LENGTH = 14
_ID_BYTES = 10
_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_INITIAL = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Position:
    """An immutable backgammon position, from the side of the player on roll.

    Construct with ``Position(mine, theirs)`` (validated), from a Position ID,
    from a :class:`~tavla_pi.rules.board.Board`, or with :meth:`initial`.
    Equal by value and hashable.
    """

    __slots__ = ("_hash", "mine", "theirs")

    mine: tuple[int, ...]
    """The player on roll: 25 counts, own points 1..24 at index 0..23, bar at 24."""
    theirs: tuple[int, ...]
    """The opponent: 25 counts on the opponent's own numbering, bar at 24."""
    _hash: int | None

    def __init__(self, mine: Iterable[int], theirs: Iterable[int]) -> None:
        m = tuple(mine)
        t = tuple(theirs)
        check_sides(m, t)
        _set_mine(self, m)
        _set_theirs(self, t)
        _set_hash(self, None)

    @classmethod
    def _trusted(cls, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Position:
        """Build without validation: for sides the move generator derived from a valid one."""
        p = object.__new__(cls)
        _set_mine(p, mine)
        _set_theirs(p, theirs)
        _set_hash(p, None)
        return p

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Position is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Position is immutable (cannot delete {name!r})")

    # -- construction -----------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The starting position (2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side)."""
        return cls._trusted(_INITIAL, _INITIAL)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID; raise InvalidIdError if it is not one."""
        theirs, mine = decode_position_id(position_id)
        try:
            return cls(mine, theirs)
        except InvalidPositionError as exc:
            raise InvalidIdError(f"Position ID {position_id!r}", str(exc)) from None

    @classmethod
    def from_board(cls, board: Board, on_roll: Color) -> Position:
        """The position of an absolute :class:`Board` with ``on_roll`` to play."""
        return cls(board.side(on_roll), board.side(on_roll.opponent))

    # -- views ------------------------------------------------------------------------

    def position_id(self) -> str:
        """The GNU Backgammon Position ID (14 characters)."""
        return encode_position_id(self.theirs, self.mine)

    def swap(self) -> Position:
        """The same checkers with the other player on roll."""
        return Position._trusted(self.theirs, self.mine)

    def to_board(self, on_roll: Color) -> Board:
        """The absolute board, given the colour of the player on roll."""
        return Board.from_sides(on_roll, self.mine, self.theirs)

    def pips(self) -> tuple[int, int]:
        """Pip counts (player on roll, opponent); the bar counts 25."""
        return pip_count(self.mine), pip_count(self.theirs)

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off (player on roll, opponent)."""
        return CHECKERS - sum(self.mine), CHECKERS - sum(self.theirs)

    # -- legality predicates ----------------------------------------------------------

    def is_on_bar(self) -> bool:
        """Whether the player on roll has a checker on the bar (which must enter first)."""
        return self.mine[BAR_INDEX] > 0

    def is_open(self, point: int) -> bool:
        """Whether the player on roll may land on own ``point`` 1..24 (opponent has < 2)."""
        return is_open(self.theirs, point - 1)

    def can_bear_off(self) -> bool:
        """Whether all checkers of the player on roll still in play are in the home board."""
        return all_home(self.mine)

    def can_move(self, point: int, die: int) -> bool:
        """Whether one checker of the player on roll on own ``point`` (25 = bar) may move
        ``die`` pips on its own: the bar first, an open landing point, bearing off only
        when all are home and exact or from the highest point.  (Whether the whole roll
        then plays out is :meth:`legal_plays`' business.)"""
        index = point - 1
        if not 0 <= index <= BAR_INDEX or not 1 <= die <= 6 or not self.mine[index]:
            return False
        if index == BAR_INDEX:
            return may_enter(self.theirs, die)
        return not self.mine[BAR_INDEX] and may_move(self.mine, self.theirs, index, die)

    def is_game_over(self) -> bool:
        """Whether either side has borne off all its checkers."""
        return not any(self.mine) or not any(self.theirs)

    # -- plays ------------------------------------------------------------------------

    def legal_plays(self, dice: tuple[int, int]) -> list[Play]:
        """Every legal play for ``dice``, one per distinct result, in GNU Backgammon's
        generation order; ``[]`` when the roll cannot be played at all."""
        d = _check_dice(dice)
        trusted = Position._trusted
        return [
            Play(self, d, moves, trusted(theirs, mine))
            for (mine, theirs), moves in generate(self.mine, self.theirs, d[0], d[1]).items()
        ]

    # -- value semantics --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.mine == other.mine and self.theirs == other.theirs

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self.mine, self.theirs))
            _set_hash(self, h)
        return h

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position, (self.mine, self.theirs))


def _slot_setter(name: str) -> Callable[[Position, Any], None]:
    """The raw setter of one slot (bypasses the immutability guard of __setattr__)."""
    descriptor: Any = Position.__dict__[name]
    return cast("Callable[[Position, Any], None]", descriptor.__set__)


_set_mine = _slot_setter("mine")
_set_theirs = _slot_setter("theirs")
_set_hash = _slot_setter("_hash")


# -- helpers on raw sides -------------------------------------------------------------


def all_home(side: tuple[int, ...]) -> bool:
    """Whether every checker of ``side`` still in play is on its points 1..6."""
    return not any(side[6:])


def pip_count(side: tuple[int, ...]) -> int:
    """Pips ``side`` needs to bear everything off."""
    return sum(n * (i + 1) for i, n in enumerate(side))


def check_sides(mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
    """Raise InvalidPositionError unless the two sides form a legal board."""
    for name, side in (("mine", mine), ("theirs", theirs)):
        if len(side) != SLOTS:
            raise InvalidPositionError(f"{name}: expected {SLOTS} counts, got {len(side)}")
        for i, n in enumerate(side):
            if type(n) is not int:
                raise InvalidPositionError(f"{name}[{i}]: count must be an int, got {n!r}")
            if n < 0:
                raise InvalidPositionError(f"{name}[{i}]: negative count {n}")
        if sum(side) > CHECKERS:
            raise InvalidPositionError(f"{name}: {sum(side)} checkers, at most {CHECKERS}")
    for i in range(24):
        if mine[i] and theirs[23 - i]:
            raise InvalidPositionError(
                f"both sides on the same point (own point {i + 1} of the player on roll)"
            )


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """The dice as a pair of ints 1..6, or ValueError."""
    if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two ints 1..6, got {dice!r}")
    return dice[0], dice[1]


def encode_position_id(first: tuple[int, ...], second: tuple[int, ...]) -> str:
    """GNU Backgammon's Position ID of a board whose ``first`` side is not on roll."""
    key = 0
    bit = 0
    for side in (first, second):
        for n in side:
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return base64.b64encode(key.to_bytes(_ID_BYTES, "little")).decode("ascii")[:_ID_LENGTH]


def decode_position_id(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides (not on roll, on roll) a Position ID encodes; InvalidIdError if bad."""
    where = f"Position ID {position_id!r}"
    if not isinstance(position_id, str) or len(position_id) != _ID_LENGTH:
        raise InvalidIdError(where, f"expected {_ID_LENGTH} characters")
    if not _B64.issuperset(position_id):
        raise InvalidIdError(where, "not a base64 string")
    try:
        raw = base64.b64decode(position_id + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidIdError(where, "not a base64 string") from None
    sides = _unpack_key(int.from_bytes(raw, "little"), where)
    if encode_position_id(*sides) != position_id:
        raise InvalidIdError(where, "stray bits after the position (not a canonical ID)")
    return sides


def _unpack_key(key: int, where: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split the 80-bit key into two sides of 25 unary counts."""
    counts: list[int] = []
    bit = 0
    total_bits = _ID_BYTES * 8
    while len(counts) < 2 * SLOTS:
        n = 0
        while bit < total_bits and (key >> bit) & 1:
            n += 1
            bit += 1
        if bit >= total_bits:
            raise InvalidIdError(where, "too many checkers for a position")
        counts.append(n)
        bit += 1
    return tuple(counts[:SLOTS]), tuple(counts[SLOTS:])
