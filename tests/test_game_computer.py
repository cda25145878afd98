"""Playing the computer on the modelled board, with a scripted engine (scenarios, action by action).

The computer plays Black.  White opens 3-1 (8/5 6/5); then the board rolls
Black's dice, the engine chooses, and the hand moves Black's checkers as lit.
"""

from __future__ import annotations

from computer_support import BLACK_EXPERT, WHITE_OPENS, Table, move
from game_support import replay
from sim_support import PINMAP

from tavla_pi.errors import EngineError
from tavla_pi.game.computer import BACKOFF_MS, MAX_ATTEMPTS
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import SeatStep
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchRules, MatchState
from tavla_pi.rules.position import Position
from tavla_pi.testing.engine import ScriptedEngine

RUN = [("cube", "no double"), ("play", "24/13")]
"""Black does not double, then runs a back checker with 6-5: absolute 1 to 12."""
DONE = {"press": "white.roll"}


def black_to_play(table: Table, dice: tuple[int, int] = (6, 5)) -> None:
    """White opens and presses DONE; Black's dice are queued first."""
    table.act(*WHITE_OPENS, {"dice": list(dice)}, DONE)


def test_the_computer_rolls_chooses_and_its_play_is_committed_when_the_board_shows_it() -> None:
    table = Table(RUN)
    black_to_play(table)
    assert table.of("rolled", "engine_play") == [
        {"type": "rolled", "player": "black", "dice": [6, 5]},
        {"type": "engine_play", "player": "black", "dice": [6, 5], "play": "24/13",
         "position_id": "4HPwAyCwZ/ABMA"},
    ]
    state = table.state()
    assert state["engine_play"] == {"player": "black", "dice": [6, 5], "play": "24/13",
                                    "next": {"from": "1", "to": "12", "color": "black"}}
    assert state["engine_thinking"] is False and state["engine_trouble"] is None
    table.act(move("1/12"))
    events = table.close()
    played = [e for e in events if e["type"] == "played"]
    assert [(p["player"], p["play"], p["position_id"]) for p in played] == [
        ("white", "8/5 6/5", "sGfwATDgc/ABMA"), ("black", "24/13", "4HPwAyCwZ/ABMA")]
    assert not [e for e in events if e["type"] == "rejected"]
    assert table.state()["engine_play"] is None
    assert table.state()["on_roll"] == "white"


def test_the_play_is_lit_one_checker_at_a_time() -> None:
    table = Table([("cube", "no double"), ("play", "13/8 13/7")])  # Black's 12/17 12/18
    black_to_play(table)
    view = table.runner.referee.view()
    assert view.seat_play == "13/8 13/7"
    assert view.seat_step == SeatStep("12", "18", Color.BLACK)
    table.act(move("12/18"))
    assert table.runner.referee.view().seat_step == SeatStep("12", "17", Color.BLACK)
    table.act(move("12/17"))
    assert [e["play"] for e in table.close() if e["type"] == "played"][-1] == "13/8 13/7"


def test_a_play_carried_out_wrongly_is_out_of_sync_then_recovers_and_commits() -> None:
    table = Table(RUN)
    black_to_play(table)
    table.act(move("1/7"))                   # on the way: 24/18
    assert table.of("out_of_sync") == []
    table.act(move("7/13"))                  # one point too far
    assert table.of("out_of_sync")[-1]["fix"] == [  # back to 24/18, the last board on the way
        {"at": "7", "color": "black", "add": 1}, {"at": "13", "color": "black", "remove": 1}]
    assert table.state()["engine_play"]["next"] is None
    table.act(move("13/12"))                 # put right: that is the play
    events = table.close()
    kinds = [e["type"] for e in events if e["type"] in ("out_of_sync", "in_sync", "played")]
    assert kinds[-3:] == ["out_of_sync", "in_sync", "played"]
    assert [e["play"] for e in events if e["type"] == "played"][-1] == "24/13"


def test_another_legal_play_is_not_accepted_for_the_computer() -> None:
    table = Table(RUN)
    black_to_play(table)
    table.act(move("12/18"), move("12/17"))  # 13/8 13/7: legal, not the computer's
    assert table.of("played")[-1]["player"] == "white"
    assert table.of("out_of_sync"), "another legal play must be out of sync"
    table.act(move("18/12"), move("17/12"), {"press": "black.roll"})  # DONE does nothing
    assert table.of("rejected")[-1] == {"type": "rejected", "player": "black",
                                        "reason": "the computer plays black"}
    table.act(move("1/12"))
    assert [e["play"] for e in table.close() if e["type"] == "played"][-1] == "24/13"


def test_the_computers_buttons_are_refused_and_change_nothing() -> None:
    table = Table(RUN)
    black_to_play(table)
    before = table.state()
    new = table.act({"press": "black.roll"}, {"press": "black.cube"},
                    {"hold": "black.cube", "ms": 1500})
    assert [e["type"] for e in new] == ["rejected"] * 3
    after = table.state()
    assert {k: after[k] for k in ("phase", "engine_play", "dice", "board")} == \
        {k: before[k] for k in ("phase", "engine_play", "dice", "board")}
    table.act(move("1/12"))
    table.close()


WHITE_SLOTS = (BLACK_EXPERT, {"wait": 400}, {"dice": [2, 1]}, {"press": "white.roll"},
               move("13/11", "white"), move("6/5", "white"), {"dice": [4, 2]}, DONE)
"""White opens 2-1 with 13/11 6/5, leaving a blot on 5 for Black's 4-2."""


def test_a_hit_checker_put_on_the_bar_first_then_the_hitter_and_the_rest() -> None:
    table = Table([("cube", "no double"), ("play", "24/20* 13/11")])
    table.act(*WHITE_SLOTS)
    view = table.runner.referee.view
    assert view().seat_step == SeatStep("1", "5", Color.BLACK)
    table.act(move("5/bar", "white"))
    assert view().seat_step == SeatStep("1", "5", Color.BLACK)
    table.act(move("1/5"))
    assert view().seat_step == SeatStep("12", "14", Color.BLACK)
    table.act(move("12/14"))
    events = table.close()
    assert [e["play"] for e in events if e["type"] == "played"][-1] == "24/20* 13/11"
    assert not [e for e in events if e["type"] == "out_of_sync"]


def test_a_blot_hit_by_the_hitter_placed_first_is_lit_to_the_bar() -> None:
    table = Table([("cube", "no double"), ("play", "24/20*/18")])
    table.act(*WHITE_SLOTS)
    table.act(move("1/5"))                   # the hitter on the blot: it goes to the bar
    assert table.runner.referee.view().seat_step == SeatStep("5", "bar", Color.WHITE)
    assert table.state()["engine_play"]["next"] == {"from": "5", "to": "bar", "color": "white"}
    assert table.state()["to_bar"] == ["5"]
    table.act(move("5/bar", "white"))
    assert table.runner.referee.view().seat_step == SeatStep("5", "7", Color.BLACK)
    table.act(move("5/7"))
    assert [e["play"] for e in table.close() if e["type"] == "played"][-1] == "24/20*/18"


# -- the cube -------------------------------------------------------------------------------


def test_the_computer_doubles_and_the_human_takes_with_roll() -> None:
    table = Table([("cube", "double"), ("play", "24/13")])
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE)
    assert table.of("double_offered") == [{"type": "double_offered", "player": "black",
                                           "cube": 2}]
    assert table.of("rolled") == []
    table.act({"press": "black.roll"})       # the computer's button: refused
    table.act({"press": "white.roll"})       # White takes; Black then rolls at once
    assert table.of("double_taken", "rolled", "engine_play")[:2] == [
        {"type": "double_taken", "player": "white", "cube": 2},
        {"type": "rolled", "player": "black", "dice": [6, 5]}]
    table.act(move("1/12"))
    table.close()
    assert table.runner.referee.match.cube_owner is Color.WHITE


def test_the_computer_doubles_and_the_human_drops_with_cube() -> None:
    table = Table([("cube", "double")])
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE, {"press": "white.cube"})
    assert table.of("double_dropped", "game_over") == [
        {"type": "double_dropped", "player": "white", "cube": 2},
        {"type": "game_over", "winner": "black", "kind": "single", "cube": 1, "points": 1,
         "score": [0, 1]}]
    table.close()


def white_doubles(answer: str, rules: MatchRules | None = None) -> Table:
    """Black plays its reply, White doubles; the computer answers ``answer``."""
    table = Table([*RUN, ("take", answer)], settings=GameSettings(rules=rules or MatchRules()))
    black_to_play(table)
    table.act(move("1/12"), {"press": "white.cube"})
    return table


def test_the_computer_takes_a_double() -> None:
    table = white_doubles("take")
    assert table.of("double_offered", "double_taken") == [
        {"type": "double_offered", "player": "white", "cube": 2},
        {"type": "double_taken", "player": "black", "cube": 2}]
    table.close()


def test_the_computer_drops_a_double() -> None:
    table = white_doubles("drop")
    assert table.of("double_dropped", "game_over") == [
        {"type": "double_dropped", "player": "black", "cube": 2},
        {"type": "game_over", "winner": "white", "kind": "single", "cube": 1, "points": 1,
         "score": [1, 0]}]
    table.close()


def test_the_computer_beavers_where_the_rules_allow_and_the_human_answers() -> None:
    table = white_doubles("beaver", MatchRules(beavers=True))
    assert table.of("double_taken") == [{"type": "double_taken", "player": "black", "cube": 2,
                                         "beaver": True}]
    table.act({"press": "white.roll"})      # White takes the beaver
    assert table.of("double_taken")[-1] == {"type": "double_taken", "player": "white",
                                            "cube": 4}
    table.close()


def test_a_beaver_the_rules_do_not_allow_is_a_take() -> None:
    table = white_doubles("beaver")
    assert table.of("double_taken") == [{"type": "double_taken", "player": "black", "cube": 2}]
    table.close()


def test_the_computer_answers_the_humans_beaver() -> None:
    table = Table([("cube", "double"), ("take", "take"), ("play", "24/13")],
                  settings=GameSettings(rules=MatchRules(beavers=True)))
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE, {"hold": "white.cube", "ms": 1500})
    assert table.of("double_offered", "double_taken") == [
        {"type": "double_offered", "player": "black", "cube": 2},
        {"type": "double_taken", "player": "white", "cube": 2, "beaver": True},
        {"type": "double_taken", "player": "black", "cube": 4}]
    table.act(move("1/12"))
    table.close()


# -- the takeback ------------------------------------------------------------------------------


def test_the_human_takes_back_before_the_computers_play_is_carried_out() -> None:
    table = Table([*RUN, ("cube", "no double"), ("play", "13/11 13/9")])
    black_to_play(table)
    table.act(move("5/8", "white"))          # the 8/5 of White's 8/5 6/5 undone
    state = table.state()
    assert table.of("takeback") == [{"type": "takeback", "player": "white", "dice": [3, 1],
                                     "position_id": "4HPwATDgc/ABMA",
                                     "match_id": state["match_id"]}]
    assert MatchState.from_match_id(state["match_id"]).dice == (3, 1)
    assert (state["phase"], state["on_roll"], state["dice"]) == ("moving", "white", [3, 1])
    assert state["engine_play"] is None
    table.act(move("5/6", "white"), move("24/23", "white"), move("13/10", "white"),
              {"dice": [4, 2]}, DONE)
    assert [(e["player"], e["dice"]) for e in table.of("rolled")] == [
        ("black", [6, 5]), ("black", [4, 2])]
    assert table.of("engine_play")[-1]["play"] == "13/11 13/9"
    table.act(move("12/16"), move("12/14"))
    events = table.close()
    plays = [(e["player"], e["play"]) for e in events if e["type"] == "played"]
    assert plays == [("white", "8/5 6/5"), ("white", "24/23 13/10"), ("black", "13/11 13/9")]


def test_no_takeback_once_the_computers_checkers_moved() -> None:
    table = Table(RUN)
    black_to_play(table)
    table.act(move("1/7"), move("5/8", "white"))
    assert table.of("takeback") == []
    assert table.of("out_of_sync")
    table.act(move("8/5", "white"), move("7/12"))
    assert [e["play"] for e in table.close() if e["type"] == "played"][-1] == "24/13"


# -- when the engine fails --------------------------------------------------------------------


def test_a_failed_question_is_asked_again_after_a_back_off_and_gives_the_same_play() -> None:
    table = Table([("cube", "no double"), ("play", EngineError("gnubg died")), ("play", "24/13")])
    black_to_play(table)
    rolled, chose = table.of("rolled"), table.of("engine_play")
    assert chose[0]["play"] == "24/13"
    times = {e["type"]: e["t"] for e in table.events if e["type"] in ("rolled", "engine_play")}
    assert times["engine_play"] - times["rolled"] >= BACKOFF_MS
    assert rolled == [{"type": "rolled", "player": "black", "dice": [6, 5]}]
    assert table.state()["engine_trouble"] is None
    table.act(move("1/12"))
    table.close()


def test_while_the_engine_cannot_answer_the_view_says_so_then_the_hand_plays_for_it() -> None:
    failures = [("play", EngineError("gnubg hung")) for _ in range(MAX_ATTEMPTS)]
    table = Table([("cube", "no double"), *failures])
    table.act(*WHITE_OPENS, {"dice": [6, 5]})
    referee = table.runner.referee
    table.act(DONE)
    assert referee.view().seat_trouble is not None
    assert "play its side by hand" in (table.state()["engine_trouble"] or "")
    assert table.of("engine_play") == []
    table.act(move("12/18"), move("12/17"), {"press": "black.roll"})  # Black by hand, DONE
    assert table.of("played")[-1]["play"] == "13/8 13/7"
    assert table.state()["engine_trouble"] is None
    table.act({"dice": [2, 1]}, {"press": "white.roll"})
    assert table.of("rolled")[-1] == {"type": "rolled", "player": "white", "dice": [2, 1]}
    table.close()


def test_without_an_engine_the_game_is_between_two_players() -> None:
    table = Table()
    table.runner.referee.set_opponent(OpponentSettings(color=Color.BLACK))
    table.act({"setup": "start"}, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
              move("8/5", "white"), move("6/5", "white"), DONE,
              {"dice": [6, 5]}, {"press": "black.roll"}, move("1/12"), {"press": "black.roll"})
    assert [(e["player"], e["play"]) for e in table.of("played")] == [
        ("white", "8/5 6/5"), ("black", "24/13")]
    assert table.of("engine_play") == [] and table.state()["engine_play"] is None
    table.close()


def test_a_roll_the_computer_cannot_play_passes_by_itself() -> None:
    white = {str(p): 2 for p in range(1, 7)} | {"13": 3}
    black = {"bar": 1, "19": 4, "20": 4, "21": 3, "22": 3}
    board = Board.from_counts(white, black)
    match = MatchState(on_roll=Color.BLACK, to_act=Color.BLACK, game_state=GameState.PLAYING)
    load = {"load": {"position_id": Position.from_board(board, Color.BLACK).position_id(),
                     "match_id": match.match_id()}}
    table = Table([("cube", "no double")])
    table.act(BLACK_EXPERT, {"wait": 400}, load, {"dice": [6, 5]}, {"wait": 3000})
    assert table.of("rolled", "no_legal_move") == [
        {"type": "rolled", "player": "black", "dice": [6, 5]},
        {"type": "no_legal_move", "player": "black", "dice": [6, 5]}]
    state = table.state()
    assert (state["phase"], state["on_roll"]) == ("await_roll", "white")
    table.close()


def test_a_setup_that_starts_a_match_keeps_its_opponent() -> None:
    """The scenario's opponent is also the next match's: a ``setup`` with a match length
    (a ``new_match``) must not fall back to the two players the runner began with."""
    with ScenarioRunner(PINMAP, GameSettings(), engine=ScriptedEngine([])) as runner:
        events = replay({"setup": "start", "match_length": 1,
                         "opponent": {"color": "black", "level": "expert"}}, runner=runner)
        started = [e for e in events if e["type"] == "new_match"]
        assert started == [{"t": started[0]["t"], "type": "new_match", "match_length": 1,
                            "opponent": "black", "level": "expert"}]
        assert runner.referee.seat.color is Color.BLACK
