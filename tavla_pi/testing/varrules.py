"""The single-die rules of Plakoto and Fevga as the scripted hand knows them, on their own.

As :mod:`tavla_pi.testing.handrules` does for Portes, this states how one
checker moves with one die, in the mover's own numbering (own points 1..24,
``OFF_POINT`` 0; no bar), so that the hand does not rely on the code it tests:
the orders in which a play's single moves can be made, and the boards partial
plays reach.  The whole-play rules (use both dice, Fevga's starting quarter and
blocks) are the rules engine's: the hand only moves plays it chose.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS, OFF_POINT
from tavla_pi.rules.tavli import VariantPlay
from tavla_pi.testing.handrules import Single, reachable, reads_partial, single_orders

_START = 23
"""Own index of each side's starting point (own point 24)."""


@dataclass(frozen=True, slots=True)
class HandGame:
    """What the hand knows of one game's board: where the opponent's numbering runs
    (``mirrored``: Plakoto's sides start in opposite corners and count towards each
    other; else Fevga's, a half board apart), whether a lone checker landed on is
    pinned, and whether Fevga's first checker must pass own 12 first."""

    mirrored: bool
    pins: bool
    first_checker: bool

    def facing(self, index: int) -> int:
        """The opponent's own index of the mover's own ``index``."""
        return 23 - index if self.mirrored else (index + 12) % 24

    def absolute(self, point: int) -> int:
        """Black's own ``point`` 1..24 as the absolute point (White's are their own)."""
        return 25 - point if self.mirrored else (point + 11) % 24 + 1


HAND_GAMES = {"plakoto": HandGame(mirrored=True, pins=True, first_checker=False),
              "fevga": HandGame(mirrored=False, pins=False, first_checker=True)}
"""The hand's knowledge of each game, by the name its positions give."""


@dataclass(frozen=True, slots=True)
class VarSides:
    """A Plakoto or Fevga board as the hand models it: the mover's and the opponent's 24
    counts, each in its own numbering, and (Plakoto) the own indexes where a checker of
    each lies pinned."""

    game: HandGame
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    my_pins: frozenset[int] = frozenset()
    their_pins: frozenset[int] = frozenset()

    @classmethod
    def of(cls, play: VariantPlay) -> VarSides:
        """The board ``play`` starts from (its position's counts and pins)."""
        p = play.position
        mine, theirs = p.mine, p.theirs
        pins = p.board()["pinned"]
        mover, game = p.on_roll, HAND_GAMES[p.variant]
        return cls(game, mine, theirs,
                   frozenset(own_index(game, int(at), mover) for at, c in pins.items()
                             if c == mover.value),
                   frozenset(own_index(game, int(at), mover.opponent)
                             for at, c in pins.items() if c != mover.value))

    def facing(self, index: int) -> int:
        """The opponent's own index of the mover's own ``index``."""
        return self.game.facing(index)

    def closed(self, index: int) -> bool:
        """Whether the mover may not land on own ``index``: two opposing checkers (any in
        Fevga), or in Plakoto its own checker pinned there."""
        theirs = self.theirs[self.facing(index)]
        if not self.game.pins:
            return theirs > 0
        return index in self.my_pins or (theirs >= 2)

    @property
    def sources(self) -> range:
        """Own points 24 down to 1 (no bar)."""
        return range(24, 0, -1)

    def can_lift(self, frm: int) -> bool:
        """Whether own ``frm`` holds a checker of the mover's that is not pinned."""
        return bool(self.mine[frm - 1]) and frm - 1 not in self.my_pins

    def legal(self, frm: int, to: int, die: int) -> bool:
        """Whether one checker may move from own ``frm`` to ``to`` with ``die`` now."""
        i = frm - 1
        if not self.mine[i] or i in self.my_pins or not self._may_leave(i):
            return False
        if to != OFF_POINT:
            return frm - to == die and not self.closed(to - 1)
        if any(self.mine[6:]) or self.my_pins:
            return False
        return frm == die or (frm < die and not any(self.mine[frm:6]))

    def _may_leave(self, index: int) -> bool:
        """Fevga's first checker: none other leaves the start before it passes own 12."""
        if not self.game.first_checker or index != _START or self.mine[_START] != CHECKERS - 1:
            return True
        return not any(self.mine[11:_START])

    def moved(self, frm: int, to: int) -> VarSides:
        """The board after one checker moves (a lone checker landed on is pinned, a pin
        left by its last pinner is freed)."""
        m = list(self.mine)
        m[frm - 1] -= 1
        theirs_pins = set(self.their_pins)
        if not m[frm - 1]:
            theirs_pins.discard(self.facing(frm - 1))
        if to != OFF_POINT:
            f = self.facing(to - 1)
            if self.game.pins and not m[to - 1] and self.theirs[f] == 1:
                theirs_pins.add(f)
            m[to - 1] += 1
        return replace(self, mine=tuple(m), their_pins=frozenset(theirs_pins))

    def points(self, *, theirs: bool = False) -> Iterator[tuple[int, int]]:
        """(own point, count) of one side's occupied points."""
        for i, n in enumerate(self.theirs if theirs else self.mine):
            if n:
                yield i + 1, n


def own_index(game: HandGame, point: int, color: Color) -> int:
    """``color``'s own index of absolute ``point`` 1..24 (the map is its own inverse)."""
    return point - 1 if color is Color.WHITE else game.absolute(point) - 1


def variant_location(game: HandGame, point: int, color: Color) -> str:
    """The docs/CONTRACTS.md §1 location of ``color``'s own ``point`` (0 = "off")."""
    if point == OFF_POINT:
        return "off"
    return str(point if color is Color.WHITE else game.absolute(point))


def variant_orders(start: VarSides, play: VariantPlay, *, legal: bool) -> list[tuple[Single, ...]]:
    """Orders of ``play``'s single moves a hand can make: each lift from a point holding
    a free checker; with ``legal``, each move legal by a die still unused."""
    return single_orders(start, [(f, t) for f, t, _ in play.moves], play.dice, legal=legal)


def variant_partials(start: VarSides, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """The mover's counts of every board some order of single-die moves reaches."""
    return {sides.mine for sides in reachable(start, dice)}


def variant_reads_legal(mine: tuple[int, ...], partials: set[tuple[int, ...]]) -> bool:
    """Whether the mover's counts could be a legal partial play's, or one's with a checker
    in the hand (the trays are not sensed)."""
    return reads_partial(mine, partials)
