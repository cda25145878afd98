"""The boards a hit passes through while a hand makes it.

A hand movement that hits (a :class:`~tavla_pi.reconcile.tree.Chain` with
``hits``) is not one change on the board but several, in whatever order the
player likes: the hitter is lifted, placed (perhaps on the blot before the
blot is lifted: both colours on one point), the blot is lifted and put on the
bar, perhaps before the hitter moves at all.  A :class:`HitState` is one such
in-between board: the hitter at its origin, in the hand or at its
destination, and each hit checker on its point, in the hand or on the bar.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Literal

from tavla_pi.reconcile.layout import OFF_CELL, bar_cell
from tavla_pi.reconcile.matching import Content, Sensed
from tavla_pi.reconcile.tree import Chain
from tavla_pi.rules.color import Color

Where = Literal["origin", "hand", "dest"]
BlotWhere = Literal["point", "hand", "bar"]
_HITTER: tuple[Where, ...] = ("origin", "hand", "dest")
_BLOT: tuple[BlotWhere, ...] = ("point", "hand", "bar")


@dataclass(frozen=True, slots=True)
class HitState:
    """One board between ``chain.before`` and ``chain.after`` of a hitting movement.

    ``content`` holds the locations that differ from ``chain.after``, as
    (white, black) counts.
    """

    chain: Chain
    hitter: Where
    blots: tuple[BlotWhere, ...]
    content: tuple[tuple[int, Content], ...]

    def fits(self, sensed: Sensed, diff: frozenset[int]) -> bool:
        """True if the observation reads as this board (``diff``: where the start does not)."""
        after = self.chain.after
        touched = {i for i, _ in self.content}
        if not diff <= after.changed | touched:
            return False
        if not sensed.fits(after.cells, after.changed - touched):
            return False
        return all(sensed.fits_content(i, c) for i, c in self.content)

    @property
    def board(self) -> tuple[Content, ...]:
        """The whole board of this state, location by location."""
        board = [_content_of(v) for v in self.chain.after.cells]
        for i, content in self.content:
            board[i] = content
        return tuple(board)

    @property
    def to_bar(self) -> tuple[int, ...]:
        """Cells of hit checkers not yet on the bar."""
        return tuple(p for p, b in zip(self.chain.hits, self.blots, strict=True) if b != "bar")


def hit_states(chain: Chain, mover: Color) -> Iterator[HitState]:
    """Every in-between board of a hitting hand movement (not its two ends, nor a
    plain lift of the hitter, which :class:`~tavla_pi.reconcile.tracker` finds anyway)."""
    if not chain.hits:
        return
    for hitter in _HITTER:
        for blots in product(_BLOT, repeat=len(chain.hits)):
            if _is_end(hitter, blots) or _is_lift(hitter, blots):
                continue
            yield HitState(chain, hitter, blots, _content(chain, mover, hitter, blots))


def _is_end(hitter: Where, blots: tuple[BlotWhere, ...]) -> bool:
    """True for the boards before and after the movement (nodes, not hit states)."""
    return (hitter == "dest" and all(b == "bar" for b in blots)) or (
        hitter == "origin" and all(b == "point" for b in blots)
    )


def _is_lift(hitter: Where, blots: tuple[BlotWhere, ...]) -> bool:
    """True for the hitter in the hand and every blot still on its point: a plain lift."""
    return hitter == "hand" and all(b == "point" for b in blots)


def _content(
    chain: Chain, mover: Color, hitter: Where, blots: tuple[BlotWhere, ...]
) -> tuple[tuple[int, Content], ...]:
    """The locations that differ from ``chain.after``, with what they hold instead."""
    cells = chain.after.cells
    deltas: dict[int, list[int]] = {}

    def add(i: int, color: Color, n: int) -> None:
        if i not in deltas:
            deltas[i] = [max(0, cells[i]), max(0, -cells[i])]
        deltas[i][0 if color is Color.WHITE else 1] += n

    if hitter != "dest" and chain.dest != OFF_CELL:
        add(chain.dest, mover, -1)
    if hitter == "origin":
        add(chain.origin, mover, +1)
    opponent = mover.opponent
    for point, blot in zip(chain.hits, blots, strict=True):
        if blot != "bar":
            add(bar_cell(opponent), opponent, -1)
        if blot == "point":
            add(point, opponent, +1)
    changed = ((i, (w, b)) for i, (w, b) in deltas.items() if (w, b) != _content_of(cells[i]))
    return tuple(sorted(changed))


def _content_of(v: int) -> Content:
    """A signed cell as (white, black)."""
    return max(0, v), max(0, -v)

