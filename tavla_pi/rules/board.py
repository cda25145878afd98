"""The absolute board: checkers per location and colour, in White's numbering.

A :class:`Board` is what the physical board shows, with nobody on roll:
points 1..24 as in docs/CONTRACTS.md §1 (White moves 24 -> 1 and bears off from
1..6; Black moves 1 -> 24 and bears off from 19..24), each colour's bar and
tray.  White's own point n is absolute n; Black's own point n is absolute 25 - n.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from tavla_pi.errors import InvalidPositionError
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS, SLOTS

POINTS: tuple[str, ...] = tuple(str(n) for n in range(1, 25))
"""The points' location names, "1".."24"."""
LOCATIONS: tuple[str, ...] = (*POINTS, "bar", "off")
"""Every location name: "1".."24", "bar", "off" (docs/CONTRACTS.md §1)."""
_INITIAL_OWN = {"6": 5, "8": 3, "13": 5, "24": 2}


class Board:
    """An immutable absolute view of both sides' checkers (equal by value, hashable)."""

    __slots__ = ("_black", "_white")

    def __init__(self, white: tuple[int, ...], black: tuple[int, ...]) -> None:
        """Build from each colour's 25 counts on absolute points 1..24 then the bar.

        ``white[n - 1]`` / ``black[n - 1]`` count checkers on absolute point n;
        index 24 is that colour's bar.  Validated like a position.
        """
        self._white = tuple(white)
        self._black = tuple(black)
        _validate(self._white, self._black)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_counts(cls, white: Mapping[str, int], black: Mapping[str, int]) -> Board:
        """Build from {location: count} per colour ("1".."24", "bar"; "off" is optional
        and, if given, must make 15); absent locations are empty."""
        return cls(_side_from_counts("white", white), _side_from_counts("black", black))

    @classmethod
    def initial(cls) -> Board:
        """The starting position: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side."""
        black = {str(25 - int(k)): v for k, v in _INITIAL_OWN.items()}
        return cls.from_counts(_INITIAL_OWN, black)

    @classmethod
    def from_sides(cls, on_roll: Color, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Board:
        """The board of a position's two sides (own numbering), ``mine`` being ``on_roll``."""
        white, black = (mine, theirs) if on_roll is Color.WHITE else (theirs, mine)
        return cls(white, _flip(black))

    # -- queries ----------------------------------------------------------------------

    def count(self, location: str, color: Color) -> int:
        """Checkers of ``color`` on ``location`` ("1".."24", "bar", "off")."""
        counts = self._counts(color)
        if location == "off":
            return CHECKERS - sum(counts)
        if location == "bar":
            return counts[24]
        return counts[_point_index(location)]

    def color_at(self, point: int) -> Color | None:
        """The colour occupying absolute ``point`` 1..24, or None if it is empty."""
        if not 1 <= point <= 24:
            raise ValueError(f"point must be 1..24, got {point!r}")
        if self._white[point - 1]:
            return Color.WHITE
        if self._black[point - 1]:
            return Color.BLACK
        return None

    def side(self, color: Color) -> tuple[int, ...]:
        """``color``'s 25 counts in its own numbering (own points 1..24, then its bar)."""
        return self._white if color is Color.WHITE else _flip(self._black)

    def absolute(self, color: Color) -> tuple[int, ...]:
        """``color``'s 25 counts on absolute points 1..24, then its bar."""
        return self._counts(color)

    def mirrored(self) -> Board:
        """The same game with the colours exchanged: White's checkers on absolute n
        become Black's on absolute 25 - n and the other way round."""
        return Board(_flip(self._black), _flip(self._white))

    def items(self) -> Iterator[tuple[str, Color, int]]:
        """(location, colour, count) for every location holding checkers, "off" included:
        points 1..24, then the bars, then the trays (White before Black)."""
        for n in range(1, 25):
            for color in Color:
                c = self._counts(color)[n - 1]
                if c:
                    yield str(n), color, c
        for location in ("bar", "off"):
            for color in Color:
                c = self.count(location, color)
                if c:
                    yield location, color, c

    def as_dict(self) -> dict[str, dict[str, int]]:
        """{"white": {location: count}, "black": {...}} of the non-empty locations."""
        out: dict[str, dict[str, int]] = {"white": {}, "black": {}}
        for location, color, n in self.items():
            out[color.value][location] = n
        return out

    def _counts(self, color: Color) -> tuple[int, ...]:
        return self._white if color is Color.WHITE else self._black

    # -- value semantics --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._white == other._white and self._black == other._black

    def __hash__(self) -> int:
        return hash((self._white, self._black))

    def __repr__(self) -> str:
        d = self.as_dict()
        return f"Board.from_counts({d['white']!r}, {d['black']!r})"


def _flip(side: tuple[int, ...]) -> tuple[int, ...]:
    """Swap own and absolute numbering of Black (point n <-> 25 - n); the bar stays."""
    return (*side[23::-1], side[24])


def _point_index(location: str) -> int:
    """Index 0..23 of a point location "1".."24", or ValueError."""
    if location.isdigit() and 1 <= int(location) <= 24:
        return int(location) - 1
    raise ValueError(f"location must be '1'..'24', 'bar' or 'off', got {location!r}")


def _side_from_counts(name: str, counts: Mapping[str, int]) -> tuple[int, ...]:
    """25 absolute counts from a {location: count} mapping."""
    side = [0] * SLOTS
    off: int | None = None
    for location, n in counts.items():
        if type(n) is not int or n < 0:
            raise InvalidPositionError(f"{name} {location}: bad count {n!r}")
        if location == "off":
            off = n
        elif location == "bar":
            side[24] = n
        else:
            try:
                side[_point_index(location)] = n
            except ValueError as exc:
                raise InvalidPositionError(f"{name}: {exc}") from None
    if off is not None and off + sum(side) != CHECKERS:
        raise InvalidPositionError(f"{name}: {sum(side)} on the board and {off} off, not 15")
    return tuple(side)


def _validate(white: tuple[int, ...], black: tuple[int, ...]) -> None:
    """Raise InvalidPositionError unless the counts form a legal board."""
    for name, side in (("white", white), ("black", black)):
        if len(side) != SLOTS:
            raise InvalidPositionError(f"{name}: expected {SLOTS} counts, got {len(side)}")
        if any(type(n) is not int or n < 0 for n in side):
            raise InvalidPositionError(f"{name}: counts must be non-negative ints")
        if sum(side) > CHECKERS:
            raise InvalidPositionError(f"{name}: {sum(side)} checkers, at most {CHECKERS}")
    for n in range(24):
        if white[n] and black[n]:
            raise InvalidPositionError(f"point {n + 1}: both colours")
