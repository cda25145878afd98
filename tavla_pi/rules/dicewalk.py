"""The walk over one roll's single-die moves that Plakoto and Fevga share.

As GNU Backgammon's generator (``movegen``) does it: the dice in order (a
non-double as rolled, then swapped), sources from the highest point down,
and for doubles never above the previous source (which finds every set of
four moves once, as long as the order of the moves cannot change whether they
are legal; a variant where it can turns this off).  Each position where the
dice run out or no die plays on is kept, with the first moves that reached
it, by the dice and pips it used (a variant whose rules judge the result may
keep every position on the way too); the variant then picks its legal plays
with :func:`best_plays`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from tavla_pi.rules.side import Move

Key = TypeVar("Key", bound=Hashable)
"""How a variant identifies the mover's position during the walk."""
Moves = tuple[Move, ...]
"""A play's single-die moves (from, to, flag) in the mover's points; 0 is off."""
Levels = dict[tuple[int, int], dict[Key, Moves]]
"""Every position kept, by (dice used, pips used), to the first moves reaching it."""


class DiceWalk(Generic[Key]):
    """The depth-first walk; a variant says where a die may move from and what a move does.

    ``sources`` lists the points (indexes 0..23 in the mover's numbering, high
    first, none above ``top``) a checker may move ``die`` from now; ``move``
    plays it (appending to ``moves``) and returns what ``unmove`` needs to undo
    it; ``key`` is the mover's position now, as the variant identifies it.
    """

    prune_doubles = True
    """Whether a double's later moves start no higher than the one before."""
    keep_prefixes = False
    """Whether to keep every position on the way, not only where the dice run out or
    stop: needed when a rule on the result may refuse the longer plays."""

    def __init__(self) -> None:
        self.levels: Levels[Key] = {}
        self.moves: list[Move] = []

    def sources(self, die: int, top: int) -> list[int]:
        """Indexes a checker may move ``die`` from now, high first, none above ``top``."""
        raise NotImplementedError

    def move(self, index: int, die: int) -> object:
        """Move one checker from ``index`` by ``die``; return what :meth:`unmove` needs."""
        raise NotImplementedError

    def unmove(self, index: int, die: int, undo: object) -> None:
        """Take back the last :meth:`move`."""
        raise NotImplementedError

    def key(self) -> Key:
        """The position reached so far."""
        raise NotImplementedError

    def run(self, d0: int, d1: int) -> Levels[Key]:
        """Walk every sequence of the roll and return what it reached."""
        if d0 == d1:
            self._walk((d0, d0, d0, d0), 0, 23, 0)
        else:
            self._walk((d0, d1), 0, 23, 0)
            self._walk((d1, d0), 0, 23, 0)
        return self.levels

    def _walk(self, dice: tuple[int, ...], depth: int, top: int, pips: int) -> None:
        """Keep the position reached (if prefixes are kept, or no die plays on), then play
        die ``depth`` from every source."""
        die = dice[depth]
        sources = self.sources(die, top)
        if self.keep_prefixes or not sources:
            self._keep(self._level(depth, pips))
        if not sources:
            return
        if depth + 1 == len(dice):  # the last die: keep each result, no deeper walk
            level = self._level(depth + 1, pips + die)
            for i in sources:
                undo = self.move(i, die)
                self._keep(level)
                self.unmove(i, die, undo)
            return
        prune = self.prune_doubles and len(dice) == 4
        for i in sources:
            undo = self.move(i, die)
            self._walk(dice, depth + 1, i if prune else 23, pips + die)
            self.unmove(i, die, undo)

    def _level(self, used: int, pips: int) -> dict[Key, Moves]:
        """The positions kept so far for ``used`` dice and ``pips``."""
        level = self.levels.get((used, pips))
        if level is None:
            level = self.levels[(used, pips)] = {}
        return level

    def _keep(self, level: dict[Key, Moves]) -> None:
        """Keep the position reached now, unless an earlier sequence reached it."""
        key = self.key()
        if key not in level:
            level[key] = tuple(self.moves)


def best_plays(
    levels: Levels[Key], allowed: Callable[[Key], bool] | None = None
) -> list[tuple[Key, Moves]]:
    """The plays the dice rules leave: those using the most dice, and of those the most
    pips (one die of a non-double: the larger), among the results ``allowed`` accepts;
    [] when no die can be played.  In the order the walk found them."""
    for level in sorted(levels, reverse=True):
        if level[0] == 0:
            return []
        found = [(k, m) for k, m in levels[level].items() if allowed is None or allowed(k)]
        if found:
            return found
    return []


def candidate_sources(is_open: list[bool], movable: list[bool], die: int) -> list[int]:
    """Indexes (high first) from which ``die`` lands on an open point or bears off (which
    is judged when it comes to it), leaving out checkers that may never move this turn."""
    return [i for i in range(23, -1, -1) if movable[i] and (i < die or is_open[i - die])]

