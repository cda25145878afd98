"""The variants behind one interface (docs/CONTRACTS.md §2): names, boards, values, Portes
unchanged, and Plakoto and Fevga against a second, brute-force implementation."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
import variants_oracle as oracle
from variants_support import position

from tavla_pi.errors import InvalidPositionError, TavlaError, UnknownVariantError
from tavla_pi.rules import (
    Board,
    Color,
    Ending,
    Outcome,
    Position,
    VariantPosition,
    variant,
)
from tavla_pi.rules.portes import PortesPosition

NAMES = ("portes", "plakoto", "fevga")
FIXTURE = Path(__file__).parent / "fixtures" / "movegen.jsonl"


def walk(game: str, count: int, seed: int = 3) -> list[VariantPosition]:
    return list(oracle.random_positions(game, seed, count))


# -- the names -------------------------------------------------------------------------


def test_variant_gives_each_game_by_its_name() -> None:
    for name in NAMES:
        v = variant(name)
        assert v.name == name and repr(v) == f"variant({name!r})"
        assert v.initial().variant == name
        assert variant(name) is v


@pytest.mark.parametrize("name", ["tavli", "Portes", "", 3, None])
def test_an_unknown_name_is_a_clear_value_error(name: Any) -> None:
    with pytest.raises(UnknownVariantError, match="'portes', 'plakoto', 'fevga'") as info:
        variant(name)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TavlaError)
    assert str(info.value).startswith("variant: unknown game")


def test_every_game_starts_with_white_on_roll() -> None:
    for name in NAMES:
        assert variant(name).initial().on_roll is Color.WHITE


# -- boards ----------------------------------------------------------------------------


def test_the_board_lists_only_locations_holding_checkers_and_always_pinned() -> None:
    p = position("plakoto", {24: 13, 18: 1}, {1: 10, 18: 1}, "white", {18: "black"})
    b = p.board()
    assert b == {"white": {"18": 1, "24": 13, "off": 1}, "black": {"1": 10, "18": 1, "off": 4},
                 "pinned": {"18": "black"}}
    assert list(b["white"]) == ["18", "24", "off"]  # points in order, then "off"
    assert variant("fevga").initial().board()["pinned"] == {}


def test_zero_counts_and_a_missing_off_or_pinned_are_accepted() -> None:
    v = variant("plakoto")
    given = {"white": {"24": 15, "3": 0, "off": 0}, "black": {"1": 15}}
    assert v.from_board(given, on_roll=Color.WHITE) == v.initial()


@pytest.mark.parametrize("name", NAMES)
def test_positions_round_trip_through_their_board(name: str) -> None:
    v = variant(name)
    for p in walk(name, 150):
        assert v.from_board(p.board(), on_roll=p.on_roll.value) == p
        assert json.loads(json.dumps(p.board())) == p.board()


@pytest.mark.parametrize("name", NAMES)
def test_positions_are_values_and_their_repr_builds_them(name: str) -> None:
    positions = walk(name, 60)
    for p in positions:
        assert eval(repr(p), {"variant": variant}) == p
        assert hash(variant(name).from_board(p.board(), p.on_roll)) == hash(p)
    p = positions[-1]
    assert copy.deepcopy(p) == p and pickle.loads(pickle.dumps(p)) == p
    with pytest.raises(AttributeError, match="immutable"):
        p.on_roll = Color.BLACK  # type: ignore[misc]
    other_side = variant(name).from_board(p.board(), p.on_roll.opponent)
    again = variant(name).from_board(p.board(), p.on_roll)
    assert other_side != p and len({p, other_side, again}) == 2


def test_positions_of_different_games_are_not_equal() -> None:
    white, black = {24: 15}, {1: 15}
    assert position("plakoto", white, black) != position("fevga", white, {12: 15})
    assert variant("plakoto").initial() != variant("portes").initial()


BAD_BOARDS: list[tuple[str, Any, str]] = [
    ("plakoto", [1, 2], r"^board: expected a mapping"),
    ("plakoto", {"white": {"24": 15}, "black": {"1": 15}, "red": {}}, r'^board\["red"\]: unknown'),
    ("fevga", {"white": {"24": 15}}, r'^board\["black"\]: missing'),
    ("fevga", {"white": [24], "black": {"12": 15}}, r'^board\["white"\]: expected a mapping'),
    ("fevga", {"white": {"24": 14}, "black": {"12": 15}}, r'^board\["white"\]: 14 checkers'),
    ("plakoto", {"white": {"24": 15, "off": 1}, "black": {"1": 15}}, r'board\["white"\]: 16'),
    ("plakoto", {"white": {"24": -1}, "black": {"1": 15}}, r'^board\["white"\]\["24"\]: bad'),
    ("plakoto", {"white": {"24": True}, "black": {"1": 15}}, r'^board\["white"\]\["24"\]: bad'),
    ("portes", {"white": {"25": 15}, "black": {"1": 15}}, r'^board\["white"\]\["25"\]: not a'),
    ("fevga", {"white": {"24": 14, "bar": 1}, "black": {"12": 15}}, r"fevga has no bar"),
    ("plakoto", {"white": {"24": 14, "bar": 1}, "black": {"1": 15}}, r"plakoto has no bar"),
    ("fevga", {"white": {"24": 15}, "black": {"12": 15}, "pinned": {"24": "white"}},
     r'^board\["pinned"\]: fevga has no pinned'),
    ("portes", {"white": {"24": 15}, "black": {"1": 15}, "pinned": {"1": "black"}},
     r'^board\["pinned"\]: portes has no pinned'),
    ("plakoto", {"white": {"24": 15}, "black": {"1": 15}, "pinned": []},
     r'^board\["pinned"\]: expected a mapping'),
    ("plakoto", {"white": {"24": 15}, "black": {"1": 15}, "pinned": {"off": "white"}},
     r'^board\["pinned"\]\["off"\]: not a point'),
    ("plakoto", {"white": {"24": 14, "1": 1}, "black": {"1": 15}, "pinned": {"1": "red"}},
     r'^board\["pinned"\]\["1"\]: expected "white" or "black"'),
    ("plakoto", {"white": {"24": 14, "1": 1}, "black": {"1": 15}},
     r'^board: point "1" holds white and black, and board\["pinned"\] does not name it'),
    ("plakoto", {"white": {"24": 14, "1": 1}, "black": {"1": 15}, "pinned": {"1": "black"}},
     r'^board\["pinned"\]\["1"\]: a pinned black checker lies alone'),
    ("plakoto", {"white": {"24": 15}, "black": {"1": 15}, "pinned": {"24": "white"}},
     r'^board\["pinned"\]\["24"\]: a pinned white checker lies alone'),
    ("fevga", {"white": {"24": 14, "12": 1}, "black": {"12": 15}},
     r'^board: point "12" holds white and black$'),
    ("portes", {"white": {"24": 14, "1": 1}, "black": {"1": 15}},
     r'^board: point "1" holds white and black$'),
]


@pytest.mark.parametrize(("name", "given", "message"), BAD_BOARDS)
def test_a_bad_board_is_one_clear_error_naming_the_field(name: str, given: Any,
                                                         message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        variant(name).from_board(given, on_roll="white")


@pytest.mark.parametrize("on_roll", ["red", None, 0, "WHITE"])
def test_a_bad_on_roll_is_named(on_roll: Any) -> None:
    with pytest.raises(InvalidPositionError, match=r'^on_roll: expected "white" or "black"'):
        variant("fevga").from_board(variant("fevga").initial().board(), on_roll=on_roll)


# -- plays -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_play_has_notation_dice_moves_and_a_result_with_the_other_side_on_roll(
        name: str) -> None:
    start = variant(name).initial()
    plays = start.legal_plays((3, 1))
    assert plays and len({p.result for p in plays}) == len(plays)  # one per distinct result
    for play in plays:
        assert play.position == start and play.dice == (3, 1)
        assert play.result.on_roll is Color.BLACK and play.result.variant == name
        assert play.notation and play.moves
        assert play in plays and repr(play).startswith(f"<VariantPlay {play.notation} 3-1")
    assert [p.notation for p in plays] == [p.notation for p in start.legal_plays((3, 1))]


@pytest.mark.parametrize("name", NAMES)
def test_bad_dice_are_refused(name: str) -> None:
    for dice in [(0, 1), (7, 1), (1,), (1, 2, 3)]:
        with pytest.raises(ValueError, match="dice"):
            variant(name).initial().legal_plays(dice)  # type: ignore[arg-type]


def test_no_legal_play_is_an_empty_list() -> None:
    closed = position("fevga", {24: 14, 23: 1}, {22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1,
                                                   12: 9})
    assert closed.legal_plays((6, 5)) == []
    assert closed.legal_plays((1, 1)) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_finished_game_has_no_plays(name: str) -> None:
    white: dict[int, int] = {}
    black = {20: 15} if name != "fevga" else {14: 15}
    over = position(name, white, black, "black")
    assert over.is_game_over() and over.legal_plays((6, 5)) == []
    assert over.outcome() == Outcome(Color.WHITE, Ending.GAMMON, 2)


# -- Portes is the Position of before --------------------------------------------------


def fixture_cases() -> list[tuple[str, tuple[int, int]]]:
    cases = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        cases.append((case["position_id"], (case["dice"][0], case["dice"][1])))
    return cases


@pytest.mark.slow
def test_portes_plays_are_the_positions_plays_in_their_order() -> None:
    """Every case of the gnubg move-generation fixture, either colour on roll."""
    for pid, dice in fixture_cases():
        inner = Position.from_position_id(pid)
        for color in Color:
            wrapped = PortesPosition(inner, color)
            if wrapped.is_game_over():
                continue
            plays = wrapped.legal_plays(dice)
            expected = inner.legal_plays(dice)
            assert [p.notation for p in plays] == [p.notation for p in expected]
            assert [p.moves for p in plays] == [p.moves for p in expected]
            assert [p.result.position for p in plays] == [p.result for p in expected]  # type: ignore[attr-defined]


def test_portes_board_is_the_boards_form_with_pinned_empty() -> None:
    for pid, _ in fixture_cases()[:300]:
        inner = Position.from_position_id(pid)
        for color in Color:
            wrapped = PortesPosition(inner, color)
            b = wrapped.board()
            assert dict(b) == {**inner.to_board(color).as_dict(), "pinned": {}}
            assert variant("portes").from_board(b, color) == wrapped
            assert Position.from_board(Board.from_counts(b["white"], b["black"]), color) == inner


def test_portes_from_board_and_initial_are_the_position_of_before() -> None:
    start = variant("portes").initial()
    assert isinstance(start, PortesPosition)
    assert start.position == Position.initial()
    assert start.position.position_id() == "4HPwATDgc/ABMA"


def test_portes_outcome_is_single_gammon_or_backgammon() -> None:
    cases = [({"20": 10, "off": 5}, Ending.SINGLE, 1), ({"20": 15}, Ending.GAMMON, 2),
             ({"3": 1, "20": 14}, Ending.BACKGAMMON, 3),
             ({"bar": 1, "20": 14}, Ending.BACKGAMMON, 3)]
    for black, ending, points in cases:
        over = variant("portes").from_board({"white": {"off": 15}, "black": black}, "black")
        assert over.outcome() == Outcome(Color.WHITE, ending, points)
    assert variant("portes").initial().outcome() is None


# -- Plakoto and Fevga against the brute force ----------------------------------------


def agree(game: str, board_: dict[str, Any], on_roll: str, p: VariantPosition) -> list[str]:
    """Where ``p`` and the brute force of variants_oracle differ, for every roll."""
    problems = []
    mine_outcome = p.outcome()
    expected = oracle.outcome(game, board_)
    got = None if mine_outcome is None else (
        mine_outcome.winner.value if mine_outcome.winner else None, mine_outcome.points)
    if got != expected:
        problems.append(f"{board_} outcome {got} != {expected}")
    for roll in oracle.ROLLS:
        plays = p.legal_plays(roll)
        found = {oracle.canonical(play.result.board()) for play in plays}
        if len(found) != len(plays) or found != oracle.results(game, board_, on_roll, roll):
            problems.append(f"{board_} {on_roll} to play {roll}")
    return problems


def differential(game: str, walked: int, special: int, seed: int) -> int:
    """Compare on ``walked`` positions of random games and ``special`` random boards near
    the special rules, each with all 21 rolls; return the number of cases."""
    problems: list[str] = []
    for p in oracle.random_positions(game, seed, walked):
        problems += agree(game, dict(p.board()), p.on_roll.value, p)
    rng = random.Random(seed)
    for _ in range(special):
        board_, on_roll = oracle.SPECIAL[game](rng)
        problems += agree(game, board_, on_roll, variant(game).from_board(board_, on_roll))
    assert not problems, "\n".join(problems[:10])
    return (walked + special) * len(oracle.ROLLS)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["plakoto", "fevga"])
def test_legal_plays_agree_with_a_brute_force_on_random_positions(game: str) -> None:
    assert differential(game, walked=100, special=20, seed=11) == 2520


@pytest.mark.slow
@pytest.mark.parametrize("game", ["plakoto", "fevga"])
def test_legal_plays_agree_with_a_brute_force_on_many_random_positions(game: str) -> None:
    assert differential(game, walked=300, special=150, seed=12) == 9450
