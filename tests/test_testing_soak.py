"""The soak test, short: a scripted hand, random games through the whole pipeline.

The long run is ``tools/soak.py``.  Here: the hand moves every play it is
given (checked on the modelled board alone), a few complete games and a
short match through the real pipeline with every event checked, a failing
session's scenario replays to the same events, and the bugs the soak found,
each as the smallest scenario that shows it (kept as regression tests).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from reconcile_support import own

from tavla_pi.clock import VirtualClock
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.hardware.pinmap import PinMap, load_pinmap
from tavla_pi.reconcile import Ambiguous
from tavla_pi.replay.actions import (
    SHORT_PRESS_MS,
    Action,
    GlitchAction,
    LiftAction,
    MoveAction,
    PlaceAction,
    PressAction,
    WaitAction,
    read_scenario,
)
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules import Color, Play, Position
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.testing.differential import Differential
from tavla_pi.testing.hand import CAREFUL, Hand, HandStyle, undo
from tavla_pi.testing.handrules import partial_boards
from tavla_pi.testing.scenario_writer import action_json, scenario_lines
from tavla_pi.testing.soak import Players, Session

FAILURES = Path(__file__).parent / "soak_failures"

KNOWN: dict[str, str] = {}
"""Failures the soak still finds (kind -> scenario in soak_failures/): none now.

The scenarios in soak_failures/ are the bugs it found and that were fixed
(a checker on a point the opponent holds, a bear-off from a tall stack,
lights while two readings stand, a checker carried over a full point, a
glitch hiding the last lift from the soak's own judge); their tests below keep
them fixed.
"""

CLUMSY = HandStyle(any_order=0.3, multi_die=0.5, use_move=0.3, slide=0.3, glitch=0.1,
                   illegal=0.1, early_done=0.1, takeback=0.2, knock=0.1)
CLUMSY_FAR = CLUMSY
"""Clumsy, illegal placements included (on points no die reaches and on held points)."""


def random_turns(rng: random.Random, games: int) -> list[tuple[Play, Color]]:
    """(play, mover) of every turn of random games played by the rules engine."""
    turns = []
    for _ in range(games):
        position, mover = Position.initial(), rng.choice(tuple(Color))
        while not position.is_game_over():
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            if plays:
                play = rng.choice(plays)
                turns.append((play, mover))
                position = play.result
            else:
                position = position.swap()
            mover = mover.opponent
    return turns


def apply_to(board: SimBoard, actions: list[Action]) -> None:
    """Do the hand's checker actions on the modelled board (nothing else)."""
    for action in actions:
        match action:
            case LiftAction(at, color):
                board.lift(at, color)
            case PlaceAction(at, color):
                board.place(at, color)
            case MoveAction(source, target, color):
                board.lift(source, color)
                board.place(target, color)
            case WaitAction() | GlitchAction() | PressAction():
                pass
            case _:
                raise AssertionError(f"a hand does not {action}")


def laid_out(pinmap: PinMap, position: Position, mover: Color) -> SimBoard:
    board = SimBoard(pinmap, VirtualClock(), random.Random(0))
    counts = {(loc, c): n for loc, c, n in position.to_board(mover).items() if loc != "off"}
    board.lay_out(counts)
    return board


def truth(position: Position, on_roll: Color) -> dict[tuple[str, Color], int]:
    return {(loc, c): n for loc, c, n in position.to_board(on_roll).items()}


# -- the hand alone -------------------------------------------------------------------


@pytest.mark.parametrize("style", [CAREFUL, HandStyle(), CLUMSY],
                         ids=["careful", "usual", "clumsy"])
def test_the_hand_puts_every_chosen_play_on_the_board(pinmap: PinMap, style: HandStyle) -> None:
    rng = random.Random(11)
    hand = Hand(rng, style)
    turns = random_turns(rng, 6)
    for play, mover in turns:
        board = laid_out(pinmap, play.position, mover)
        steps = hand.turn(play, mover)
        apply_to(board, [a for s in steps for a in s.actions])
        assert board.counts() == truth(play.result, mover.opponent), (play, steps)
        assert board.in_hand(mover) == board.in_hand(mover.opponent) == 0
    assert len(turns) > 200
    if style is CLUMSY:
        for kind in ("illegal_held", "illegal_far", "early_done", "takeback_play", "knock",
                     "slide", "multi_die", "order_any", "hit_in_hand", "hit_after", "glitch"):
            assert hand.tally[kind] > 0, kind


def test_a_careful_hand_moves_one_die_at_a_time_in_a_legal_order(pinmap: PinMap) -> None:
    rng = random.Random(3)
    for play, mover in random_turns(rng, 2):
        actions = Hand(rng, CAREFUL).actions(play, mover)
        moves = [a for a in actions if isinstance(a, MoveAction) and a.color is mover]
        assert len(moves) == len(play.moves)
        assert not any(isinstance(a, PressAction | GlitchAction | WaitAction) for a in actions)


def test_illegal_placements_go_where_no_legal_play_reads() -> None:
    rng = random.Random(5)
    hand = Hand(rng, HandStyle(illegal=1.0, done_on_illegal=1.0))
    for play, mover in random_turns(rng, 2):
        sides = {m for m, _ in partial_boards(play.position, play.dice)}
        for step in hand.turn(play, mover):
            if step.what.startswith("illegal"):
                assert step.expect == "out_of_sync" and step.carries is not None
                src, bad = step.carries
                assert bad not in (src, "off", "bar")
            if step.what.startswith("done_on"):
                assert step.expect == "rejected"
        assert play.result.theirs in sides   # every legal result is a partial board


def test_undo_takes_actions_back(pinmap: PinMap) -> None:
    rng = random.Random(8)
    for play, mover in random_turns(rng, 1):
        board = laid_out(pinmap, play.position, mover)
        actions = Hand(rng, CLUMSY).actions(play, mover)
        apply_to(board, actions)
        apply_to(board, undo(actions))
        assert board.counts() == truth(play.position, mover)


def test_scenario_lines_are_contract_json() -> None:
    lines = scenario_lines(["a note", LiftAction("bar", Color.BLACK),
                            MoveAction("6", "off", Color.WHITE),
                            PressAction("menu", 2000, long=True),
                            GlitchAction("5", Color.WHITE, 40)])
    assert lines == [
        "# a note", '{"lift": "bar", "color": "black"}', '{"move": "6/off", "color": "white"}',
        '{"hold": "menu", "ms": 2000}', '{"glitch": {"at": "5", "color": "white", "ms": 40}}']
    assert action_json(WaitAction(30)) == {"wait": 30}


# -- games through the whole pipeline --------------------------------------------------


def check(session: Session) -> None:
    result = session.run()
    counts = result.counts
    assert counts["wrong_commit"] == counts["stuck"] == counts["error"] == 0, result.failures
    unknown = [f for f in result.failures if f.kind not in KNOWN]
    assert not unknown, unknown
    assert counts["plays_committed"] == counts["turns"] > 0
    assert counts["early_done"] == counts["early_done_answered"] + counts["early_done_skipped"]
    assert counts["illegal_recovered"] == counts["illegal"]
    checked = verify(session.events, session.settings)  # the journal it wrote is trusted whole
    assert (checked.trusted, checked.reason) == (len(session.events), "")


@pytest.mark.slow
def test_money_games_commit_every_chosen_play_and_nothing_else(pinmap: PinMap) -> None:
    session = Session(pinmap, 20240611, games=3, style=CLUMSY_FAR)
    check(session)
    counts = session.counts
    assert counts["games"] == 3 and counts["sessions"] == 1
    assert counts["illegal_far_answered"] > 0 and counts["done_on_illegal_far_answered"] > 0


@pytest.mark.slow
def test_a_short_match_ends_as_the_rules_say(pinmap: PinMap) -> None:
    session = Session(pinmap, 7, match_length=3, style=replace(HandStyle(), illegal_held=False))
    check(session)
    assert session.counts["matches"] == 1
    assert max(session.match.state.score) >= 3


@pytest.mark.slow
def test_a_dumped_session_replays_to_the_same_events(pinmap: PinMap, tmp_path: Path) -> None:
    session = Session(pinmap, 5, games=1, dump_dir=tmp_path)
    session.hand.style = HandStyle(glitch=0.2, slide=0.3, knock=0.1, illegal_held=False)
    session.run()
    path = Path(session.dump("check"))
    runner = ScenarioRunner(pinmap, GameSettings(), seed=5)
    replayed = list(runner.run(list(read_scenario(path))))
    assert [e.to_dict() for e in replayed[:len(session.events)]] == [
        e.to_dict() for e in session.events]
    assert any(e.type == "game_over" for e in session.events)


# -- what the soak found ---------------------------------------------------------------


def replay(name: str, seed: int = 0, match_length: int = 0) -> list[Event]:
    settings = GameSettings(match_length=match_length)
    runner = ScenarioRunner(load_pinmap(), settings, seed=seed)
    return list(runner.run(list(read_scenario(FAILURES / name))))


def test_a_checker_on_a_point_the_opponent_holds_is_out_of_sync() -> None:
    events = replay("held_point.jsonl")
    fixes = [e for e in events if e.type == "out_of_sync"]
    assert fixes and {"at": "12", "color": "white", "remove": 1} in fixes[-1]["fix"]


def test_a_bear_off_onto_a_held_point_is_never_committed() -> None:
    events = replay("bear_off_onto_held_point.jsonl")
    assert not [e for e in events if e.type == "played"]
    assert [e for e in events if e.type == "rejected"]


def test_a_bear_off_from_a_tall_stack_can_be_committed() -> None:
    events = replay("tall_stack_bear_off.jsonl")
    played = [e for e in events if e.type == "played"]
    assert played and played[0]["play"] == "1/off(2)"


def test_a_lifted_checker_lights_the_destinations_of_every_reading() -> None:
    events = replay("lights_under_ambiguity.jsonl")
    lifted = [e for e in events if e.type == "lifted" and e["from"] == "2"]
    assert lifted and "off" in lifted[0]["destinations"]


def test_a_play_after_an_unseen_takeback_onto_a_tall_stack_is_committed() -> None:
    events = replay("takeback_tall_stack.jsonl")
    played = [e for e in events if e.type == "played"]
    assert played and played[0]["play"] == "2/off 1/off"


def test_cube_among_candidates_lights_the_next_one_and_commits_nothing() -> None:
    # Found by the soak (seed 2000, session 2000006018): CUBE, pressed to light the
    # next of two plays that read the same, also left a DONE pending, which
    # committed the candidate lit before the press.
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=0)
    lines = read_scenario(FAILURES / "tall_stack_bear_off.jsonl")
    for line in list(lines)[:4]:
        list(runner.apply(line.action))
    turn = runner.referee.turn
    assert turn is not None and isinstance(turn.verdict, Ambiguous)
    first = turn.verdict.candidates[0]
    cube = PressAction("black.cube", SHORT_PRESS_MS, long=False)
    pressed = [*runner.apply(cube), *runner.apply(WaitAction(1000))]
    assert [e.type for e in pressed if e.type != "lifted"] == []
    assert isinstance(turn.verdict, Ambiguous) and turn.verdict.candidates[0] != first
    done = runner.apply(PressAction("black.roll", SHORT_PRESS_MS, long=False))
    assert [e["play"] for e in done if e.type == "played"] == ["1/off(2)"]


def test_the_state_names_the_play_done_confirms_when_plays_read_the_same() -> None:
    # What the soak's player reads (the lights double-flash where the plays differ,
    # the same for each): here a complete play and a partial one read the same.
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=0)
    assert runner.state()["confirms"] is None
    for line in list(read_scenario(FAILURES / "tall_stack_bear_off.jsonl"))[:4]:
        list(runner.apply(line.action))
    state = runner.state()
    assert state["candidates"] == ["24"] and state["confirms"] == "1/off(2)"
    list(runner.apply(PressAction("black.cube", SHORT_PRESS_MS, long=False)))
    assert runner.state()["confirms"] == "1/off(2)"  # the partial one first: DONE skips it
    done = runner.apply(PressAction("black.roll", SHORT_PRESS_MS, long=False))
    assert [e["play"] for e in done if e.type == "played"] == ["1/off(2)"]
    assert runner.state()["candidates"] == [] and runner.state()["confirms"] is None


def test_a_checker_put_on_a_held_point_over_a_lone_one_is_out_of_sync() -> None:
    events = [e for e in replay("checker_on_a_held_point_masked.jsonl") if e.type != "lifted"]
    kinds = [e.type for e in events]
    assert kinds[2:] == ["out_of_sync", "rejected", "in_sync", "played"]
    assert events[2]["fix"] == [{"at": "24", "color": "white", "remove": 1}]
    assert events[-1]["play"] == "2/off(2)"


def last_turn(events: list[Event]) -> list[Event]:
    """The events from the last roll on."""
    rolled = max(i for i, e in enumerate(events) if e.type == "rolled")
    return events[rolled:]


@pytest.mark.slow  # a soak session played out: seconds
def test_a_checker_carried_over_a_full_point_does_not_add_to_it() -> None:
    turn = last_turn(replay("carried_over_full_point.jsonl", seed=1000003023, match_length=5))
    assert turn[0]["player"] == "black" and turn[0]["dice"] == [1, 1]
    played = [e for e in turn if e.type == "played"]
    assert played and played[0]["play"] == "bar/24*/23* 6/5* 3/2"
    assert not [e for e in turn if e.type == "out_of_sync"]


@pytest.mark.slow
def test_a_checker_carried_over_a_tall_point_does_not_add_to_it() -> None:
    turn = last_turn(replay("carried_over_tall_point.jsonl", seed=1000003059, match_length=3))
    assert turn[0]["player"] == "black" and turn[0]["dice"] == [4, 3]
    played = [e for e in turn if e.type == "played"]
    assert played and played[0]["play"] == "16/12 15/12"
    assert not [e for e in turn if e.type == "out_of_sync"]


@pytest.mark.slow
def test_a_phantom_over_a_start_pile_after_a_third_layer_lift_adds_no_pin() -> None:
    turn = last_turn(replay("third_layer_lift_then_phantom.jsonl", seed=13000118,
                            match_length=5))
    assert turn[0]["player"] == "white" and turn[0]["dice"] == [1, 1]
    assert not [e for e in turn if e.type == "out_of_sync"]
    refused = [e["reason"] for e in turn if e.type == "rejected" and e["player"] == "white"]
    assert refused == ["not all dice are used"]  # the hand's early DONE
    assert [e["play"] for e in turn if e.type == "played"] == ["24/22(2)"]


@pytest.mark.slow
def test_done_pressed_while_a_glitch_hides_the_last_lift_commits_the_play() -> None:
    turn = last_turn(replay("glitch_hides_last_lift.jsonl", seed=1000003014))
    assert turn[0]["player"] == "black" and turn[0]["dice"] == [6, 4]
    played = [e for e in turn if e.type == "played"]
    assert played and played[0]["play"] == "5/off 3/off"


@pytest.mark.slow
def test_the_soak_player_looks_at_the_lights_once_its_glitches_are_over(
        pinmap: PinMap) -> None:
    check(Session(pinmap, 1000003014, games=1))  # the session of glitch_hides_last_lift


def test_a_blot_swapped_for_its_hitter_within_one_scan_is_read_as_the_hitter() -> None:
    turn = last_turn(replay("hit_within_one_scan.jsonl", seed=4000012341))
    assert turn[0]["player"] == "black" and turn[0]["dice"] == [2, 2]
    kinds = [e.type for e in turn if e.type != "lifted"]
    assert kinds[:2] == ["rolled", "played"] and "out_of_sync" not in kinds
    assert [e["play"] for e in turn if e.type == "played"] == ["24/22*/20 11/7*"]


def illegal_targets(position: Position, dice: tuple[int, int],
                    mover: Color) -> tuple[set[str], Hand]:
    """Where a hand that always errs puts its illegal checkers over 20 turns of
    ``position``'s plays, and the hand (its tally)."""
    plays = position.legal_plays(dice)
    hand = Hand(random.Random(3), HandStyle(illegal=1.0, done_on_illegal=0.0))
    wrong = set()
    for seed in range(20):
        hand.rng.seed(seed)
        for step in hand.turn(plays[seed % len(plays)], mover):
            if step.what.startswith("illegal") and step.carries is not None:
                wrong.add(step.carries[1])
    return wrong, hand


def test_no_illegal_checker_goes_where_the_sensors_cannot_see_it() -> None:
    # Found by the soak (seed 5000, session 5000015600): a black checker put on
    # White's twelve-checker point lies on the third layer, which the sensors
    # cannot tell from the tolerances; the hand leaves such placements out.
    position = Position(own(p1=6, p2=4, p3=5), own(p1=12, p2=2, p6=1))
    wrong, hand = illegal_targets(position, (4, 4), Color.BLACK)
    assert wrong and "1" not in wrong    # Black's 24 point, White's ace point: twelve there
    assert hand.tally["illegal_unseen_skipped"] > 0


def test_no_illegal_checker_goes_onto_the_movers_own_twelve() -> None:
    # Found by the tavli soak (seed 43, session 43000229, a wrong commit): White put
    # a checker from 2 on its own twelve-checker ace point, where a 13th lies on the
    # third layer; the board read as 3/off played (the tray is not sensed), and DONE,
    # pressed to be refused, committed it.  The hand leaves such placements out.
    position = Position(own(p1=12, p3=1), own(p1=5, p2=3, p6=2, p7=1, p8=1, p11=2))
    wrong, hand = illegal_targets(position, (5, 1), Color.WHITE)
    assert wrong and "1" not in wrong
    assert hand.tally["illegal_unseen_skipped"] > 0


@pytest.mark.slow
def test_a_checker_swapped_for_a_stronger_one_at_setup_is_still_one() -> None:
    turn = last_turn(replay("setup_swaps_a_stronger_checker.jsonl", seed=6000018286))
    kinds = [e.type for e in turn if e.type != "lifted"]
    assert kinds[:2] == ["rolled", "played"] and "out_of_sync" not in kinds[:2]
    assert [e["play"] for e in turn if e.type == "played"] == ["11/10 8/4"]


@pytest.mark.slow
def test_an_illegal_placement_made_again_before_the_board_settles_is_still_answered(
        pinmap: PinMap) -> None:
    # Found by the soak (seed 7000, session 7000021450): a checker put back on the
    # point where the last illegal one stood, within one stable frame; the referee
    # still (rightly) asks to fix that point, with no new event to say so.
    check(Session(pinmap, 7000021450, games=3))


@pytest.mark.slow
def test_a_step_up_from_a_reading_taken_without_history_counts_no_second_checker() -> None:
    turn = last_turn(replay("masked_without_history.jsonl", seed=7000021582, match_length=5))
    kinds = [e.type for e in turn if e.type != "lifted"]
    assert "rejected" not in kinds[:kinds.index(EventType.PLAYED)]
    assert [e["play"] for e in turn if e.type == "played"] == ["24/18 22/16 8/2(2)"]


@pytest.mark.parametrize(("name", "color", "carried", "play"), [
    ("held_reading_outlives_a_lift.jsonl", "white", ("3", "1"), "3/1 3/off"),
    ("held_reading_outlives_a_lift_black.jsonl", "black", ("21", "24"), "4/1 4/off"),
    ("held_reading_outlives_a_lift_ace.jsonl", "white", ("2", "1"), "2/1 2/off"),
], ids=["9200027635", "7000021637", "31337094117"])
def test_a_checker_put_down_ends_the_reading_of_one_held(
        name: str, color: str, carried: tuple[str, str], play: str) -> None:
    runner = ScenarioRunner(load_pinmap(), GameSettings(), seed=0)
    *moves, done = read_scenario(FAILURES / name)
    events = [e for line in moves for e in runner.apply(line.action)]
    lifted = [(e["from"], e["destinations"]) for e in events if e.type == "lifted"]
    assert lifted[-1] == (carried[0], [carried[1]])
    state = runner.state()
    assert state["lifted"] is None and state["press_done"]
    played = [e for e in runner.apply(done.action) if e.type == "played"]
    assert [(e["player"], e["play"]) for e in played] == [(color, play)]


def test_a_lift_hidden_by_a_glitch_lights_the_one_reading_left() -> None:
    events = replay("lift_hidden_by_a_glitch.jsonl")
    lifted = [(e["from"], e["destinations"]) for e in events if e.type == "lifted"]
    assert lifted[-2:] == [("2", []), ("3", ["off"])]   # no checker in the hand goes to 2
    assert [e["play"] for e in events if e.type == "played"] == ["3/2 3/off"]


@pytest.mark.slow
def test_the_soak_judges_the_lights_of_a_checker_while_it_is_in_the_hand(
        pinmap: PinMap) -> None:
    # The session of lift_hidden_by_a_glitch: the only "lifted" from 3 came after the
    # checker was put on 2, and lit the other reading's "off".
    check(Session(pinmap, 7000021576, match_length=5))


def test_a_referee_whose_state_is_not_its_journals_fold_is_a_failure_of_its_own(
        pinmap: PinMap) -> None:
    session = Session(pinmap, 11, games=1, players=Players(double=0.0, stray=0.0, menu=0.0))
    session.hand.style = HandStyle(glitch=0.0, slide=0.0, knock=0.0, illegal=0.0)
    stale = Referee(session.settings, ScriptedDice())  # stands still while the journal goes on
    session.differential = Differential.of(stale)
    result = session.run()
    kinds = [f.kind for f in result.failures]
    assert kinds == ["differs_from_journal"]  # said once
    assert "phase: referee <Phase.SETUP" in result.failures[0].detail
    assert result.counts["games"] == 1  # the session plays on
