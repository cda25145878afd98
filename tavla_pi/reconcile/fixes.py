"""What a player must add or remove so the board reads as an expected board.

Fixes are computed per location from the observation's intervals: a stack
read as "at least 7" that should hold 5 asks to remove 2; a wrong colour asks
to clear the location (as many as are surely there) and then to add.  The
trays are not sensed, so no fix is ever about "off".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tavla_pi.decode.observation import Observation
from tavla_pi.reconcile.fix import Fix
from tavla_pi.reconcile.layout import N_LOCS, Cells, bar_cell, location_name, sign
from tavla_pi.reconcile.matching import Sensed
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color


def cell_fixes(i: int, v: int, sensed: Sensed) -> tuple[Fix, ...]:
    """The fixes that make location ``i`` hold signed count ``v`` (White +, Black -).

    Checkers of the wrong colour are removed first (as many as are surely
    there), then the right colour is brought into its interval.
    """
    want = Color.WHITE if v > 0 else Color.BLACK
    n = abs(v)
    white, black = sensed.ranges[i]
    at = location_name(i)
    fixes = []
    for color, have in ((Color.WHITE, white), (Color.BLACK, black)):
        if n and color is want:
            continue
        if have.low:
            fixes.append(Fix(at, color, -have.low))
    if n:
        have = white if want is Color.WHITE else black
        if n < have.low:
            fixes.append(Fix(at, want, n - have.low))
        elif n > have.high:
            fixes.append(Fix(at, want, n - have.high))
    return tuple(fixes)


def pin_fixes(i: int, v: int, sensed: Sensed) -> tuple[Fix, ...]:
    """The fixes that make point ``i`` hold one checker pinned under signed count ``v``
    (Plakoto): the pinned colour's first (it lies below), then the colour on top."""
    top = Color.WHITE if v > 0 else Color.BLACK
    white, black = sensed.ranges[i]
    have = {Color.WHITE: white, Color.BLACK: black}
    at = location_name(i)
    fixes = []
    for color, n in ((top.opponent, 1), (top, abs(v))):
        if n < have[color].low:
            fixes.append(Fix(at, color, n - have[color].low))
        elif n > have[color].high:
            fixes.append(Fix(at, color, n - have[color].high))
    return tuple(fixes)


def cells_fixes(cells: Cells, sensed: Sensed, where: Iterable[int],
                pinned: frozenset[int] = frozenset()) -> tuple[Fix, ...]:
    """The fixes on the cells ``where`` that make the sensed board read as ``cells``
    (with a checker pinned under those of the cells ``pinned``)."""
    fixes: list[Fix] = []
    for i in sorted(where):
        if not sensed.fits_cell(i, cells[i], pinned=i in pinned):
            fixes.extend(_fixes_at(i, cells[i], sensed, pinned=i in pinned))
    return tuple(fixes)


def _fixes_at(i: int, v: int, sensed: Sensed, *, pinned: bool) -> tuple[Fix, ...]:
    """The fixes of one cell, pinned or not."""
    return pin_fixes(i, v, sensed) if pinned else cell_fixes(i, v, sensed)


def fix_cost(i: int, v: int, sensed: Sensed, *, pinned: bool = False) -> int:
    """How many checkers a player must add or remove at cell ``i`` to hold ``v``
    (with one pinned under them if ``pinned``)."""
    if sensed.fits_cell(i, v, pinned=pinned):
        return 0
    return sum(abs(f.delta) for f in _fixes_at(i, v, sensed, pinned=pinned))


def board_cells(board: Board) -> Cells:
    """A rules-engine :class:`Board` as cells (points, White's bar, Black's bar)."""
    white = board.absolute(Color.WHITE)
    black = board.absolute(Color.BLACK)
    return (*(white[i] - black[i] for i in range(24)), white[24], -black[24])


def board_dict_cells(board: Mapping[str, Any]) -> tuple[Cells, frozenset[int]]:
    """A board in the form of docs/CONTRACTS.md §2 (any variant) as cells, and the cells
    holding a pinned checker (there the cells count the colour on top)."""
    cells = [0] * N_LOCS
    for color in Color:
        s = sign(color)
        for at, n in board[color.value].items():
            if at != "off":
                cells[bar_cell(color) if at == "bar" else int(at) - 1] += s * n
    pinned = frozenset(int(at) - 1 for at in board.get("pinned", {}))
    for i in pinned:
        under = Color(board["pinned"][location_name(i)])
        cells[i] -= sign(under)  # the pinned checker is not counted
    return tuple(cells), pinned


def board_fixes(expected: Board | Mapping[str, Any], obs: Observation) -> tuple[Fix, ...]:
    """What to add or remove so that ``obs`` reads as ``expected`` (setup, sync): a Portes
    :class:`Board`, or any variant's board in the form of docs/CONTRACTS.md §2 (a Plakoto
    pin is one checker under the others, a Plakoto or Fevga start 15 on one point).

    Empty when the observation already fits.  Locations in board order
    (points 1..24, then the bar); a wrong colour is cleared before adding.
    """
    if isinstance(expected, Board):
        return cells_fixes(board_cells(expected), Sensed(obs), range(N_LOCS))
    cells, pinned = board_dict_cells(expected)
    return cells_fixes(cells, Sensed(obs), range(N_LOCS), pinned)
