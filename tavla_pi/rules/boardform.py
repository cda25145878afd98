"""The board of docs/CONTRACTS.md §2 as data: read and checked (naming the field at fault),
and written.

Counts are absolute (the numbering of §1 for both colours): a side's 24 counts
hold absolute points 1..24 at index 0..23.  Each variant maps them to its own
movers' numbering; this module only knows the form.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tavla_pi.errors import InvalidPositionError
from tavla_pi.rules.board import POINTS
from tavla_pi.rules.color import Color
from tavla_pi.rules.side import CHECKERS
from tavla_pi.rules.tavli import BoardDict

_KEYS = ("white", "black", "pinned")


@dataclass(frozen=True)
class ReadBoard:
    """A checked board: each colour's 24 absolute counts, its bar, and the pins."""

    points: dict[Color, tuple[int, ...]]
    """Per colour, checkers on absolute points 1..24 (index 0..23)."""
    bar: dict[Color, int]
    """Per colour, checkers on the bar (Portes only; else 0)."""
    pinned: dict[int, Color]
    """Absolute point -> colour of the checker pinned there (Plakoto only)."""


def board_field(*keys: object) -> str:
    """How an error names a place in the board: ``board["white"]["25"]``."""
    return "board" + "".join("[" + (json.dumps(k) if isinstance(k, str) else repr(k)) + "]"
                             for k in keys)


def read_color(value: object, name: str) -> Color:
    """A colour given as a Color or "white" / "black"; InvalidPositionError naming ``name``."""
    if isinstance(value, Color):
        return value
    if isinstance(value, str) and value in ("white", "black"):
        return Color(value)
    raise InvalidPositionError(f'{name}: expected "white" or "black", got {value!r}')


def read_board(board: object, variant: str, *, bar: bool, pins: bool) -> ReadBoard:
    """Check ``board`` against the form of §2 for ``variant`` (which allows a bar, or pins,
    or neither): 15 checkers a side counting "off", a point shared only by a pin."""
    if not isinstance(board, Mapping):
        raise InvalidPositionError(f"board: expected a mapping of {_KEYS}, got {board!r}")
    for key in board:
        if key not in _KEYS:
            raise InvalidPositionError(f"{board_field(key)}: unknown key (expected one of {_KEYS})")
    points: dict[Color, tuple[int, ...]] = {}
    bars: dict[Color, int] = {}
    for color in Color:
        if color.value not in board:
            raise InvalidPositionError(f"{board_field(color.value)}: missing")
        points[color], bars[color] = _read_side(board[color.value], color, variant, bar=bar)
    pinned = _read_pins(board.get("pinned", {}), variant, pins=pins)
    _check_shared_points(points, pinned, pins=pins)
    return ReadBoard(points, bars, pinned)


def _read_side(
    counts: object, color: Color, variant: str, *, bar: bool
) -> tuple[tuple[int, ...], int]:
    """One colour's 24 absolute counts and its bar, checked to make 15 with "off"."""
    name = color.value
    if not isinstance(counts, Mapping):
        raise InvalidPositionError(f"{board_field(name)}: expected a mapping of location to count")
    side = [0] * 24
    on_bar = off = 0
    for location, n in counts.items():
        if type(n) is not int or n < 0:
            raise InvalidPositionError(f"{board_field(name, location)}: bad count {n!r}")
        if location == "off":
            off = n
        elif location == "bar" and bar:
            on_bar = n
        elif location == "bar":
            raise InvalidPositionError(f"{board_field(name, location)}: {variant} has no bar")
        elif location in POINTS:
            side[int(location) - 1] = n
        else:
            raise InvalidPositionError(f"{board_field(name, location)}: not a location")
    total = sum(side) + on_bar + off
    if total != CHECKERS:
        raise InvalidPositionError(
            f"{board_field(name)}: {total} checkers counting \"off\", not {CHECKERS}")
    return tuple(side), on_bar


def _read_pins(pinned: object, variant: str, *, pins: bool) -> dict[int, Color]:
    """The "pinned" map as absolute point -> colour."""
    if not isinstance(pinned, Mapping):
        raise InvalidPositionError(
            f"{board_field('pinned')}: expected a mapping of point to colour")
    if pinned and not pins:
        raise InvalidPositionError(f"{board_field('pinned')}: {variant} has no pinned checkers")
    out: dict[int, Color] = {}
    for location, color in pinned.items():
        if location not in POINTS:
            raise InvalidPositionError(f"{board_field('pinned', location)}: not a point")
        out[int(location)] = read_color(color, board_field("pinned", location))
    return out


def _check_shared_points(
    points: dict[Color, tuple[int, ...]], pinned: dict[int, Color], *, pins: bool
) -> None:
    """Both colours share a point exactly where one lone checker is pinned under the other."""
    white, black = points[Color.WHITE], points[Color.BLACK]
    for n in range(1, 25):
        under = pinned.get(n)
        if under is None:
            if white[n - 1] and black[n - 1]:
                raise InvalidPositionError(
                    f'board: point "{n}" holds white and black'
                    + (f', and {board_field("pinned")} does not name it' if pins else "")
                )
            continue
        mine, theirs = points[under][n - 1], points[under.opponent][n - 1]
        if mine != 1 or theirs < 1:
            raise InvalidPositionError(
                f"{board_field('pinned', str(n))}: a pinned {under.value} checker lies alone under "
                f"{under.opponent.value} ones, but the point holds {mine} {under.value} and "
                f"{theirs} {under.opponent.value}"
            )


def write_board(
    points: Mapping[Color, Sequence[int]],
    bar: Mapping[Color, int] | None = None,
    pinned: Mapping[int, Color] | None = None,
) -> BoardDict:
    """The §2 form of absolute counts: only the locations that hold checkers (points in
    order, then "bar", then "off"), and every pin by point."""
    out: dict[str, dict[str, int]] = {}
    for color in Color:
        side = points[color]
        counts = {POINTS[i]: n for i, n in enumerate(side) if n}
        on_bar = bar[color] if bar else 0
        if on_bar:
            counts["bar"] = on_bar
        off = CHECKERS - sum(side) - on_bar
        if off:
            counts["off"] = off
        out[color.value] = counts
    pins = {str(n): (pinned or {})[n].value for n in sorted(pinned or {})}
    return {"white": out["white"], "black": out["black"], "pinned": pins}
