"""A correction a player must make on the board: add or remove checkers."""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.rules.color import Color


@dataclass(frozen=True, slots=True)
class Fix:
    """``delta`` checkers of ``color`` to add (> 0) or remove (< 0) at ``at``.

    ``at`` is a location of docs/CONTRACTS.md §1 ("1".."24", "bar", "off").
    """

    at: str
    color: Color
    delta: int

    def to_event(self) -> dict[str, object]:
        """The ``out_of_sync`` event form: ``{"at", "color", "add"|"remove"}``."""
        key = "add" if self.delta > 0 else "remove"
        return {"at": self.at, "color": self.color.value, key: abs(self.delta)}
