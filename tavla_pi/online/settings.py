"""The ``[online]`` settings: which game server, as whom, and how to trust its TLS."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_SERVER = "wss://ws.bgammon.org"
"""bgammon.org's WebSocket endpoint: where a board plays online unless told otherwise."""
SCHEMES = {"tcp": None, "ws": 80, "wss": 443}
"""The server addresses understood, with each scheme's default port (tcp:// names one)."""
_HOST = re.compile(r"[A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]")


@dataclass(frozen=True, slots=True)
class ServerAddress:
    """A game server: ``tcp://host:port`` (lines over TCP), ``ws://`` or ``wss://``
    (WebSocket, ``wss`` over TLS), with the path a WebSocket is opened on."""

    scheme: str
    host: str
    port: int
    path: str = "/"

    @property
    def tls(self) -> bool:
        """Whether the link is encrypted (``wss://``)."""
        return self.scheme == "wss"

    @property
    def loopback(self) -> bool:
        """Whether the server is on this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
        host = self.host.strip("[]")
        if host == "localhost":
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        path = "" if self.scheme == "tcp" or self.path == "/" else self.path
        return f"{self.scheme}://{host}:{self.port}{path}"


def server_address(text: str) -> ServerAddress:
    """The address ``text`` names (``tcp://host:port``, ``ws://host[:port][/path]``,
    ``wss://...``); ValueError saying what is wrong with it."""
    parts = urlsplit(text.strip())
    if parts.scheme not in SCHEMES:
        raise ValueError(f"{text!r}: expected tcp://host:port, ws://host or wss://host")
    try:
        port = parts.port or SCHEMES[parts.scheme]
    except ValueError:
        raise ValueError(f"{text!r}: the port is not a number 1..65535") from None
    host = parts.hostname or ""
    if not _HOST.fullmatch(host if ":" not in host else f"[{host}]"):
        raise ValueError(f"{text!r}: no host name")
    if port is None:
        raise ValueError(f"{text!r}: tcp:// needs a port (tcp://host:port)")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError(f"{text!r}: no login, query or fragment in the address "
                         "(the password goes in password_file)")
    if parts.scheme == "tcp" and parts.path not in ("", "/"):
        raise ValueError(f"{text!r}: tcp:// takes no path")
    return ServerAddress(parts.scheme, host, port, parts.path or "/")


@dataclass(frozen=True, slots=True)
class OnlineSettings:
    """The ``[online]`` table, checked: the server, the username (None: a guest, whom the
    server names), the file holding the password (never the password itself) and the CA
    file to check a ``wss://`` server's certificate against (None: the system's store).
    A password is refused over a link that is not encrypted, except to this machine."""

    server: ServerAddress = field(default_factory=lambda: server_address(DEFAULT_SERVER))
    username: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None

    def __post_init__(self) -> None:
        if self.password_file is not None and self.username is None:
            raise ValueError("password_file: a password needs a username")
        if self.password_file is not None and not self.server.tls and not self.server.loopback:
            raise ValueError(f"password_file: refused over {self.server.scheme}://, which is "
                             "not encrypted, to another machine (use wss://)")
        if self.ca_file is not None and not self.server.tls:
            raise ValueError(f"ca_file: only a wss:// server has a certificate to check "
                             f"({self.server})")
