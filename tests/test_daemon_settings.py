"""The daemon hands the config's [opponent] to the game, and tells the referee (it never
probes for itself) whether GNU Backgammon is installed; a match resumed from the journal
keeps the mode its new_match named."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from daemon_support import reset_logging
from gnubg_support import fake_gnubg

from tavla_pi.config import Config
from tavla_pi.daemon import startup
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.settings import SettingsDesk
from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.engine.levels import Level
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color

CONFIGURED = OpponentSettings(color=Color.WHITE, level=Level.ADVANCED, coach=False,
                              blunder_threshold=0.25)


def test_the_configs_opponent_is_the_games(tmp_path: Path) -> None:
    program = fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    opened = startup.open_daemon(Config(backend="sim", opponent=CONFIGURED), tmp_path / "state",
                                 Notifier(None), gnubg=program)
    try:
        referee = opened.core.referee
        assert referee.settings.opponent == referee.next_opponent == CONFIGURED
        assert referee.menu.engine_missing is None  # gnubg (the fake) is installed here
        assert SettingsDesk(opened.core, opened.speech).settings()["engine"] == {"installed": True,
                                                                  "message": None}
    finally:
        opened.close()


def test_without_gnubg_the_referee_is_told_and_the_log_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    reset_logging()
    caplog.set_level(logging.WARNING, "tavla_pi")
    opened = startup.open_daemon(Config(backend="sim", opponent=CONFIGURED), tmp_path,
                                 Notifier(None), gnubg=None)
    try:
        assert opened.core.referee.menu.engine_missing == NOT_INSTALLED
    finally:
        opened.close()
    assert f"[opponent] color = white, but GNU Backgammon is not installed: {NOT_INSTALLED}" \
        in caplog.text
    caplog.clear()
    assert startup.engine_missing(Config(), None) == NOT_INSTALLED
    assert caplog.text == ""  # two players configured: nothing to warn about


def test_a_restart_keeps_the_mode_the_menu_chose(tmp_path: Path) -> None:
    program = fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    state = tmp_path / "state"
    opened = startup.open_daemon(Config(backend="sim"), state, Notifier(None), gnubg=program)
    try:
        referee, core = opened.core.referee, opened.core
        for long in (True, False, False, True):           # black at casual
            core.commit(referee.on_button("menu", long, referee.since_ms + 100))
    finally:
        opened.close()
    again = startup.open_daemon(Config(backend="sim"), state, Notifier(None), gnubg=program)
    try:
        assert again.core.referee.settings.opponent == OpponentSettings(color=Color.BLACK,
                                                                        level=Level.CASUAL)
    finally:
        again.close()
