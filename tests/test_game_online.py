"""The online opponent's seat at the referee, on the modelled board: the server's facts
fit the game here, or wait, or are a disagreement the board then follows.

The server and the session are left out: the facts are told to the seat as the
session would (tests/test_online_game.py plays against a real server), and what the
session would send is read off the events.
"""

from __future__ import annotations

from typing import Any

from computer_support import Table, chosen, hand, load, move

from tavla_pi.game.deciding import Follows
from tavla_pi.game.friend import WAITS
from tavla_pi.game.online import (
    TAKEN,
    OnlineSeat,
    ServerCube,
    ServerGame,
    ServerOpening,
    ServerPlay,
    ServerRefusal,
    ServerResign,
    ServerRoll,
    ServerScore,
    fit_fact,
    server_level,
)
from tavla_pi.game.referee import Referee
from tavla_pi.game.seat import seat_fields, seat_for, seat_of_fields
from tavla_pi.game.seating import OnlinePlays, seating
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import GameState, MatchState, Resignation
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavlimatch import TavliMatch

W, B = Color.WHITE, Color.BLACK
BLACK_START = {"19": 5, "17": 3, "12": 5, "1": 2}
RAN = {"6": 5, "8": 3, "13": 7}
"""White's checkers with both back checkers run to its 13 point."""
ONLINE = OpponentSettings(color=B, online=True)
START = Position.initial()


def table(length: int = 1) -> Table:
    """A match of ``length`` against the online opponent (Black), the board set up."""
    board = Table(settings=GameSettings(match_length=length, opponent=ONLINE))
    board.act({"setup": "start"}, {"wait": 400})
    return board


def seat(board: Table) -> OnlineSeat:
    found = board.runner.referee.seat
    assert isinstance(found, OnlineSeat)
    return found


def tell(board: Table, *facts: Any) -> list[dict[str, Any]]:
    """The server's facts told to the seat; the events of the next scans."""
    for fact in facts:
        seat(board).tell(fact)
    return board.act({"wait": 100})


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def after(position: Position, dice: tuple[int, int], notation: str, mover: Color) -> Board:
    """The board after ``mover``'s play ``notation`` of ``dice`` from ``position``."""
    play = next(p for p in position.legal_plays(dice) if p.notation == notation)
    return play.result.to_board(mover.opponent)


def test_the_online_seat_is_a_seat_value_its_colours_buttons_do_nothing() -> None:
    assert seating(ONLINE) == OnlinePlays(B)
    seat_value = seating(ONLINE)
    assert seat_value.online and seat_value.friend is None and seat_value.engine_color is None
    fields = seat_fields(ONLINE, TavliMatch.new("portes", 1))
    assert fields == {"opponent": "black", "online": True}
    assert seat_of_fields(fields, OpponentSettings()) == ONLINE
    assert seat_of_fields({"opponent": None}, ONLINE).online is False
    online = seat_for(ONLINE, None)
    assert isinstance(online, OnlineSeat) and online.refuses(B, Phase.AWAIT_ROLL)
    board = table()
    events = board.act({"press": "black.roll"})
    assert kinds(events) == ["rejected"] and "online opponent plays black" in events[0]["reason"]


def test_the_opening_throw_is_the_servers_once_rolled_here() -> None:
    board = table()
    assert board.act({"press": "white.roll"}) == []
    assert seat(board).roll_asked and seat(board).thinking
    events = tell(board, ServerOpening(white=5, black=2))
    assert kinds(events)[0] == "opening_roll"
    assert (events[0]["white"], events[0]["black"], events[0]["starter"]) == (5, 2, "white")
    assert not seat(board).roll_asked and board.runner.referee.phase is Phase.MOVING


def test_the_opponents_roll_and_play_are_shown_and_carried_out_by_hand() -> None:
    board = table()
    board.act({"press": "white.roll"})
    tell(board, ServerOpening(white=2, black=6))  # Black starts: its play comes next
    assert board.runner.referee.phase is Phase.MOVING and seat(board).thinking
    played = after(START.swap(), (6, 2), "13/5", B)
    events = tell(board, ServerPlay(B, (6, 2), played))
    assert kinds(events) == ["remote_play"] and events[0]["play"] == "13/5"
    board.act(*hand(chosen(board), B))
    assert [e["play"] for e in board.of("played")] == ["13/5"]
    assert Board.from_counts(**{c: board.state()["board"][c] for c in ("white", "black")}) \
        == played


def test_the_opponents_play_told_again_while_lit_is_that_play_and_blocks_nothing() -> None:
    """A restarted daemon lights the opponent's play again from its journal, and the
    server's first board tells the same play once more: taken, not waited on."""
    board = table()
    board.act({"press": "white.roll"})
    tell(board, ServerOpening(white=2, black=6))
    fact = ServerPlay(B, (6, 2), after(START.swap(), (6, 2), "13/5", B))
    assert kinds(tell(board, fact)) == ["remote_play"]
    assert fit_fact(fact, board.runner.referee, B, roll_asked=False) is TAKEN
    assert tell(board, fact) == []
    board.act(*hand(chosen(board), B))
    board.act({"press": "white.roll"})
    events = tell(board, ServerRoll(W, (3, 1)))
    assert kinds(events) == ["rolled"] and events[0]["dice"] == [3, 1]


def test_this_boards_roll_waits_for_its_roll_press_and_its_play_is_checked() -> None:
    board = table()
    board.act({"press": "white.roll"})
    tell(board, ServerOpening(white=3, black=1))
    board.act(move("8/5", "white"), move("6/5", "white"), {"press": "white.roll"})
    opened = after(START, (3, 1), "8/5 6/5", W)
    assert tell(board, ServerPlay(W, (3, 1), opened), ServerRoll(B, (4, 4))) \
        [0]["type"] == "rolled"
    black_play = after(Position.from_board(opened, B), (4, 4), "13/9(4)", B)
    tell(board, ServerPlay(B, (4, 4), black_play), ServerRoll(W, (6, 5)))
    board.act(*hand(chosen(board), B))
    assert board.runner.referee.phase is Phase.AWAIT_ROLL and seat(board).queued == 1
    events = board.act({"press": "white.roll"}, {"wait": 100})
    assert [e["dice"] for e in events if e["type"] == "rolled"] == [[6, 5]]


def test_a_server_board_no_legal_play_leads_to_is_a_disagreement_then_followed() -> None:
    board = table()
    board.act({"press": "white.roll"})
    tell(board, ServerOpening(white=2, black=6))
    wrong = after(START.swap(), (6, 2), "24/18 13/11", B)
    assert tell(board, ServerPlay(B, (5, 1), wrong)) == []
    assert "not the roll" in str(seat(board).disagreed)
    match = MatchState(match_length=1, on_roll=W, to_act=W, dice=(4, 3))
    events = tell(board, ServerGame(Position.from_board(wrong, W), match, "test"))
    assert kinds(events)[:1] == ["game_started"] and "out_of_sync" in kinds(events)
    assert board.runner.referee.phase is Phase.MOVING and board.runner.referee.match.dice \
        == (4, 3)


def refused_play(reason: str) -> tuple[Table, list[dict[str, Any]]]:
    """White opened with 3-1, played 8/5 6/5, and the server refused it for ``reason``;
    the events of the refusal."""
    board = table()
    board.act({"press": "white.roll"})
    tell(board, ServerOpening(white=3, black=1))
    board.act(move("8/5", "white"), move("6/5", "white"), {"press": "white.roll"})
    return board, tell(board, ServerRefusal(reason))


def test_a_play_the_server_refuses_is_taken_back_and_the_turn_stays_open() -> None:
    board, events = refused_play("Illegal move.")
    assert kinds(events)[:2] == ["takeback", "rejected"]
    assert events[1]["player"] == "white" and "Illegal move" in events[1]["reason"]
    assert board.runner.referee.phase is Phase.MOVING
    stale = fit_fact(ServerRefusal("late"), board.runner.referee, B, roll_asked=False)
    assert isinstance(stale, str) and "no longer open" in stale


def test_a_refused_play_is_lit_back_to_the_turns_start_then_played_again() -> None:
    board, events = refused_play("Illegal move.")
    assert kinds(events) == ["takeback", "rejected", "out_of_sync"]
    assert events[1]["reason"] == "the server refused the play: Illegal move."
    back = [{"at": "5", "color": "white", "remove": 2}, {"at": "6", "color": "white", "add": 1},
            {"at": "8", "color": "white", "add": 1}]
    assert sorted(events[2]["fix"], key=lambda f: f["at"]) == back
    state = board.state()
    assert (state["phase"], state["dice"], state["position_id"]) == \
        ("moving", [3, 1], START.position_id())
    assert not state["press_done"] and state["dice_used"] == [False, False]
    refused = board.act({"press": "white.roll"}, {"wait": 400})
    assert kinds(refused) == ["rejected"] and "put the checkers back" in refused[0]["reason"]
    assert len(board.of("played")) == 1  # nothing committed again
    board.act(move("5/8", "white"))
    assert sorted(board.state()["fix"], key=lambda f: f["at"]) == \
        [{"at": "5", "color": "white", "remove": 1}, {"at": "6", "color": "white", "add": 1}]
    assert kinds(board.act(move("5/6", "white")))[-1:] == ["in_sync"]
    assert board.state()["fix"] == [] and board.runner.referee.phase is Phase.MOVING
    board.act(move("24/21", "white"), move("6/5", "white"), {"press": "white.roll"},
              {"wait": 400})
    assert [e["play"] for e in board.of("played")] == ["8/5 6/5", "24/21 6/5"]


def test_a_refused_play_put_back_may_be_played_again_the_same() -> None:
    board, _ = refused_play("The following legal moves are available: 24/21")
    board.act(move("5/6", "white"), move("5/8", "white"))
    assert board.state()["fix"] == []
    board.act(move("8/5", "white"), move("6/5", "white"), {"press": "white.roll"},
              {"wait": 400})
    assert [e["play"] for e in board.of("played")] == ["8/5 6/5", "8/5 6/5"]
    assert board.runner.referee.phase is Phase.AWAIT_ROLL


def test_the_opponents_double_take_and_drop_are_its_buttons_presses() -> None:
    board = table(3)
    board.act(load({"6": 5, "8": 3, "13": 5, "24": 2}, BLACK_START,
                   B, match_length=3))
    assert kinds(tell(board, ServerCube(B, "double"))) == ["double_offered"]
    assert kinds(board.act({"press": "white.cube"})) [:1] == ["double_dropped"]
    doubled = table(3)
    doubled.act(load({"6": 5, "8": 3, "13": 5, "24": 2}, BLACK_START,
                     W, match_length=3))
    assert kinds(doubled.act({"press": "white.cube"})) == ["double_offered"]
    assert kinds(tell(doubled, ServerCube(W, "double"), ServerCube(B, "take"))) \
        == ["double_taken"]
    assert doubled.runner.referee.match.cube == 2


def test_a_drop_counts_as_the_server_counts_it_a_resignation_at_the_boards_level() -> None:
    """bgammon scores a drop as a resignation: the board's level times the cube (two
    back checkers in the winner's home board: a backgammon, 3 points)."""
    doubled = table(3)
    doubled.act(load({"6": 5, "8": 3, "13": 5, "24": 2}, BLACK_START, W, match_length=3))
    doubled.act({"press": "white.cube"})
    events = tell(doubled, ServerCube(W, "double"), ServerCube(B, "drop"))
    assert kinds(events)[:3] == ["double_dropped", "game_over", "match_over"]
    assert events[1]["points"] == 3 and events[1]["kind"] == "backgammon"
    assert events[2]["score"] == [3, 0]
    board = table(3)
    board.act(load({"6": 5, "8": 3, "13": 7}, {"19": 5, "17": 3, "12": 7}, B,
                   match_length=3))
    tell(board, ServerCube(B, "double"))
    events = board.act({"press": "white.cube"})  # this board's player drops
    assert kinds(events)[:2] == ["double_dropped", "game_over"]
    assert events[1]["points"] == 2 and events[1]["kind"] == "gammon"  # none borne off


def test_the_opponents_resignation_ends_the_game_before_or_after_its_roll() -> None:
    board = table(3)
    board.act(load({"6": 5, "8": 3, "13": 5, "24": 2}, BLACK_START,
                   B, match_length=3))
    events = tell(board, ServerResign(B, Resignation.GAMMON))
    assert kinds(events)[:3] == ["resign_offered", "resign_accepted", "game_over"]
    assert events[2]["points"] == 2 and events[2]["winner"] == "white"
    rolled = table(3)
    rolled.act(load({"6": 5, "8": 3, "13": 5, "24": 2}, BLACK_START,
                    B, match_length=3))
    tell(rolled, ServerRoll(B, (3, 2)))
    assert rolled.runner.referee.phase is Phase.MOVING
    events = tell(rolled, ServerResign(B, Resignation.SINGLE))
    assert kinds(events)[:4] == ["game_started", "resign_offered", "resign_accepted",
                                 "game_over"]


def test_the_opponents_resignation_after_a_roll_with_no_move_ends_the_game() -> None:
    """bgammon lets a player resign on its turn, rolled or not, moves or none: the
    resignation ends the game here too, not waiting for a pass that disagrees."""
    board = table(3)
    closed = {"1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "6": 2, "13": 3}
    board.act(load(closed, {"bar": 1, "19": 5, "17": 3, "12": 6}, B, match_length=3))
    assert kinds(tell(board, ServerRoll(B, (6, 5)))) == ["rolled", "no_legal_move"]
    events = [e for e in tell(board, ServerResign(B, Resignation.SINGLE))
              if e["type"] != "out_of_sync"]  # the modelled board was never set up
    assert kinds(events) == ["game_started", "resign_offered", "resign_accepted",
                             "game_over"]
    assert events[3]["score"] == [1, 0]
    board.act({"wait": 3000})  # where the pass was due
    assert seat(board).disagreed is None
    assert board.runner.referee.phase is Phase.GAME_OVER


def test_this_boards_resignation_is_accepted_only_at_the_servers_count() -> None:
    assert server_level(START.mine) is Resignation.BACKGAMMON  # two on its 24
    home = Position.from_board(Board.from_counts(RAN, BLACK_START), W)
    assert server_level(home.mine) is Resignation.GAMMON
    some_off = Board.from_counts({"6": 5, "8": 3, "13": 5, "bar": 1}, BLACK_START)
    assert server_level(Position.from_board(some_off, W).mine) is Resignation.BACKGAMMON
    board = table(3)
    board.act(load(RAN, BLACK_START, W, match_length=3))
    start = ({"hold": "white.cube", "ms": 2000}, {"press": "white.roll"}, {"wait": 100})
    assert kinds(board.act(*start))[:2] == ["resign_offered", "resign_declined"]
    chosen = ({"hold": "white.cube", "ms": 2000}, {"press": "white.roll"},
              {"wait": 100})  # a gammon shown first: the single was declined
    events = board.act(*chosen)
    assert kinds(events)[:3] == ["resign_offered", "resign_accepted", "game_over"]
    assert events[2]["points"] == 2


def test_the_score_after_a_game_is_checked_and_facts_wait_while_behind() -> None:
    referee = Referee(GameSettings(match_length=3, opponent=ONLINE), ScriptedDice())
    assert referee.phase is Phase.SETUP
    assert fit_fact(ServerOpening(6, 1), referee, B, roll_asked=False) is WAITS
    assert fit_fact(ServerRoll(B, (3, 1)), referee, B, roll_asked=False) is WAITS
    assert fit_fact(ServerScore((0, 0)), referee, B, roll_asked=False) is TAKEN
    differs = fit_fact(ServerScore((2, 0)), referee, B, roll_asked=False)
    assert isinstance(differs, str) and "2-0" in differs
    game = ServerGame(START, MatchState(match_length=3, game_state=GameState.NONE),
                      "why")
    assert isinstance(fit_fact(game, referee, B, roll_asked=False), Follows)
