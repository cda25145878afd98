"""Takebacks with a friend's board, at the referee on the modelled board: this board's
player takes a play back once the friend's board lets it; the friend's play is taken
back here at its board's word, only while this board's player has not begun.

The broker and the other board are left out: the friend's decisions are offered to
the seat as the remote side would (tests/test_remote_game.py plays it between two
daemons), and what the seat would send is read off it (``to_send``).
"""

from __future__ import annotations

from typing import Any

from computer_support import Table, move

from tavla_pi.game.friend import FriendPlay, FriendRoll, FriendSeat, FriendTakeback
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState
from tavla_pi.rules.position import Position

W, B = Color.WHITE, Color.BLACK
START = Position.initial().position_id()
OPENED = "sGfwATDgc/ABMA"
"""The start after White's 8/5 6/5."""
AFTER_RUN = "4HPwARLgc/ABMA"
"""The start after White's 24/23 24/21."""


def table(friend: Color) -> Table:
    """White to move 3-1 from the start; ``friend`` is the friend's board's colour."""
    settings = GameSettings(opponent=OpponentSettings(color=friend, remote="izmir"))
    board = Table(settings=settings)
    match = MatchState(on_roll=W, to_act=W, game_state=GameState.PLAYING, dice=(3, 1))
    board.act({"load": {"position_id": START, "match_id": match.match_id()}})
    return board


def seat(board: Table) -> FriendSeat:
    found = board.runner.referee.seat
    assert isinstance(found, FriendSeat)
    return found


def offer(board: Table, decision: Any, ticket: int | None = 1) -> list[dict[str, Any]]:
    """The friend's decision handed to the seat; the events of the next scans."""
    seat(board).offer(decision, ticket)
    return board.act({"wait": 100})


def played_here(board: Table) -> None:
    """White (this board's player) plays 8/5 6/5 and presses DONE."""
    board.act(move("8/5", "white"), move("6/5", "white"), {"press": "white.roll"})
    assert [e["position_id"] for e in board.of("played")] == [OPENED]


def taken_back_on_the_board(board: Table) -> None:
    board.act(move("5/8", "white"), move("5/6", "white"))


# -- this board's player takes a play back -------------------------------------------------

def test_a_play_taken_back_on_the_board_is_asked_of_the_friend_and_waits() -> None:
    board = table(friend=B)
    played_here(board)
    taken_back_on_the_board(board)
    assert seat(board).to_send == FriendTakeback("ask", START)
    assert board.of("takeback") == [] and board.state()["fix"] == []
    assert seat(board).thinking  # the game waits for the friend's board
    offer(board, FriendTakeback("accept", START))
    assert board.of("takeback") == [{"type": "takeback", "player": "white", "dice": [3, 1],
                                     "position_id": START,
                                     "match_id": board.of("takeback")[0]["match_id"]}]
    assert board.state()["phase"] == "moving" and board.state()["on_roll"] == "white"
    board.act(move("24/21", "white"), move("24/23", "white"), {"press": "white.roll"})
    assert [e["play"] for e in board.of("played")] == ["8/5 6/5", "24/23 24/21"]


def test_asked_once_however_often_the_board_shows_it() -> None:
    board = table(friend=B)
    played_here(board)
    taken_back_on_the_board(board)
    seat(board).to_send = None  # sent
    board.act(move("8/5", "white"), move("5/8", "white"))
    assert seat(board).to_send is None


def test_a_declined_takeback_leaves_the_play_and_lights_the_fixes_back_to_it() -> None:
    board = table(friend=B)
    played_here(board)
    taken_back_on_the_board(board)
    offer(board, FriendTakeback("decline", START))
    assert board.of("takeback") == []
    assert board.runner.referee.undo is None and seat(board).refused is None
    assert board.of("out_of_sync")[-1]["fix"] == [
        {"at": "5", "color": "white", "add": 2}, {"at": "6", "color": "white", "remove": 1},
        {"at": "8", "color": "white", "remove": 1}]
    board.act(move("8/5", "white"), move("6/5", "white"))
    assert board.state()["fix"] == [] and board.of("played")[-1]["player"] == "white"


def test_the_friends_roll_first_closes_the_takeback_and_its_decline_changes_nothing() -> None:
    board = table(friend=B)
    played_here(board)
    taken_back_on_the_board(board)
    offer(board, FriendRoll(2, (6, 4)), ticket=None)  # its ROLL came before the ask
    assert board.of("rolled")[-1]["player"] == "black"
    assert board.runner.referee.undo is None
    offer(board, FriendTakeback("decline", START))
    assert seat(board).refused is None and board.of("takeback") == []


def test_an_accept_for_a_play_not_open_is_refused() -> None:
    board = table(friend=B)
    played_here(board)
    offer(board, FriendTakeback("accept", OPENED))
    assert seat(board).refused == (1, f"the takeback goes back to {OPENED}, "
                                      f"not to {START}")
    assert board.of("takeback") == []


# -- the friend takes its play back ------------------------------------------------------

def friend_played(board: Table) -> None:
    """The friend's 8/5 6/5, carried out here."""
    offer(board, FriendPlay((3, 1), "8/5 6/5", OPENED))
    assert board.of("remote_play")
    board.act(move("8/5", "white"), move("6/5", "white"))
    assert [e["position_id"] for e in board.of("played")] == [OPENED]


def test_the_friends_takeback_is_done_here_and_answered() -> None:
    board = table(friend=W)
    friend_played(board)
    offer(board, FriendTakeback("ask", START), ticket=2)
    assert [e["player"] for e in board.of("takeback")] == ["white"]
    assert seat(board).to_send == FriendTakeback("accept", START)
    state = board.state()
    assert state["phase"] == "moving" and state["on_roll"] == "white"
    assert seat(board).thinking  # its play again
    assert board.of("out_of_sync")[-1]["fix"]  # the hand puts the checkers back
    board.act(move("5/8", "white"), move("5/6", "white"))
    assert board.of("in_sync")
    offer(board, FriendPlay((3, 1), "24/23 24/21", AFTER_RUN), ticket=3)
    board.act(move("24/21", "white"), move("24/23", "white"))
    assert [e["play"] for e in board.of("played")] == ["8/5 6/5", "24/23 24/21"]


def test_the_friends_ask_waits_until_its_play_is_carried_out_here() -> None:
    board = table(friend=W)
    offer(board, FriendPlay((3, 1), "8/5 6/5", OPENED))
    offer(board, FriendTakeback("ask", START), ticket=2)  # not yet offered: one at a time
    board.act(move("8/5", "white"))
    assert board.of("takeback") == []
    board.act(move("6/5", "white"), {"wait": 100})
    assert [e["type"] for e in board.of("played", "takeback")] == ["played", "takeback"]


def test_the_friends_ask_after_the_roll_here_is_declined() -> None:
    board = table(friend=W)
    friend_played(board)
    board.act({"press": "black.roll"})  # the dice are asked of both boards
    offer(board, FriendTakeback("ask", START), ticket=2)
    assert board.of("takeback") == [] and seat(board).refused is None
    assert seat(board).to_send == FriendTakeback("decline", START)
    assert seat(board).taken == 2  # taken: it changes nothing here


def test_a_forged_ask_is_refused_and_changes_nothing() -> None:
    board = table(friend=W)
    friend_played(board)
    offer(board, FriendTakeback("ask", OPENED), ticket=2)
    assert seat(board).refused == (2, f"the takeback goes back to {OPENED}, "
                                      f"not to {START}")
    assert board.of("takeback") == [] and board.state()["position_id"] == OPENED
