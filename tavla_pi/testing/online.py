"""A board that plays online, and a match against it: a real daemon on the sim backend, a
real bgammon-server (:mod:`tavla_pi.testing.bgammon`) and a plain-socket opponent.

:class:`OnlineBoard` starts a daemon configured as docs/ONLINE.md says (``[online] server``
the test's server, ``[opponent] online = true``, ``color = "black"``: the board's player
plays White).  :class:`OnlineMatch` plays a match between the board's player, through
POST /api/sim as a player would (ROLL, the checkers moved, DONE), and the
:class:`~tavla_pi.testing.bgammon.SocketPlayer` (a random legal play of each roll, one
move a command); after every play it checks that the board's position is the server's.
Waiting is bounded polling (each poll a request or a read with a deadline).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tavla_pi.online.board import position_of, server_moves, to_board
from tavla_pi.online.model import ME, OPPONENT, GameBoard
from tavla_pi.online.settings import ServerAddress
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.bgammon import BgammonServer, SocketPlayer
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.remote import FriendBoard

HAND = Color.WHITE
"""The colour the board's player plays (the online opponent plays the other)."""
ONLINE = HAND.opponent
TURNS_AT_MOST = 600
"""The most turns a match is given (a long 3-point match is a few hundred)."""
UNDER_WAY = ("await_roll", "moving", "no_move", "double_offered", "resign_offered")
MOMENTS = ("before_roll", "roll_shown", "mid_move", "after_done", "opponent_lit",
           "mid_carry")
"""Where in a turn the board's daemon may be SIGKILLed (:class:`Kill`): before the board's
player's ROLL, once the roll is shown, between two of its checkers moved, right after its
DONE (before the server's answer: the play may never have reached it), once the
opponent's play is lit, between two of the opponent's checkers carried out."""


@dataclass(frozen=True)
class Kill:
    """The board's daemon SIGKILLed at ``moment`` (:data:`MOMENTS`) of the first turn from
    ``turn`` on that has that moment."""

    turn: int
    moment: str


def kill_plan(seed: int, count: int, last_turn: int) -> list[Kill]:
    """``count`` kills at distinct moments, at turns drawn from 2 to ``last_turn`` by
    ``seed`` (a failure replays with its seed)."""
    rng = random.Random(seed)
    return sorted((Kill(rng.randint(2, last_turn), moment)
                   for moment in rng.sample(MOMENTS, count)), key=lambda k: k.turn)


class Served(Protocol):
    """A server the board plays on: the real bgammon-server, or a scripted test server."""

    @property
    def address(self) -> ServerAddress:
        """Its TCP listener."""
        ...


def online_config(server: Served, points: int, extra: str = "",
                  port: int | None = None) -> str:
    """The config of a board that plays ``points``-point matches on ``server`` (reached
    at ``port`` on its host where given: a relay's)."""
    port = server.address.port if port is None else port
    return (f'[board]\nstable_ms = 40\n[daemon]\nlog_level = "info"\n'
            f"[game]\nmatch_length = {points}\n"
            f'[online]\nserver = "tcp://{server.address.host}:{port}"\n'
            f'[opponent]\nonline = true\ncolor = "{ONLINE.value}"\n{extra}')


class OnlineBoard(FriendBoard):
    """The board's daemon (see the module), with the helpers of a friend's board."""

    def __init__(self, folder: Path, server: Served, points: int = 1,
                 extra: str = "", port: int | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        config = folder / "config.toml"
        config.write_text(online_config(server, points, extra, port))
        super().__init__("board", HAND, DaemonProcess(folder / "state", folder / "notify",
                                                      config))

    def online(self) -> dict[str, Any]:
        """``/api/state`` ``online``."""
        found: dict[str, Any] = self.state()["online"]
        return found

    def restart(self, while_down: Callable[[], object] | None = None) -> None:
        """SIGKILL the daemon (``while_down`` is then called), start it again; until it
        is back in its match."""
        self.daemon.kill()
        if while_down is not None:
            while_down()
        self.daemon.start()
        self.until(lambda s: s["online"]["connected"] and s["online"]["match"] is not None,
                   "the match rejoined")

    def board(self) -> Board:
        """The board's committed position, as an absolute board."""
        shown = self.state()["board"]
        return Board.from_counts(shown["white"], shown["black"])


@dataclass
class OnlineMatch:
    """A match between the board (White) and ``opponent`` (Black, on the server), played
    turn by turn (:meth:`play_turn`); ``checked`` counts the plays after which the board
    was compared with the server's."""

    board: OnlineBoard
    opponent: SocketPlayer
    rng: random.Random
    checked: int = 0
    plays: list[str] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    killed: list[Kill] = field(default_factory=list)
    turn: int = 0

    def join(self) -> None:
        """The board, set up, joins the opponent's open match; both throw the opening."""
        self.board.sim({"setup": "start"})
        self.board.until(lambda s: (s["online"]["match"] or {}).get("opponent") is not None,
                         "the opponent's match joined")
        self.opponent.wait_board(lambda b: b.opponent.name != "")

    def play(self, turns: int = TURNS_AT_MOST, between: Callable[[int], object] | None = None,
             ) -> dict[str, Any]:
        """Play until the match is over (at most ``turns`` turns; ``between(n)`` after
        turn n); the board's state then."""
        for turn in range(turns):
            self.turn = turn
            state = self.board.state()
            if state["phase"] == "match_over":
                return state
            self.step(state)
            if between is not None:
                between(turn)
        raise AssertionError(f"no match over in {turns} turns: {self.board.state()['phase']}")

    def step(self, state: dict[str, Any]) -> None:
        """One step of the match from ``state``: a game set up, the opening thrown, or a
        turn played."""
        phase = state["phase"]
        if phase in ("setup", "game_over"):
            self.board.sim({"setup": "start"})
            self.board.until(lambda s: s["phase"] not in ("setup", "game_over"),
                             "the next game set up")
        elif phase == "opening":
            self.opening()
        elif state["on_roll"] == HAND.value:
            self.board_turn(state)
        else:
            self.opponent_turn()

    def opening(self) -> None:
        """Both players throw the opening on the server (it throws ties again itself)."""
        self.opponent.roll()
        self.board.sim({"press": f"{HAND.value}.roll"})
        self.board.until(lambda s: s["phase"] != "opening", "the opening thrown")

    def board_turn(self, state: dict[str, Any]) -> None:
        """The board's player rolls, moves a random legal play and presses DONE; the server
        shows it."""
        self.opponent.wait_board(lambda b: b.turn == OPPONENT and b.winner == 0)  # this turn
        if state["phase"] == "await_roll":
            self.at("before_roll")
            self.board.sim({"press": f"{HAND.value}.roll"})
            state = self.board.until(lambda s: s["phase"] != "await_roll", "the roll")
            if self.at("roll_shown"):
                state = self.board.state()
        if state["phase"] == "no_move":
            self.board.until(lambda s: s["on_roll"] != HAND.value or s["phase"] not in
                             ("no_move", "moving"), "the pass")
            return
        position = Position.from_position_id(state["position_id"])
        a, b = state["dice"]
        play = self.rng.choice(position.legal_plays((a, b)))
        self.board.move_own(play, lambda: self.at("mid_move"))
        self.press_done(play)
        self.at("after_done")
        self.board.until(lambda s: s["phase"] != "moving" or s["on_roll"] != HAND.value,
                         "the play committed")
        self.plays.append(play.notation)
        self.check(lambda b: b.turn == ME or b.winner != 0 or b.turn == 0)

    def opponent_turn(self) -> None:
        """The opponent rolls (unless the server did), plays a random legal play one move
        a command and ends its turn; the board's hand carries it out."""
        server = self.opponent.wait_board(lambda b: b.turn == ME and b.winner == 0)
        if server.dice[0] == 0:
            self.opponent.roll()
            server = self.opponent.wait_board(lambda b: b.turn == ME and b.dice[0] != 0)
        play = self.opponent_play(server)
        if play is None:
            return
        def shown(s: dict[str, Any]) -> bool:
            return s["engine_play"] is not None or s["position_id"] == play.result.position_id()

        state = self.board.until(shown, "the opponent's play shown")
        if state["engine_play"] is not None and self.at("opponent_lit"):
            state = self.board.until(shown, "the opponent's play shown again")
        if state["engine_play"] is not None:
            self.board.carry_out(play, ONLINE, lambda: self.at("mid_carry"))
        self.plays.append(play.notation)
        self.check(lambda b: b.turn != ME or b.winner != 0)

    def opponent_play(self, server: GameBoard) -> Play | None:
        """A random legal play of the server's board, sent one move a command, and ``ok``
        (None: no legal move, the turn passed)."""
        position = position_of(server.spaces, ME)
        plays = position.legal_plays(server.dice)
        if not plays:
            self.opponent.ok()
            self.board.until(lambda s: s["on_roll"] == HAND.value, "the opponent's pass")
            return None
        play = self.rng.choice(plays)
        for sent, move in enumerate(server_moves(play), 1):
            self.opponent.move((move,))
            self.opponent.wait_board(_moved(sent))
        if self.opponent.board is not None and self.opponent.board.winner == 0:
            self.end_turn()
        return play

    def press_done(self, play: Play) -> None:
        """The board's player presses DONE after moving ``play``."""
        self.board.sim({"press": f"{HAND.value}.roll"})

    def end_turn(self) -> None:
        """The opponent ends its turn (``ok``) once its moves are made."""
        self.opponent.ok()

    def at(self, moment: str) -> bool:
        """SIGKILL the daemon and start it again if a kill is due at ``moment`` of this
        turn; whether it was.  It must come back as the same guest."""
        due = next((k for k in self.kills if k.moment == moment and k.turn <= self.turn),
                   None)
        if due is None:
            return False
        self.kills.remove(due)
        user = self.board.online()["user"]
        self.board.restart()
        back = self.board.online()["user"]
        assert back == user, f"killed at {moment}, turn {self.turn}: back as {back}, not {user}"
        self.killed.append(Kill(self.turn, moment))
        return True

    def check(self, server_moved_on: Callable[[GameBoard], bool]) -> None:
        """The board's position is the server's once the server shows the play."""
        server = self.opponent.wait_board(server_moved_on)
        if server.turn == 0 and server.winner == 0:  # reset for the next game already
            return
        expected = to_board(server.spaces, HAND)
        shown = self.board.until(
            lambda s: Board.from_counts(s["board"]["white"], s["board"]["black"]) == expected,
            f"the server's board {expected.as_dict()}")
        assert shown is not None
        self.checked += 1

    def server_result(self) -> tuple[int, int]:
        """The match's score on the server (White, Black) at its end."""
        board = self.opponent.wait_board(
            lambda b: b.winner != 0 and max(b.me.score, b.opponent.score) >= b.points)
        return board.opponent.score, board.me.score


def _moved(count: int) -> Callable[[GameBoard], bool]:
    """Whether a board shows ``count`` moves of the turn made (or the game won)."""
    return lambda b: len(b.pending) == count or b.winner != 0


@contextmanager
def joined_match(folder: Path, server: BgammonServer, points: int, seed: int, *,
                 kind: type[OnlineMatch] = OnlineMatch, port: int | None = None,
                 ) -> Iterator[OnlineMatch]:
    """The board's daemon (reaching the server at ``port``, a relay's, where given)
    joined to a socket player's open public match of ``points``."""
    board = OnlineBoard(folder, server, points=points, port=port)
    with SocketPlayer(server.port) as opponent:
        opponent.login("sockets")
        opponent.create(points, "sockets match")
        board.daemon.start()
        try:
            match = kind(board, opponent, random.Random(seed))
            match.join()
            yield match
        finally:
            board.daemon.close()
