"""Seats: the computer when there is an engine and a colour for it, else the hand at the board."""

from __future__ import annotations

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import BackgroundEngine
from tavla_pi.game.computer import Computer
from tavla_pi.game.deciding import HandSeat, Seat
from tavla_pi.game.referee import Referee
from tavla_pi.game.seat import seat_for
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.testing.engine import ScriptedEngine

B = Color.BLACK


def engine() -> BackgroundEngine:
    return BackgroundEngine(ScriptedEngine([]), VirtualClock())


def test_the_computer_takes_the_seat_only_with_an_engine_and_a_colour_to_play() -> None:
    computer: Seat = seat_for(OpponentSettings(color=B), engine())
    assert isinstance(computer, Computer) and computer.plays(B)
    assert computer.refuses(B, Phase.AWAIT_ROLL) and not computer.refuses(B, Phase.SETUP)
    assert isinstance(seat_for(OpponentSettings(color=B), None), HandSeat)
    assert isinstance(seat_for(OpponentSettings(color=None), engine()), HandSeat)


def test_between_two_players_the_hand_decides_for_both_colours() -> None:
    referee = Referee(GameSettings(), ScriptedDice())
    seat = referee.seat
    assert isinstance(seat, HandSeat) and seat.color is None
    assert not any(seat.plays(c) or seat.refuses(c, Phase.AWAIT_ROLL) for c in Color)
    assert seat.update(referee, 0) is None and seat.wait(0.0) and not seat.pending


def test_a_new_opponent_seats_the_computer_on_the_referees_engine() -> None:
    background = engine()
    referee = Referee(GameSettings(), ScriptedDice(), engine=background)
    assert isinstance(referee.seat, HandSeat)
    referee.choose_opponent(OpponentSettings(color=B), now=0)
    seat = referee.seat
    assert isinstance(seat, Computer) and seat.engine is background and seat.color is B
