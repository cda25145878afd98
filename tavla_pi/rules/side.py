"""One side's checkers as the rules engine holds them, and a single move on them.

A side is 25 counts in that player's own numbering: index 0..23 are the
player's points 1..24, index :data:`BAR_INDEX` (24) its bar; checkers not
counted are borne off.  A single-die :data:`Move` names *points*, not
indexes: 1..24, :data:`BAR_POINT` (25) for the bar, :data:`OFF_POINT` (0)
for off, as GNU Backgammon writes a play ("bar/22 6/off").
"""

from __future__ import annotations

Side = tuple[int, ...]
"""One side's checkers: 25 counts, own points 1..24 at index 0..23, the bar at 24."""
Move = tuple[int, int, bool]
"""One checker moved by one die: (from, to, hit) in the mover's points; 25 bar, 0 off."""

CHECKERS = 15
"""Checkers each side plays with."""
SLOTS = 25
"""Length of a side: 24 points and the bar."""
BAR_INDEX = 24
"""Index of the bar in a side."""
BAR_POINT = 25
"""The bar as a point of a :data:`Move` (the mover's numbering)."""
OFF_POINT = 0
"""Borne off, as the destination point of a :data:`Move`."""
