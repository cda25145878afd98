"""The two sides of the board, named by the colour of their checkers."""

from __future__ import annotations

import enum


class Color(enum.Enum):
    """A player's colour; White moves 24 -> 1, Black 1 -> 24 (docs/CONTRACTS.md §1)."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    def __repr__(self) -> str:
        return f"Color.{self.name}"
