"""A daemon SIGKILLed while the computer thinks resumes to the same play.

A real ``tavla-pi run --backend sim`` with the computer playing Black.  Its
gnubg is a stand-in on the PATH that thinks about the first play until its
caller is gone (tests/fake_gnubg.py ``stall``): the scripted fake, and where
gnubg is installed the real one behind the same stall.  White opens and
presses DONE; Black rolls; while the engine thinks the daemon is killed with
SIGKILL and started again.  The coach is off: its ranking of White's play
would be the question the stand-in stalls on.  The journal's events come back unchanged, the
roll is not made again, the question is asked again and the play is the one
gnubg chooses for that position and roll; carried out, it is committed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gnubg_support import fake_gnubg
from programs import needs

from tavla_pi.engine import EngineRequest, GnubgEngine, find_gnubg
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.daemon_process import DaemonProcess

GNUBG = find_gnubg()
WAIT_S = 30.0
KINDS = ["fake", pytest.param("gnubg", marks=needs("gnubg"))]


@pytest.fixture
def daemon(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[DaemonProcess]:
    kind = request.param
    proxy = {"proxy": str(GNUBG)} if kind == "gnubg" else {}
    fake_gnubg(tmp_path / "bin", tmp_path / "fake", stall={"hint": 1}, **proxy)
    config = tmp_path / "config.toml"
    config.write_text('[board]\nstable_ms = 40\n[daemon]\nlog_level = "warning"\n'
                      '[opponent]\ncolor = "black"\nlevel = "expert"\ncoach = false\n')
    process = DaemonProcess(tmp_path / "state", tmp_path / "notify", config,
                            watchdog_usec=200_000,
                            env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"})
    yield process
    process.close()


def until(daemon: DaemonProcess, done: Any) -> dict[str, Any]:
    """GET /api/state until ``done(state)``, waiting a watchdog beat between polls."""
    for _ in range(int(WAIT_S / 0.1)):
        state = daemon.state()
        if done(state):
            return state
        daemon.wait_for(lambda m: m == "WATCHDOG=1", 5)
    raise AssertionError(f"never reached: {state}")


def expected_play(kind: str, position_id: str, dice: tuple[int, int], tmp_path: Path) -> Play:
    """The play the engine behind the stand-in chooses: the fake's first legal play, or
    gnubg's own (asked directly)."""
    position = Position.from_position_id(position_id)
    if kind == "fake":
        return position.legal_plays(dice)[0]
    engine = GnubgEngine.launch(tmp_path / "prefs", GNUBG)
    try:
        play = engine.play(EngineRequest(position, MatchState(dice=dice))).play
    finally:
        engine.close()
    assert play is not None
    return play


@pytest.mark.slow
@pytest.mark.parametrize("daemon", KINDS, indirect=True)
def test_a_daemon_killed_while_the_engine_thinks_resumes_to_the_same_play(
    daemon: DaemonProcess, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    daemon.start()
    daemon.sim({"setup": "start"})
    until(daemon, lambda s: s["phase"] == "opening")
    for action in ({"dice": [3, 1]}, {"press": "white.roll"},
                   {"move": "8/5", "color": "white"}, {"move": "6/5", "color": "white"},
                   {"dice": [6, 5]}, {"press": "white.roll"}):
        daemon.sim(action)
    before = until(daemon, lambda s: s["engine_thinking"])
    assert (before["phase"], before["on_roll"], before["dice"]) == ("moving", "black", [6, 5])
    journaled = daemon.game_events(before["events"])
    assert [e["type"] for e in journaled][-2:] == ["played", "rolled"]

    daemon.kill()
    daemon.start()
    after = until(daemon, lambda s: s["engine_play"] is not None)
    events = daemon.game_events(after["events"])
    assert events[:len(journaled)] == journaled
    new = [e for e in events[len(journaled):] if e["type"] not in ("lifted", "in_sync",
                                                                   "out_of_sync")]
    assert [e["type"] for e in new] == ["engine_play"]
    kind = request.node.callspec.params["daemon"]
    play = expected_play(kind, before["position_id"], (6, 5), tmp_path)
    assert new[0]["play"] == play.notation
    assert new[0]["position_id"] == play.result.position_id()

    for frm, to, hit in play.moves:
        assert not hit  # the opening 8/5 6/5 leaves no blot to hit with 6-5
        daemon.sim({"move": f"{25 - frm}/{25 - to}", "color": "black"})
    done = until(daemon, lambda s: s["on_roll"] == "white" and s["phase"] == "await_roll")
    last = daemon.game_events(done["events"])[-1]
    assert (last["type"], last["player"], last["play"]) == ("played", "black", play.notation)
    status, _ = daemon.terminate()
    assert status == 0
    assert "Traceback" not in daemon.stderr()
