"""The daemon with a computer opponent configured: gnubg started at start, stopped at stop.

The daemon is handed gnubg's program (the command line looks it up once): here the
scripted fake (tests/fake_gnubg.py) stands in for it, so these tests run where gnubg
is absent.  Without any gnubg the
daemon says once how to install it and two players play.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from gnubg_support import fake_gnubg

from tavla_pi.config import Config
from tavla_pi.config.fields import Listen
from tavla_pi.daemon import opponent as opponent_module
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.startup import open_daemon
from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.game.coach import Coach
from tavla_pi.game.computer import Computer
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import reset_logging

BLACK = OpponentSettings(color=Color.BLACK)


def config(opponent: OpponentSettings = BLACK) -> Config:
    return Config(backend="sim", listen=Listen("127.0.0.1", 0), opponent=opponent)


def test_gnubg_starts_in_the_background_with_its_prefs_in_the_state_dir(
    tmp_path: Path
) -> None:
    program = fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    opened = open_daemon(config(), tmp_path / "state", Notifier(None), gnubg=program)
    try:
        referee = opened.core.referee
        seat = referee.seat
        assert isinstance(seat, Computer) and seat.color is Color.BLACK
        engine = seat.engine
        assert engine.deadline_ms == opponent_module.DECISION_DEADLINE_MS
        assert engine.start().wait(30)  # the start job queued at open is done before it
        supervisor = engine.engine.supervisor  # type: ignore[attr-defined]
        assert supervisor.pid is not None
        assert "-s" in supervisor.argv
        assert supervisor.argv[supervisor.argv.index("-s") + 1] == str(
            tmp_path / "state" / opponent_module.PREFS_DIR)
    finally:
        opened.close()
    assert supervisor._proc is None  # stopped with the daemon
    assert (tmp_path / "fake" / "starts").read_text() == "1"


def test_without_gnubg_the_daemon_says_so_once_and_two_players_play(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    reset_logging()
    caplog.set_level(logging.INFO, "tavla_pi")
    opened = open_daemon(config(), tmp_path, Notifier(None), gnubg=None)
    opened.close()
    assert caplog.text.count(NOT_INSTALLED) == 1
    assert opened.core.referee.seat.color is None


def test_nobody_configured_still_starts_gnubg_for_hints_and_the_menu(
    tmp_path: Path
) -> None:
    program = fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    opened = open_daemon(config(OpponentSettings()), tmp_path / "state", Notifier(None),
                         gnubg=program)
    try:
        referee = opened.core.referee
        assert referee.seat.color is None
        assert referee.engine is not None and isinstance(referee.coach, Coach)
        assert referee.menu.engine_missing is None
    finally:
        opened.close()
