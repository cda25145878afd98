"""Pockets that may hold a third layer, which no sensor sees (hardware/GEOMETRY.md).

A hand lays a place layer by layer, so a third layer starts only over a full
second: once every pocket of a place has read two or more, any of them may
have had checkers laid on top, unseen.  Such a pocket stays "tall" (its
count open above what its history says) until it reads one checker or none,
whatever order the checkers were lifted in: a lift from a two-high pocket
leaves a gap in the second layer while the third-layer checkers are still
there (a Plakoto or Fevga start of 15 on one point, a lift not from the top).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, Group


class TallWatch:
    """Per pocket: whether it may hold more than the two a sensor can tell."""

    def __init__(self, groups: Sequence[Group], sensors: int) -> None:
        self._groups = tuple(groups)
        self.tall = [False] * sensors
        self._fed: tuple[list[int], list[int | None], frozenset[int]] | None = None
        """The last frame's inputs: fed again, they change nothing (an update is
        idempotent), so it is skipped; any other input runs it."""

    def update(self, levels: Sequence[int], known: Sequence[int | None],
               covered: Collection[int]) -> list[bool]:
        """Feed one frame's levels, the stack watch's counts and the covered pockets (one
        checker with the other colour on it: a gap in the layer of either colour);
        which pockets are tall."""
        tall = self.tall
        fed = (list(levels), list(known), frozenset(covered))
        if fed == self._fed:
            return tall
        self._fed = fed
        for group in self._groups:
            low = [i in covered or _at_most_one(levels[i], known[i]) for i in group.sensors]
            full = not any(low)
            for i, one in zip(group.sensors, low, strict=True):
                if one:
                    tall[i] = False
                elif full and levels[i] in (ONE_PLUS, TWO_PLUS):
                    tall[i] = True
        return tall


def _at_most_one(level: int, known: int | None) -> bool:
    """True when a pocket is seen to hold no checker or one (no layer above the first)."""
    return level in (EMPTY, ONE) or (level == ONE_PLUS and known in (0, 1))
