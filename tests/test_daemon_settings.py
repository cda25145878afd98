"""The daemon hands the config's [opponent] to the game, and tells the referee (it never
probes for itself) whether GNU Backgammon is installed; a match resumed from the journal
keeps the mode its new_match named; the page offers the friend's board the config names
(``friends``, ``remote``) and nothing else."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gnubg_support import fake_gnubg
from signing_support import new_key
from web_support import free_port

from tavla_pi.config import Config
from tavla_pi.daemon import startup
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.settings import SettingsDesk
from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.engine.levels import Level
from tavla_pi.errors import BadInputError, ConfigError
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import reset_logging

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
            core.commit(referee.on_button("menu", long=long, now=referee.since_ms + 100))
    finally:
        opened.close()
    again = startup.open_daemon(Config(backend="sim"), state, Notifier(None), gnubg=program)
    try:
        assert again.core.referee.settings.opponent == OpponentSettings(color=Color.BLACK,
                                                                        level=Level.CASUAL)
    finally:
        again.close()


# ---- a friend's board as the page's opponent (docs/REMOTE.md) ------------------------------

FRIEND = OpponentSettings(color=Color.BLACK, remote="izmir")
"""The config's friend's board: izmir's player plays Black."""
IZMIR = new_key("izmir")
"""Izmir's key (``[opponent] remote_key``)."""


def on_a_network(opponent: OpponentSettings = FRIEND) -> Config:
    """A config of board athens on a broker nobody answers at (the link only retries)."""
    return Config(backend="sim", opponent=opponent, remote_key=IZMIR.public,
                  network=NetworkSettings(broker=Broker("127.0.0.1", free_port()),
                                          board="athens"))


def change(desk: SettingsDesk, changes: dict[str, Any]) -> dict[str, Any]:
    """POST /api/settings as the desk takes it."""
    return desk.change(json.dumps(changes).encode())


def athens(folder: Path) -> Iterator[SettingsDesk]:
    """The settings of board athens, whose config names the friend's board izmir."""
    program = fake_gnubg(folder / "bin", folder / "fake")
    opened = startup.open_daemon(on_a_network(), folder / "state", Notifier(None),
                                 gnubg=program)
    try:
        yield SettingsDesk(opened.core, opened.speech)
    finally:
        opened.close()  # the link's thread takes about a second to end


@pytest.fixture
def friendly(tmp_path: Path) -> Iterator[SettingsDesk]:
    """Board athens, for one test."""
    yield from athens(tmp_path)


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SettingsDesk]:
    """Board athens, for the refusals (each leaves it as it was)."""
    yield from athens(tmp_path_factory.mktemp("refusing"))


def test_the_configured_friends_board_is_offered(friendly: SettingsDesk) -> None:
    settings = friendly.settings()
    assert (settings["friends"], settings["remote"], settings["color"]) == (
        ["izmir"], "izmir", "black")
    assert [m.remote for m in friendly.core.referee.menu.modes] == [None, "izmir"] + [None] * 15


def test_the_page_plays_the_friend_or_not(friendly: SettingsDesk) -> None:
    referee = friendly.core.referee
    answer = change(friendly, {"remote": None})  # set up for the first game: at once
    assert (answer["remote"], answer["color"], answer["applied"]) == (None, None, "now")
    assert referee.settings.opponent.remote is None
    answer = change(friendly, {"remote": "izmir", "level": "casual"})
    assert (answer["remote"], answer["color"], answer["applied"]) == ("izmir", "black", "now")
    assert referee.settings.opponent == replace(FRIEND, level=Level.CASUAL)
    answer = change(friendly, {"color": "white"})  # a colour alone: the computer's
    assert (answer["remote"], answer["color"]) == (None, "white")
    answer = change(friendly, {"remote": "izmir", "color": "black"})  # its own colour
    assert (answer["remote"], answer["color"]) == ("izmir", "black")
    answer = change(friendly, {"coach": False})  # nothing said of the friend: it stays
    assert (answer["remote"], answer["coach"]) == ("izmir", False)
    answer = change(friendly, {"remote": None, "color": "white"})
    assert (answer["remote"], answer["color"]) == (None, "white")
    new_matches = [e for e in friendly.core.hub.game if e.type is EventType.NEW_MATCH]
    assert new_matches[-1].fields == {"match_length": 0, "opponent": "white",
                                      "level": "casual"}


@pytest.mark.parametrize(("changes", "words"), [
    ({"remote": "ankara"}, 'request body: remote: expected a friend\'s board the config '
                           'names ("izmir") or null, got \'ankara\''),
    ({"remote": "athens"}, "request body: remote: expected a friend's board"),
    ({"remote": ""}, "request body: remote: expected a friend's board"),
    ({"remote": 5}, "request body: remote: expected a friend's board"),
    ({"remote": True}, "request body: remote: expected a friend's board"),
    ({"remote": ["izmir"]}, "request body: remote: expected a friend's board"),
    ({"remote": {"board": "izmir"}}, "request body: remote: expected a friend's board"),
    ({"remote": "i" * 5000}, "request body: remote: expected a friend's board"),
    ({"remote": "izmir", "color": "white"},
     "request body: color: the board izmir plays black, as the config says"),
    ({"remote": "izmir", "variant": "plakoto"},
     "request body: variant: the board izmir plays Portes only, not 'plakoto'"),
    ({"colour": "black"}, "request body: colour: unknown key (known: color, level, coach, "
                          "blunder_threshold); did you mean 'color'?"),
    ({"remote_key": new_key("ankara").public.text},
     "request body: remote_key: the friend's board's key is in the config file"),
])
def test_a_wrong_remote_is_refused_naming_the_key(refusing: SettingsDesk,
                                                  changes: dict[str, Any],
                                                  words: str) -> None:
    before = refusing.settings()
    with pytest.raises(BadInputError) as refused:
        change(refusing, changes)
    assert str(refused.value).startswith(words) and len(str(refused.value)) < 400
    assert refusing.settings() == before
    assert refusing.core.referee.next_opponent == FRIEND


def test_a_friends_board_without_its_key_does_not_start(tmp_path: Path) -> None:
    config = replace(on_a_network(), remote_key=None, source="/etc/tavla-pi/config.toml")
    with pytest.raises(ConfigError, match=r"^/etc/tavla-pi/config.toml: \[opponent\] "
                                          r"remote_key: missing: the key of the board izmir "
                                          r"\(run 'tavla-pi key' on izmir and add its line"):
        startup.open_daemon(config, tmp_path / "state", Notifier(None), gnubg=None)
    own = BoardKey.load_or_make(tmp_path / "state")  # made on the first start all the same
    with pytest.raises(ConfigError, match=r"remote_key: is this board's own key"):
        startup.open_daemon(replace(config, remote_key=own.public), tmp_path / "state",
                            Notifier(None), gnubg=None)
    assert BoardKey.load_or_make(tmp_path / "state").public == own.public


def test_without_a_friend_in_the_config_none_is_offered(tmp_path: Path) -> None:
    opened = startup.open_daemon(Config(backend="sim"), tmp_path / "state", Notifier(None),
                                 gnubg=None)
    try:
        desk = SettingsDesk(opened.core, opened.speech)
        assert (desk.settings()["friends"], desk.settings()["remote"]) == ([], None)
        with pytest.raises(BadInputError, match=r"^request body: remote: expected a "
                                                r"friend's board the config names \(none is "
                                                r"configured\) or null, got 'izmir'$"):
            change(desk, {"remote": "izmir"})
        assert change(desk, {"remote": None})["remote"] is None
    finally:
        opened.close()
