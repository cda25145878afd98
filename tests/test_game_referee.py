"""The referee through the real pipeline on the modelled board (inline scenarios)."""

from __future__ import annotations

from game_support import dice, graded, move, press, replay

from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState
from tavla_pi.rules.position import Position

W, B = Color.WHITE, Color.BLACK
START = ({"setup": "start"},)


def load(board: Board, match: MatchState) -> dict[str, object]:
    """A ``load`` action for an absolute board and a match state."""
    position = Position.from_board(board, match.on_roll)
    return {"load": {"position_id": position.position_id(), "match_id": match.match_id()}}


def playing(on_roll: Color, **fields: object) -> MatchState:
    return MatchState(on_roll=on_roll, to_act=on_roll, game_state=GameState.PLAYING,
                      **fields)  # type: ignore[arg-type]


def test_opening_tie_is_rolled_again_and_the_higher_die_starts() -> None:
    events = replay(*START, dice(3, 3), press("black.roll"), dice(2, 5), press("white.roll"),
                    move("13/11", "white"), move("13/8", "white"))
    rolls = graded(events, "opening_roll")
    # fields in key order: black, starter, white
    assert rolls == [("opening_roll", 3, 3), ("opening_roll", 5, "black", 2)]
    assert graded(events, "played") == []  # white moved, but black started: out of sync


def test_a_whole_opening_play_is_committed_on_done() -> None:
    events = replay(*START, dice(3, 1), press("white.roll"),
                    move("8/5", "white"), move("6/5", "white"), press("white.roll"))
    played = [e for e in events if e["type"] == "played"]
    assert len(played) == 1
    assert played[0]["play"] == "8/5 6/5"
    assert played[0]["player"] == "white"
    assert played[0]["position_id"] == "sGfwATDgc/ABMA"  # GNU Backgammon's ID after 8/5 6/5


def test_done_before_the_dice_are_used_is_rejected_then_accepted() -> None:
    events = replay(*START, dice(6, 1), press("white.roll"), move("13/7", "white"),
                    press("white.roll"), move("8/7", "white"), press("white.roll"))
    kinds = [e["type"] for e in events if e["type"] in ("rejected", "played")]
    assert kinds == ["rejected", "played"]
    rejected = next(e for e in events if e["type"] == "rejected")
    assert rejected["player"] == "white" and "dice" in rejected["reason"]


def test_double_take_then_drop_ends_the_game_for_the_cube() -> None:
    events = replay(*START, dice(3, 1), press("white.roll"), move("8/5", "white"),
                    move("6/5", "white"), press("white.roll"),
                    press("black.cube"), press("white.roll"),        # black doubles, white takes
                    dice(6, 4), press("black.roll"), move("1/7", "black"), move("12/16", "black"),
                    press("black.roll"),
                    press("white.cube"), press("black.cube"))        # white redoubles, black drops
    assert graded(events, "double_offered", "double_taken", "double_dropped", "game_over") == [
        ("double_offered", 2, "black"),
        ("double_taken", 2, "white"),
        ("double_offered", 4, "white"),
        ("double_dropped", 4, "black"),
        ("game_over", 2, "single", 2, [2, 0], "white"),
    ]


def test_a_double_may_not_be_offered_after_rolling_or_by_the_wrong_player() -> None:
    events = replay(*START, dice(3, 1), press("white.roll"), press("white.cube"),
                    press("black.cube"))
    reasons = [e["player"] for e in events if e["type"] == "rejected"]
    assert reasons == ["white", "black"]
    assert graded(events, "double_offered") == []


def _closed_board_for_white() -> Board:
    black = {str(p): 2 for p in range(19, 25)} | {"12": 3}
    white = {"bar": 1, "6": 5, "8": 3, "13": 6}
    return Board.from_counts(white, black)


def test_no_legal_move_passes_by_itself() -> None:
    board = _closed_board_for_white()
    events = replay(load(board, playing(W)), dice(6, 5), press("white.roll"),
                    dice(2, 1), press("black.roll"))
    assert graded(events, "rolled", "no_legal_move") == [
        ("rolled", [6, 5], "white"),
        ("no_legal_move", [6, 5], "white"),
        ("rolled", [2, 1], "black"),
    ]
    no_move = next(e for e in events if e["type"] == "no_legal_move")
    black_roll = [e for e in events if e["type"] == "rolled"][1]
    assert black_roll["t"] - no_move["t"] <= 3000


def test_bear_off_with_the_higher_die_from_the_highest_point() -> None:
    white = {"3": 2, "2": 3, "1": 1, "off": 9}
    black = {"24": 5, "23": 5, "22": 5}
    board = Board.from_counts(white, black)
    events = replay(load(board, playing(W)), dice(6, 5), press("white.roll"),
                    move("3/off", "white"), move("3/off", "white"), press("white.roll"))
    played = [e for e in events if e["type"] == "played"]
    assert [p["play"] for p in played] == ["3/off(2)"]


def test_the_last_checker_off_wins_a_gammon_and_the_match() -> None:
    white = {"1": 1, "off": 14}
    black = {"13": 5, "12": 10}
    board = Board.from_counts(white, black)
    match = playing(W, match_length=3, score=(1, 0), cube=2, cube_owner=B)
    events = replay(load(board, match), dice(4, 2), press("white.roll"),
                    move("1/off", "white"), press("white.roll"), match_length=3)
    assert graded(events, "game_over", "match_over") == [
        ("game_over", 2, "gammon", 4, [5, 0], "white"),
        ("match_over", [5, 0], "white"),
    ]


def test_a_backgammon_counts_three() -> None:
    white = {"1": 1, "off": 14}
    black = {"bar": 1, "12": 14}
    board = Board.from_counts(white, black)
    events = replay(load(board, playing(W)), dice(1, 1), press("white.roll"),
                    move("1/off", "white"), press("white.roll"))
    assert graded(events, "game_over") == [("game_over", 1, "backgammon", 3, [3, 0], "white")]


def test_after_a_game_the_next_starts_when_the_board_is_set_up() -> None:
    white = {"1": 1, "off": 14}
    black = {"6": 2, "off": 13}
    board = Board.from_counts(white, black)
    events = replay(load(board, playing(W, match_length=5)), dice(4, 2), press("white.roll"),
                    move("1/off", "white"), press("white.roll"),
                    {"setup": "start"}, dice(6, 5), press("black.roll"), match_length=5)
    types = [e["type"] for e in events if e["type"] in ("game_over", "game_started",
                                                         "opening_roll")]
    assert types == ["game_started", "game_over", "game_started", "opening_roll"]


def test_a_knocked_checker_is_shown_and_the_game_resumes_when_fixed() -> None:
    events = replay(*START, dice(3, 1), press("white.roll"), move("8/5", "white"),
                    move("6/5", "white"), press("white.roll"),
                    {"lift": "19", "color": "black"}, {"wait": 400},
                    {"place": "19", "color": "black"}, {"wait": 400})
    sync = [(e["type"], e.get("fix")) for e in events if e["type"] in ("out_of_sync", "in_sync")]
    assert sync == [("out_of_sync", [{"at": "19", "color": "black", "add": 1}]),
                    ("in_sync", None)]


def test_menu_long_press_twice_starts_a_new_match() -> None:
    events = replay(*START, dice(3, 1), press("white.roll"),
                    {"hold": "menu", "ms": 2000}, {"hold": "menu", "ms": 2000})
    assert [e["type"] for e in events if e["type"] in ("new_match", "game_started")] == [
        "game_started", "new_match", "game_started"]


def test_a_beaver_sends_the_decision_back_to_the_doubler(pinmap: PinMap) -> None:
    from tavla_pi.game.settings import GameSettings
    from tavla_pi.replay.runner import ScenarioRunner
    from tavla_pi.rules.match import MatchRules

    settings = GameSettings(rules=MatchRules(beavers=True))
    runner = ScenarioRunner(pinmap, settings)
    events = replay(*START, dice(3, 1), press("white.roll"), move("8/5", "white"),
                    move("6/5", "white"), press("white.roll"),
                    press("black.cube"),                          # black doubles to 2
                    {"hold": "white.cube", "ms": 2000},          # white beavers: cube 2 -> 4
                    press("white.roll"),                          # not white's to answer now
                    press("black.roll"),                          # black takes the beaver
                    runner=runner)
    assert graded(events, "double_offered", "double_taken", "rejected") == [
        ("double_offered", 2, "black"),
        ("double_taken", True, 2, "white"),
        ("rejected", "white"),
        ("double_taken", 4, "black"),
    ]
    assert runner.referee.match.cube == 4
    assert runner.referee.match.cube_owner is Color.WHITE


def test_a_knocked_checker_before_the_opening_roll_is_lit(pinmap: PinMap) -> None:
    from tavla_pi.game.settings import GameSettings
    from tavla_pi.game.view import Phase
    from tavla_pi.replay.runner import ScenarioRunner

    runner = ScenarioRunner(pinmap, GameSettings())
    replay(*START, {"wait": 400}, {"lift": "6", "color": "white"}, {"wait": 400}, runner=runner)
    view = runner.referee.view()
    assert view.phase is Phase.OPENING
    assert [f.to_event() for f in view.fixes] == [{"at": "6", "color": "white", "add": 1}]
