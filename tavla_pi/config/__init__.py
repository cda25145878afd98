"""The daemon's settings: a TOML file, checked whole before anything starts.

Every key has a default, so no file at all is a valid configuration.  The
service reads ``/etc/tavla-pi/config.toml`` (systemd's ``ConfigurationDirectory``),
a desktop ``~/.config/tavla-pi/config.toml``; ``config.example.toml`` documents
every key.  A fault raises :class:`~tavla_pi.errors.ConfigError` whose text
names the file, the key and what was expected, e.g.
``/etc/tavla-pi/config.toml: [board] brightness: expected a number 0..1, got 2``.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tavla_pi import bounded
from tavla_pi.bounded import LimitError, parse_toml
from tavla_pi.config.fields import (
    BACKEND_CHOICES,
    DEFAULT_LISTEN,
    LOG_LEVELS,
    SHOWN_CHARS,
    Listen,
    Parser,
    _boolean,
    _brightness,
    _broker,
    _choice,
    _device,
    _fraction,
    _integer,
    _level,
    _listen,
    _name,
    _online_name,
    _opponent_color,
    _path,
    _player,
    _remote_key,
    _server,
    _token,
    _username,
    parse_listen,
)
from tavla_pi.decode.stability import STABLE_MS
from tavla_pi.errors import ConfigError
from tavla_pi.game.matchclock import (
    DELAY_S,
    MAX_DELAY_S,
    MAX_RESERVE_S_PER_POINT,
    RESERVE_S_PER_POINT,
    ClockRules,
)
from tavla_pi.game.players import PlayerNames
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.online.settings import OnlineSettings
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.settings import NetworkSettings
from tavla_pi.rules import variants
from tavla_pi.rules.match import MAX_CUBE, MAX_MATCH_LENGTH, MatchRules
from tavla_pi.rules.tavlimatch import MATCHES, TavliRules, computer_may_play, gnubg_match
from tavla_pi.speech.settings import LANGUAGES, RATES, VOLUMES, SpeechSettings

CONFIG_FILENAME = "config.toml"
MAX_BYTES = 64 * 1024
"""A config file is a few hundred bytes; anything past this is refused unread."""


@dataclass(frozen=True, slots=True)
class Config:
    """Every setting of the daemon, checked (see ``config.example.toml``)."""

    source: str = ""
    backend: str = "auto"
    pinout: Path | None = None
    brightness: float = 0.3
    scan_hz: int = 50
    stable_ms: int = STABLE_MS
    match_length: int = 0
    variant: str = variants.DEFAULT
    rules: MatchRules = field(default_factory=MatchRules)
    tavli: TavliRules = field(default_factory=TavliRules)
    opponent: OpponentSettings = field(default_factory=OpponentSettings)
    remote_key: PublicKey | None = None
    """``[opponent] remote_key``: the friend's board's public key."""
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    network: NetworkSettings = field(default_factory=NetworkSettings)
    online: OnlineSettings = field(default_factory=OnlineSettings)
    players: PlayerNames = field(default_factory=PlayerNames)
    clock: ClockRules | None = None
    listen: Listen = field(default_factory=lambda: parse_listen(DEFAULT_LISTEN, "[http] listen"))
    token: str | None = None
    state_dir: Path | None = None
    log_level: str = "info"

    def with_listen(self, text: str, where: str = "--http") -> Config:
        """This config listening on ``text`` (``HOST:PORT``), e.g. from the command line."""
        return replace(self, listen=parse_listen(text, where))

    def check_exposure(self, where: str) -> None:
        """Refuse to listen beyond this machine without a token (``where``: who said so)."""
        if not self.listen.loopback and self.token is None:
            file = self.source or "none was read"
            raise ConfigError(where, f"listening on {self.listen} (not loopback) needs a "
                                     f"[http] token in the config file ({file})")



# -- the schema: section -> key -> (Config field, parser) -----------------------------

SCHEMA: dict[str, dict[str, tuple[str, Parser]]] = {
    "board": {
        "backend": ("backend", _choice(BACKEND_CHOICES)),
        "pinout": ("pinout", _path),
        "brightness": ("brightness", _brightness),
        "scan_hz": ("scan_hz", _integer(10, 200)),
        "stable_ms": ("stable_ms", _integer(20, 2000)),
    },
    "game": {
        "match_length": ("match_length", _integer(0, MAX_MATCH_LENGTH)),
        "crawford": ("crawford", _boolean),
        "jacoby": ("jacoby", _boolean),
        "beavers": ("beavers", _boolean),
        "automatic_doubles": ("automatic_doubles", _integer(0, MAX_CUBE.bit_length() - 1)),
        "variant": ("variant", _choice(MATCHES)),
    },
    "tavli": {
        "cube_in_portes": ("tavli_cube_in_portes", _boolean),
        "backgammon_points": ("tavli_backgammon_points", _integer(2, 3)),
    },
    "opponent": {
        "color": ("opponent_color", _opponent_color),
        "level": ("opponent_level", _level),
        "coach": ("opponent_coach", _boolean),
        "blunder_threshold": ("opponent_blunder_threshold", _fraction),
        "remote": ("opponent_remote", _name("izmir")),
        "remote_key": ("remote_key", _remote_key),
        "online": ("opponent_online", _boolean),
    },
    "speech": {
        "enabled": ("speech_enabled", _boolean),
        "language": ("speech_language", _choice(LANGUAGES)),
        "rate": ("speech_rate", _integer(*RATES)),
        "volume": ("speech_volume", _integer(*VOLUMES)),
        "device": ("speech_device", _device),
    },
    "http": {
        "listen": ("listen", _listen),
        "token": ("token", _token),
    },
    "network": {
        "broker": ("network_broker", _broker),
        "username": ("network_username", _username),
        "password_file": ("network_password_file", _path),
        "ca_file": ("network_ca_file", _path),
        "board": ("network_board", _name("athens")),
        "club": ("network_club", _name("home")),
        "publish": ("network_publish", _boolean),
    },
    "online": {
        "server": ("online_server", _server),
        "username": ("online_username", _online_name),
        "password_file": ("online_password_file", _path),
        "ca_file": ("online_ca_file", _path),
    },
    "clock": {
        "enabled": ("clock_enabled", _boolean),
        "delay_s": ("clock_delay_s", _integer(0, MAX_DELAY_S)),
        "reserve_s_per_point": ("clock_reserve_s_per_point",
                                _integer(1, MAX_RESERVE_S_PER_POINT)),
    },
    "players": {
        "white": ("players_white", _player),
        "black": ("players_black", _player),
    },
    "daemon": {
        "state_dir": ("state_dir", _path),
        "log_level": ("log_level", _choice(LOG_LEVELS)),
    },
}
_NO_PASSWORD = ("the password is never in the config file: put it in a file of its own "
                "(chmod 600) and name that file with password_file")
REFUSED: dict[str, dict[str, str]] = {
    "network": {"password": _NO_PASSWORD},
    "online": {"password": _NO_PASSWORD},
}
"""Keys that are refused with a reason rather than as unknown: section -> key -> why."""
FORM_REFUSED: dict[str, str] = {
    "remote": "the remote board is named in the config file ([opponent] remote) only; "
              "the web page cannot point the board at another board",
    "online": "the online opponent is set in the config file ([opponent] online) only; "
              "the web page chooses it for a match (true or false)",
    "remote_key": "the friend's board's key is in the config file ([opponent] remote_key) "
                  "only; the web page cannot change whom the board trusts",
}
"""The [opponent] keys the web page's form may not change: key -> why."""
RULE_KEYS = ("crawford", "jacoby", "beavers", "automatic_doubles")
OPPONENT_PREFIX = "opponent_"
TAVLI_PREFIX = "tavli_"
SPEECH_PREFIX = "speech_"
"""The [opponent] keys' values go into :class:`OpponentSettings` under their own names."""
NETWORK_PREFIX = "network_"
"""The [network] keys' values go into :class:`NetworkSettings` under their own names."""
PLAYERS_PREFIX = "players_"
"""The [players] keys' values go into :class:`PlayerNames` under their own names."""
ONLINE_PREFIX = "online_"
"""The [online] keys' values go into :class:`OnlineSettings` under their own names."""


def parse_config(doc: Mapping[str, Any], source: str, base: Path) -> Config:
    """A :class:`Config` from a parsed TOML document; relative paths are from ``base``."""
    values: dict[str, Any] = {}
    for section, table in doc.items():
        keys = SCHEMA.get(section)
        if keys is None:
            raise _unknown_section(source, section)
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {section}", f"expected a table [{section}]")
        for key, value in table.items():
            where = f"{source}: [{section}] {key}"
            if key not in keys:
                why = REFUSED.get(section, {}).get(key)
                raise ConfigError(where, why or "unknown key" + _suggest(key, list(keys)))
            name, parse = keys[key]
            values[name] = parse(value, where, base)
    rules = MatchRules(**{k: values.pop(k) for k in RULE_KEYS if k in values})
    opponent = OpponentSettings(**{k.removeprefix(OPPONENT_PREFIX): values.pop(k)
                                   for k in list(values) if k.startswith(OPPONENT_PREFIX)})
    tavli = TavliRules(**{k.removeprefix(TAVLI_PREFIX): values.pop(k)
                          for k in list(values) if k.startswith(TAVLI_PREFIX)})
    speech = SpeechSettings(**{k.removeprefix(SPEECH_PREFIX): values.pop(k)
                               for k in list(values) if k.startswith(SPEECH_PREFIX)})
    network = NetworkSettings(**{k.removeprefix(NETWORK_PREFIX): values.pop(k)
                                 for k in list(values) if k.startswith(NETWORK_PREFIX)})
    players = PlayerNames(**{k.removeprefix(PLAYERS_PREFIX): values.pop(k)
                         for k in list(values) if k.startswith(PLAYERS_PREFIX)})
    online = _online(values, source)
    clock = _clock(values, source)
    variant = values.get("variant", variants.DEFAULT)
    _check_network(network, source)
    _check_remote(opponent, network, variant, source)
    _check_online(opponent, rules, variant, source)
    if "remote_key" in values and opponent.remote is None:
        raise ConfigError(f"{source}: [opponent] remote_key",
                          "is the key of the friend's board that [opponent] remote names, "
                          "and no remote is set")
    if not computer_may_play(variant) and seating(opponent).engine_color is not None:
        raise ConfigError(f"{source}: [opponent] color",
                          f"the computer plays Portes only, not variant {variant!r}")
    return Config(source=source, rules=rules, tavli=tavli, opponent=opponent, speech=speech,
                  network=network, online=online, players=players, clock=clock, **values)


def _online(values: dict[str, Any], source: str) -> OnlineSettings:
    """``[online]``, checked as a whole: a password needs a username, and is refused over
    a link that is not encrypted except to this machine; a CA file is for ``wss://``."""
    fields = {k.removeprefix(ONLINE_PREFIX): values.pop(k)
              for k in list(values) if k.startswith(ONLINE_PREFIX)}
    try:
        return OnlineSettings(**fields)
    except ValueError as exc:
        key, _, why = str(exc).partition(": ")
        raise ConfigError(f"{source}: [online] {key}", why or str(exc)) from None


def _check_online(opponent: OpponentSettings, rules: MatchRules, variant: str,
                  source: str) -> None:
    """``[opponent] online``: the online opponent plays ``color`` at Portes, as the server
    plays it (the Crawford rule always), and no friend's board is named too."""
    if not opponent.online:
        return
    where = f"{source}: [opponent] online"
    if opponent.color is None:
        raise ConfigError(where, 'needs [opponent] color, the colour the online opponent '
                                 'plays on this board: "white" or "black"')
    if opponent.remote is not None:
        raise ConfigError(where, "and [opponent] remote name two opponents: choose one")
    if not gnubg_match(variant):
        raise ConfigError(where, f"the online server plays Portes only, not variant "
                                 f"{variant!r}")
    if not rules.crawford:
        raise ConfigError(f"{source}: [game] crawford", "the online server plays the "
                                                         "Crawford rule: leave it on")


def _clock(values: dict[str, Any], source: str) -> ClockRules | None:
    """``[clock]``: the tournament clock of every match (None: off, the default); a
    clock needs a match of 1 point or more."""
    rules = ClockRules(values.pop("clock_delay_s", DELAY_S),
                       values.pop("clock_reserve_s_per_point", RESERVE_S_PER_POINT))
    if not values.pop("clock_enabled", False):
        return None
    if values.get("match_length", 0) < 1:
        raise ConfigError(f"{source}: [clock] enabled",
                          "needs [game] match_length of 1 point or more (money play has "
                          "no clock)")
    return rules


def _check_network(network: NetworkSettings, source: str) -> None:
    """The [network] keys that need one another: a broker its board, a login both halves,
    a CA file a TLS broker."""
    where = f"{source}: [network]"
    if network.broker is not None and network.board is None:
        raise ConfigError(f"{where} broker",
                          'needs [network] board, this board\'s name (e.g. board = "athens")')
    if network.username is not None and network.password_file is None:
        raise ConfigError(f"{where} username",
                          "needs [network] password_file, the file that holds the password")
    if network.password_file is not None and network.username is None:
        raise ConfigError(f"{where} password_file",
                          "needs [network] username, the login the password is for")
    if network.ca_file is not None and (network.broker is None or not network.broker.tls):
        broker = "no broker is set" if network.broker is None else f"broker is {network.broker}"
        raise ConfigError(f"{where} ca_file",
                          f'is for a TLS broker only ("mqtts://HOST:PORT"), and {broker}')


def _check_remote(opponent: OpponentSettings, network: NetworkSettings, variant: str,
                  source: str) -> None:
    """``[opponent] remote``: a board on this board's broker, not this board, playing
    ``color`` at Portes."""
    if opponent.remote is None:
        return
    where = f"{source}: [opponent] remote"
    if network.broker is None or network.board is None:
        raise ConfigError(where, "needs [network] broker and board (the broker both boards "
                                 'use and this board\'s name), e.g. broker = '
                                 '"mqtt://192.168.1.20:1883", board = "athens"')
    if opponent.color is None:
        raise ConfigError(where, 'needs [opponent] color, the colour the remote board\'s '
                                 'player plays: "white" or "black"')
    if opponent.remote == network.board:
        raise ConfigError(where, f"{opponent.remote!r} is this board's own name ([network] "
                                 "board): name the other board")
    if not gnubg_match(variant):
        raise ConfigError(where, f"the remote board plays Portes only, not variant {variant!r}")


def parse_opponent(changes: Mapping[str, Any], where: str,
                   settings: OpponentSettings) -> OpponentSettings:
    """``settings`` with the [opponent] keys in ``changes`` applied (the web page's form).

    Checked as the config file's keys are; a fault names ``where`` and the key.
    """
    keys = {k: v for k, v in SCHEMA["opponent"].items() if k not in FORM_REFUSED}
    values: dict[str, Any] = {}
    for key, value in changes.items():
        if key in FORM_REFUSED:
            raise ConfigError(f"{where}: {key}", FORM_REFUSED[key])
        if key not in keys:
            shown = key if len(key) <= SHOWN_CHARS else key[:SHOWN_CHARS] + "..."
            raise ConfigError(f"{where}: {shown}", "unknown key" + _suggest(key, list(keys)))
        name, parse = keys[key]
        values[name.removeprefix(OPPONENT_PREFIX)] = parse(value, f"{where}: {key}", Path())
    return replace(settings, **values)


def _unknown_section(source: str, name: str) -> ConfigError:
    for section, keys in SCHEMA.items():
        if name in keys:
            return ConfigError(f"{source}: {name}", f"belongs in the [{section}] table")
    for refused in REFUSED.values():
        if name in refused:
            return ConfigError(f"{source}: {name}", refused[name])
    return ConfigError(f"{source}: [{name}]", "unknown table" + _suggest(name, list(SCHEMA)))


def _suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f" (known: {', '.join(known)}){hint}"


# -- files -----------------------------------------------------------------------------

def default_config_path() -> Path:
    """systemd's ``$CONFIGURATION_DIRECTORY``, else ``$XDG_CONFIG_HOME`` or ``~/.config``."""
    service = os.environ.get("CONFIGURATION_DIRECTORY")
    if service:
        return Path(service.split(":")[0]) / CONFIG_FILENAME
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "tavla-pi" / CONFIG_FILENAME


def load_config(path: Path | None = None) -> Config:
    """The settings in ``path``; with no path, the default file or, if none, the defaults.

    A path that was named must exist; the default one may be absent.
    """
    if path is None:
        path = default_config_path()
        if not _default_exists(path):
            return Config()
    text = config_text(path)
    try:
        doc = parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), _toml_problem(str(exc))) from None
    except LimitError as exc:
        raise ConfigError(str(path), str(exc)) from None
    return parse_config(doc, str(path), path.parent)


def _default_exists(path: Path) -> bool:
    """Whether the default config file is there; a ConfigError if that cannot be known
    (a name too long, a folder on the way that this user may not read)."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise ConfigError(str(path), f"cannot look for the config file ({exc.strerror or exc}); "
                                     "name one with --config") from None
    return True


def config_text(path: Path) -> str:
    """A config file's text: a regular file, at most :data:`MAX_BYTES`, UTF-8."""
    return bounded.read_text(path, MAX_BYTES, "a config file", ConfigError,
                             where="{path}: line {line}")


def _toml_problem(message: str) -> str:
    """``"line 3, column 7: invalid value"`` from tomllib's ``"Invalid value (at line 3, ...)"``."""
    found = re.fullmatch(r"(.*) \(at (line \d+, column \d+|end of document)\)", message)
    if found is None:
        return f"not valid TOML ({message})"
    return f"{found[2]}: not valid TOML ({found[1][:1].lower()}{found[1][1:]})"
