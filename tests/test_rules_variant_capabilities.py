"""What a variant's position says of itself, so that callers ask it and never compare
names: the cube, pins, its Position ID, the colour on roll, whether a roll can be
played, the play to a board, and Fevga's first checker."""

from __future__ import annotations

import pytest
import variants_oracle as oracle
from variants_support import position

from tavla_pi.rules import Color, Position, VariantPosition, variant
from tavla_pi.rules.portes import PortesPosition, gnubg_play, gnubg_position, portes_play
from tavla_pi.rules.position import encode_position_id
from tavla_pi.rules.tavlimatch import MATCHES, computer_may_play, in_turn

NAMES = ("portes", "plakoto", "fevga")
DICE: list[tuple[int, int]] = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def walk(game: str, count: int = 150, seed: int = 11) -> list[VariantPosition]:
    if game == "portes":
        return _portes_walk(count, seed)
    return list(oracle.random_positions(game, seed, count))


def _portes_walk(count: int, seed: int) -> list[VariantPosition]:
    import random

    rng = random.Random(seed)
    found: list[VariantPosition] = []
    p: VariantPosition = variant("portes").initial()
    while len(found) < count:
        found.append(p)
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if p.is_game_over():
            p = variant("portes").initial()
        elif plays:
            p = rng.choice(plays).result
        else:
            p = p.with_on_roll(p.on_roll.opponent)
    return found


def test_only_portes_has_the_cube_and_only_plakoto_pins() -> None:
    starts = {name: variant(name).initial() for name in NAMES}
    assert {n for n, p in starts.items() if p.has_cube} == {"portes"}
    assert {n for n, p in starts.items() if p.pins} == {"plakoto"}
    assert {n for n in NAMES if variant(n).has_cube} == {"portes"}
    assert {n for n in NAMES if variant(n).pins} == {"plakoto"}
    assert {n for n in NAMES if variant(n).gnubg_plays} == {"portes"}


def test_only_a_match_of_portes_alone_is_the_computers_and_only_tavli_is_in_turn() -> None:
    assert [m for m in MATCHES if computer_may_play(m)] == ["portes"]
    assert [m for m in MATCHES if in_turn(m)] == ["tavli"]
    assert not in_turn(None) and not in_turn("Tavli")
    with pytest.raises(ValueError, match="unknown match 'narde'"):
        computer_may_play("narde")


def test_the_state_board_is_section_1s_in_portes_and_section_2s_elsewhere() -> None:
    for p in walk("portes", 40):
        gnubg = gnubg_position(p)
        assert gnubg is not None
        assert p.state_board() == gnubg.to_board(p.on_roll).as_dict()
        assert "pinned" not in p.state_board()
    for name in ("plakoto", "fevga"):
        for p in walk(name, 40):
            assert p.state_board() == p.board()


@pytest.mark.parametrize("name", NAMES)
def test_a_recorded_play_is_found_by_what_the_game_says_is_the_authority(name: str) -> None:
    for p in walk(name, 20):
        for dice in DICE[::7]:
            for play in p.legal_plays(dice)[:3]:
                pid, board = play.result.position_id(), play.result.board()
                assert p.recorded_play(dice, pid, board) == play
                if p.has_cube:  # Portes: the Position ID says it, whatever the board
                    assert p.recorded_play(dice, pid, None) == play
                    assert p.recorded_play(dice, "AAAAAAAAAAAAAA", board) is None
                else:  # Plakoto and Fevga: the board says it, the ID is informative
                    assert p.recorded_play(dice, "not an id", board) == play
                    assert p.recorded_play(dice, pid, None) is None


@pytest.mark.parametrize("name", NAMES)
def test_with_on_roll_keeps_the_checkers_and_round_trips(name: str) -> None:
    for p in walk(name):
        other = p.with_on_roll(p.on_roll.opponent)
        assert other.on_roll is p.on_roll.opponent
        assert other.board() == p.board()
        assert other.with_on_roll(p.on_roll) == p
        assert p.with_on_roll(p.on_roll) is p


@pytest.mark.parametrize("name", NAMES)
def test_start_is_the_initial_position_with_either_colour_on_roll(name: str) -> None:
    v = variant(name)
    assert v.start(Color.WHITE) == v.initial()
    black = v.start(Color.BLACK)
    assert black.on_roll is Color.BLACK
    assert black.board() == v.initial().board() == v.start_board()


@pytest.mark.parametrize("name", NAMES)
def test_the_position_id_survives_a_round_trip_through_the_board(name: str) -> None:
    for p in walk(name):
        again = variant(name).from_board(p.board(), p.on_roll)
        assert again.position_id() == p.position_id()


def test_portes_position_id_is_gnu_backgammons() -> None:
    for p in walk("portes"):
        gnubg = gnubg_position(p)
        assert gnubg is not None and p.position_id() == gnubg.position_id()
    assert variant("portes").initial().position_id() == Position.initial().position_id()


@pytest.mark.parametrize("name", ["plakoto", "fevga"])
def test_a_greek_position_id_encodes_the_own_counts(name: str) -> None:
    for p in walk(name, 40):
        assert isinstance(p, variant(name).initial().__class__)
        mine, theirs = p.mine, p.theirs
        assert p.position_id() == encode_position_id((*theirs, 0), (*mine, 0))


@pytest.mark.parametrize("name", NAMES)
def test_has_play_says_whether_a_roll_has_a_legal_play(name: str) -> None:
    for p in walk(name, 60):
        for dice in DICE[::5]:
            assert p.has_play(dice) is bool(p.legal_plays(dice))


def test_a_closed_roll_has_no_play() -> None:
    closed = position("fevga", {24: 14, 23: 1}, {22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1,
                                                   12: 9})
    assert not closed.has_play((6, 5))
    assert variant("fevga").initial().has_play((6, 5))


@pytest.mark.parametrize("name", NAMES)
def test_play_to_finds_each_legal_play_by_its_resulting_board(name: str) -> None:
    for p in walk(name, 30):
        for dice in DICE[::7]:
            plays = p.legal_plays(dice)
            for play in plays[:1] + plays[len(plays) // 2:][:1] + plays[-1:]:
                found = p.play_to(dice, play.result.board())
                assert found is not None and found.result == play.result
            assert p.play_to(dice, p.board()) is None or not p.legal_plays(dice)


def test_play_to_a_board_no_play_reaches_is_none() -> None:
    start = variant("plakoto").initial()
    assert start.play_to((6, 5), start.board()) is None


def test_gnubg_position_and_play_are_portes_only() -> None:
    assert gnubg_position(PortesPosition.initial()) == Position.initial()
    for name in ("plakoto", "fevga"):
        start = variant(name).initial()
        assert gnubg_position(start) is None
        with pytest.raises(TypeError):
            gnubg_play(start.legal_plays((6, 5))[0])


def test_a_portes_play_round_trips_through_gnu_backgammons() -> None:
    for p in walk("portes", 40):
        for play in p.legal_plays((6, 1)):
            gnubg = gnubg_play(play)
            assert gnubg in Position.legal_plays(gnubg.position, (6, 1))
            assert portes_play(gnubg, p.on_roll) == play


# -- Fevga's first checker ---------------------------------------------------------------


def test_no_first_checker_is_bound_at_the_start_or_outside_fevga() -> None:
    for name in NAMES:
        assert variant(name).initial().bound_first_checker() is None
    for p in walk("plakoto", 60) + walk("portes", 60):
        assert p.bound_first_checker() is None


def test_the_first_checker_is_bound_until_it_passes_the_opponents_start() -> None:
    white = position("fevga", {24: 14, 18: 1}, {12: 15})
    assert white.bound_first_checker() == "18"
    assert position("fevga", {24: 14, 13: 1}, {12: 15}).bound_first_checker() == "13"
    assert position("fevga", {24: 14, 11: 1}, {12: 15}).bound_first_checker() is None
    assert position("fevga", {24: 13, 18: 2}, {12: 15}).bound_first_checker() is None
    black = position("fevga", {24: 15}, {12: 14, 7: 1}, on_roll="black")
    assert black.bound_first_checker() == "7"
    after = position("fevga", {24: 15}, {12: 14, 20: 1}, on_roll="black")
    assert after.bound_first_checker() is None  # absolute 20 is Black's own 8: past


def test_while_the_first_checker_is_bound_every_play_starts_with_it() -> None:
    bound = 0
    for p in walk("fevga", 400, seed=5):
        point = p.bound_first_checker()
        if point is None or p.on_roll is not Color.WHITE:
            continue
        bound += 1
        for dice in DICE:
            for play in p.legal_plays(dice):
                assert play.moves[0][0] == int(point)
    assert bound
