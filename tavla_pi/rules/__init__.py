"""Pure backgammon: positions, legal plays, IDs, match state, cube, dice.

Depends on nothing else in tavla-pi (nor outside the standard library).
"""

from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position

__all__ = ["Board", "Color", "Play", "Position"]
