"""What a variant answers so that nobody outside the rules asks its name: how one die
moves a checker (``movement``), its own numbering of the points (``own_point``), its
place in a tavli match (``slot``), and ``rules.variants.NAMES`` as the one list of names."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_rules_variant_capabilities import walk

from tavla_pi.rules import Color, variant
from tavla_pi.rules.tavli import Movement
from tavla_pi.rules.tavlimatch import (
    GAMES,
    MATCHES,
    TavliMatch,
    TavliRules,
    computer_may_play,
    cycle_of,
    gnubg_match,
    in_turn,
)
from tavla_pi.rules.variants import DEFAULT, NAMES

W, B = Color.WHITE, Color.BLACK


def test_each_game_moves_a_checker_its_own_way() -> None:
    assert {n: variant(n).movement for n in NAMES} == {
        "portes": Movement.HITS, "plakoto": Movement.PINS, "fevga": Movement.BLOCKS}
    assert len({variant(n).movement for n in NAMES}) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_position_of_a_game_says_its_games_movement(name: str) -> None:
    assert {p.movement for p in walk(name, 30)} == {variant(name).movement}


def test_whites_own_points_are_the_absolute_ones_in_every_game() -> None:
    for name in NAMES:
        assert [variant(name).own_point(n, W) for n in range(1, 25)] == list(range(1, 25))


def test_blacks_own_points_run_the_other_way_except_in_fevga() -> None:
    for name in ("portes", "plakoto"):
        assert [variant(name).own_point(n, B) for n in (1, 6, 12, 13, 24)] == [24, 19, 13, 12, 1]
    fevga = variant("fevga")
    assert [fevga.own_point(n, B) for n in (1, 6, 12, 13, 24)] == [13, 18, 24, 1, 12]


@pytest.mark.parametrize("name", NAMES)
def test_each_colours_start_is_its_own_24(name: str) -> None:
    start = variant(name).initial().board()
    for color in Color:
        far = [int(p) for p, n in start[color.value].items() if p.isdigit() and n]
        own = [variant(name).own_point(p, color) for p in far]
        assert max(own) == 24


@pytest.mark.parametrize("name", NAMES)
def test_own_points_are_where_the_rules_count_each_sides_checkers(name: str) -> None:
    game = variant(name)
    for p in walk(name, 60):
        sides = {p.on_roll: p.mine, p.on_roll.opponent: p.theirs}
        for color, own in sides.items():
            on_points = {point: n for point, n in p.board()[color.value].items()
                         if point.isdigit()}
            from_sides = {str(a): own[game.own_point(a, color) - 1] for a in range(1, 25)
                          if own[game.own_point(a, color) - 1]}
            assert from_sides == on_points


@pytest.mark.parametrize("name", NAMES)
def test_own_points_number_each_colours_24_points_once(name: str) -> None:
    for color in Color:
        own = [variant(name).own_point(n, color) for n in range(1, 25)]
        assert sorted(own) == list(range(1, 25))


def test_a_games_slot_is_its_place_in_the_tavli_cycle() -> None:
    assert [variant(n).slot for n in NAMES] == [0, 1, 2]
    assert [variant(n).slot for n in cycle_of("tavli")] == [0, 1, 2]


def test_the_variants_names_are_listed_once() -> None:
    assert GAMES is NAMES
    assert MATCHES[:-1] == NAMES
    assert in_turn(MATCHES[-1])


def test_only_a_match_of_games_gnubg_plays_is_gnubgs_and_the_computers() -> None:
    assert [m for m in MATCHES if gnubg_match(m)] == ["portes"]
    assert all(gnubg_match(m) == computer_may_play(m) for m in MATCHES)
    assert all(gnubg_match(m) == all(variant(g).gnubg_plays for g in cycle_of(m))
               for m in MATCHES)


def test_the_game_played_where_none_is_named_is_portes() -> None:
    assert DEFAULT == "portes"
    assert variant(DEFAULT).has_cube and gnubg_match(DEFAULT)


@pytest.mark.parametrize("name", MATCHES)
def test_the_cube_is_allowed_in_a_game_with_a_cube_and_in_tavli_by_the_rule(name: str) -> None:
    for rule in (False, True):
        match = TavliMatch.new(name, 5, TavliRules(cube_in_portes=rule))
        for game in range(1, 4):
            now = replace(match, game=game)
            expected = variant(now.variant).has_cube and (not in_turn(name) or rule)
            assert now.cube_allowed is expected
    assert TavliMatch.new("portes", 5).cube_allowed
    assert not TavliMatch.new("tavli", 5).cube_allowed
