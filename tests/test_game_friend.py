"""The friend's board's seat at the referee: its decisions fit the game here, or wait, or
are refused without changing anything; the dice of a remote match come from the seat."""

from __future__ import annotations

from tavla_pi.events.event import Event
from tavla_pi.game.friend import (
    WAITS,
    FriendCube,
    FriendDecision,
    FriendPlay,
    FriendResign,
    FriendRoll,
    FriendSeat,
    fit,
)
from tavla_pi.game.referee import Referee
from tavla_pi.game.seat import seat_for
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import GameState, MatchState, Resignation
from tavla_pi.rules.position import Position

W, B = Color.WHITE, Color.BLACK
FRIEND = OpponentSettings(color=B, remote="izmir")


def referee_at(on_roll: Color, dice: tuple[int, int] | None = None) -> Referee:
    """A money game from the start, ``on_roll`` to roll (or moving ``dice``), Black the
    friend's board."""
    referee = Referee(GameSettings(opponent=FRIEND), ScriptedDice())
    match = MatchState(on_roll=on_roll, to_act=on_roll, game_state=GameState.PLAYING,
                       dice=dice)
    referee.load(Position.initial(), match, now=0)
    return referee


def offered(referee: Referee, decision: FriendDecision, ticket: int = 1) -> list[Event]:
    """Offer ``decision`` to the friend's seat; the events of the next tick."""
    seat = referee.seat
    assert isinstance(seat, FriendSeat)
    seat.offer(decision, ticket)
    return referee.tick(10, settled=True)


def phase_of(referee: Referee) -> Phase:
    """The referee's phase now (read afresh: it changes under each call)."""
    return referee.phase


def asked(seat: FriendSeat) -> bool:
    """Whether the seat has a roll asked of it (read afresh)."""
    return seat.roll_asked


def kinds(events: list[Event]) -> list[str]:
    return [str(e.type) for e in events]


def test_a_configured_friends_board_takes_the_seat_and_its_colours_buttons_do_nothing() -> None:
    seat = seat_for(FRIEND, None)
    assert isinstance(seat, FriendSeat) and seat.color is B
    assert seat.refuses(B, Phase.AWAIT_ROLL) and not seat.refuses(W, Phase.AWAIT_ROLL)
    assert seating(FRIEND).engine_color is None  # the computer plays nobody
    referee = referee_at(B)
    events = referee.on_button("black.roll", long=False, now=5)
    assert kinds(events) == ["rejected"] and "izmir plays black" in events[0]["reason"]


def test_the_friends_legal_play_is_shown_for_the_hand_to_carry_out() -> None:
    referee = referee_at(B, (6, 5))
    play = next(p for p in referee.position().legal_plays((6, 5)) if p.notation == "24/13")
    events = offered(referee, FriendPlay((6, 5), "24/13", play.result.position_id()), 4)
    assert kinds(events) == ["remote_play"]
    assert events[0].fields == {"player": "black", "dice": [6, 5], "play": "24/13",
                                "position_id": play.result.position_id()}
    seat = referee.seat
    assert isinstance(seat, FriendSeat) and seat.taken == 4 and seat.refused is None


def test_a_play_that_is_not_legal_or_not_due_is_refused_and_changes_nothing() -> None:
    referee = referee_at(B, (6, 5))
    before = (referee.position_id(), referee.match)
    for bad, why in ((FriendPlay((6, 5), "24/18(4)", "4HPwATDgc/ABMA"), "no legal play"),
                     (FriendPlay((6, 6), "24/18", "4HPwATDgc/ABMA"), "not the roll")):
        assert offered(referee, bad) == []
        seat = referee.seat
        assert isinstance(seat, FriendSeat) and seat.refused is not None
        assert why in seat.refused[1] and seat.taken is None
        assert (referee.position_id(), referee.match) == before
    white_to_roll = referee_at(W)
    assert offered(white_to_roll, FriendPlay((6, 5), "24/13", "x")) == []
    assert white_to_roll.phase is Phase.AWAIT_ROLL


def test_a_decision_waits_while_this_board_is_behind() -> None:
    referee = Referee(GameSettings(opponent=FRIEND), ScriptedDice())
    assert referee.phase is Phase.SETUP
    assert fit(FriendCube("double"), referee, B) is WAITS
    assert fit(FriendRoll(0, (3, 1)), referee, B) is WAITS
    moving = referee_at(W, (3, 1))
    assert fit(FriendRoll(2, (6, 6)), moving, B) is WAITS  # the last play still carried


def test_the_friends_cube_and_resignation_are_its_buttons_presses() -> None:
    referee = referee_at(B)
    assert kinds(offered(referee, FriendCube("double"))) == ["double_offered"]
    assert referee.phase is Phase.DOUBLE_OFFERED
    referee.on_button("white.roll", long=False, now=20)  # taken here, on White's button
    assert phase_of(referee) is Phase.AWAIT_ROLL and referee.match.cube == 2
    resigning = referee_at(B)
    events = offered(resigning, FriendResign("offer", Resignation.SINGLE))
    assert kinds(events) == ["resign_offered"] and resigning.phase is Phase.RESIGN_OFFERED
    assert offered(resigning, FriendResign("accept")) == []  # not the friend's to answer
    seat = resigning.seat
    assert isinstance(seat, FriendSeat) and seat.refused is not None


def test_a_roll_here_asks_both_boards_and_its_dice_come_from_the_seat() -> None:
    referee = referee_at(W)
    assert referee.on_button("white.roll", long=False, now=5) == []
    seat = referee.seat
    assert isinstance(seat, FriendSeat) and asked(seat)
    assert kinds(referee.on_button("white.cube", long=False, now=6)) == ["rejected"]
    events = offered(referee, FriendRoll(1, (2, 5)), ticket=0)
    assert kinds(events)[:1] == ["rolled"] and events[0]["dice"] == [2, 5]
    assert not asked(seat) and phase_of(referee) is Phase.MOVING


def test_either_players_play_may_be_taken_back_with_a_friend() -> None:
    # how: tests/test_game_friend_takeback.py; between two daemons: test_remote_game.py
    referee = referee_at(W, (6, 5))
    assert referee.undo is None
    assert referee.seat.undoes(W) and referee.seat.undoes(B)
