"""Test support for reconcile in Plakoto and Fevga: the modelled board laid out from a
variant's board (docs/CONTRACTS.md §2, pins included), read through the real decoder."""

from __future__ import annotations

from reconcile_support import B, SimTable, W
from sim_support import calibrated, settle

from tavla_pi.decode.history import WINDOW
from tavla_pi.reconcile.layout import Cells
from tavla_pi.rules import Color
from tavla_pi.rules.tavli import BoardDict, VariantPosition


class VariantTable(SimTable):
    """The modelled board of a variant's position; pins lie on top with ``pin_on_top``."""

    def __init__(self, position: VariantPosition, seed: int, frames: int = 5) -> None:
        # not SimTable's __init__: that one lays out a Portes Position
        pins = position.variant == "plakoto"
        self.board, self.decoder, self.clock = calibrated(seed, pin_on_top=pins)
        self.frames = frames
        self.lay_out(position.board())

    def lay_out(self, board: BoardDict) -> None:
        """Put the checkers of ``board`` on the modelled board as a hand would: a pin's
        checkers on top are laid after the pinned one, the decoder reading each (it
        tells a pin from the history of its pocket, hardware/GEOMETRY.md)."""
        counts = {(at, Color(c)): n for c in ("white", "black")
                  for at, n in board[c].items() if at != "off"}
        on_top = {(at, Color(c).opponent): counts.pop((at, Color(c).opponent))
                  for at, c in board["pinned"].items()}
        self.board.lay_out(counts)
        for (at, color), n in on_top.items():
            for _ in range(n):
                settle(self.board, self.decoder, frames=WINDOW + 1, clock=self.clock)
                self.board.lift("off", color)
                self.board.place(at, color)

    def cells(self) -> Cells:
        c = self.board.count
        return (*(c(str(n), W) - c(str(n), B) for n in range(1, 25)), 0, 0)
