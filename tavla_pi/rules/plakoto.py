"""Plakoto: checkers are pinned, not hit, and a pinned mother checker loses the game.

White starts with 15 on point 24 and moves 24 -> 1, Black with 15 on point 1
and moves 1 -> 24, as in Portes: a player's own point n is absolute n for
White and 25 - n for Black, both start on their own 24 and bear off from
their own 1..6.  The rules as this module reads them, and the sources, are in
docs/VARIANTS.md.

A side is 24 counts in its own numbering (index 0..23 = own points 1..24)
plus a bit mask of the own points where one of its checkers lies pinned
under the opponent's.  A point holds both colours only where it is pinned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla_pi.rules.boardform import read_board, write_board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dicewalk import DiceWalk, best_plays, candidate_sources
from tavla_pi.rules.movegen import may_bear_off
from tavla_pi.rules.side import CHECKERS
from tavla_pi.rules.tavli import (
    BoardDict,
    Ending,
    Movement,
    Outcome,
    ValuePosition,
    VariantPlay,
    borne_off_outcome,
    check_dice,
    counts_position_id,
)

_START = 23
"""Index of each side's starting point (own point 24)."""


def _absolute(color: Color, own: tuple[int, ...]) -> tuple[int, ...]:
    """24 own counts as absolute points 1..24 (an involution: also absolute -> own)."""
    return own if color is Color.WHITE else own[::-1]


def _absolute_point(color: Color, index: int) -> int:
    """The absolute point of own index 0..23."""
    return index + 1 if color is Color.WHITE else 24 - index


class PlakotoPosition(ValuePosition):
    """An immutable Plakoto position with the colour on roll (build it with
    ``variant("plakoto").initial()`` or ``.from_board(...)``)."""

    __slots__ = ("mine", "my_pins", "on_roll", "their_pins", "theirs")

    variant = "plakoto"
    pins = True
    movement = Movement.PINS
    on_roll: Color
    mine: tuple[int, ...]
    """The player on roll: 24 counts, own points 1..24 at index 0..23."""
    theirs: tuple[int, ...]
    """The opponent: 24 counts in the opponent's own numbering."""
    my_pins: int
    """Bit i set: the on-roll player's checker on own index i is pinned."""
    their_pins: int
    """Bit i set: the opponent's checker on its own index i is pinned."""

    def __init__(
        self,
        on_roll: Color,
        mine: tuple[int, ...],
        theirs: tuple[int, ...],
        my_pins: int,
        their_pins: int,
    ) -> None:
        """Build from sides already checked (use :meth:`from_board` for outside data)."""
        set_ = object.__setattr__
        set_(self, "on_roll", on_roll)
        set_(self, "mine", mine)
        set_(self, "theirs", theirs)
        set_(self, "my_pins", my_pins)
        set_(self, "their_pins", their_pins)

    @classmethod
    def initial(cls) -> PlakotoPosition:
        """15 White checkers on 24, 15 Black on 1, White on roll."""
        start = (0,) * 23 + (CHECKERS,)
        return cls(Color.WHITE, start, start, 0, 0)

    @classmethod
    def from_board(cls, board: Mapping[str, Any], on_roll: Color) -> PlakotoPosition:
        """The position of a board in the form of docs/CONTRACTS.md §2, checked."""
        read = read_board(board, "plakoto", bar=False, pins=True)
        own = {c: _absolute(c, read.points[c]) for c in Color}
        masks = dict.fromkeys(Color, 0)
        for point, color in read.pinned.items():
            index = point - 1 if color is Color.WHITE else 24 - point
            masks[color] |= 1 << index
        opp = on_roll.opponent
        return cls(on_roll, own[on_roll], own[opp], masks[on_roll], masks[opp])

    def _key(self) -> tuple[Any, ...]:
        return (self.on_roll, self.mine, self.theirs, self.my_pins, self.their_pins)

    def position_id(self) -> str:
        """The encoding of the counts (pins left out; informative only)."""
        return counts_position_id(self.mine, self.theirs)

    def _sides(self) -> dict[Color, tuple[tuple[int, ...], int]]:
        """Each colour's own counts and pin mask."""
        return {
            self.on_roll: (self.mine, self.my_pins),
            self.on_roll.opponent: (self.theirs, self.their_pins),
        }

    def board(self) -> BoardDict:
        """The checkers in the form of docs/CONTRACTS.md §2, pins included."""
        sides = self._sides()
        pinned = {
            _absolute_point(color, i): color
            for color, (_, mask) in sides.items()
            for i in range(24)
            if mask >> i & 1
        }
        return write_board({c: _absolute(c, own) for c, (own, _) in sides.items()}, None, pinned)

    def outcome(self) -> Outcome | None:
        """The mother rule first (a draw when both mothers are pinned; else a pinned
        mother loses 2 once the pinner has no checker left on his own start), then
        bearing off (1 point, 2 if the loser has borne off none)."""
        sides = self._sides()
        mothers = [c for c, (_, mask) in sides.items() if mask >> _START & 1]
        if len(mothers) == 2:
            return Outcome(None, Ending.DRAW, 0)
        for color in mothers:
            if not sides[color.opponent][0][_START]:
                return Outcome(color.opponent, Ending.MOTHER, 2)
        for color, (own, _) in sides.items():
            if not any(own):
                return borne_off_outcome(color, sum(sides[color.opponent][0]))
        return None

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """Every legal play for ``dice``, one per distinct result, in the walk's order
        (the dice as rolled first, sources high first); [] when none or the game is over."""
        d = check_dice(dice)
        if self.is_game_over():
            return []
        walk = _PlakotoWalk(self.mine, self.theirs, self.my_pins, self.their_pins)
        opp, theirs, my_pins = self.on_roll.opponent, self.theirs, self.my_pins
        return [
            VariantPlay(self, d, moves, PlakotoPosition(opp, theirs, mine, pins, my_pins))
            for (mine, pins), moves in best_plays(walk.run(*d))
        ]


_Key = tuple[tuple[int, ...], int]
"""The walk's position: the mover's counts and the opponent's pin mask."""


class _PlakotoWalk(DiceWalk[_Key]):
    """Plakoto's moves: a pinned checker stays, a point is closed by two opposing checkers
    or by an opposing pinner on one's own pinned checker, landing on a lone opposing
    checker pins it, leaving a point frees what was pinned there, and bearing off needs
    every checker home and none pinned."""

    def __init__(
        self, mine: tuple[int, ...], theirs: tuple[int, ...], my_pins: int, their_pins: int
    ) -> None:
        super().__init__()
        self.mine = list(mine)
        self.theirs = theirs
        self.my_pins = my_pins
        self.their_pins = their_pins
        free = [not my_pins >> i & 1 for i in range(24)]
        is_open = [free[i] and theirs[23 - i] < 2 for i in range(24)]
        self.candidates = {die: candidate_sources(is_open, free, die) for die in range(1, 7)}

    def sources(self, die: int, top: int) -> list[int]:
        mine, bears = self.mine, not self.my_pins
        return [
            i
            for i in self.candidates[die]
            if i <= top and mine[i] and (i >= die or (bears and may_bear_off(mine, i, die)))
        ]

    def move(self, index: int, die: int) -> object:
        mine, before = self.mine, self.their_pins
        mine[index] -= 1
        if not mine[index]:
            self.their_pins &= ~(1 << (23 - index))  # frees a checker pinned under it
        dest = index - die
        pinned = False
        if dest >= 0:
            if not mine[dest] and self.theirs[23 - dest] == 1:
                pinned = True
                self.their_pins |= 1 << (23 - dest)
            mine[dest] += 1
        self.moves.append((index + 1, dest + 1 if dest >= 0 else 0, pinned))
        return before

    def unmove(self, index: int, die: int, undo: object) -> None:
        assert isinstance(undo, int)
        self.mine[index] += 1
        if index >= die:
            self.mine[index - die] -= 1
        self.their_pins = undo
        self.moves.pop()

    def key(self) -> _Key:
        return (tuple(self.mine), self.their_pins)
