"""The cube and resignations against an opponent on a real bgammon-server
(docs/ONLINE.md): the board's daemon on the sim backend, a plain-socket opponent, the
board's player through POST /api/sim.  A double offered either way is taken (``ok``) or
dropped (``resign``); the opponent resigns before or after its roll; after each the
board's cube, score and position are the server's.

The plays are chosen by a seeded rng; the dice are the server's own (bgammon rolls them
with its own generator), so each test asserts what holds whatever they are: a drop or a
resignation counts as the server counts it (the position's level times the cube).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from programs import needs

from tavla_pi.game.online import server_level
from tavla_pi.online.board import to_board
from tavla_pi.online.model import ME, OPPONENT, GameBoard
from tavla_pi.rules.board import Board
from tavla_pi.testing.bgammon import BgammonServer
from tavla_pi.testing.online import HAND, ONLINE, OnlineMatch, joined_match

TURNS = 40
"""The most steps given to reach a turn (a few, as a rule)."""
UNLIT = "#000000"


def before_roll(match: OnlineMatch, color: str) -> dict[str, Any]:
    """Play on until ``color`` is on roll and has not rolled (the server waits for its
    ``double`` or ``roll``); the board's state then."""
    mover = ME if color == ONLINE.value else OPPONENT  # as the socket player sees it
    for _ in range(TURNS):
        state = match.board.state()
        if state["phase"] == "await_roll" and state["on_roll"] == color:
            match.opponent.wait_board(lambda b: b.turn == mover and b.dice[0] == 0)
            return state
        match.step(state)
    raise AssertionError(f"{color} never on roll before rolling in {TURNS} steps")


def opponent_doubles(match: OnlineMatch) -> dict[str, Any]:
    """The socket opponent doubles before its roll; the board shows the offer with the
    usual lights (the value offered and the taker's turn); the state before it."""
    before = before_roll(match, ONLINE.value)
    match.opponent.double()
    offered = match.board.until(lambda s: s["phase"] == "double_offered"
                                and lit(s, "cube.2") and lit(s, f"turn.{HAND.value}"),
                                "the double shown")
    assert offered["on_roll"] == ONLINE.value and offered["dice"] == []
    assert offered["cube"] == {"value": 1, "owner": None, "offered": True}
    return before


def board_doubles(match: OnlineMatch) -> dict[str, Any]:
    """The board's player presses CUBE before rolling; the server shows the double
    offered to the socket opponent; the state before it."""
    before = before_roll(match, HAND.value)
    match.board.sim({"press": f"{HAND.value}.cube"})
    offered = match.board.until(lambda s: s["phase"] == "double_offered", "the double")
    assert offered["cube"] == {"value": 1, "owner": None, "offered": True}
    server = match.opponent.wait_board(lambda b: b.double_offered)
    assert server.turn == OPPONENT and server.cube_value == 1
    return before


def lit(state: dict[str, Any], feature: str) -> bool:
    """Whether the LED of ``feature`` is on in ``state``'s frame."""
    return bool(state["leds"][state["led_features"].index(feature)] != UNLIT)


def server_score(board: GameBoard) -> list[int]:
    """The server's match score as the board's state gives it: [White, Black]."""
    return [board.opponent.score, board.me.score]


def owner(board: GameBoard) -> str | None:
    """The server's cube owner as the board's state names it."""
    return {ME: ONLINE.value, OPPONENT: HAND.value}.get(board.cube_owner)


def level_of(state: dict[str, Any], loser: str) -> int:
    """What the server counts ``loser``'s drop or resignation per cube, as the board in
    ``state`` stands (docs/ONLINE.md)."""
    board = Board.from_counts(state["board"]["white"], state["board"]["black"])
    return int(server_level(board.side(HAND if loser == HAND.value else ONLINE)))


def played_on(match: OnlineMatch, steps: int) -> None:
    """``steps`` more steps of the match, each play checked against the server's board
    (:meth:`OnlineMatch.check`)."""
    checked = match.checked
    for _ in range(steps):
        match.step(match.board.state())
    assert match.checked > checked


def scored(match: OnlineMatch, before: dict[str, Any], loser: str) -> dict[str, Any]:
    """The game just ended by ``loser``'s drop or resignation: the board's score and the
    server's agree, at the server's count; the board's state after it."""
    points = level_of(before, loser) * before["cube"]["value"]
    winner = 0 if loser != HAND.value else 1
    expected = list(before["score"])
    expected[winner] += points
    state = match.board.until(lambda s: s["score"] == expected
                              and s["phase"] in ("game_over", "match_over"),
                              f"the score {expected}")
    server = match.opponent.wait_board(lambda b: server_score(b) == expected)
    assert server.winner != 0 or server.turn == 0
    assert state["points_won"] == points
    return state


def taken_on_both(match: OnlineMatch, taker: str) -> None:
    """The double just taken by ``taker``: cube 2 owned by the taker, the doubler on roll
    before rolling, on the board and on the server; then four more steps agree."""
    taken = match.board.until(lambda s: s["phase"] == "await_roll", "the take shown")
    assert taken["on_roll"] == (ONLINE.value if taker == HAND.value else HAND.value)
    assert taken["cube"] == {"value": 2, "owner": taker, "offered": False}
    server = match.opponent.wait_board(lambda b: b.cube_value == 2)
    assert owner(server) == taker and not server.double_offered
    played_on(match, 4)
    agreed(match)
    assert match.board.state()["cube"]["value"] == 2
    assert "disagree" not in match.board.daemon.stderr()


def next_game(match: OnlineMatch) -> None:
    """The next game set up on the board and its opening thrown on both."""
    match.step(match.board.state())
    assert match.board.state()["phase"] == "opening"
    match.opponent.wait_board(lambda b: b.turn == 0 and b.winner == 0)
    match.step(match.board.state())
    state = match.board.state()
    assert state["phase"] not in ("setup", "opening", "game_over")
    assert state["cube"] == {"value": 1, "owner": None, "offered": False}


def agreed(match: OnlineMatch) -> None:
    """The board's position, cube and score are the server's now."""
    server = match.opponent.board
    assert server is not None
    state = match.board.state()
    assert Board.from_counts(state["board"]["white"], state["board"]["black"]) \
        == to_board(server.spaces, HAND)
    assert state["cube"]["value"] == server.cube_value
    assert state["cube"]["owner"] == owner(server)
    assert state["score"] == server_score(server)


@needs("bgammon-server")
@pytest.mark.slow
def test_the_opponents_double_is_shown_and_taken_with_roll(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A few turns of a 3-point match (slow: about five seconds)."""
    with joined_match(tmp_path, bgammon_server, 3, seed=7) as match:
        opponent_doubles(match)
        match.board.sim({"press": f"{HAND.value}.roll"})  # the doubled player's ROLL takes
        taken_on_both(match, HAND.value)


@needs("bgammon-server")
def test_the_opponents_double_dropped_with_cube_is_scored_as_the_server_scores_it(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A game and the opening of the next in a 5-point match (two or three seconds)."""
    with joined_match(tmp_path, bgammon_server, 5, seed=7) as match:
        board = match.board
        before = opponent_doubles(match)
        board.sim({"press": f"{HAND.value}.cube"})  # the doubled player's CUBE drops
        dropped = scored(match, before, HAND.value)
        assert dropped["winner"] == ONLINE.value and dropped["phase"] == "game_over"
        next_game(match)
        agreed(match)
        assert "disagree" not in board.daemon.stderr()


@needs("bgammon-server")
@pytest.mark.slow
def test_the_boards_double_is_sent_and_the_opponent_takes_it(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A few turns of a 3-point match (slow: about five seconds)."""
    with joined_match(tmp_path, bgammon_server, 3, seed=9) as match:
        board_doubles(match)
        match.opponent.ok()
        taken_on_both(match, ONLINE.value)


@needs("bgammon-server")
def test_the_boards_double_dropped_by_the_opponent_scores_alike_on_both(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A game of a 3-point match, to its end when the drop decides it (two seconds)."""
    with joined_match(tmp_path, bgammon_server, 3, seed=9) as match:
        before = board_doubles(match)
        match.opponent.resign()  # a drop
        dropped = scored(match, before, ONLINE.value)
        assert dropped["winner"] == HAND.value
        if max(dropped["score"]) >= 3:
            assert dropped["phase"] == "match_over"
        else:
            next_game(match)
            agreed(match)
        assert "disagree" not in match.board.daemon.stderr()


@needs("bgammon-server")
def test_the_opponents_resignation_before_and_after_its_roll_ends_the_game_alike(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """Two games of a 7-point match (three or four seconds)."""
    with joined_match(tmp_path, bgammon_server, 7, seed=13) as match:
        board, opponent = match.board, match.opponent
        before = before_roll(match, ONLINE.value)
        opponent.resign()
        assert scored(match, before, ONLINE.value)["winner"] == HAND.value
        next_game(match)
        before = before_roll(match, ONLINE.value)
        opponent.roll()
        board.until(lambda s: s["phase"] in ("moving", "no_move")  # no move: it may resign
                    and s["on_roll"] == ONLINE.value, "the opponent's roll shown")
        opponent.resign()
        assert scored(match, before, ONLINE.value)["winner"] == HAND.value
        next_game(match)
        agreed(match)
        assert "disagree" not in board.daemon.stderr()
