"""The games of tavli by name: ``variant("portes" | "plakoto" | "fevga")``.

Each :class:`Variant` gives its starting position and reads a board in the form
of docs/CONTRACTS.md §2; the positions it makes share the interface of
:class:`~tavla_pi.rules.tavli.VariantPosition`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tavla_pi.errors import UnknownVariantError
from tavla_pi.rules.boardform import read_color
from tavla_pi.rules.color import Color
from tavla_pi.rules.fevga import FevgaPosition
from tavla_pi.rules.plakoto import PlakotoPosition
from tavla_pi.rules.portes import PortesPosition, gnubg_position
from tavla_pi.rules.tavli import BoardDict, VariantPosition


class Variant:
    """One game of tavli: its name, its starting position and how to read a board."""

    __slots__ = ("_from_board", "_initial", "_start", "gnubg_plays", "has_cube", "movement",
                 "name", "pins")

    def __init__(
        self,
        name: str,
        initial: Callable[[], VariantPosition],
        from_board: Callable[[Mapping[str, Any], Color], VariantPosition],
    ) -> None:
        self.name = name
        """"portes", "plakoto" or "fevga"."""
        self._initial = initial
        self._from_board = from_board
        start = initial()
        self._start = start
        self.has_cube = start.has_cube
        """Whether the game is played with the doubling cube (Portes)."""
        self.pins = start.pins
        """Whether a checker landing on a lone opposing one pins it (Plakoto)."""
        self.movement = start.movement
        """How one die moves a checker of the game: the board's single-die steps
        (hits to the bar in Portes, pins in Plakoto, a lone checker blocks in Fevga)."""
        self.gnubg_plays = gnubg_position(start) is not None
        """Whether GNU Backgammon plays the game (Portes): the computer, the coach and a
        match file (.mat) hold it; the others are between two players."""

    @property
    def slot(self) -> int:
        """The game's place in a tavli match's cycle (:data:`NAMES`' order): 0 Portes,
        1 Plakoto, 2 Fevga: which of the cube column's LEDs shows the game."""
        return NAMES.index(self.name)

    def own_point(self, point: int, color: Color) -> int:
        """The absolute point ``point`` (1..24, docs/CONTRACTS.md §1) as ``color``'s own
        point (1..24, home 1..6): White's is the same; Black's 25 - n, in Fevga n + 12 up
        to 12 and n - 12 above (both sides run the same way round)."""
        return self._start.own_point(point, color)

    def initial(self) -> VariantPosition:
        """The starting position, White on roll."""
        return self._initial()

    def start(self, on_roll: Color) -> VariantPosition:
        """The starting position with ``on_roll`` to play."""
        return self._initial().with_on_roll(on_roll)

    def start_board(self) -> BoardDict:
        """The board a game is set up to (docs/CONTRACTS.md §2)."""
        return self._initial().board()

    def from_board(self, board: Mapping[str, Any], on_roll: Color | str) -> VariantPosition:
        """The position of ``board`` (the form of docs/CONTRACTS.md §2; "off" and
        "pinned" may be left out, zero counts are ignored) with ``on_roll`` to play.
        InvalidPositionError naming the field at fault if it is no board of this game:
        not 15 checkers a side counting "off", a "bar" outside Portes, a "pinned"
        outside Plakoto or one that does not match the counts."""
        return self._from_board(board, read_color(on_roll, "on_roll"))

    def __repr__(self) -> str:
        return f"variant({self.name!r})"


_VARIANTS = {
    v.name: v
    for v in (
        Variant("portes", PortesPosition.initial, PortesPosition.from_board),
        Variant("plakoto", PlakotoPosition.initial, PlakotoPosition.from_board),
        Variant("fevga", FevgaPosition.initial, FevgaPosition.from_board),
    )
}
NAMES: tuple[str, ...] = tuple(_VARIANTS)
"""The variants' names, Portes first: the one list of them."""
DEFAULT: str = NAMES[0]
"""The game played where none is named: Portes (the config's default, a journal's
``new_match`` or ``game_started`` without a ``variant``)."""


def variant(name: str) -> Variant:
    """The variant called ``name``; UnknownVariantError (a ValueError) for any other."""
    found = _VARIANTS.get(name) if isinstance(name, str) else None
    if found is None:
        expected = ", ".join(repr(n) for n in NAMES)
        raise UnknownVariantError("variant", f"unknown game {name!r} (expected one of {expected})")
    return found
