"""What the power-cut tests share (tests/test_daemon_kill.py for Portes,
tests/test_daemon_kill_tavli.py for a tavli match): a session that plays through
POST /api/sim against the real daemon process, kills it with SIGKILL at quiet moments,
starts it again on the same state directory and checks that it came back exactly as it
was.  Waiting is bounded: between polls it waits for the daemon's next WATCHDOG=1."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tavla_pi.testing.daemon_process import DaemonProcess

STATE_TIMEOUT_S = 15.0
SENSING = {"lifted", "in_sync", "out_of_sync"}
"""What a restarted referee may report again: it reads the board afresh (e.g. a checker
borne off before the kill is, to the sensors, still a checker lifted from its point)."""
BACKGROUND = {"review"}
"""Events that come when they are done, at any moment: gnubg's reviews of finished games
(when gnubg is installed; a game without its review is reviewed after a restart)."""
SATURATED = 7
"""Checkers on one point where one more or less may read the same (6 pockets, stacked)."""
DICE = [(a, b) for a in range(1, 7) for b in range(a, 7)]
BASE_CONFIG = "[board]\nstable_ms = 40\n[daemon]\nlog_level = \"warning\"\n"


class KilledSession:
    """Plays through the API and kills the daemon; ``compared``: the fields of
    GET /api/state that must come back exactly."""

    compared: tuple[str, ...] = ()

    def __init__(self, daemon: DaemonProcess, rng: random.Random) -> None:
        self.daemon, self.rng = daemon, rng
        self.plays: list[tuple[str, ...]] = []  # of this game, as played() says them
        self.kills: Counter[str] = Counter()

    def played(self, event: dict[str, Any]) -> tuple[str, ...]:
        """What of a ``played`` event must be the same after a kill."""
        return event["player"], event["play"]

    def kill(self, kind: str, polls: int = 0) -> None:
        """Kill the daemon (after ``polls`` more requests: a random moment of its scan
        cycle), start it again and check the state, the events and the plays."""
        before = self.daemon.state()
        journaled = self.daemon.game_events(before["events"])
        for _ in range(polls):
            self.daemon.state()
        self.daemon.kill()
        self.daemon.start()
        self.kills[kind] += 1
        after = self.settled_state(before)
        events = self.daemon.game_events(after["events"])
        assert events[:len(journaled)] == journaled, f"events changed by a kill ({kind})"
        again = {e["type"] for e in events[len(journaled):]}
        assert again <= SENSING | BACKGROUND, f"a kill made game events ({kind}): {again}"
        replayed = [self.played(e) for e in events if e["type"] == "played"]
        assert replayed == self.plays, f"plays changed by a kill ({kind})"

    def settled_state(self, before: dict[str, Any]) -> dict[str, Any]:
        """GET /api/state until it matches ``before`` (the restarted board settles first)."""
        for _ in range(int(STATE_TIMEOUT_S / 0.1)):
            after = self.daemon.state()
            if all(after[k] == before[k] for k in self.compared):
                return after
            self.daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
        diff = {k: (before[k], after[k]) for k in self.compared if after[k] != before[k]}
        raise AssertionError(f"state changed by a kill: {diff}")

    def act(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The action's events (gnubg's reviews, which come whenever they are done, left out)."""
        events = [e for e in self.daemon.sim(action) if e["type"] not in BACKGROUND]
        for e in events:
            if e["type"] == "game_started":
                self.plays = []
            elif e["type"] == "played":
                self.plays.append(self.played(e))
        return events

    def until_phase(self, *phases: str) -> dict[str, Any]:
        """GET /api/state until its phase is one of ``phases``."""
        for _ in range(int(STATE_TIMEOUT_S / 0.1)):
            state = self.daemon.state()
            if state["phase"] in phases:
                return state
            self.daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
        raise AssertionError(f"never reached {phases}: {state['phase']}")


def killable_daemon(tmp_path: Path, config: str = "") -> Iterator[DaemonProcess]:
    """A daemon process on ``tmp_path`` (quick to settle, quiet, ``config`` added), closed
    at the end: the body of the tests' ``daemon`` fixture."""
    path = tmp_path / "config.toml"
    path.write_text(BASE_CONFIG + config)
    process = DaemonProcess(tmp_path / "state", tmp_path / "notify", path,
                            watchdog_usec=200_000)
    yield process
    process.close()
