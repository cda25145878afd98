"""Setup guidance for each variant's start: board_fixes of a §2 board on the modelled board."""

from __future__ import annotations

import pytest
from reconcile_support import B, W
from reconcile_variant_support import VariantTable

from tavla_pi.reconcile import Fix, board_fixes
from tavla_pi.reconcile.fixes import board_dict_cells
from tavla_pi.rules import Position, variant
from tavla_pi.rules.tavli import BoardDict

EMPTY: BoardDict = {"white": {"off": 15}, "black": {"off": 15}, "pinned": {}}


def empty_table(name: str, seed: int = 0) -> VariantTable:
    table = VariantTable(variant(name).initial(), seed)
    table.lay_out(EMPTY)
    return table


@pytest.mark.parametrize(("name", "black_start"), [("plakoto", "1"), ("fevga", "12")])
def test_an_empty_board_is_told_each_variants_start(name: str, black_start: str) -> None:
    fixes = board_fixes(variant(name).initial().board(), empty_table(name).observation())
    expected = sorted([Fix("24", W, 15), Fix(black_start, B, 15)], key=lambda f: int(f.at))
    assert fixes == tuple(expected)


@pytest.mark.parametrize("name", ["portes", "plakoto", "fevga"])
def test_each_variants_start_laid_out_needs_no_fix(name: str) -> None:
    start = variant(name).initial()
    assert board_fixes(start.board(), VariantTable(start, 1).observation()) == ()


def test_a_portes_board_in_the_contracts_form_gets_the_same_fixes_as_a_board() -> None:
    table = empty_table("portes", seed=2)
    board = Position.initial().to_board(W)
    dict_form = variant("portes").initial().board()
    assert board_fixes(dict_form, table.observation()) == board_fixes(board,
                                                                      table.observation())


def test_a_portes_start_on_a_fevga_game_is_told_what_to_move() -> None:
    table = VariantTable(variant("portes").initial(), seed=3)
    fixes = board_fixes(variant("fevga").initial().board(), table.observation())
    assert Fix("24", W, 13) in fixes and Fix("12", B, 10) in fixes
    assert all(f.delta < 0 for f in fixes if f.at not in ("24", "12"))


def test_a_plakoto_pin_laid_by_hand_fits_and_a_missing_pinned_checker_is_asked_for() -> None:
    blot = variant("plakoto").from_board(
        {"white": {"24": 13, "8": 2}, "black": {"1": 14, "5": 1}}, on_roll="white")
    table = VariantTable(blot, seed=4)
    table.observation()                          # the decoder sees the blot, then the pin
    table.lift("8", W)
    table.observation()
    table.place("5", W)                          # laid on top of the blot: a pin
    assert table.observation().point(5).covered is B
    pinned = variant("plakoto").from_board(
        {"white": {"24": 13, "8": 1, "5": 1}, "black": {"1": 14, "5": 1},
         "pinned": {"5": "black"}}, on_roll="black")
    assert board_fixes(pinned.board(), table.observation()) == ()
    unpinned = variant("plakoto").from_board(
        {"white": {"24": 13, "8": 1, "5": 1}, "black": {"1": 15}}, on_roll="black")
    fixes = board_fixes(unpinned.board(), table.observation())
    assert Fix("5", B, -1) in fixes


def test_a_pin_under_two_counts_the_two_on_top_and_fits_when_laid_by_hand() -> None:
    board = variant("plakoto").from_board(
        {"white": {"24": 14, "16": 1}, "black": {"1": 13, "16": 2}, "pinned": {"16": "white"}},
        on_roll="white").board()
    cells, pinned = board_dict_cells(board)
    assert (cells[15], cells[23], cells[0], pinned) == (-2, 14, -13, frozenset({15}))
    position = variant("plakoto").from_board(board, on_roll="white")
    assert board_fixes(board, VariantTable(position, seed=5).observation()) == ()
