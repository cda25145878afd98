"""Portes (backgammon) behind the variants' interface: a :class:`Position` and its colour.

Nothing of the rules is here: the plays, their order and notation are exactly
those of :class:`~tavla_pi.rules.position.Position` (GNU Backgammon's).  This
module only adds what the interface asks for: the colour on roll, the board in
the form of docs/CONTRACTS.md §2 ("pinned" always empty) and the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla_pi.rules.board import Board
from tavla_pi.rules.boardform import read_board, write_board
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import win_kind
from tavla_pi.rules.tavli import (
    BoardDict,
    Ending,
    Movement,
    Outcome,
    ValuePosition,
    VariantPlay,
    VariantPosition,
    check_dice,
)


class PortesPosition(ValuePosition):
    """An immutable Portes position: GNU Backgammon's :class:`Position` and who is on roll."""

    __slots__ = ("on_roll", "position")

    variant = "portes"
    has_cube = True
    movement = Movement.HITS
    on_roll: Color
    position: Position
    """The position as GNU Backgammon sees it (from the side of ``on_roll``)."""

    def __init__(self, position: Position, on_roll: Color) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "on_roll", on_roll)

    @classmethod
    def initial(cls) -> PortesPosition:
        """The backgammon starting position, White on roll."""
        return cls(Position.initial(), Color.WHITE)

    @classmethod
    def from_board(cls, board: Mapping[str, Any], on_roll: Color) -> PortesPosition:
        """The position of a board in the form of docs/CONTRACTS.md §2, checked."""
        read = read_board(board, "portes", bar=True, pins=False)
        sides = [(*read.points[c], read.bar[c]) for c in Color]
        return cls(Position.from_board(Board(*sides), on_roll), on_roll)

    def _key(self) -> tuple[Any, ...]:
        return (self.position, self.on_roll)

    @property
    def mine(self) -> tuple[int, ...]:
        """The player on roll's 25 counts (own points 1..24, the bar at index 24)."""
        return self.position.mine

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's 25 counts in its own numbering."""
        return self.position.theirs

    def with_on_roll(self, color: Color) -> PortesPosition:
        """The same checkers with ``color`` on roll (a turn passed without a move)."""
        if color is self.on_roll:
            return self
        return PortesPosition(Position.from_board(self.position.to_board(self.on_roll), color),
                              color)

    def position_id(self) -> str:
        """GNU Backgammon's Position ID."""
        return self.position.position_id()

    def board(self) -> BoardDict:
        """The checkers in the form of docs/CONTRACTS.md §2 ("pinned" always empty)."""
        board = self.position.to_board(self.on_roll)
        counts = {c: board.absolute(c) for c in Color}
        points = {c: n[:24] for c, n in counts.items()}
        return write_board(points, {c: n[24] for c, n in counts.items()})

    def recorded_play(self, dice: tuple[int, int], position_id: object,
                      board: object) -> VariantPlay | None:
        """The legal play leading to ``position_id`` (GNU Backgammon's, the authority)."""
        return next((p for p in self.legal_plays(dice) if p.result.position_id() == position_id),
                    None)

    def state_board(self) -> Mapping[str, object]:
        """The board in §1's form: checkers per location and colour, no pins."""
        return self.position.to_board(self.on_roll).as_dict()

    def outcome(self) -> Outcome | None:
        """The side that has borne off all: single, gammon or backgammon (1, 2, 3 points)."""
        p = self.position
        for winner, own, loser in ((self.on_roll, p.mine, p.theirs),
                                   (self.on_roll.opponent, p.theirs, p.mine)):
            if not any(own):
                kind = win_kind(loser)
                return Outcome(winner, Ending(kind.value), kind.multiplier)
        return None

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """The plays of :meth:`Position.legal_plays`, in its order; [] once the game is over."""
        d = check_dice(dice)
        if self.is_game_over():
            return []
        opp = self.on_roll.opponent
        return [
            VariantPlay(self, play.dice, play.moves, PortesPosition(play.result, opp))
            for play in self.position.legal_plays(d)
        ]


def portes_play(play: Play, mover: Color) -> VariantPlay:
    """GNU Backgammon's ``play`` of ``mover`` as the variants' play (its positions wrapped)."""
    return VariantPlay(PortesPosition(play.position, mover), play.dice, play.moves,
                       PortesPosition(play.result, mover.opponent))


def gnubg_play(play: VariantPlay) -> Play:
    """GNU Backgammon's :class:`Play` of a Portes play (TypeError for another game's)."""
    return Play(portes_only(play.position), play.dice, play.moves, portes_only(play.result))


def gnubg_position(position: VariantPosition) -> Position | None:
    """GNU Backgammon's :class:`Position` of a Portes position (from the side on roll),
    for what only GNU Backgammon answers (the computer, the coach); None for a game
    GNU Backgammon does not play."""
    return position.position if isinstance(position, PortesPosition) else None


def portes_only(position: VariantPosition) -> Position:
    """GNU Backgammon's :class:`Position` of a Portes position, for the computer and
    the coach, which play Portes only (TypeError for another game's)."""
    found = gnubg_position(position)
    if found is None:
        raise TypeError(f"GNU Backgammon plays Portes only, not {position!r}")
    return found
