"""Two boards, one game: two real daemons on the sim backend and a real Mosquitto.

:class:`Pair` starts board ``athens`` (its player plays White; the board
``izmir`` plays Black) and board ``izmir`` (the mirror), configured as
docs/OPERATING.md says, on a broker the tests started (tavla_pi/testing/mosquitto.py).
Each board's key is made in its state directory first, as ``tavla-pi key`` makes it,
and each config names the other's (``[opponent] remote_key``).
:meth:`Pair.play_turn` plays one turn as players would, through POST
/api/sim on each board: the mover rolls and moves a random legal play and
presses DONE on their own board; the other board lights it (``remote_play``)
and its hand carries it out there.  Waiting is bounded polling of GET
/api/state (each poll a request; no fixed sleeps).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.remote.keys import BoardKey
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.hand import hand_moves
from tavla_pi.testing.mosquitto import Mosquitto

BOARD_TIMEOUT_S = 30.0
CHOICES = 6
"""CUBE presses, at most, to reach one of the plays that read the same (two, rarely three)."""
PRESS_S = 2.0
"""How long a CUBE press is given to show the next play before it is pressed again."""
BOARDS = {"athens": Color.WHITE, "izmir": Color.BLACK}
"""Each board's name and the colour its own player plays."""


def board_config(name: str, broker: str, peer_key: str, extra: str = "") -> str:
    """The config of board ``name``: its friend's board, whose key is ``peer_key``, plays
    the other colour."""
    peer = next(b for b in BOARDS if b != name)
    return (f'[board]\nstable_ms = 40\n[daemon]\nlog_level = "info"\n'
            f'[network]\nbroker = "{broker}"\nboard = "{name}"\n'
            f'[opponent]\nremote = "{peer}"\ncolor = "{BOARDS[peer].value}"\n'
            f'remote_key = "{peer_key}"\n{extra}')


@dataclass
class FriendBoard:
    """One board's daemon and the colour its player plays."""

    name: str
    color: Color
    daemon: DaemonProcess

    def state(self) -> dict[str, Any]:
        """GET /api/state."""
        return self.daemon.state()

    def sim(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """POST /api/sim."""
        return self.daemon.sim(action)

    def until(self, wanted: Callable[[dict[str, Any]], bool], what: str,
              timeout_s: float = BOARD_TIMEOUT_S) -> dict[str, Any]:
        """Poll the state until ``wanted`` holds; fails naming ``what`` on timeout."""
        state = self.poll(wanted, timeout_s)
        assert wanted(state), \
            f"{self.name}: no {what} in {timeout_s} s: {_brief(state)}\n" \
            f"{self.daemon.stderr()[-3000:]}"
        return state

    def poll(self, wanted: Callable[[dict[str, Any]], bool],
             timeout_s: float) -> dict[str, Any]:
        """The first state for which ``wanted`` holds, else the last one read in time."""
        deadline = time.monotonic() + timeout_s
        while not wanted(state := self.state()) and time.monotonic() < deadline:
            pass
        return state

    def choose(self, play: Play, press_cube: Callable[[], object]) -> None:
        """Where other plays read the same as ``play`` (a tall stack hides a checker:
        ``candidates``), press CUBE until DONE confirms it, as a player reads the lights.
        The DONE prompt is waited for only a moment: a checker put on a third layer reads
        as still in the hand, and DONE, not the prompt, settles that."""
        state = self.poll(lambda s: s["press_done"], PRESS_S)
        for _ in range(CHOICES):
            if not state["candidates"] or state["confirms"] == play.notation:
                return
            press_cube()
            state = self.poll(lambda s: s["confirms"] == play.notation, PRESS_S)
        raise AssertionError(f"{self.name}: CUBE never offered {play.notation}: {_brief(state)}")

    def move_own(self, play: Play, between: Callable[[], object] | None = None) -> None:
        """This board's player moves ``play`` and chooses it (:meth:`choose`), before DONE;
        ``between`` is called between two of the hand's moves."""
        self._hand(hand_moves(play, self.color), between)
        self.choose(play, lambda: self.sim({"press": f"{self.color.value}.cube"}))

    def carry_out(self, play: Play, mover: Color,
                  between: Callable[[], object] | None = None) -> dict[str, Any]:
        """The hand here carries out the other board's ``play`` (``mover``'s), and presses
        this board's DONE where the board cannot see the rest of it (a tall stack reads
        the same as another play: ``press_done`` with ``candidates``); the state once it
        is committed.  Where the board reads the whole play it commits it by itself: a
        press then could come just after, and be this board's player's ROLL.  ``between``
        is called between two of the hand's moves."""
        self._hand(hand_moves(play, mover), between)
        result = play.result.position_id()

        def committed(s: dict[str, Any]) -> bool:
            return bool(s["position_id"] == result and s["phase"] != "moving")

        state = self.until(lambda s: committed(s) or (s["press_done"] and s["candidates"]),
                           "the play carried out")
        if not committed(state):
            self.sim({"press": f"{self.color.value}.roll"})
            state = self.until(committed, "the play confirmed by DONE")
        return state

    def _hand(self, actions: list[dict[str, Any]], between: Callable[[], object] | None,
              ) -> None:
        """The hand's ``actions`` made in turn, ``between`` called between two of them."""
        for done, action in enumerate(actions):
            if done and between is not None:
                between()
            self.sim(action)


def _brief(state: dict[str, Any]) -> dict[str, Any]:
    keys = ("phase", "on_roll", "dice", "position_id", "match_id", "remote", "engine_play",
            "fix", "engine_trouble", "candidates", "confirms", "press_done", "lifted", "to_bar",
            "dice_used")
    return {k: state.get(k) for k in keys}


class Pair:
    """The two boards of one game and the broker between them."""

    def __init__(self, tmp: Path, broker: Mosquitto, extra: str = "") -> None:
        self.broker = broker
        self.boards: list[FriendBoard] = []
        self.keys = {name: BoardKey.load_or_make(tmp / name / "state") for name in BOARDS}
        """Each board's key, in its state directory."""
        for name, color in BOARDS.items():
            folder = tmp / name
            config = folder / "config.toml"
            peer = next(b for b in BOARDS if b != name)
            config.write_text(board_config(name, broker.url, self.keys[peer].public.text,
                                           extra))
            daemon = DaemonProcess(folder / "state", folder / "notify", config)
            self.boards.append(FriendBoard(name, color, daemon))

    def start(self) -> None:
        """Start both daemons; wait until each sees the other on the broker."""
        for board in self.boards:
            board.daemon.start()
        self.until_connected()

    def until_connected(self) -> None:
        """Both boards see each other."""
        for board in self.boards:
            board.until(lambda s: s["remote"] is not None and s["remote"]["connected"],
                        "connection to the other board")

    def close(self) -> None:
        """Kill both daemons."""
        for board in self.boards:
            board.daemon.close()

    def board_of(self, color: Color) -> FriendBoard:
        """The board whose player plays ``color``."""
        return next(b for b in self.boards if b.color is color)

    def set_up(self) -> None:
        """Both boards laid out for the start; the opening rolled on athens."""
        for board in self.boards:
            board.sim({"setup": "start"})
        for board in self.boards:
            board.until(lambda s: s["phase"] == "opening", "opening")
        self.opening()

    def opening(self) -> None:
        """Roll the opening (again after a tie) on athens, until it is decided on both."""
        first = self.boards[0]
        while True:
            self.throw_opening(first)
            if first.state()["phase"] != "opening":
                break
        for board in self.boards:
            board.until(lambda s: s["phase"] not in ("opening", "setup"), "opening decided")

    def throw_opening(self, board: FriendBoard) -> None:
        """One opening throw on ``board``: its ROLL, and the dice both boards make."""
        throws = len(self.opening_rolls(board))
        board.sim({"press": f"{board.color.value}.roll"})
        board.until(lambda _: len(self.opening_rolls(board)) > throws, "opening roll")

    @staticmethod
    def opening_rolls(board: FriendBoard) -> list[dict[str, Any]]:
        """The opening throws of the game ``board`` plays now."""
        events = board.daemon.game_events(board.state()["events"])
        return [e for e in events if e["type"] == "opening_roll"]

    def play_turn(self, rng: random.Random) -> dict[str, Any]:
        """One turn of the player on roll: roll, move, DONE on their board; the other
        board carries it out.  The ``played`` event on the mover's board."""
        on_roll = Color(self.boards[0].until(lambda s: s["on_roll"] is not None
                                             and s["phase"] in ("await_roll", "moving",
                                                                "no_move"),
                                             "a turn")["on_roll"])
        mover, other = self.board_of(on_roll), self.board_of(on_roll.opponent)
        state = mover.state()
        if state["phase"] == "await_roll":
            mover.sim({"press": f"{on_roll.value}.roll"})
            state = mover.until(lambda s: s["phase"] != "await_roll", "the roll")
        if state["phase"] == "no_move":
            for board in (mover, other):
                board.until(lambda s: s["on_roll"] == on_roll.opponent.value, "the pass")
            return {"type": "pass", "player": on_roll.value}
        position = Position.from_position_id(state["position_id"])
        a, b = state["dice"]
        play = rng.choice(position.legal_plays((a, b)))
        mover.move_own(play)
        played = [e for e in mover.sim({"press": f"{on_roll.value}.roll"})
                  if e["type"] == "played"]
        after = mover.until(lambda s: s["position_id"] == play.result.position_id()
                            and s["phase"] != "moving", "the play committed")
        shown = other.until(lambda s: s["engine_play"] is not None
                            or s["position_id"] == after["position_id"], "the remote play")
        if shown["position_id"] != after["position_id"]:
            other.carry_out(play, on_roll)
        other.until(lambda s: s["position_id"] == after["position_id"]
                    and s["match_id"] == after["match_id"], "the play carried out")
        return played[0] if played else {"type": "played", "play": play.notation}
