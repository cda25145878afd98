"""The values of the config file, each read and checked on its own: a parser per kind of
value (a choice, a bounded integer, a path, a name, a broker's or a server's address),
each naming the key and what it expected when the value is wrong
(:class:`~tavla_pi.errors.ConfigError`); the schema (:mod:`tavla_pi.config`) says which
key has which."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.bounded import text_fault
from tavla_pi.engine.levels import Level
from tavla_pi.errors import ConfigError
from tavla_pi.game.players import MAX_NAME_CHARS, is_name
from tavla_pi.leds import check_brightness
from tavla_pi.online.settings import ServerAddress, server_address
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.settings import Broker
from tavla_pi.rules.color import Color

DEFAULT_LISTEN = "127.0.0.1:8750"
BACKEND_CHOICES = ("auto", "pi", "sim")
LOG_LEVELS = ("debug", "info", "warning", "error")
SHOWN_CHARS = 60
"""How much of a wrong value or key an error message repeats."""
TOKEN_CHARS = re.compile(r"[!-~]{16,256}")
"""A bearer token: 16 to 256 printable ASCII characters, no spaces."""
NAME_CHARS = re.compile(r"[a-z0-9-]{1,32}")
"""A board's or a club's name (``[network] board``, ``club``, ``[opponent] remote``)."""
USERNAME_CHARS = re.compile(r"[!-~]{1,128}")
"""A broker login: 1 to 128 printable ASCII characters, no spaces."""
BROKER_URL = re.compile(r"(mqtts?)://(?:\[([0-9A-Fa-f:.]+)\]|([^:/\[\]]+)):(\d{1,5})")
"""``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT``, HOST an IPv4 literal, ``[IPv6]`` or a name."""
HOST_NAME = re.compile(r"(?=[A-Za-z0-9.-]{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
                       r"(?:\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*")
"""A DNS name: dot-separated labels of letters, digits and inner hyphens, 253 at most."""
BROKER_EXAMPLE = 'e.g. "mqtt://192.168.1.20:1883" or "mqtts://broker.example.org:8883"'
ONLINE_NAME = re.compile(r"[A-Za-z0-9_]{1,24}")
"""A login on the online server: letters, digits and underscores (bgammon.org's rule)."""
SERVER_EXAMPLE = 'e.g. "wss://ws.bgammon.org" or "tcp://127.0.0.1:1337"'


@dataclass(frozen=True, slots=True)
class Listen:
    """Where the HTTP interface listens: an IP literal (or ``localhost``) and a port."""

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        """True when only this machine can connect."""
        if self.host == "localhost":
            return True
        return ipaddress.ip_address(self.host).is_loopback

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"



# -- values ----------------------------------------------------------------------

Parser = Callable[[Any, str, Path], Any]


def _fail(where: str, expected: str, got: Any) -> ConfigError:
    shown = repr(got) if not isinstance(got, dict) else "a table"
    if len(shown) > SHOWN_CHARS:
        shown = shown[:SHOWN_CHARS] + "..."
    return ConfigError(where, f"expected {expected}, got {shown}")


def _choice(options: tuple[str, ...]) -> Parser:
    def parse(value: Any, where: str, _: Path) -> str:
        if value not in options:
            raise _fail(where, "one of " + ", ".join(f'"{o}"' for o in options), value)
        return str(value)
    return parse


def _integer(low: int, high: int) -> Parser:
    def parse(value: Any, where: str, _: Path) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _fail(where, f"a whole number {low}..{high}", value)
        return value
    return parse


def _boolean(value: Any, where: str, _: Path) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def _brightness(value: Any, where: str, _: Path) -> float:
    return check_brightness(value, where)


def _fraction(value: Any, where: str, _: Path) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise _fail(where, "a number 0..1", value)  # NaN fails the comparison too
    return float(value)


def _opponent_color(value: Any, where: str, _: Path) -> Color | None:
    """The computer's colour: ``"white"``, ``"black"``, or ``"none"`` (JSON's null too)."""
    if value is None or value == "none":
        return None
    if value not in ("white", "black"):
        raise _fail(where, 'one of "white", "black", "none"', value)
    return Color(value)


def _level(value: Any, where: str, _: Path) -> Level:
    names = tuple(level.value for level in Level)
    if value not in names:
        raise _fail(where, "one of " + ", ".join(f'"{n}"' for n in names), value)
    return Level(value)


def _device(value: Any, where: str, _: Path) -> str:
    """An ALSA device name, e.g. ``"default"``, ``"plughw:1,0"``."""
    if not isinstance(value, str) or not re.fullmatch(r"[!-~]{1,100}", value):
        raise _fail(where, 'an ALSA device name, e.g. "plughw:1,0"', value)
    return value


def _path(value: Any, where: str, base: Path) -> Path:
    if not isinstance(value, str) or not value:
        raise _fail(where, "a file or directory path", value)
    _check_text(value, where, "a file or directory path")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _listen(value: Any, where: str, _: Path) -> Listen:
    return parse_listen(value, where)


def _name(example: str) -> Parser:
    """A board's or a club's name: ``[a-z0-9-]{1,32}``."""
    def parse(value: Any, where: str, _: Path) -> str:
        if not isinstance(value, str) or not NAME_CHARS.fullmatch(value):
            raise _fail(where, f'a name of 1 to 32 lowercase letters, digits and "-", '
                               f'e.g. "{example}"', value)
        return value
    return parse


def _player(value: Any, where: str, _: Path) -> str:
    expected = f'a name of 1 to {MAX_NAME_CHARS} printable characters, e.g. "Ayşe"'
    if isinstance(value, str):
        _check_text(value, where, expected)
    if not is_name(value):
        raise _fail(where, expected, value)
    return str(value)


def _check_text(value: str, where: str, expected: str) -> None:
    """ConfigError naming the first control character or lone surrogate of ``value``
    (:func:`~tavla_pi.bounded.text_fault`): a path or a name goes to a file or a program."""
    fault = text_fault(value)
    if fault is not None:
        raise ConfigError(where, f"expected {expected}, got one that {fault}")


def _username(value: Any, where: str, _: Path) -> str:
    if not isinstance(value, str) or not USERNAME_CHARS.fullmatch(value):
        raise _fail(where, "1 to 128 printable ASCII characters without spaces", value)
    return value


def _broker(value: Any, where: str, _: Path) -> Broker:
    return parse_broker(value, where)


def _server(value: Any, where: str, _: Path) -> ServerAddress:
    if not isinstance(value, str):
        raise _fail(where, f"a server address, {SERVER_EXAMPLE}", value)
    try:
        return server_address(value)
    except ValueError as exc:
        raise ConfigError(where, f"{exc} ({SERVER_EXAMPLE})") from None


def _online_name(value: Any, where: str, _: Path) -> str:
    if not isinstance(value, str) or not ONLINE_NAME.fullmatch(value) or value.isdigit():
        raise _fail(where, "1 to 24 letters, digits and underscores, not digits only "
                           '(e.g. "ayse_athens")', value)
    return value


def _remote_key(value: Any, where: str, _: Path) -> PublicKey:
    if not isinstance(value, str):
        raise _fail(where, "the friend's board's key as 'tavla-pi key' prints it "
                           '("tavla-ed25519:...")', value)
    return PublicKey.parse(value, where)


def _token(value: Any, where: str, _: Path) -> str:
    if not isinstance(value, str) or not TOKEN_CHARS.fullmatch(value):
        raise ConfigError(where, "expected 16 to 256 printable ASCII characters without "
                                 "spaces (e.g. the output of: openssl rand -hex 24)")
    return value


def parse_listen(value: Any, where: str) -> Listen:
    """``"HOST:PORT"`` (IPv4, ``[IPv6]`` or ``localhost``; port 0 picks a free one)."""
    expected = 'an address "HOST:PORT", e.g. "127.0.0.1:8750", "0.0.0.0:8750", "[::1]:8750"'
    if not isinstance(value, str):
        raise _fail(where, expected, value)
    found = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:(\d{1,5})|([^:\[\]]+):(\d{1,5})", value)
    if found is None:
        raise _fail(where, expected, value)
    host = found[1] or found[3]
    port = int(found[2] or found[4])
    if port > 65535:
        raise ConfigError(where, f"port {port} is not 0..65535")
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise ConfigError(where, f"{host!r} is not an IP address (or localhost)") from None
    return Listen(host, port)


def parse_broker(value: Any, where: str) -> Broker:
    """``"mqtt://HOST:PORT"`` or, with TLS, ``"mqtts://HOST:PORT"`` (an IPv4 literal,
    ``[IPv6]`` or a DNS name; the port, 1..65535, is never left out)."""
    expected = f'a broker "mqtt://HOST:PORT" or "mqtts://HOST:PORT", {BROKER_EXAMPLE}'
    found = BROKER_URL.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise _fail(where, expected, value)
    host = found[2] or found[3]
    port = int(found[4])
    if not 1 <= port <= 65535:
        raise ConfigError(where, f"port {port} is not 1..65535 ({BROKER_EXAMPLE})")
    if not _is_host(host, bracketed=found[2] is not None):
        shown = repr(host) if len(host) <= SHOWN_CHARS else repr(host[:SHOWN_CHARS]) + "..."
        raise ConfigError(where, f"{shown} is not an IP address or a host name "
                                 f"({BROKER_EXAMPLE})")
    return Broker(host, port, tls=found[1] == "mqtts")


def _is_host(host: str, *, bracketed: bool) -> bool:
    """Whether ``host`` is an IPv6 literal (``bracketed``), an IPv4 literal or a DNS name."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return not bracketed and not re.fullmatch(r"[0-9.]+", host) and \
            HOST_NAME.fullmatch(host) is not None
    return address.version == (6 if bracketed else 4)
