"""The single-die rules as the scripted hand knows them, stated on their own.

The hand must not rely on the code it tests, so it keeps its own small
statement of how one checker moves with one die (on the rules engine's
25-tuples, in the mover's points as ``Play.moves`` writes them: ``BAR_POINT``
25, ``OFF_POINT`` 0), the orders in which a play's single moves can be made,
and the boards that partial plays reach.  The walks over orders and partial
plays (:func:`single_orders`, :func:`reachable`) serve every variant: they
ask a :class:`HandBoard` (:class:`PortesBoard` here,
:class:`~tavla_pi.testing.varrules.VarSides` for Plakoto and Fevga) how one
checker moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.rules.side import BAR_POINT, OFF_POINT

Sides = tuple[tuple[int, ...], tuple[int, ...]]
"""A board as (mover's 25 counts, opponent's 25 counts), each in its own numbering."""
Single = tuple[int, int]
"""One single-die move (from, to) in the mover's numbering."""


def ix(point: int) -> int:
    """Index of the mover's point in a side (the bar is 24)."""
    return 24 if point == BAR_POINT else point - 1


def legal_move(mine: Sequence[int], theirs: Sequence[int], frm: int, to: int, die: int) -> bool:
    """Whether one checker may move from ``frm`` to ``to`` with ``die`` now."""
    if mine[ix(frm)] == 0 or (frm != BAR_POINT and mine[24]):
        return False
    if to != OFF_POINT:
        return frm - to == die and theirs[24 - to] < 2
    if any(mine[6:25]):
        return False
    return frm == die or (frm < die and not any(mine[frm:6]))


def moved(mine: Sequence[int], theirs: Sequence[int], frm: int, to: int
           ) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Both sides after one checker moves (a blot on ``to`` goes to its bar); and the hit."""
    m, t = list(mine), list(theirs)
    m[ix(frm)] -= 1
    hit = False
    if to != OFF_POINT:
        m[to - 1] += 1
        if t[24 - to] == 1:
            t[24 - to], t[24], hit = 0, t[24] + 1, True
    return tuple(m), tuple(t), hit


def dice_list(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else dice


class HandBoard(Protocol):
    """A board as the hand models it, in the mover's own numbering, with how one checker
    moves on it (hashable: the walks remember the boards they have seen)."""

    @property
    def sources(self) -> range:
        """The mover's own points a checker may leave from, highest first."""
        ...

    def can_lift(self, frm: int) -> bool:
        """Whether a hand can lift a checker of the mover's from ``frm``."""
        ...

    def legal(self, frm: int, to: int, die: int) -> bool:
        """Whether one checker may move from ``frm`` to ``to`` with ``die`` now."""
        ...

    def moved(self, frm: int, to: int) -> Self:
        """The board after one checker moves."""
        ...


BoardT = TypeVar("BoardT", bound=HandBoard)


@dataclass(frozen=True, slots=True)
class PortesBoard:
    """A Portes board as the hand models it: the mover's and the opponent's 25 counts."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    @property
    def sources(self) -> range:
        return range(BAR_POINT, 0, -1)

    def can_lift(self, frm: int) -> bool:
        return self.mine[ix(frm)] > 0

    def legal(self, frm: int, to: int, die: int) -> bool:
        return legal_move(self.mine, self.theirs, frm, to, die)

    def moved(self, frm: int, to: int) -> PortesBoard:
        mine, theirs, _ = moved(self.mine, self.theirs, frm, to)
        return PortesBoard(mine, theirs)


def reachable(start: BoardT, dice: tuple[int, int]) -> set[BoardT]:
    """Every board some order of single-die moves reaches (a superset of the legal
    partial plays: the engine's max-dice rules are not applied)."""
    boards: set[BoardT] = set()
    seen: set[tuple[BoardT, tuple[int, ...]]] = set()
    stack = [(start, dice_list(dice))]
    while stack:
        board, left = stack.pop()
        if (board, left) in seen:
            continue
        seen.add((board, left))
        boards.add(board)
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for frm in board.sources:
                to = max(frm - die, OFF_POINT)
                if board.legal(frm, to, die):
                    stack.append((board.moved(frm, to), tuple(sorted(rest))))
    return boards


def single_orders(start: HandBoard, moves: Iterable[Single], dice: tuple[int, int],
                  *, legal: bool) -> list[tuple[Single, ...]]:
    """Orders of single ``moves`` a hand can make: each lift from a point holding a
    checker it can lift; with ``legal``, each move legal by a die still unused."""
    found: set[tuple[Single, ...]] = set()

    def walk(board: HandBoard, left: list[Single], dice: list[int],
             done: tuple[Single, ...]) -> None:
        if not left:
            found.add(done)
            return
        for move in set(left):
            frm, to = move
            if not board.can_lift(frm):
                continue
            rest = list(left)
            rest.remove(move)
            if not legal:
                walk(board.moved(frm, to), rest, dice, (*done, move))
                continue
            for die in set(dice):
                if board.legal(frm, to, die):
                    rest_dice = list(dice)
                    rest_dice.remove(die)
                    walk(board.moved(frm, to), rest, rest_dice, (*done, move))

    walk(start, list(moves), list(dice_list(dice)), ())
    return sorted(found)


def partial_boards(position: Position, dice: tuple[int, int]) -> set[Sides]:
    """Every board some order of single-die moves reaches, as (mine, theirs)."""
    start = PortesBoard(position.mine, position.theirs)
    return {(b.mine, b.theirs) for b in reachable(start, dice)}


def orders(position: Position, play: Play, *, legal: bool) -> list[tuple[Single, ...]]:
    """Orders of ``play``'s single moves a hand can make (:func:`single_orders`)."""
    return single_orders(PortesBoard(position.mine, position.theirs),
                         [(f, t) for f, t, _ in play.moves], play.dice, legal=legal)


def points(side: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """(own point, count) of a side's occupied points and bar (25)."""
    for i, n in enumerate(side):
        if n:
            yield (BAR_POINT if i == 24 else i + 1), n


def reads_legal(mine: tuple[int, ...], theirs: tuple[int, ...],
                 partials: set[tuple[int, ...]]) -> bool:
    """Whether the mover's checkers could be those of a legal partial play, or of one
    with a checker in the hand (the trays are not sensed: held and borne off look
    alike); the opponent's are not compared, as a hit under way may differ there.
    Never when a checker stands on a point the opponent holds."""
    if any(mine[i] and theirs[23 - i] for i in range(24)):
        return False
    return reads_partial(mine, partials)


def reads_partial(mine: tuple[int, ...], partials: set[tuple[int, ...]]) -> bool:
    """Whether the mover's counts are a partial play's, or one's with a checker in the
    hand (one more on some place of ``mine``)."""
    if mine in partials:
        return True
    for i in range(len(mine)):
        m = list(mine)
        m[i] += 1
        if tuple(m) in partials:
            return True
    return False
