"""The board's play on its way to the server: each command answered by the board that
shows its moves made, a board from before the command passed over, and a board that
shows another count read as a refusal (docs/ONLINE.md)."""

from __future__ import annotations

from dataclasses import replace

from tavla_pi.online.board import server_moves
from tavla_pi.online.model import ME, GameBoard, PlayerInfo
from tavla_pi.online.protocol import Bgammon
from tavla_pi.online.sending import PlaySender
from tavla_pi.rules import Position
from tavla_pi.rules.play import Play

DIALECT = Bgammon("test/en")
DICE = (3, 1)
START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0)
"""The server's starting board (as test_online_board.py reads it)."""


def opening_play() -> Play:
    """8/5 6/5 from the starting position."""
    return next(p for p in Position.initial().legal_plays(DICE) if p.notation == "8/5 6/5")


def turn_start(play: Play) -> GameBoard:
    """The server's board at the start of the turn ``play`` is made in."""
    nobody = PlayerInfo("", 0)
    return GameBoard(START, ME, DICE, (), server_moves(play), 0, 1, 0, 1, 0,
                     double_offered=False, me=nobody, opponent=nobody, variant=0,
                     spectating=False)


def test_the_play_is_sent_and_ok_follows_the_board_that_shows_it() -> None:
    play = opening_play()
    start = turn_start(play)
    sender = PlaySender(DIALECT)
    assert sender.start(play, start) == [DIALECT.move(server_moves(play))]
    assert sender.shown(replace(start, pending=server_moves(play))) == ([DIALECT.ok()], None)


def test_the_board_the_play_was_started_from_is_not_its_answer() -> None:
    """The board a rejoin sends starts the play sent again; read once more (as it is, or
    sent twice), it is not the server's answer, and not a refusal."""
    play = opening_play()
    start = turn_start(play)
    sender = PlaySender(DIALECT)
    sender.start(play, start)
    assert sender.shown(start) == ([], None)
    assert sender.open
    assert sender.shown(replace(start, pending=server_moves(play))) == ([DIALECT.ok()], None)


def test_a_board_with_another_count_of_moves_is_a_refusal() -> None:
    play = opening_play()
    start = turn_start(play)
    sender = PlaySender(DIALECT)
    sender.start(play, start)
    one = replace(start, pending=server_moves(play)[:1])
    assert sender.shown(one) == ([], "the server made 1 of the 2 moves sent")
    assert not sender.open
