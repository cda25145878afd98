"""Each game's single-die steps are chosen by how the game moves a checker
(``VariantPosition.movement``), never by the position's type or name."""

from __future__ import annotations

import pytest

from tavla_pi.reconcile.steps import PortesSteps, steps_for
from tavla_pi.reconcile.varsteps import FevgaSteps, PlakotoSteps
from tavla_pi.rules import Color, variant
from tavla_pi.rules.variants import NAMES

STEPS = {"portes": PortesSteps, "plakoto": PlakotoSteps, "fevga": FevgaSteps}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("on_roll", list(Color))
def test_a_games_steps_are_its_movements_for_the_player_on_roll(name: str,
                                                                on_roll: Color) -> None:
    steps = steps_for(variant(name).start(on_roll))
    assert type(steps) is STEPS[name]
    assert steps.mover is on_roll


def test_only_the_game_that_hits_has_steps_that_hit() -> None:
    hitting = {n for n in NAMES if steps_for(variant(n).initial()).hits}
    assert hitting == {"portes"}
    lifting = {n for n in NAMES if steps_for(variant(n).initial()).lifts_at_start}
    assert lifting == {"plakoto", "fevga"}


@pytest.mark.parametrize("name", NAMES)
def test_the_steps_cell_of_a_movers_own_point_is_the_variants_numbering(name: str) -> None:
    game = variant(name)
    for color in Color:
        steps = steps_for(game.start(color))
        for point in range(1, 25):
            assert game.own_point(steps.cell(point) + 1, color) == point
