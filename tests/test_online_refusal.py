"""A play of the board's that the server refuses, end to end (docs/ONLINE.md, "What the
board checks"): the board's daemon on the sim backend, played through POST /api/sim,
against the scripted test server of tests/test_online_hostile.py, which plays along (a
match created, an opponent joined, the opening thrown: the board's player starts with
3-1) and refuses the board's first play once, with ``failedmove`` or ``failedok``.

The refusal is shown (a ``rejected`` with the server's reason), the turn stays open at
its start with the same dice, the fixes lead the checkers back to the turn's start; DONE
meanwhile is refused and sends nothing; once the hand has put them back, a play (the
same again, or another) and DONE send it, and the server takes it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_online_hostile import JOINED, START, WELCOME, HostileServer, board, event

from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.hand import hand_takes_back
from tavla_pi.testing.online import HAND, OnlineBoard
from tavla_pi.testing.processes import wait_until
from tavla_pi.testing.remote import BOARD_TIMEOUT_S

DICE = (3, 1)
REASONS = {"failedmove": "Illegal move.",
           "failedok": "The following legal moves are available: 24/21"}
"""What the scripted server says when it refuses (as bgammon-server words them)."""


class RefusingServer:
    """The scripted server (see the module): it refuses the board's first play with
    ``refusal`` (``failedmove``: its first move; ``failedok``: its ``ok``), then takes the
    next.  The board's player is the server's player 1 (its numbering is White's)."""

    def __init__(self, refusal: str) -> None:
        self.refusal = refusal
        self.refused = 0
        self.spaces = list(START)
        self.pending: list[list[int]] = []
        self._lock = threading.Lock()
        self.server = HostileServer([WELCOME], answer=self.answer)

    def answer(self, line: str) -> list[bytes]:
        """The lines the server sends back to the board's command ``line``."""
        word, _, rest = line.partition(" ")
        answers: dict[str, Callable[[], list[bytes]]] = {
            "list": lambda: [event("list", Games=[])],
            "create": lambda: [JOINED, event("joined", GameID=1, PlayerNumber=2,
                                             Player="Guest_rival"),
                               board(START, Turn=0, Roll1=0, Roll2=0)],
            "roll": lambda: [self.shown()],
            "move": lambda: self.moved(rest.split()),
            "reset": self.reset,
            "ok": self.ended,
        }
        with self._lock:
            return answers.get(word, list)()

    def reset(self) -> list[bytes]:
        """The moves made undone (none made: nothing is said, as bgammon-server does)."""
        made, self.spaces, self.pending = self.pending, list(START), []
        return [self.shown()] if made else []

    def shown(self) -> bytes:
        """The board of the board's turn, with the moves made so far."""
        return board(self.spaces, Turn=1, Roll1=DICE[0], Roll2=DICE[1], Moves=self.pending)

    def moved(self, moves: list[str]) -> list[bytes]:
        made = [[int(n) for n in move.split("/")] for move in moves]
        if self.refusal == "failedmove" and not self.refused:
            self.refused += 1
            return [event("failedmove", From=made[0][0], To=made[0][1],
                          Reason=REASONS["failedmove"])]
        for origin, target in made:
            self.spaces[origin] -= 1
            self.spaces[target] += 1
        self.pending += made
        return [self.shown()]

    def ended(self) -> list[bytes]:
        if self.refusal == "failedok" and not self.refused:
            self.refused += 1
            return [event("failedok", Reason=REASONS["failedok"])]
        return [board(self.spaces, Turn=2, Roll1=0, Roll2=0)]

    def commands(self, word: str) -> list[str]:
        """The board's commands so far that begin with ``word``."""
        with self._lock:
            return [line for line in self.server.heard if line.split(" ")[0] == word]


@pytest.fixture(params=["failedmove", "failedok"])
def refusing(request: pytest.FixtureRequest,
             tmp_path: Path) -> Iterator[tuple[OnlineBoard, RefusingServer]]:
    """The board's daemon, its match on the scripted server under way: the opening thrown,
    the board's player on roll with 3-1."""
    scripted = RefusingServer(request.param)
    board_ = OnlineBoard(tmp_path / "board", scripted.server)
    board_.daemon.start()
    try:
        board_.until(lambda s: s["online"]["connected"], "logged in")
        board_.sim({"setup": "start"})
        board_.until(lambda s: (s["online"]["match"] or {}).get("opponent") == "Guest_rival",
                     "the opponent joined")
        board_.sim({"press": f"{HAND.value}.roll"})
        board_.until(lambda s: s["phase"] == "moving" and s["dice"] == list(DICE),
                     "the opening 3-1")
        yield board_, scripted
    finally:
        board_.daemon.close()
        scripted.server.close()


def legal(state: dict[str, Any], notation: str) -> Play:
    """The legal play ``notation`` of the turn ``state`` shows."""
    position = Position.from_position_id(state["position_id"])
    return next(p for p in position.legal_plays(DICE) if p.notation == notation)


def rejections(board_: OnlineBoard) -> list[dict[str, Any]]:
    events = board_.daemon.game_events(board_.state()["events"])
    return [e for e in events if e["type"] == "rejected"]


def test_a_refused_play_is_shown_lit_back_to_the_start_then_played_again(
        refusing: tuple[OnlineBoard, RefusingServer]) -> None:
    board_, scripted = refusing
    start = board_.state()
    first = legal(start, "8/5 6/5")
    board_.move_own(first)
    board_.sim({"press": f"{HAND.value}.roll"})
    refused = board_.until(lambda s: s["phase"] == "moving" and s["fix"] != [],
                           "the refusal lit")
    assert [r["reason"] for r in rejections(board_)] == \
        [f"the server refused the play: {REASONS[scripted.refusal]}"]
    assert (refused["on_roll"], refused["dice"]) == (HAND.value, list(DICE))
    assert refused["position_id"] == start["position_id"]  # the turn open at its start
    assert refused["online"]["connected"] and not refused["press_done"]
    assert {(f["at"], f["color"]) for f in refused["fix"]} >= {("5", HAND.value)}
    wait_until(lambda: scripted.commands("reset") != [], "the server's moves undone",
               BOARD_TIMEOUT_S)
    sent = len(scripted.commands("move"))
    said = board_.sim({"press": f"{HAND.value}.roll"})  # DONE, the refused play still there
    assert [e["reason"] for e in said if e["type"] == "rejected"] == \
        ["put the checkers back where they stood before the play refused"]
    assert board_.state()["phase"] == "moving"
    assert len(scripted.commands("move")) == sent  # nothing sent again
    for action in hand_takes_back(first, HAND):
        board_.sim(action)
    board_.until(lambda s: s["fix"] == [], "the checkers back at the turn's start")
    again = first if scripted.refusal == "failedmove" else legal(start, "24/21 6/5")
    board_.move_own(again)
    board_.sim({"press": f"{HAND.value}.roll"})
    taken = board_.until(lambda s: s["phase"] == "await_roll" and s["on_roll"] != HAND.value,
                         "the second play taken by the server")
    assert taken["position_id"] == again.result.position_id()
    assert "disagree" not in board_.daemon.stderr()
    assert scripted.commands("ok") != []
