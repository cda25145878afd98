"""Matches against an opponent on a real bgammon-server: the board's daemon on the sim
backend (docs/ONLINE.md), a plain-socket opponent, the board's player through POST
/api/sim.  After every play the board's position is the server's; a daemon killed in the
middle comes back to the same match and the match goes on to its end; the server killed
ends the match on the board with a clear message.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from programs import needs

from tavla_pi.rules.play import Play
from tavla_pi.testing.bgammon import BgammonServer
from tavla_pi.testing.online import HAND, OnlineMatch, joined_match, kill_plan
from tavla_pi.testing.relay import Relay

KILL_SEED = int(os.environ.get("TAVLA_KILL_SEED") or random.SystemRandom().randrange(10**6))
"""The seed of the kills' moments: a new one each run, TAVLA_KILL_SEED replays one."""


@needs("bgammon-server")
@pytest.mark.slow
def test_a_1_point_match_with_the_daemon_killed_in_the_middle(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A whole 1-point match (a minute or more: every checker moved through the sim)."""
    with joined_match(tmp_path, bgammon_server, 1, seed=11) as match:
        board = match.board
        joined = board.online()
        assert joined["match"] == {"id": match.opponent.match_id,
                                   "opponent": "Guest_sockets", "points": 1}
        final = match.play(between=lambda n: board.restart() if n == 9 else None)
        assert board.online()["user"] == joined["user"]  # the same guest came back
        assert "Rejoined match" in board.daemon.stderr()
        assert tuple(final["score"]) == match.server_result()
        assert match.checked >= 10
        assert "disagree" not in board.daemon.stderr()


@needs("bgammon-server")
@pytest.mark.slow
def test_a_1_point_match_with_the_daemon_killed_at_random_moments(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A whole 1-point match, the daemon SIGKILLed at three moments drawn by KILL_SEED
    (printed; TAVLA_KILL_SEED=n replays it) among before ROLL, the roll shown, mid-move,
    right after DONE, the opponent's play lit and mid-carry (a minute or so)."""
    print(f"TAVLA_KILL_SEED={KILL_SEED}")
    plan = kill_plan(KILL_SEED, 3, last_turn=14)
    replay = f"TAVLA_KILL_SEED={KILL_SEED}, plan {plan}"
    with joined_match(tmp_path, bgammon_server, 1, seed=KILL_SEED) as match:
        board = match.board
        joined = board.online()["user"]
        match.kills = list(plan)
        try:
            final = match.play()
        except AssertionError as failed:
            raise AssertionError(f"{replay}: killed {match.killed}: {failed}") from failed
        assert board.online()["user"] == joined, replay
        assert tuple(final["score"]) == match.server_result(), replay
        assert len(match.killed) == 3 and not match.kills, f"{replay}: {match.killed}"
        assert match.checked >= 10, replay
        assert "disagree" not in board.daemon.stderr(), replay


@dataclass
class LinkDiesAtDone(OnlineMatch):
    """A match whose link, once from turn ``from_turn`` on, swallows the board's play
    sent on DONE; the daemon is then SIGKILLed and started again on a working link."""

    relay: Relay | None = None
    from_turn: int = 4
    lost: str | None = None

    def press_done(self, play: Play) -> None:
        if self.lost is not None or self.turn < self.from_turn or self.relay is None:
            super().press_done(play)
            return
        self.relay.swallow()
        super().press_done(play)
        self.board.until(lambda s: s["phase"] != "moving" or s["on_roll"] != HAND.value,
                         "the play committed here")
        self.lost = play.notation
        self.board.restart(self.relay.relay)


@needs("bgammon-server")
@pytest.mark.slow
def test_a_play_the_server_never_got_is_sent_again_after_a_restart(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A 1-point match whose link dies as the board sends its play: the play is committed
    here, the daemon is SIGKILLed, and back on the server it sends the play again, which
    the server takes; the match goes on to the server's result (a minute or so)."""
    with Relay(bgammon_server.port) as relay, joined_match(
            tmp_path, bgammon_server, 1, seed=5, kind=LinkDiesAtDone,
            port=relay.port) as match:
        assert isinstance(match, LinkDiesAtDone)
        match.relay = relay
        final = match.play()
        assert match.lost is not None, "no play of the board's was lost"
        log = match.board.daemon.stderr()
        assert f"the server never got this board's play {match.lost}: sent again" in log
        assert tuple(final["score"]) == match.server_result()
        assert "disagree" not in log


@needs("bgammon-server")
@pytest.mark.slow
def test_a_3_point_match_follows_the_servers_score_and_crawford_game(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """A whole 3-point match (several minutes)."""
    with joined_match(tmp_path, bgammon_server, 3, seed=5) as match:
        final = match.play()
        assert final["match_length"] == 3 and max(final["score"]) >= 3
        assert tuple(final["score"]) == match.server_result()
        assert "disagree" not in match.board.daemon.stderr()


@needs("bgammon-server")
@pytest.mark.slow
def test_the_server_gone_for_good_ends_the_match_on_the_board(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    """The server restarted (it keeps matches in memory only): the board ends its match."""
    with joined_match(tmp_path, bgammon_server, 1, seed=3) as match:
        board = match.board
        for _ in range(4):
            match.step(board.state())
        bgammon_server.kill()
        gone = board.until(lambda s: not s["online"]["connected"], "the link lost")
        assert gone["online"]["trouble"].startswith("the server tcp://")
        bgammon_server.start()
        ended = board.until(lambda s: s["online"]["connected"]
                            and s["online"]["match"] is None, "the match ended")
        assert "no longer has match" in ended["online"]["trouble"]
        assert ended["phase"] in ("setup", "opening") and ended["score"] == [0, 0]
        assert "no longer has match" in board.daemon.stderr()
