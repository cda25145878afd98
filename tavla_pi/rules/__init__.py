"""Pure backgammon: positions, legal plays, IDs, match state, cube, dice.

Depends on nothing else in tavla-pi (nor outside the standard library).
"""

from tavla_pi.rules.color import Color

__all__ = ["Color"]
