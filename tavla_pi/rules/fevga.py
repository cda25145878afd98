"""Fevga: both sides run the same way round, a single checker holds a point, no hitting.

White starts with 15 on point 24 and moves 24 -> 1, bearing off from 1..6.
Black starts with 15 on point 12 and moves 12 -> 1, then 24 -> 13, bearing
off from 13..18.  In each player's own numbering the start is own point 24
and the home board own 1..6: White's own point n is absolute n; Black's own
point n is absolute n + 12 for n <= 12 and n - 12 above (own 24 = absolute 12,
own 13 = absolute 1, own 12 = absolute 24, own 1 = absolute 13).  So a
player's own index i faces the opponent's own index (i + 12) % 24.  The rules
as this module reads them, and the sources, are in docs/VARIANTS.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavla_pi.rules.boardform import read_board, write_board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dicewalk import DiceWalk, best_plays, candidate_sources
from tavla_pi.rules.movegen import may_bear_off
from tavla_pi.rules.side import CHECKERS
from tavla_pi.rules.tavli import (
    BoardDict,
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
_PASSED = 11
"""Own index of the opponent's start (own point 12): the first checker must get below it."""
_QUARTER = range(18, 24)
"""Own indexes of the starting quarter (own points 19..24), the start included."""


def _absolute(color: Color, own: tuple[int, ...]) -> tuple[int, ...]:
    """24 own counts as absolute points 1..24 (an involution: also absolute -> own)."""
    return own if color is Color.WHITE else own[12:] + own[:12]


def _facing(index: int) -> int:
    """The opponent's own index of the point that is the mover's own ``index``."""
    return (index + 12) % 24


class FevgaPosition(ValuePosition):
    """An immutable Fevga position with the colour on roll (build it with
    ``variant("fevga").initial()`` or ``.from_board(...)``)."""

    __slots__ = ("mine", "on_roll", "theirs")

    variant = "fevga"
    movement = Movement.BLOCKS
    on_roll: Color
    mine: tuple[int, ...]
    """The player on roll: 24 counts, own points 1..24 at index 0..23."""
    theirs: tuple[int, ...]
    """The opponent: 24 counts in the opponent's own numbering."""

    def __init__(self, on_roll: Color, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        """Build from sides already checked (use :meth:`from_board` for outside data)."""
        object.__setattr__(self, "on_roll", on_roll)
        object.__setattr__(self, "mine", mine)
        object.__setattr__(self, "theirs", theirs)

    @classmethod
    def initial(cls) -> FevgaPosition:
        """15 White checkers on 24, 15 Black on 12, White on roll."""
        start = (0,) * 23 + (CHECKERS,)
        return cls(Color.WHITE, start, start)

    @classmethod
    def from_board(cls, board: Mapping[str, Any], on_roll: Color) -> FevgaPosition:
        """The position of a board in the form of docs/CONTRACTS.md §2, checked."""
        read = read_board(board, "fevga", bar=False, pins=False)
        own = {c: _absolute(c, read.points[c]) for c in Color}
        return cls(on_roll, own[on_roll], own[on_roll.opponent])

    def _key(self) -> tuple[Any, ...]:
        return (self.on_roll, self.mine, self.theirs)

    def position_id(self) -> str:
        """The encoding of the counts (informative only)."""
        return counts_position_id(self.mine, self.theirs)

    def bound_first_checker(self) -> str | None:
        """The point of the first checker while the first-checker rule binds it."""
        index = first_checker(self.mine)
        if index is None:
            return None
        return str(index + 1 if self.on_roll is Color.WHITE else _facing(index) + 1)

    def own_point(self, point: int, color: Color) -> int:
        """White's own point n is absolute n; Black's is n + 12 up to 12, n - 12 above."""
        if color is Color.WHITE:
            return point
        return point + 12 if point <= 12 else point - 12

    def board(self) -> BoardDict:
        """The checkers in the form of docs/CONTRACTS.md §2 ("pinned" always empty)."""
        sides = {self.on_roll: self.mine, self.on_roll.opponent: self.theirs}
        return write_board({c: _absolute(c, own) for c, own in sides.items()})

    def outcome(self) -> Outcome | None:
        """Who has borne off every checker: 1 point, 2 if the loser has borne off none."""
        for color, own, other in ((self.on_roll, self.mine, self.theirs),
                                  (self.on_roll.opponent, self.theirs, self.mine)):
            if not any(own):
                return borne_off_outcome(color, sum(other))
        return None

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """Every legal play for ``dice``, one per distinct result, in the walk's order
        (the dice as rolled first, sources high first); [] when none or the game is over.

        Of the plays the dice rules leave, none may hold all six points of the starting
        quarter, and if the opponent has every checker on the point just behind six held
        points, the plays that open them are the legal ones when there are any."""
        d = check_dice(dice)
        if self.is_game_over():
            return []
        found = best_plays(_FevgaWalk(self.mine, self.theirs).run(*d), _keeps_quarter_open)
        trap = _trap(self.theirs)
        if trap:
            opening = [(k, m) for k, m in found if not all(k[i] for i in trap)]
            found = opening or found
        opp = self.on_roll.opponent
        theirs = self.theirs
        return [VariantPlay(self, d, m, FevgaPosition(opp, theirs, mine)) for mine, m in found]


def first_checker(mine: Sequence[int]) -> int | None:
    """The first-checker rule: while 14 checkers are on the start and the 15th has not
    passed the opponent's start (own point 12), the own index of that 15th, which
    must move on before any other leaves the start; else None (the rule is met)."""
    if mine[_START] != CHECKERS - 1:
        return None
    return next((i for i in range(_PASSED, _START) if mine[i]), None)


def _keeps_quarter_open(mine: tuple[int, ...]) -> bool:
    """Whether the mover's result leaves a point of its starting quarter empty."""
    return not all(mine[i] for i in _QUARTER)


def _trap(theirs: tuple[int, ...]) -> list[int]:
    """If every checker the opponent has left is on one point with six points before it,
    the mover's own indexes of those six (a block there must be opened); else []."""
    points = [j for j in range(24) if theirs[j]]
    if len(points) != 1 or points[0] < 6:
        return []
    j = points[0]
    return [_facing(k) for k in range(j - 6, j)]


class _FevgaWalk(DiceWalk[tuple[int, ...]]):
    """Fevga's moves: a point holding any opposing checker is closed, no other checker
    leaves the start while the first one has not passed the opponent's start, and
    bearing off is as in Portes.  The first-checker rule depends on the order of the
    moves, so doubles are walked in every order while it may bind; while checkers are
    on the start a longer play may fill the starting quarter, so shorter ones are kept."""

    def __init__(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        super().__init__()
        self.mine = list(mine)
        self.prune_doubles = mine[_START] < CHECKERS - 1
        self.keep_prefixes = mine[_START] > 0  # the starting quarter may fill up
        is_open = [theirs[_facing(i)] == 0 for i in range(24)]
        movable = [True] * 24
        self.candidates = {die: candidate_sources(is_open, movable, die) for die in range(1, 7)}

    def sources(self, die: int, top: int) -> list[int]:
        mine = self.mine
        return [
            i
            for i in self.candidates[die]
            if i <= top
            and mine[i]
            and (i >= die or may_bear_off(mine, i, die))
            and (i != _START or first_checker(mine) is None)
        ]

    def move(self, index: int, die: int) -> object:
        mine = self.mine
        mine[index] -= 1
        dest = index - die
        if dest >= 0:
            mine[dest] += 1
        self.moves.append((index + 1, dest + 1 if dest >= 0 else 0, False))
        return None

    def unmove(self, index: int, die: int, undo: object) -> None:
        self.mine[index] += 1
        if index >= die:
            self.mine[index - die] -= 1
        self.moves.pop()

    def key(self) -> tuple[int, ...]:
        return tuple(self.mine)
