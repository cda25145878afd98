"""What a player must add or remove so the board reads as an expected board.

Fixes are computed per location from the observation's intervals: a stack
read as "at least 7" that should hold 5 asks to remove 2; a wrong colour asks
to clear the location (as many as are surely there) and then to add.  The
trays are not sensed, so no fix is ever about "off".
"""

from __future__ import annotations

from collections.abc import Iterable

from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.reconcile.fix import Fix
from tavla_pi.reconcile.layout import N_LOCS, Cells, location_name
from tavla_pi.reconcile.matching import Sensed
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color


def cell_fixes(i: int, v: int, reading: Reading, mixed: bool) -> tuple[Fix, ...]:
    """The fixes that make location ``i`` hold signed count ``v`` (White +, Black -)."""
    want = Color.WHITE if v > 0 else Color.BLACK
    n = abs(v)
    seen = reading.color
    low, high = reading.count.low, reading.count.high
    at = location_name(i)
    if mixed and seen is not None:
        return _mixed_fixes(at, want if n else None, seen, low)
    if seen is None:
        return (Fix(at, want, n - high),) if n > high else ()
    if n == 0 or seen is not want:
        clear = Fix(at, seen, -max(low, 1))
        return (clear, Fix(at, want, n)) if n else (clear,)
    if n < low:
        return (Fix(at, want, n - low),)
    if n > high:
        return (Fix(at, want, n - high),)
    return ()


def _mixed_fixes(at: str, want: Color | None, seen: Color, low: int) -> tuple[Fix, ...]:
    """Fixes for a location seen with both colours (counts there are not trusted)."""
    if want is seen:
        return (Fix(at, seen.opponent, -1),)
    if want is None:
        return (Fix(at, seen, -max(low, 1)), Fix(at, seen.opponent, -1))
    return (Fix(at, seen, -max(low, 1)),)


def cells_fixes(cells: Cells, sensed: Sensed, where: Iterable[int]) -> tuple[Fix, ...]:
    """The fixes on the cells ``where`` that make the sensed board read as ``cells``."""
    fixes: list[Fix] = []
    for i in sorted(where):
        if not sensed.fits_cell(i, cells[i]):
            fixes.extend(cell_fixes(i, cells[i], sensed.readings[i], i in sensed.mixed))
    return tuple(fixes)


def fix_cost(i: int, v: int, sensed: Sensed) -> int:
    """How many checkers a player must add or remove at cell ``i`` to hold ``v``."""
    if sensed.fits_cell(i, v):
        return 0
    fixes = cell_fixes(i, v, sensed.readings[i], i in sensed.mixed)
    return sum(abs(f.delta) for f in fixes)


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

