"""A legal play: the position it starts from, the dice, its moves and its result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from tavla_pi.rules.movegen import Dice
from tavla_pi.rules.notation import format_play
from tavla_pi.rules.side import Move

if TYPE_CHECKING:  # position imports this module: Play names it as a string
    from tavla_pi.rules.position import Position  # noqa: F401

_P = TypeVar("_P")


class PlayOf(Generic[_P]):
    """A play of some game's positions: where it starts, the dice, its moves (in the
    mover's numbering) and its result, with GNU Backgammon's notation derived from the
    moves.  Equal when position, dice and moves are; ``Play`` and ``VariantPlay`` are
    its two kinds."""

    __slots__ = ("_notation", "dice", "moves", "position", "result")

    def __init__(self, position: _P, dice: Dice, moves: tuple[Move, ...], result: _P) -> None:
        self.position = position
        """The position the play starts from (mover on roll)."""
        self.dice = dice
        """The roll this play uses."""
        self.moves = moves
        """Single-die moves (from, to, hit or pin), in the mover's numbering."""
        self.result = result
        """The position after the play, the opponent on roll."""
        self._notation: str | None = None

    @property
    def notation(self) -> str:
        """GNU Backgammon's notation, e.g. "24/18 13/11*", "bar/22", "8/5(2)"."""
        text = self._notation
        if text is None:
            text = self._notation = format_play(self.moves)
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return (self.position, self.dice, self.moves) == (other.position, other.dice, other.moves)

    def __hash__(self) -> int:
        return hash((self.position, self.dice, self.moves))

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"<{name} {self.notation} {self.dice[0]}-{self.dice[1]} {self.position!r}>"


class Play(PlayOf["Position"]):
    """One legal play of a roll (wildbg style: a result position, notation derived).

    ``moves`` are the single-die moves in the order GNU Backgammon's generator
    found them, in the mover's numbering (25 = bar, 0 = off); ``result`` is the
    position after the play with the other player on roll.
    """

    __slots__ = ()
