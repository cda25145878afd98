"""Position: Position IDs, validation, value semantics, board views."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla_pi.errors import BadInputError, InvalidIdError, InvalidPositionError
from tavla_pi.rules import Board, Color, Position

START = "4HPwATDgc/ABMA"


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random valid positions: any counts, bars included, no shared points."""
    mine = [0] * 25
    theirs = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        mine[draw(st.integers(0, 24))] += 1
    for _ in range(draw(st.integers(0, 15))):
        slot = draw(st.integers(0, 24))
        if slot == 24 or not mine[23 - slot]:
            theirs[slot] += 1
    return Position(mine, theirs)


def test_initial_position_id() -> None:
    p = Position.initial()
    assert p.position_id() == START
    assert Position.from_position_id(START) == p
    assert p.mine == p.theirs == (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 2, 0)


@given(positions())
def test_position_id_round_trip(p: Position) -> None:
    pid = p.position_id()
    assert len(pid) == 14
    q = Position.from_position_id(pid)
    assert q == p
    assert hash(q) == hash(p)
    assert q.position_id() == pid


@given(positions())
def test_swap_twice_is_identity(p: Position) -> None:
    assert p.swap().swap() == p
    assert p.swap().mine == p.theirs


@given(positions(), st.sampled_from(list(Color)))
def test_board_round_trip_for_both_colours(p: Position, on_roll: Color) -> None:
    board = p.to_board(on_roll)
    assert Position.from_board(board, on_roll) == p
    assert Position.from_board(board, on_roll.opponent) == p.swap()
    assert p.swap().to_board(on_roll.opponent) == board


def test_known_ids_decode_to_gnubgs_sides() -> None:
    # after 24/18(2) 8/2(2) from the start, the opponent now on roll (gnubg's own ID)
    p = Position.from_position_id("hk/wwQDgc/ABMA")
    assert p.theirs == (0, 2, 0, 0, 0, 5, 0, 1, 0, 0, 0, 0, 5, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                        0)
    assert p.mine == Position.initial().mine


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "14 characters"),
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("4HPwATDgc/ABMB", "canonical"),
        ("//////////////", "too many"),
        ("//8AAAAAAAAAAA", "at most 15"),
        ("AACABAAAAAAAAA", "same point"),
    ],
)
def test_bad_position_ids_are_refused(text: str, problem: str) -> None:
    with pytest.raises(InvalidIdError) as info:
        Position.from_position_id(text)
    assert isinstance(info.value, BadInputError)
    assert problem in str(info.value)
    assert str(info.value).startswith(f"Position ID {text!r}: ")


def test_validation_on_construction() -> None:
    empty = [0] * 25
    with pytest.raises(InvalidPositionError, match="25 counts"):
        Position([0] * 24, empty)
    with pytest.raises(InvalidPositionError, match="negative"):
        Position([-1, *[0] * 24], empty)
    with pytest.raises(InvalidPositionError, match="at most 15"):
        Position([16, *[0] * 24], empty)
    with pytest.raises(InvalidPositionError, match="same point"):
        Position([1, *[0] * 24], [*[0] * 23, 1, 0])
    with pytest.raises(InvalidPositionError, match="int"):
        Position([1.0, *[0] * 24], empty)  # type: ignore[list-item]


def test_value_semantics() -> None:
    p = Position.initial()
    assert repr(p) == f"Position.from_position_id({START!r})"
    assert eval(repr(p)) == p
    assert {p, Position.from_position_id(START)} == {p}
    assert pickle.loads(pickle.dumps(p)) == p
    with pytest.raises(AttributeError):
        p.mine = ()
    assert p != p.legal_plays((3, 1))[0].result
    assert p.pips() == (167, 167)
    assert p.borne_off() == (0, 0)


def test_predicates() -> None:
    p = Position.initial()
    assert not p.is_on_bar()
    assert not p.can_bear_off()
    assert p.is_open(24) and not p.is_open(19) and not p.is_open(12) and p.is_open(11)
    assert not p.is_game_over()
    home = Position([2, 3, 0, 0, 0, 1, *[0] * 19], [0] * 12 + [5] + [0] * 12)
    assert home.can_bear_off()
    assert Position([0] * 25, p.theirs).is_game_over()


def test_board_numbering_and_queries() -> None:
    board = Board.initial()
    assert Position.initial().to_board(Color.WHITE) == board
    assert board.count("24", Color.WHITE) == 2 and board.count("1", Color.BLACK) == 2
    assert board.count("6", Color.WHITE) == 5 and board.count("19", Color.BLACK) == 5
    assert board.count("bar", Color.WHITE) == 0 and board.count("off", Color.BLACK) == 0
    assert board.color_at(13) is Color.WHITE and board.color_at(12) is Color.BLACK
    assert board.color_at(20) is None
    assert board.as_dict()["black"] == {"1": 2, "12": 5, "17": 3, "19": 5}
    assert eval(repr(board)) == board
    assert sum(n for _, _, n in board.items()) == 30
    with pytest.raises(ValueError, match="location"):
        board.count("25", Color.WHITE)


def test_board_from_black_on_roll() -> None:
    # Black on roll has entered a checker on its own 22 = absolute 3 and has one off.
    mine = [0] * 25
    mine[21] = 1
    mine[5] = 13
    theirs = list(Position.initial().theirs)
    board = Position(mine, theirs).to_board(Color.BLACK)
    assert board.count("3", Color.BLACK) == 1
    assert board.count("19", Color.BLACK) == 13
    assert board.count("off", Color.BLACK) == 1
    assert board.count("13", Color.WHITE) == 5


def test_board_validation() -> None:
    with pytest.raises(InvalidPositionError, match="both colours"):
        Board.from_counts({"5": 1}, {"5": 1})
    with pytest.raises(InvalidPositionError, match="not 15"):
        Board.from_counts({"5": 1, "off": 3}, {})
    with pytest.raises(InvalidPositionError, match="location"):
        Board.from_counts({"0": 1}, {})
    assert Board.from_counts({"5": 1, "off": 14}, {}).count("off", Color.WHITE) == 14
