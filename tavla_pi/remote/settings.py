"""The ``[network]`` settings: where the broker is, how to log in, this board's name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_CLUB = "home"
"""The topic prefix of a board that names no club: ``tavla/home/<board>/``."""


@dataclass(frozen=True, slots=True)
class Broker:
    """An MQTT broker's address: ``mqtt://host:port`` or, with TLS, ``mqtts://host:port``."""

    host: str
    port: int
    tls: bool = False

    def __str__(self) -> str:
        scheme = "mqtts" if self.tls else "mqtt"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """The ``[network]`` table, checked: the broker (None: this board is on no network),
    its login (``password_file``: the password is never in the config), the CA file for
    TLS (None: the system's store), this board's name and its club (the topic prefix)."""

    broker: Broker | None = None
    username: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None
    board: str | None = None
    club: str = DEFAULT_CLUB
    publish: bool = True
