"""What a player's press means in each phase of the game, as rulings (:class:`Presses`).

ROLL throws the opening dice, rolls, takes a double, accepts a resignation, commits a
turn (DONE) or lets a turn with no move pass; CUBE offers, drops or beavers a double,
chooses a resignation, declines one, or lights the next candidate play; a long CUBE
asks for a hint.  The referee carries the rulings out in one place.
"""

from __future__ import annotations

from typing import Protocol

from tavla_pi.game.deciding import Press, Seat
from tavla_pi.game.moving import Moving
from tavla_pi.game.offers import Offers
from tavla_pi.game.rulings import Passed, Refused, Ruling
from tavla_pi.game.seatdesk import thrown
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import DiceSource


class PressTable(Protocol):
    """What a press reads of the referee."""

    @property
    def state(self) -> State:
        """The game's state."""
        ...

    dice: DiceSource
    seat: Seat
    offers: Offers
    moving: Moving


class Presses:
    """Rules on the presses of the players' buttons at ``table``."""

    def __init__(self, table: PressTable) -> None:
        self.table = table

    def by_hand(self, color: Color, role: str, now: int, *, long: bool) -> list[Ruling]:
        """A press by the hand at the board: refused where the seat plays that colour (or
        makes the dice now), else what it leads to."""
        seat = self.table.seat
        if seat.refuses(color, self.table.state.phase):
            return [Refused(f"{seat.name} plays {color.value}" if seat.plays(color)
                            else "the dice are on their way")]
        return self.rule(color, role, now, long=long)

    def rule(self, color: Color, role: str, now: int, *, long: bool) -> list[Ruling]:
        """What ``color``'s press of ``role`` (``roll``, ``cube``) leads to now."""
        table, phase = self.table, self.table.state.phase
        if phase is Phase.OPENING and role == "roll":
            if table.seat.ask_roll(now):
                return []  # the seat makes the dice: they come as its Throws
            return thrown(table.state, (table.dice.roll_one(), table.dice.roll_one()))
        if phase is Phase.AWAIT_ROLL:
            gesture = table.offers.resign_gesture(color, role, long=long) \
                if table.offers.may_resign else None
            return [gesture] if gesture is not None else self._before_roll(color, role, now)
        if phase is Phase.DOUBLE_OFFERED:
            return [table.offers.answer_double(color, role, long=long)]
        if phase is Phase.RESIGN_OFFERED:
            return [table.offers.answer_resignation(color, accept=role == "roll")]
        return self._later(color, role, now, long=long)

    def _later(self, color: Color, role: str, now: int, *, long: bool) -> list[Ruling]:
        """A press while moving, or while a turn with no move waits to pass (ROLL passes
        it, and rolls when it is the next player's)."""
        table, phase = self.table, self.table.state.phase
        if phase is Phase.MOVING and table.moving.turn is not None:
            return table.moving.press(color, role, now, long=long)
        if phase is Phase.NO_MOVE and role == "roll":
            after = table.state.passed()
            return [Passed(), *([Press(role)] if color is after.match.on_roll else [])]
        return [Refused(f"{role.upper()} does nothing now ({phase.value})")]

    def _before_roll(self, color: Color, role: str, now: int) -> list[Ruling]:
        """A press before the roll: the cube offered, or the dice rolled."""
        table = self.table
        on_roll = table.state.match.on_roll
        if color is not on_roll:
            return [Refused(f"it is {on_roll.value}'s turn")]
        if role == "cube":
            return [table.offers.double(color)]
        if table.seat.ask_roll(now):
            return []  # the seat makes the dice: they come as its Throws
        return thrown(table.state, table.dice.roll())
