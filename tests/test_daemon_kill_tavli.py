"""Power cuts in a tavli match: SIGKILL the daemon inside a turn and between games, restart.

A tavli match (Portes, then Plakoto, then Fevga) is played through POST
/api/sim against the real daemon process, as tests/test_daemon_kill.py plays
Portes.  The daemon is killed with SIGKILL at quiet moments: with a checker
moved inside a turn, with the dice rolled, right after DONE, once a game is
over, and with the next game's start laid out before its starter rolls.  Each
time it is started again on the same state directory and GET /api/state must
come back as it was, the game's events must start with exactly the events
journaled before, and the plays must be exactly the plays made: the match
continues exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kill_support import DICE, SATURATED, KilledSession, killable_daemon

from tavla_pi.rules import variant
from tavla_pi.rules.tavli import VariantPlay
from tavla_pi.testing.daemon_process import DaemonProcess

SEED = 12
COMPARED = ("phase", "on_roll", "board", "dice", "dice_used", "score", "match_length",
            "fix", "variant", "match_variant", "tavli_game", "pinned", "first_checker")
KINDS = ("inside_turn", "rolled", "after_done", "game_over", "set_up")
GAMES = 3
"""Portes and Plakoto to the end, then Fevga for a few turns."""
FEVGA_TURNS = 8


class TavliSession(KilledSession):
    """Plays the match through the API and kills the daemon at quiet moments."""

    compared = COMPARED

    def __init__(self, daemon: DaemonProcess, rng: random.Random) -> None:
        super().__init__(daemon, rng)
        self.variants: list[str] = []

    def maybe_kill(self, kind: str, chance: float) -> None:
        if self.kills[kind] < 3 or self.rng.random() < chance:
            self.kill(kind)

    def new_game(self, *, first: bool) -> None:
        """Set the board up for the game now; the opening roll or (later games) the
        previous winner's first roll comes with the first turn."""
        if not first:
            self.maybe_kill("game_over", 1.0)
        self.act({"setup": "start"})
        state = self.until_phase("opening", "await_roll")
        self.plays = []
        self.variants.append(state["variant"])
        if not first:
            assert state["phase"] == "await_roll", state
            self.maybe_kill("set_up", 1.0)
            return
        assert state["phase"] == "opening"
        white, black = self.rng.sample(range(1, 7), 2)
        self.act({"dice": [white, black]})
        events = self.act({"press": "white.roll"})
        assert any(e["type"] == "opening_roll" for e in events), events

    def turn(self) -> bool:
        """One turn of the player on roll; False once the game is over."""
        state = self.until_phase("await_roll", "moving", "game_over")
        if state["phase"] == "game_over":
            return False
        if state["phase"] == "await_roll":
            dice = self.rng.choice(DICE)
            self.act({"dice": list(dice)})
            self.act({"press": f"{state['on_roll']}.roll"})
            self.maybe_kill("rolled", 0.04)
            state = self.until_phase("await_roll", "moving", "game_over")
            if state["phase"] != "moving":  # no legal move: the turn passed
                return bool(state["phase"] != "game_over")
        self.move(state)
        return True

    def move(self, state: dict[str, Any]) -> None:
        me, name = state["on_roll"], state["variant"]
        position = variant(name).from_board(state["board"], me)
        a, b = state["dice"][0], state["dice"][-1]
        plays = position.legal_plays((a, b))
        play = self.rng.choice(plays)
        for n, (frm, to, hit) in enumerate(play.moves):
            if hit and name == "portes":
                self.act({"move": f"{absolute(name, me, to)}/bar", "color": other(me)})
            self.act({"move": f"{absolute(name, me, frm)}/{absolute(name, me, to)}",
                      "color": me})
            if n < len(play.moves) - 1 and quiet(play, n + 1):
                self.maybe_kill("inside_turn", 0.08)
        events = self.act({"press": f"{me}.roll"})
        played = [e for e in events if e["type"] == "played"]
        assert [e["play"] for e in played] == [play.notation], events
        self.maybe_kill("after_done", 0.04)


def absolute(name: str, color: str, own: int) -> str:
    """The location of ``color``'s own point ``own`` (0 off, 25 bar) in game ``name``."""
    if own in (0, 25):
        return "off" if own == 0 else "bar"
    if color == "white":
        return str(own)
    return str(own + 12 if own <= 12 else own - 12) if name == "fevga" else str(25 - own)


def other(color: str) -> str:
    return "black" if color == "white" else "white"


def quiet(play: VariantPlay, done: int) -> bool:
    """Whether the first ``done`` moves of a play hit or pin nothing and never move a
    checker from or onto a stack of 7 or more (where one more or less may read the
    same): a board the restarted daemon reads exactly."""
    mine = play.position.board()[play.position.on_roll.value]
    counts = Counter(mine)
    for frm, to, hit in play.moves[:done]:
        name = play.position.variant
        color = play.position.on_roll.value
        src, dst = absolute(name, color, frm), absolute(name, color, to)
        if hit or counts[src] >= SATURATED or counts[dst] + 1 >= SATURATED:
            return False
        counts[src] -= 1
        counts[dst] += 1
    return True


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[DaemonProcess]:
    yield from killable_daemon(tmp_path, "[game]\nvariant = \"tavli\"\nmatch_length = 7\n")


@pytest.mark.slow
def test_a_tavli_match_continues_exactly_after_power_cuts(daemon: DaemonProcess) -> None:
    session = TavliSession(daemon, random.Random(SEED))
    daemon.start()
    for game in range(GAMES):
        session.new_game(first=game == 0)
        turns = 0
        while session.turn():
            turns += 1
            if game == GAMES - 1 and turns >= FEVGA_TURNS:
                break
    print(f"\nkills: {dict(session.kills)}, games {session.variants}")
    assert session.variants == ["portes", "plakoto", "fevga"]
    assert all(session.kills[k] >= 1 for k in KINDS), session.kills
    status, _ = daemon.terminate()
    assert status == 0
    assert "Traceback" not in daemon.stderr()
