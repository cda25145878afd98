"""The soak of Plakoto, Fevga and the tavli match, short: the hand's model of the
variants' single-die rules, a game of each through the whole pipeline, and the bugs
the variant soak found (each as the smallest scenario that shows it).

The long run is ``tools/soak.py --variant plakoto|fevga|tavli``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules import variant
from tavla_pi.testing.hand import Hand, HandStyle
from tavla_pi.testing.varhand import variant_turn
from tavla_pi.testing.varrules import VarSides, variant_orders, variant_partials
from tavla_pi.testing.varsoak import VariantSession

FAILURES = Path(__file__).parent / "soak_failures"


def replay(name: str, seed: int) -> list[str]:
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=seed)
    return [e.type for e in runner.run(list(read_scenario(FAILURES / name)))]


@pytest.mark.parametrize("name", ["plakoto", "fevga"])
def test_every_chosen_play_has_a_legal_order_and_its_result_is_a_partial_board(
        name: str) -> None:
    rng = random.Random(3)
    for _ in range(40):
        position = variant(name).initial()
        for _ in range(rng.randint(0, 30)):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            if not plays:
                break
            play = rng.choice(plays)
            start = VarSides.of(play)
            assert variant_orders(start, play, legal=True), (position, dice, play.notation)
            mine = play.result.theirs
            assert mine in variant_partials(start, dice)
            position = play.result
            if position.is_game_over():
                break


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), [("plakoto", 1), ("fevga", 1)])
def test_a_variant_game_commits_every_chosen_play_and_nothing_else(name: str,
                                                                   seed: int) -> None:
    result = VariantSession(load_pinmap(), seed, name, match_length=1).run()
    assert not result.failures, [str(f) for f in result.failures]
    assert result.counts["games"] == 1 and result.counts["plays_committed"] > 20


@pytest.mark.slow
def test_a_tavli_match_plays_the_three_games_in_turn() -> None:
    result = VariantSession(load_pinmap(), 2, "tavli", match_length=3).run()
    assert not result.failures, [str(f) for f in result.failures]
    assert result.counts["matches"] == 1
    assert result.counts["games_portes"] and result.counts["games_plakoto"]


@pytest.mark.slow  # a soak session played out: seconds
def test_an_illegal_move_read_as_a_legal_one_from_the_pile_is_unseen() -> None:
    # Found by the Fevga soak (seed 12, session 12000044, turn 8): Black 6-2 carries
    # 11 -> 4 (illegal) in one scan.  Black's start pile on 12 reads "12 to 13", so
    # the board also reads as 12/4 played and the checker of 11 still in the hand:
    # the referee says "lifted from 11", no out_of_sync.  The sensors cannot tell the
    # two; DONE is refused ("a checker is still in the hand"), never committed.
    result = VariantSession(load_pinmap(), 12000044, "fevga", match_length=1).run()
    assert not result.failures, [str(f) for f in result.failures]
    assert result.counts["illegal_far_unseen"] == 1


def test_no_illegal_checker_leaves_a_pinning_stack() -> None:
    # Found by the Plakoto soak (seed 1, session 1000052, game 3, turn 12, a wrong
    # commit): Black 4-3 lifted one of two checkers pinning White's on 19 and put it
    # on 8 (illegal).  Over the pin one black reads "1 to 2", Black's start pile on 1
    # "12 to 13": the board also read as 24/17 played, and DONE, pressed to be
    # refused, committed it.  The sensors cannot tell the two; the hand leaves such
    # placements out.
    board = {"white": {"2": 1, "14": 1, "19": 1, "20": 1, "21": 1, "24": 10},
             "black": {"1": 13, "19": 2}, "pinned": {"19": "white"}}
    start = variant("plakoto").from_board(board, "black")
    play = next(p for p in start.legal_plays((4, 3)) if p.notation == "6/3 6/2")
    hand = Hand(random.Random(3), HandStyle(illegal=1.0, done_on_illegal=0.0))
    first_from_the_pin = []  # the first step carrying a checker from 19 (a move action:
    #                          the hand's movements in one "move", none of them illegal)
    for seed in range(6):
        hand.rng.seed(seed)
        first_from_the_pin.append(next((step.what for step in variant_turn(hand, play)
                                        if step.carries is not None
                                        and step.carries[0] == "19"), "move"))
    assert first_from_the_pin and not any(w.startswith("illegal") for w in first_from_the_pin)
    assert hand.tally["illegal_unseen_skipped"] > 0


@pytest.mark.slow
def test_two_complete_plays_that_read_the_same_are_asked_however_far_apart() -> None:
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=21000209)
    scenario = read_scenario(FAILURES / "two_plays_read_the_same_far_apart.jsonl")
    events = list(runner.run(list(scenario)))
    turn = events[max(i for i, e in enumerate(events) if e.type == "rolled"):]
    assert turn[0]["player"] == "black" and turn[0]["dice"] == [3, 6]
    assert not [e for e in turn if e.type == "rejected"]  # CUBE lit the other play
    assert [e["play"] for e in turn if e.type == "played"] == ["5/off 3/off"]


@pytest.mark.slow  # a soak session played out: seconds
def test_a_lift_from_a_pile_under_a_phantom_counts_the_pile_right() -> None:
    events = replay("lift_under_a_phantom.jsonl", seed=21000307)
    turn = events[max(i for i, e in enumerate(events) if e == "rolled"):]
    assert "rejected" not in turn and turn[-1] == "played"


@pytest.mark.slow
def test_a_lift_under_a_phantom_of_the_same_colour_is_committed_at_done() -> None:
    events = replay("lift_under_a_same_colour_phantom.jsonl", seed=32000198)
    turn = events[max(i for i, e in enumerate(events) if e == "rolled"):]
    assert "rejected" not in turn and turn[-1] == "played"


@pytest.mark.slow
def test_a_checker_put_on_under_a_phantom_of_the_same_colour_is_committed_at_done() -> None:
    events = replay("put_under_a_same_colour_phantom.jsonl", seed=43000195)
    turn = events[max(i for i, e in enumerate(events) if e == "rolled"):]
    assert "rejected" not in turn and turn[-1] == "played"


def test_fifteen_on_a_point_set_up_are_laid_layer_by_layer() -> None:
    assert "game_started" in replay("fifteen_laid_at_once.jsonl", seed=1000003)
