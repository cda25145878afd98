"""Power cuts: SIGKILL the daemon at random quiet moments of a game, restart it, find it unchanged.

A money session is played through POST /api/sim (real processes, real
time).  At random moments (with a checker moved inside a turn, with the
dice queued or rolled, with a double offered or taken, right after DONE)
the daemon is killed with SIGKILL and started again on the same state
directory.  Each time GET /api/state must come back exactly as it was
(every field but ``leds``, whose blinking depends on the moment, and the
event count), and the game's event stream must start with exactly the
events journaled before the kill and hold exactly the plays made so far:
none lost, none twice.  After the restart the referee reads the board
afresh and may report what it senses again (a ``lifted``), nothing else but
gnubg's reviews, which come whenever they are done.
The checkers on the simulated board survive as on a real board
(``sim-board.json``).

Waiting is bounded: between polls the test waits for the daemon's next
WATCHDOG=1 (every 100 ms), never sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kill_support import DICE, SATURATED, KilledSession, killable_daemon

from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.daemon_process import DaemonProcess

SEED = 20_260_5
KILLS = 50
"""At least this many kills in the run; each kind below at least MIN_EACH times."""
MIN_EACH = 4
KINDS = ("inside_turn", "rolled", "dice_queued", "double_offered", "double_taken", "after_done")
MAX_TURNS = 400
COMPARED = ("phase", "on_roll", "position_id", "match_id", "board", "sensed", "dice",
            "dice_used", "cube", "score", "match_length", "fix", "backend")


class Session(KilledSession):
    """Plays a money session and kills the daemon at random quiet moments."""

    compared = COMPARED

    def __init__(self, daemon: DaemonProcess, rng: random.Random) -> None:
        super().__init__(daemon, rng)
        self.games = 0

    def played(self, event: dict[str, Any]) -> tuple[str, ...]:
        return event["player"], event["play"], event["position_id"]

    # -- killing -----------------------------------------------------------------

    def maybe_kill(self, kind: str, chance: float) -> None:
        short = self.kills[kind] < MIN_EACH or sum(self.kills.values()) < KILLS
        if short and self.rng.random() < chance:
            self.kill(kind)

    def kill(self, kind: str, polls: int = 0) -> None:
        super().kill(kind, polls + self.rng.randrange(4))

    def new_game(self) -> None:
        self.act({"setup": "start"})
        self.until_phase("opening")
        self.plays = []  # game_started came while the board settled, after the answer
        white, black = self.rng.sample(range(1, 7), 2)
        self.act({"dice": [white, black]})
        events = self.act({"press": "white.roll"})
        assert events[-1]["type"] == "opening_roll"
        self.games += 1

    def turn(self) -> bool:
        """One turn of the player on roll; False once the game is over."""
        state = self.until_phase("await_roll", "moving", "game_over")
        if state["phase"] == "game_over":
            return False
        if state["phase"] == "await_roll":
            if self.cube_action(state):
                return False
            self.roll(state)
            state = self.until_phase("moving")
        self.move(state)
        return True

    def cube_action(self, state: dict[str, Any]) -> bool:
        """Maybe double; True when the double was dropped (the game is over)."""
        me = state["on_roll"]
        cube = state["cube"]
        if cube["owner"] not in (None, me) or cube["value"] >= 16 or self.rng.random() > 0.3:
            return False
        other = "black" if me == "white" else "white"
        events = self.act({"press": f"{me}.cube"})
        assert events[-1]["type"] == "double_offered", events
        self.maybe_kill("double_offered", 0.8)
        drop = len(self.plays) > 24 and self.rng.random() < 0.5
        events = self.act({"press": f"{other}.{'cube' if drop else 'roll'}"})
        if drop:
            assert [e["type"] for e in events][:2] == ["double_dropped", "game_over"]
            return True
        assert events[-1]["type"] == "double_taken"
        self.maybe_kill("double_taken", 0.8)
        return False

    def roll(self, state: dict[str, Any]) -> None:
        dice = self.choose_dice(state["position_id"])
        self.act({"dice": list(dice)})
        self.maybe_kill("dice_queued", 0.15)
        events = self.act({"press": f"{state['on_roll']}.roll"})
        rolled = [e for e in events if e["type"] == "rolled"]
        assert [r["dice"] for r in rolled] == [list(dice)], events
        self.maybe_kill("rolled", 0.2)

    def choose_dice(self, position_id: str) -> tuple[int, int]:
        """Dice with a quiet play (see :func:`quiet`)."""
        position = Position.from_position_id(position_id)
        for dice in self.rng.sample(DICE, len(DICE)):
            if any(quiet(p) for p in position.legal_plays(dice)):
                return dice
        raise AssertionError(f"no quiet roll in {position_id}")

    def move(self, state: dict[str, Any]) -> None:
        me = state["on_roll"]
        position = Position.from_position_id(state["position_id"])
        a, b = state["dice"]
        play = self.rng.choice([p for p in position.legal_plays((a, b)) if quiet(p)])
        for n, (frm, to, _) in enumerate(play.moves):
            self.act({"move": f"{location(frm, me)}/{location(to, me)}", "color": me})
            if n < len(play.moves) - 1:
                self.maybe_kill("inside_turn", 0.35)
        events = self.act({"press": f"{me}.roll"})
        played = [e for e in events if e["type"] == "played"]
        assert [e["play"] for e in played] == [play.notation], events
        self.maybe_kill("after_done", 0.35)


def quiet(play: Play) -> bool:
    """A play that hits nothing (no checker to carry to the bar) and never moves a checker
    from or onto a stack of 7 or more, where the sensors may not count one more or less."""
    counts = list(play.position.mine)  # the mover's points 1..24, then the bar
    for frm, to, hit in play.moves:
        if hit or counts[frm - 1] >= SATURATED:
            return False
        counts[frm - 1] -= 1
        if to:
            counts[to - 1] += 1
            if counts[to - 1] >= SATURATED:
                return False
    return True


def location(point: int, color: str) -> str:
    """A point in the mover's numbering (25 bar, 0 off) as a docs/CONTRACTS.md §1 location."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point if color == "white" else 25 - point)


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[DaemonProcess]:
    yield from killable_daemon(tmp_path)


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_and_repeats_nothing(daemon: DaemonProcess) -> None:
    session = Session(daemon, random.Random(SEED))
    daemon.start()
    turns = 0
    while turns < MAX_TURNS:
        session.new_game()
        while session.turn():
            turns += 1
        enough = sum(session.kills.values()) >= KILLS
        if enough and all(session.kills[k] >= MIN_EACH for k in KINDS):
            break
    print(f"\nkills: {dict(session.kills)}, total {sum(session.kills.values())}, "
          f"turns {turns}, games {session.games}")
    assert sum(session.kills.values()) >= KILLS
    assert all(session.kills[k] >= MIN_EACH for k in KINDS), session.kills
    status, _ = daemon.terminate()
    assert status == 0
    assert "Traceback" not in daemon.stderr()
