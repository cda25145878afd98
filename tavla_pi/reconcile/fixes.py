"""What a player must add or remove so the board reads as an expected board.

Fixes are computed per location from the observation's intervals: a stack
read as "at least 7" that should hold 5 asks to remove 2; a wrong colour asks
to clear the location (as many as are surely there) and then to add.  The
trays are not sensed, so no fix is ever about "off".
"""

from __future__ import annotations

from collections.abc import Iterable

from tavla_pi.decode.observation import Observation
from tavla_pi.reconcile.fix import Fix
from tavla_pi.reconcile.layout import N_LOCS, Cells, location_name
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


def cells_fixes(cells: Cells, sensed: Sensed, where: Iterable[int]) -> tuple[Fix, ...]:
    """The fixes on the cells ``where`` that make the sensed board read as ``cells``."""
    fixes: list[Fix] = []
    for i in sorted(where):
        if not sensed.fits_cell(i, cells[i]):
            fixes.extend(cell_fixes(i, cells[i], sensed))
    return tuple(fixes)


def fix_cost(i: int, v: int, sensed: Sensed) -> int:
    """How many checkers a player must add or remove at cell ``i`` to hold ``v``."""
    if sensed.fits_cell(i, v):
        return 0
    return sum(abs(f.delta) for f in cell_fixes(i, v, sensed))


def board_cells(board: Board) -> Cells:
    """A rules-engine :class:`Board` as cells (points, White's bar, Black's bar)."""
    white = board.absolute(Color.WHITE)
    black = board.absolute(Color.BLACK)
    return (*(white[i] - black[i] for i in range(24)), white[24], -black[24])


def board_fixes(expected: Board, obs: Observation) -> tuple[Fix, ...]:
    """What to add or remove so that ``obs`` reads as ``expected`` (setup, sync).

    Empty when the observation already fits.  Locations in board order
    (points 1..24, then the bar); a wrong colour is cleared before adding.
    """
    return cells_fixes(board_cells(expected), Sensed(obs), range(N_LOCS))

