"""Matches against an opponent on a real bgammon-server: the board's daemon on the sim
backend (docs/ONLINE.md), a plain-socket opponent, the board's player through POST
/api/sim.  After every play the board's position is the server's; a daemon killed in the
middle comes back to the same match and the match goes on to its end; the server killed
ends the match on the board with a clear message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from programs import needs

from tavla_pi.testing.bgammon import BgammonServer
from tavla_pi.testing.online import joined_match


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
