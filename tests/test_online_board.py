"""The server's board as the rules' values: its spaces to sides, Board and Position and
back, its moves to our legal Play and back, and boards or moves that cannot be refused
with the fault named.  Real boards from ``fixtures/bgammon_lines.txt`` (see
test_online_protocol.py) are checked against our rules."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla_pi.errors import ProtocolError
from tavla_pi.online.board import (
    first_moves,
    from_board,
    play_of,
    play_reaching,
    position_of,
    server_move,
    server_moves,
    sides,
    spaces_of,
    step_of,
    to_board,
)
from tavla_pi.online.model import ME, OPPONENT, GameBoard
from tavla_pi.online.protocol import Bgammon
from tavla_pi.rules import Board, Color, Position

START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0)
LINES = (Path(__file__).parent / "fixtures" / "bgammon_lines.txt").read_bytes().splitlines()


def real_boards() -> list[GameBoard]:
    reader = Bgammon("test/en")
    return [e for e in map(reader.read, LINES) if isinstance(e, GameBoard)]


def walk(seed: int, turns: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Positions of a game of random legal plays, each with the roll played from it."""
    rng = random.Random(seed)
    position = Position.initial()
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, dice
        plays = position.legal_plays(dice)
        position = rng.choice(plays).result if plays else position.swap()
        if position.is_game_over():
            return


def test_the_starting_board_is_the_starting_position_for_either_colour() -> None:
    assert sides(START) == (Position.initial().mine, Position.initial().theirs)
    assert position_of(START, ME) == Position.initial()
    for colour in Color:
        assert to_board(START, colour) == Board.initial()
        assert from_board(Board.initial(), colour) == START


def test_the_players_point_n_is_space_n_and_the_opponents_is_space_25_minus_n() -> None:
    spaces = list(START)
    spaces[24], spaces[23] = 1, 1  # one back checker of the player's moved to its 23
    spaces[1], spaces[3] = -1, -1  # one of the opponent's to its own 22 (space 3)
    board = to_board(spaces, Color.BLACK)  # the player is White: own n = absolute n
    assert board.count("24", Color.WHITE) == 1 and board.count("23", Color.WHITE) == 1
    assert board.count("1", Color.BLACK) == 1 and board.count("3", Color.BLACK) == 1
    board = to_board(spaces, Color.WHITE)  # the player is Black: own n = absolute 25 - n
    assert board.count("1", Color.BLACK) == 1 and board.count("2", Color.BLACK) == 1
    assert board.count("24", Color.WHITE) == 1 and board.count("22", Color.WHITE) == 1


def test_bars_and_trays_go_to_their_own_side() -> None:
    mine = (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    theirs = (0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)
    spaces = spaces_of(mine, theirs)
    assert (spaces[0], spaces[25], spaces[26], spaces[27]) == (12, -10, 1, -2)
    assert spaces[1] == 2 and spaces[19] == -3
    board = to_board(spaces, Color.WHITE)
    assert board.count("bar", Color.BLACK) == 1 and board.count("off", Color.BLACK) == 12
    assert board.count("bar", Color.WHITE) == 2 and board.count("off", Color.WHITE) == 10


def test_every_real_board_and_random_positions_go_there_and_back() -> None:
    for board in real_boards():
        assert spaces_of(*sides(board.spaces)) == board.spaces
        for colour in Color:
            assert from_board(to_board(board.spaces, colour), colour) == board.spaces
    for position, _ in walk(1, 200):
        spaces = spaces_of(position.mine, position.theirs)
        assert position_of(spaces, ME) == position
        assert position_of(spaces, OPPONENT) == position.swap()


@pytest.mark.parametrize(("change", "said"), [
    ({27: 1}, "space 27: 1 checkers of the other side"),
    ({0: -1}, "space 0: -1 checkers of the other side"),
    ({6: 4}, "the board's player has 14 checkers on the board and 0 off: not 15"),
    ({19: -6}, "the opponent has 16 checkers on the board and 0 off: not 15"),
    ({25: -1}, "the opponent has 15 checkers on the board and 1 off: not 15"),
])
def test_a_board_that_cannot_be_is_refused_naming_the_fault(change: dict[int, int],
                                                            said: str) -> None:
    spaces = list(START)
    for index, value in change.items():
        spaces[index] = value
    with pytest.raises(ProtocolError, match="server board: " + said):
        sides(spaces)


def test_a_board_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ProtocolError, match="server board: 26 spaces, expected 28"):
        sides(START[:26])


def test_moves_turn_into_the_movers_points_and_back() -> None:
    assert step_of((26, 20), ME) == (25, 20) and step_of((6, 0), ME) == (6, 0)
    assert step_of((27, 5), OPPONENT) == (25, 20) and step_of((19, 25), OPPONENT) == (6, 0)
    assert step_of((12, 18), OPPONENT) == (13, 7)
    for mover in (ME, OPPONENT):
        for origin in range(1, 26):
            for target in range(origin):
                assert step_of(server_move((origin, target), mover), mover) == (origin, target)


@pytest.mark.parametrize(("move", "mover"), [
    ((7, 13), ME), ((13, 25), ME), ((27, 20), ME), ((0, 5), ME),
    ((13, 7), OPPONENT), ((26, 5), OPPONENT), ((5, 0), OPPONENT), ((25, 20), OPPONENT),
])
def test_a_move_its_mover_cannot_make_is_refused(move: tuple[int, int], mover: int) -> None:
    with pytest.raises(ProtocolError, match=f"move {move[0]}/{move[1]}: not a move of"):
        step_of(move, mover)


def test_the_servers_moves_are_our_legal_play_for_either_mover() -> None:
    start = Position.initial()
    assert play_of(start, (6, 1), [(13, 7), (8, 7)], ME).notation == "13/7 8/7"
    assert play_of(start, (6, 1), [(12, 18), (17, 18)], OPPONENT).notation == "13/7 8/7"


def test_a_move_reversed_at_once_is_taken_back() -> None:
    start = Position.initial()
    moves = [(13, 7), (7, 13), (24, 18), (8, 7)]
    assert play_of(start, (6, 1), moves, ME).notation == "24/18 8/7"


def test_a_play_our_rules_refuse_names_the_moves_and_the_position() -> None:
    start = Position.initial()
    with pytest.raises(ProtocolError, match=r"moves 13/7 with 6-1 from position "
                                            r"4HPwATDgc/ABMA to .*: not a legal play"):
        play_of(start, (6, 1), [(13, 7)], ME)
    with pytest.raises(ProtocolError, match="move 12/5: no checker there"):
        play_of(start, (6, 1), [(12, 5)], ME)
    with pytest.raises(ProtocolError, match="move 13/1: no checker there, or the point is "
                                            "the other side's"):
        play_of(start, (6, 6), [(13, 1)], ME)


def test_a_roll_that_cannot_be_played_is_the_empty_play() -> None:
    closed = spaces_of((2,) * 6 + (3,) + (0,) * 18, (13,) + (0,) * 23 + (2,))
    position = position_of(closed, OPPONENT)  # two on the bar against a closed board
    assert not position.legal_plays((6, 6))
    assert play_of(position, (6, 6), [], OPPONENT).moves == ()
    assert play_reaching(position, (6, 6), position.swap()).moves == ()


def test_every_legal_play_goes_to_the_server_and_back() -> None:
    for seed in range(3):
        for position, dice in walk(seed, 60):
            for play in position.legal_plays(dice)[:4]:
                for mover in (ME, OPPONENT):
                    back = play_of(position, dice, server_moves(play, mover), mover)
                    assert back.result == play.result


def test_first_moves_are_the_servers_available_on_every_real_turn_start() -> None:
    checked = 0
    for board in real_boards():
        if board.turn and board.dice[0] and not board.pending and not board.winner:
            position = position_of(board.spaces, board.turn)
            d1, d2 = board.dice
            dice = [d1] * 4 if d1 == d2 else [d1, d2]
            assert first_moves(position, dice) == {step_of(m, board.turn)
                                                   for m in board.available}
            checked += 1
    assert checked >= 3


def test_first_moves_begin_only_the_longest_plays() -> None:
    start = Position.initial()
    assert first_moves(start, [6, 1]) == {(24, 18), (13, 7), (8, 2), (24, 23), (8, 7), (6, 5)}
    # one checker left, far from home with 6-5: it must use both dice
    lone = Position((0,) * 23 + (1, 0), (0,) * 5 + (2,) + (0,) * 19)  # opponent holds our 19
    assert first_moves(lone, [6, 5]) == {(24, 18)}
