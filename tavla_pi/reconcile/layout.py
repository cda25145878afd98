"""Where checkers stand, in the board's own (absolute) numbering.

The rules engine speaks in each side's perspective (25-tuples, index 0..23 =
points 1..24, 24 = bar).  The sensors speak in locations of docs/CONTRACTS.md §1.
Reconcile compares the two through *cells*: a 26-tuple of signed counts,
index 0..23 = absolute points 1..24, 24 = White's bar half, 25 = Black's;
White's checkers count positive, Black's negative.  A legal board never holds
both colours on one location, so one signed number per location is enough.
"""

from __future__ import annotations

from tavla_pi.rules.color import Color
from tavla_pi.rules.side import BAR_INDEX, BAR_POINT, CHECKERS, OFF_POINT, Side

Cells = tuple[int, ...]
"""A board as 26 signed counts (White +, Black -), see the module docstring."""

N_POINTS = 24
N_LOCS = 26
WHITE_BAR_CELL = 24
BLACK_BAR_CELL = 25
OFF_CELL = -1
"""The pseudo cell index of a side's tray (never sensed, never in :data:`Cells`)."""


def sign(color: Color) -> int:
    """+1 for White, -1 for Black: how ``color`` counts in cells."""
    return 1 if color is Color.WHITE else -1


def bar_cell(color: Color) -> int:
    """The cell index of ``color``'s bar half."""
    return WHITE_BAR_CELL if color is Color.WHITE else BLACK_BAR_CELL


def cell_of(color: Color, number: int) -> int:
    """The cell index of ``color``'s own point ``number`` (1..24, 25 = bar, 0 = off).

    Off is :data:`OFF_CELL`.  White's numbering is the board's; Black's runs the
    other way (Black's point 1 is absolute point 24).
    """
    if number == BAR_POINT:
        return bar_cell(color)
    if number == OFF_POINT:
        return OFF_CELL
    return number - 1 if color is Color.WHITE else N_POINTS - number


def location_name(index: int) -> str:
    """The docs/CONTRACTS.md §1 name of a cell index (or :data:`OFF_CELL`)."""
    if index == OFF_CELL:
        return "off"
    if index >= N_POINTS:
        return "bar"
    return str(index + 1)


def location_color(index: int) -> Color | None:
    """Whose location a cell index is: the colour of a bar half, None for points."""
    if index == WHITE_BAR_CELL:
        return Color.WHITE
    if index == BLACK_BAR_CELL:
        return Color.BLACK
    return None


def cells_of(mine: Side, theirs: Side, mover: Color) -> Cells:
    """The cells of a board given the mover's and the opponent's sides."""
    white, black = (mine, theirs) if mover is Color.WHITE else (theirs, mine)
    points = tuple(white[i] - black[N_POINTS - 1 - i] for i in range(N_POINTS))
    return (*points, white[BAR_INDEX], -black[BAR_INDEX])


def count_at(cells: Cells, index: int, color: Color) -> int:
    """How many checkers of ``color`` a cell holds (0 for the other colour's cells)."""
    return max(0, sign(color) * cells[index])


def off_count(cells: Cells, color: Color) -> int:
    """How many of ``color``'s checkers are off the board (borne off)."""
    s = sign(color)
    return CHECKERS - sum(max(0, s * v) for v in cells)


def moved_between(a: Cells, b: Cells, color: Color, where: frozenset[int]) -> int:
    """How many of ``color``'s checkers must move to turn ``a`` into ``b``.

    Only the cells in ``where`` may differ (callers pass the union of both
    boards' changed cells); the tray takes up the difference in counts.
    """
    s = sign(color)
    leave = 0
    balance = 0
    for i in where:
        delta = max(0, s * a[i]) - max(0, s * b[i])
        balance += delta
        if delta > 0:
            leave += delta
    # A positive balance means checkers went to the tray (borne off) and
    # are already counted as leaving; a negative one means they came back
    # from the tray: those also had to move.
    return leave + max(0, -balance)
