"""A club's Mosquitto locked down: the password file, the access list (ACL) and the
listener that ``tavla-pi broker-config`` writes (docs/REMOTE.md, "The broker locked down").

Each board logs in with its own name and a random password, may write only under its
own ``tavla/<club>/<board>/`` and reads the club's ``tavla/<club>/#``; a club page's
login only reads.  The password file is Mosquitto 2's, as ``mosquitto_passwd`` writes
it: ``name:$7$<iterations>$<salt>$<hash>``, the hash PBKDF2-HMAC-SHA512 of the
password over a 12-byte salt, both in base64.  A password is 24 random bytes, which no
stretching makes harder to guess: the iterations are ``mosquitto_passwd``'s own 101,
so a connect stays cheap for the broker.

The ACL is also the record of the logins: a re-run reads it back (only the lines
written here) for each login's role and the club.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from tavla_pi.bounded import read_text
from tavla_pi.errors import BadInputError
from tavla_pi.remote.messages import BOARD_NAME, MAX_CAST_BYTES

ITERATIONS = 101
"""PBKDF2's iterations, as ``mosquitto_passwd`` makes them."""
MAX_ITERATIONS = 1_000_000
"""The most iterations a hash read back may ask for (a bound on the work it costs)."""
SALT_BYTES = 12
PASSWORD_BYTES = 24
FILE_LIMIT = 1 << 20
"""The largest password file or ACL read back."""
PACKET_LIMIT = MAX_CAST_BYTES + 1024
"""The broker's ``max_packet_size``: the largest broadcast payload, with room for its
topic and header; a client sending more is disconnected."""
_HASH = re.compile(r"\$7\$(\d{1,7})\$([A-Za-z0-9+/=]{4,64})\$([A-Za-z0-9+/=]{88})")
_USER = re.compile(r"user ([a-z0-9-]{1,32})")
_READ = re.compile(r"topic read tavla/([a-z0-9-]{1,32})/#")
_WRITE = re.compile(r"topic write tavla/([a-z0-9-]{1,32})/([a-z0-9-]{1,32})/#")


class Role(StrEnum):
    """What a login may do: a board writes under its own prefix, a page only reads."""

    BOARD = "board"
    PAGE = "page"


@dataclass(frozen=True, slots=True)
class Login:
    """One account on the broker: its name (the MQTT username) and its role."""

    name: str
    role: Role


@dataclass(frozen=True, slots=True)
class Listener:
    """The broker's one listener: its port, the address it binds (None: every one), and
    for TLS the certificate and key files as the broker host names them."""

    port: int
    bind: str | None = None
    certfile: str | None = None
    keyfile: str | None = None


def new_password() -> str:
    """A random password (URL-safe base64 of :data:`PASSWORD_BYTES` bytes)."""
    return secrets.token_urlsafe(PASSWORD_BYTES)


def password_hash(password: str, salt: bytes | None = None,
                  iterations: int = ITERATIONS) -> str:
    """Mosquitto 2's ``$7$`` hash of ``password`` (a random salt unless one is given)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${_b64(salt)}${_b64(digest)}"


def password_matches(password: str, hashed: str) -> bool:
    """Whether ``hashed`` (a ``$7$`` hash) is the hash of ``password``."""
    found = _HASH.fullmatch(hashed)
    if found is None or not 1 <= int(found[1]) <= MAX_ITERATIONS:
        return False
    try:
        salt = base64.b64decode(found[2], validate=True)
    except binascii.Error:
        return False
    return hmac.compare_digest(password_hash(password, salt, int(found[1])), hashed)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def passwords_text(hashes: Mapping[str, str]) -> str:
    """The password file: ``name:hash`` per login, by name."""
    return "".join(f"{name}:{hashes[name]}\n" for name in sorted(hashes))


def read_passwords(path: Path) -> dict[str, str]:
    """Each login's hash from a password file this module wrote; BadInputError naming
    the line that is not one of its lines."""
    hashes: dict[str, str] = {}
    for number, line in _lines(path, "a password file"):
        name, _, hashed = line.partition(":")
        if BOARD_NAME.fullmatch(name) is None or _HASH.fullmatch(hashed) is None:
            raise BadInputError(f"{path}:{number}", "not a line NAME:$7$... as "
                                "broker-config writes (move the folder away to start again)")
        if name in hashes:
            raise BadInputError(f"{path}:{number}", f"{name}: a second line for this login")
        hashes[name] = hashed
    return hashes


def acl_text(club: str, logins: Iterable[Login]) -> str:
    """The ACL: each board writes under its own prefix and reads the club; a page reads."""
    lines = [f"# The logins of the club {club!r}: written by tavla-pi broker-config, "
             "which reads it back;", "# run it again to add or remove a login "
             "(docs/REMOTE.md) rather than editing here."]
    for login in sorted(logins, key=lambda each: each.name):
        lines += ["", f"user {login.name}"]
        if login.role is Role.BOARD:
            lines.append(f"topic write tavla/{club}/{login.name}/#")
        lines.append(f"topic read tavla/{club}/#")
    return "\n".join(lines) + "\n"


def read_acl(path: Path) -> tuple[str | None, dict[str, Login]]:
    """The club (None: no login yet) and the logins of an ACL this module wrote;
    BadInputError naming the line that is not one of its lines."""
    club: str | None = None
    logins: dict[str, Login] = {}
    user: str | None = None
    for number, line in _lines(path, "an ACL file"):
        where = f"{path}:{number}"
        if line.startswith("#"):
            continue
        if (found := _USER.fullmatch(line)) is not None:
            user = found[1]
            if user in logins:
                raise BadInputError(where, f"{user}: a second entry for this login")
            logins[user] = Login(user, Role.PAGE)
        elif user is not None and (found := _READ.fullmatch(line)) is not None:
            club = _same_club(club, found[1], where)
        elif (user is not None and (found := _WRITE.fullmatch(line)) is not None
              and found[2] == user):
            club = _same_club(club, found[1], where)
            logins[user] = Login(user, Role.BOARD)
        else:
            raise BadInputError(where, "not a line broker-config writes (move the folder "
                                       "away to start again)")
    return club, logins


def _same_club(club: str | None, found: str, where: str) -> str:
    if club is not None and found != club:
        raise BadInputError(where, f"club {found!r}, where the lines before say {club!r}")
    return found


def _lines(path: Path, what: str) -> Iterable[tuple[int, str]]:
    """The lines of ``path`` that are not blank, numbered from 1, stripped."""
    text = read_text(path, FILE_LIMIT, what)
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


def conf_text(listener: Listener, passwords: str, acl: str) -> str:
    """The Mosquitto configuration: no anonymous client, the password file and the ACL for
    every listener, and the one listener, where a client's username is its client id."""
    lines = ["# Written by tavla-pi broker-config (docs/REMOTE.md): for /etc/mosquitto/conf.d/.",
             "per_listener_settings false", "allow_anonymous false",
             f"password_file {passwords}", f"acl_file {acl}",
             f"max_packet_size {PACKET_LIMIT}", "",
             f"listener {listener.port}" + (f" {listener.bind}" if listener.bind else ""),
             "use_username_as_clientid true"]
    if listener.certfile is not None and listener.keyfile is not None:
        lines += [f"certfile {listener.certfile}", f"keyfile {listener.keyfile}",
                  "tls_version tlsv1.2"]
    return "\n".join(lines) + "\n"
