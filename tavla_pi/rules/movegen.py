"""Legal plays: every distinct result of a roll, found the way GNU Backgammon finds them.

The search mirrors GNU Backgammon's ``GenerateMovesSub``: a depth-first walk
over the dice in order (for a non-double first as rolled, then swapped),
sources from the highest point down (for doubles never above the previous
source), keeping only sequences that play the most dice and pips, and, where
several sequences reach the same result, the first one found.  Sides are raw
25-tuples as in :class:`~tavla_pi.rules.position.Position` (index 24 = bar).
"""

from __future__ import annotations

Move = tuple[int, int, bool]
"""One checker moved by one die: (from, to, hit) in the mover's points; 25 bar, 0 off."""
Dice = tuple[int, int]
"""A roll, as two ints 1..6."""
Found = tuple[tuple[Move, ...], tuple[int, ...], tuple[int, ...]]
"""One play: its moves, then the mover's and the opponent's side after it."""

_BAR = 24


def may_bear_off(mine: list[int], index: int, die: int) -> bool:
    """Whether the checker on ``index`` may bear off with ``die``: all checkers home,
    and either the die is exact or no checker is higher than this one."""
    back = 0
    for i in range(24, 0, -1):
        if mine[i]:
            back = i
            break
    return back <= 5 and (index == back or index - die == -1)


def may_move(mine: list[int], theirs: list[int], index: int, die: int) -> bool:
    """Whether a checker on own ``index`` (0..23) may move ``die`` pips (not from the bar)."""
    dest = index - die
    if dest >= 0:
        return theirs[23 - dest] < 2
    return may_bear_off(mine, index, die)


def may_enter(theirs: list[int], die: int) -> bool:
    """Whether a checker on the bar may enter with ``die`` (the entry point is open)."""
    return theirs[die - 1] < 2


class _Search:
    """One depth-first search over the sequences of a roll."""

    __slots__ = ("best", "dice", "doubles", "found", "mine", "moves", "theirs")

    def __init__(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        self.mine = list(mine)
        self.theirs = list(theirs)
        self.moves: list[Move] = []
        self.best = (0, 0)
        self.found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Move, ...]] = {}
        self.dice: tuple[int, ...] = ()
        self.doubles = False

    def run(self, dice: tuple[int, ...]) -> None:
        """Search all sequences playing ``dice`` in this order."""
        self.dice = dice
        self.doubles = len(dice) == 4
        self._sub(0, 23, 0)

    def _sub(self, depth: int, top: int, pips: int) -> bool:
        """Play die ``depth`` from every legal source at or below ``top``; False if none."""
        if depth >= len(self.dice):
            return False
        die = self.dice[depth]
        mine = self.mine
        if mine[_BAR]:
            if not may_enter(self.theirs, die):
                return False
            self._try(depth, _BAR, die, 23, pips)
            return True
        used = False
        for i in range(top, -1, -1):
            if mine[i] and may_move(mine, self.theirs, i, die):
                self._try(depth, i, die, i if self.doubles else 23, pips)
                used = True
        return used

    def _try(self, depth: int, index: int, die: int, top: int, pips: int) -> None:
        """Make one move, search on from it, save if nothing more can be played, undo."""
        mine, theirs = self.mine, self.theirs
        dest = index - die
        mine[index] -= 1
        hit = False
        if dest >= 0:
            mine[dest] += 1
            opp = 23 - dest
            if theirs[opp] == 1:
                hit = True
                theirs[opp] = 0
                theirs[_BAR] += 1
        self.moves.append((index + 1, dest + 1 if dest >= 0 else 0, hit))
        if not self._sub(depth + 1, top, pips + die):
            self._save(depth + 1, pips + die)
        self.moves.pop()
        if dest >= 0:
            mine[dest] -= 1
            if hit:
                theirs[23 - dest] = 1
                theirs[_BAR] -= 1
        mine[index] += 1

    def _save(self, count: int, pips: int) -> None:
        """Keep the sequence if it plays as much as the best so far (first per result)."""
        best_count, best_pips = self.best
        if count < best_count or pips < best_pips:
            return
        if count > best_count or pips > best_pips:
            self.found.clear()
            self.best = (count, pips)
        key = (tuple(self.mine), tuple(self.theirs))
        if key not in self.found:
            self.found[key] = tuple(self.moves)


def generate(mine: tuple[int, ...], theirs: tuple[int, ...], d0: int, d1: int) -> list[Found]:
    """All legal plays of the roll (d0, d1) for the side ``mine`` against ``theirs``."""
    search = _Search(mine, theirs)
    if d0 == d1:
        search.run((d0, d0, d0, d0))
    else:
        search.run((d0, d1))
        search.run((d1, d0))
    return [(moves, m, t) for (m, t), moves in search.found.items()]
