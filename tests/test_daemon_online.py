"""The online side in the daemon without a server: ``/api/online`` and its checks, the
online opponent offered by ``/api/settings`` and MENU, the chat said aloud, the state.

A virtual daemon (tavla_pi/testing/daemon.py) with the online side the daemon opens on a
link that never reaches its server (:class:`Unreached`: it logs nothing in and sends
nothing): what a server answers is tested against a real one (tests/test_online_game.py,
tests/test_web_online_page.py).
"""

from __future__ import annotations

import asyncio
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.config import parse_config
from tavla_pi.daemon.online import OnlineDesk
from tavla_pi.daemon.settings import SettingsDesk
from tavla_pi.errors import ConfigError
from tavla_pi.game.menu import Mode
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.online.model import MatchListing, Said
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.session import BoundMatch, OnlineGame
from tavla_pi.rules.color import Color
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.testing.daemon import VirtualDaemon, body
from tavla_pi.web.api import Api

ONLINE = OpponentSettings(color=Color.BLACK, online=True)


class Unreached:
    """A link to a server that is never reached: nothing comes, nothing goes; what the
    session would send is kept in ``refused``."""

    connected = False

    def __init__(self) -> None:
        self.refused: list[str] = []
        self.arriving: list[object] = []

    def poll(self) -> Sequence[object]:
        out, self.arriving = self.arriving, []
        return out

    def send(self, command: str) -> bool:
        self.refused.append(command)
        return False


def online_daemon(tmp_path: Path, *, speech: bool = False) -> tuple[VirtualDaemon, OnlineGame,
                                                                  Unreached]:
    """A virtual daemon set for online play (the online opponent plays Black)."""
    daemon = VirtualDaemon(tmp_path, settings=GameSettings(match_length=1, opponent=ONLINE),
                           speech=SpeechSettings(enabled=speech))
    daemon.referee.menu.modes = (Mode(), Mode.of(ONLINE), *daemon.referee.menu.modes[1:])
    link = Unreached()
    game = OnlineGame("tcp://127.0.0.1:1", Color.BLACK, link,
                      Bgammon(client_name("test", "en")), "test")
    daemon.core.online = game
    game.chat.heard = daemon.speech.say_chat
    daemon.api = Api(daemon.core.state, daemon.hub, daemon.desk, token=None, loopback=True,
                     settings=SettingsDesk(daemon.core, daemon.speech),
                     online=OnlineDesk(daemon.core, game, Color.BLACK))
    return daemon, game, link


def post(daemon: VirtualDaemon, path: str, data: Any) -> tuple[int, Any]:
    answer = asyncio.run(daemon.request("POST", path, data))
    return answer.status, body(answer)


def test_the_state_says_the_server_is_not_reached(tmp_path: Path) -> None:
    daemon, _, _ = online_daemon(tmp_path)
    state = asyncio.run(daemon.state())
    assert state["online"] == {"server": "tcp://127.0.0.1:1", "connected": False,
                               "user": None, "match": None, "seeking": False,
                               "trouble": "the server tcp://127.0.0.1:1 is not reached"}
    two = VirtualDaemon(tmp_path / "two")
    assert asyncio.run(two.state())["online"] is None


@pytest.mark.parametrize(("request_body", "status", "error"), [
    ({"join": 0}, 400, "request body: join: expected a match's id"),
    ({"join": True}, 400, "request body: join: expected a match's id"),
    ({"player": "no spaces"}, 400, "request body: player: name 'no spaces'"),
    ({"say": "two\nlines"}, 400, "request body: say: holds a control character"),
    ({"say": "x" * 501}, 400, "request body: say: chat message: 501 characters"),
    ({"list": 1}, 400, "request body: list: expected true"),
    ({"join": 3, "say": "hi"}, 400, 'expected one of "join", "player", "say", "list"'),
    ([], 400, "request body: expected a JSON object"),
])
def test_a_wrong_online_request_is_refused_naming_its_key(
        tmp_path: Path, request_body: Any, status: int, error: str) -> None:
    daemon, _, link = online_daemon(tmp_path)
    found, answer = post(daemon, "/api/online", request_body)
    assert found == status and error in answer["error"], answer
    assert link.refused == []  # nothing went to the server


def test_a_join_from_the_page_is_a_new_online_match(tmp_path: Path) -> None:
    daemon, game, link = online_daemon(tmp_path)
    game.matches = (MatchListing(7, 1, 1, password=False, name="open"),
                    MatchListing(9, 3, 1, password=False, name="x"))
    game.match = BoundMatch(9, "them", 3)
    listing = body(asyncio.run(daemon.request("GET", "/api/online")))
    assert listing["matches"] == [{"id": 7, "name": "open", "points": 1}]  # not its own
    status, _ = post(daemon, "/api/online", {"join": 7})
    asyncio.run(daemon.sleep(20))  # the next scan sends what the page asked for
    assert status == 200 and link.refused[-2:] == ["leave", "join 7"]
    new = [e for e in daemon.hub.game if e.type == "new_match"]
    assert new and new[-1].fields == {"match_length": 1, "opponent": "black", "online": True}
    assert game.seeker.seeking and game.match is None


def test_the_opponents_chat_is_shown_and_said_aloud(tmp_path: Path) -> None:
    daemon, _, link = online_daemon(tmp_path, speech=True)
    link.arriving = [Said("Guest_7", "good luck")]
    asyncio.run(daemon.sleep(200))
    listing = body(asyncio.run(daemon.request("GET", "/api/online")))
    assert listing["chat"] == [{"player": "Guest_7", "message": "good luck"}]
    spoken = [e for e in daemon.hub.game if e.type == "spoken"]
    assert [(e["text"], e["about"]) for e in spoken] == [("Guest_7: good luck", "say")]
    status, _ = post(daemon, "/api/online", {"say": "thanks"})
    asyncio.run(daemon.sleep(20))
    assert status == 200 and link.refused[-1] == "say thanks"


def test_the_settings_offer_the_online_opponent_the_config_names(tmp_path: Path) -> None:
    daemon, _, _ = online_daemon(tmp_path)
    settings = body(asyncio.run(daemon.request("GET", "/api/settings")))
    assert (settings["online"], settings["online_color"]) == (True, "black")
    status, changed = post(daemon, "/api/settings", {"online": False})
    assert status == 200 and (changed["online"], changed["color"]) == (False, None)
    status, changed = post(daemon, "/api/settings", {"online": True})
    assert (changed["online"], changed["color"]) == (True, "black")
    status, refused = post(daemon, "/api/settings", {"online": True, "color": "white"})
    assert status == 400 and "the online opponent plays black" in refused["error"]
    plain = VirtualDaemon(tmp_path / "plain")
    assert "online" not in body(asyncio.run(plain.request("GET", "/api/settings")))
    status, refused = post(plain, "/api/settings", {"online": True})
    assert status == 400 and "not set for online play" in refused["error"]


@pytest.mark.parametrize(("text", "message"), [
    ("[opponent]\nonline = true\n", "[opponent] online: needs [opponent] color"),
    ('[opponent]\nonline = true\ncolor = "black"\nremote = "izmir"\n[network]\n'
     'broker = "mqtt://127.0.0.1:1883"\nboard = "athens"\n',
     "[opponent] online: and [opponent] remote name two opponents"),
    ('[opponent]\nonline = true\ncolor = "black"\n[game]\nvariant = "plakoto"\n',
     "the online server plays Portes only"),
    ('[opponent]\nonline = true\ncolor = "black"\n[game]\ncrawford = false\n',
     "[game] crawford: the online server plays the Crawford rule"),
    ('[online]\nserver = "http://x"\n', "[online] server: 'http://x': expected tcp://"),
    ('[online]\nusername = "a b"\n', "[online] username: expected 1 to 24 letters"),
    ('[online]\nusername = "1234"\n', "[online] username: expected 1 to 24 letters"),
    ('[online]\npassword = "x"\n', "[online] password: the password is never in the config"),
    ('[online]\nusername = "a"\npassword_file = "p"\nserver = "tcp://example.org:1"\n',
     "[online] password_file: refused over tcp://"),
    ('[online]\nca_file = "ca.pem"\nserver = "ws://example.org"\n',
     "[online] ca_file: only a wss:// server"),
])
def test_a_wrong_online_setting_names_its_key(tmp_path: Path, text: str,
                                              message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(tomllib.loads(text), "config.toml", tmp_path)
    assert message in str(info.value), str(info.value)


def test_the_online_keys_are_read(tmp_path: Path) -> None:
    config = parse_config(tomllib.loads(
        '[online]\nserver = "wss://play.example.org/ws"\nusername = "ayse_1"\n'
        'password_file = "pw"\n[opponent]\nonline = true\ncolor = "white"\n'),
        "config.toml", tmp_path)
    assert str(config.online.server) == "wss://play.example.org:443/ws"
    assert (config.online.username, config.online.password_file) == ("ayse_1", tmp_path / "pw")
    assert config.opponent == OpponentSettings(color=Color.WHITE, online=True)
    assert json.dumps(str(parse_config({}, "x", tmp_path).online.server)) == \
        '"wss://ws.bgammon.org:443"'
