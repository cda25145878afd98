"""Legal plays: every distinct result of a roll, found the way GNU Backgammon finds them.

The search mirrors GNU Backgammon's ``GenerateMovesSub``: a depth-first walk
over the dice in order (for a non-double first as rolled, then swapped),
sources from the highest point down (for doubles never above the previous
source), keeping only sequences that play the most dice and pips, and, where
several sequences reach the same result, the first one found.  Sides are raw
25-tuples as in :class:`~tavla_pi.rules.position.Position` (index 24 = bar).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.rules.side import BAR_INDEX, Move

Dice = tuple[int, int]
"""A roll, as two ints 1..6."""
Found = dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Move, ...]]
"""The plays of a roll: (mover's side, opponent's side) after each, to its moves."""


def is_open(theirs: Sequence[int], index: int) -> bool:
    """Whether the mover may land on its own point ``index + 1`` (opponent has < 2 there)."""
    return theirs[23 - index] < 2


def may_bear_off(mine: Sequence[int], index: int, die: int) -> bool:
    """Whether the checker on ``index`` (0..5) may bear off with ``die`` (> index): every
    checker is home, and the die is exact or no checker stands higher than this one."""
    if any(mine[6:]):
        return False
    return index + 1 == die or not any(mine[index + 1 : 6])


def may_move(mine: Sequence[int], theirs: Sequence[int], index: int, die: int) -> bool:
    """Whether a checker on own ``index`` (0..23) may move ``die`` pips (not from the bar)."""
    dest = index - die
    if dest >= 0:
        return is_open(theirs, dest)
    return may_bear_off(mine, index, die)


def may_enter(theirs: Sequence[int], die: int) -> bool:
    """Whether a checker on the bar may enter with ``die`` (the entry point is open)."""
    return is_open(theirs, 24 - die)


class _Search:
    """The depth-first search over the sequences of one roll.

    ``mine`` and ``theirs`` are changed in place while searching and restored
    after each move; ``found`` maps each result (mine, theirs) to the first
    sequence reaching it.  Whether a landing point is open never changes
    during a turn (a hit only empties a blot), so the candidate sources of
    each die are computed once.  The last die is played in one loop
    (``_leaves``): every sequence ending there plays the same dice and pips.
    """

    def __init__(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        self.start = theirs
        self.mine = list(mine)
        self.theirs = list(theirs)
        self.best = (0, 0)
        self.found: Found = {}
        self.moves: list[Move] = []
        self.open = [n < 2 for n in theirs[23::-1]]  # is_open(theirs, i) for i in 0..23
        self.sources: dict[int, list[int]] = {}

    def _sources(self, die: int) -> list[int]:
        """The indexes a checker could move ``die`` from, high first (landing open, or
        bearing off, which is checked when it comes to it)."""
        open_ = self.open
        return [i for i in range(23, -1, -1) if i < die or open_[i - die]]

    def run(self, dice: tuple[int, ...]) -> None:
        """Search every sequence playing ``dice`` in this order (GNU's GenerateMovesSub)."""
        for die in dice:
            if die not in self.sources:
                self.sources[die] = self._sources(die)
        self._sub(dice, 0, 23, 0)

    def _movable(self, die: int, top: int) -> list[int]:
        """Indexes (high first, none above ``top``; the bar alone if occupied) a checker
        may move ``die`` from now."""
        mine = self.mine
        if mine[BAR_INDEX]:
            return [BAR_INDEX] if self.open[24 - die] else []
        return [
            i
            for i in self.sources[die]
            if i <= top and mine[i] and (i >= die or may_bear_off(mine, i, die))
        ]

    def _sub(self, dice: tuple[int, ...], depth: int, top: int, pips: int) -> bool:
        """Play die ``depth`` from every legal source, searching on; False if none."""
        die = dice[depth]
        if depth == len(dice) - 1:
            return self._leaves(die, depth + 1, top, pips + die)
        sources = self._movable(die, top)
        if not sources:
            return False
        mine, theirs, moves = self.mine, self.theirs, self.moves
        doubles = len(dice) == 4
        for i in sources:
            dest = i - die
            mine[i] -= 1
            hit = False
            if dest >= 0:
                mine[dest] += 1
                hit = theirs[23 - dest] == 1
                if hit:
                    theirs[23 - dest] = 0
                    theirs[BAR_INDEX] += 1
            moves.append((i + 1, dest + 1 if dest >= 0 else 0, hit))
            if not self._sub(dice, depth + 1, (i if doubles else 23), pips + die):
                self._save(depth + 1, pips + die)
            moves.pop()
            if dest >= 0:
                mine[dest] -= 1
                if hit:
                    theirs[23 - dest] = 1
                    theirs[BAR_INDEX] -= 1
            mine[i] += 1
        return True

    def _leaves(self, die: int, count: int, top: int, pips: int) -> bool:
        """Play the last die from every legal source and save each result; False if none."""
        sources = self._movable(die, top)
        if not sources:
            return False
        if not self._admit(count, pips):
            return True
        mine, theirs, found, start = self.mine, self.theirs, self.found, self.start
        before = tuple(self.moves)
        for i in sources:
            dest = i - die
            mine[i] -= 1
            if dest >= 0:
                mine[dest] += 1
                if theirs[23 - dest] == 1:
                    theirs[23 - dest] = 0
                    theirs[BAR_INDEX] += 1
                    key = (tuple(mine), tuple(theirs))
                    theirs[23 - dest] = 1
                    theirs[BAR_INDEX] -= 1
                    move = (i + 1, dest + 1, True)
                else:
                    key = (tuple(mine),
                           tuple(theirs) if theirs[BAR_INDEX] != start[BAR_INDEX] else start)
                    move = (i + 1, dest + 1, False)
                mine[dest] -= 1
            else:
                key = (tuple(mine),
                       tuple(theirs) if theirs[BAR_INDEX] != start[BAR_INDEX] else start)
                move = (i + 1, 0, False)
            mine[i] += 1
            if key not in found:
                found[key] = (*before, move)
        return True

    def _admit(self, count: int, pips: int) -> bool:
        """Whether sequences of ``count`` dice and ``pips`` may be kept (dropping any kept
        ones that play less: GNU keeps only the plays using the most dice and pips)."""
        best_count, best_pips = self.best
        if count < best_count or pips < best_pips:
            return False
        if count > best_count or pips > best_pips:
            self.found.clear()
            self.best = (count, pips)
        return True

    def _save(self, count: int, pips: int) -> None:
        """Keep the current board, reached by the moves so far, if it may be kept."""
        if not self._admit(count, pips):
            return
        theirs = self.theirs
        start = self.start
        key = (tuple(self.mine), tuple(theirs) if theirs[BAR_INDEX] != start[BAR_INDEX] else start)
        if key not in self.found:
            self.found[key] = tuple(self.moves)


def generate(mine: tuple[int, ...], theirs: tuple[int, ...], d0: int, d1: int) -> Found:
    """All legal plays of the roll (d0, d1) for the side ``mine`` against ``theirs``,
    in the order GNU Backgammon finds them."""
    search = _Search(mine, theirs)
    if d0 == d1:
        search.run((d0, d0, d0, d0))
    else:
        search.run((d0, d1))
        search.run((d1, d0))
    return search.found
