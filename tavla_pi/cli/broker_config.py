"""``tavla-pi broker-config``: what a club's Mosquitto needs so that each board speaks
only for itself (docs/REMOTE.md, "The broker locked down").

Writes into ``--out DIR``: ``broker/tavla.conf`` (for ``/etc/mosquitto/conf.d/``),
``broker/passwords`` and ``broker/acl`` (where ``--broker-dir`` says the broker reads
them), and ``logins/NAME.password``, each new login's password, for its board's
``[network] password_file``.  A run adds logins to those the folder holds (their
passwords kept) and removes those named by ``--remove``; ``--remove NAME --board NAME``
gives a board a new password.  The listener is written on the first run and on every
run that gives one of its options.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.errors import BadInputError
from tavla_pi.events.files import OS_FILES, replace_file
from tavla_pi.remote.brokerconf import (
    Listener,
    Login,
    Role,
    acl_text,
    conf_text,
    new_password,
    password_hash,
    passwords_text,
    read_acl,
    read_passwords,
)
from tavla_pi.remote.messages import BOARD_NAME
from tavla_pi.remote.settings import DEFAULT_CLUB

PLAIN_PORT = 1883
TLS_PORT = 8883
_BROKER_PATH = re.compile(r"/[!-~]*")
"""A path the broker host reads: absolute, printable ASCII, no spaces (one config word)."""
_LISTENER_OPTIONS = ("port", "bind", "tls_cert", "tls_key", "broker_dir")
_NAME_RULE = 'a name of 1 to 32 lowercase letters, digits and "-"'


def add_parser(subparsers: Any) -> None:
    """Register ``broker-config``."""
    parser = subparsers.add_parser(
        "broker-config", help="a club's Mosquitto locked down: logins, ACL, listener",
        description="Writes a Mosquitto password file, an ACL that lets each board write "
                    "only under its own tavla/<club>/<board>/ and read the club (a club "
                    "page's login only reads), and a listener configuration (no anonymous "
                    "client; the username is the client id; TLS with --tls-cert and "
                    "--tls-key). Each new login gets a random password, written to "
                    "DIR/logins/NAME.password. Run it again to add or remove logins: the "
                    "others keep their passwords.")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="the folder to write (and to read back on a later run)")
    parser.add_argument("--club", default=None, metavar="NAME",
                        help=f"the club, the topic prefix (default: the folder's, else "
                             f"{DEFAULT_CLUB})")
    parser.add_argument("--board", action="append", default=[], metavar="NAME",
                        help="a board's login to add (the board's [network] board); repeat it")
    parser.add_argument("--page", action="append", default=[], metavar="NAME",
                        help="a read-only login to add for a club page (tavla-pi club); "
                             "repeat it")
    parser.add_argument("--remove", action="append", default=[], metavar="NAME",
                        help="a login to remove (before any is added); repeat it")
    parser.add_argument("--port", type=int, default=None,
                        help=f"the listener's port (default {PLAIN_PORT}, with TLS {TLS_PORT})")
    parser.add_argument("--bind", default=None, metavar="ADDRESS",
                        help="the IP address the listener binds (default: every address)")
    parser.add_argument("--tls-cert", default=None, metavar="FILE",
                        help="TLS: the certificate (its whole chain), an absolute path on "
                             "the broker host")
    parser.add_argument("--tls-key", default=None, metavar="FILE",
                        help="TLS: the certificate's key, an absolute path on the broker host")
    parser.add_argument("--broker-dir", default=None, metavar="DIR",
                        help="where the broker host keeps the password file and the ACL, "
                             "absolute (default: DIR/broker)")
    parser.add_argument("--show-passwords", action="store_true",
                        help="also print each new password")
    parser.set_defaults(run=run)


@dataclass(frozen=True, slots=True)
class Folder:
    """The files of ``--out``."""

    root: Path

    @property
    def broker(self) -> Path:
        """What goes to the broker host."""
        return self.root / "broker"

    @property
    def conf(self) -> Path:
        """The listener and the files the broker reads."""
        return self.broker / "tavla.conf"

    @property
    def passwords(self) -> Path:
        """The password file."""
        return self.broker / "passwords"

    @property
    def acl(self) -> Path:
        """The ACL."""
        return self.broker / "acl"

    def login(self, name: str) -> Path:
        """The file holding the password of login ``name``."""
        return self.root / "logins" / f"{name}.password"


def run(args: argparse.Namespace) -> int:
    """Read the folder, check every option, then change the logins as asked and write."""
    folder = Folder(args.out)
    if args.out.exists() and not args.out.is_dir():
        raise BadInputError("--out", f"{args.out} is not a folder")
    club, logins, hashes = _existing(folder)
    club = _club(args.club, club)
    asked = [Login(name, Role.BOARD) for name in args.board]
    asked += [Login(name, Role.PAGE) for name in args.page]
    _check_names(args.remove, asked, logins)
    if len(logins) == len(args.remove) and not asked:
        raise BadInputError("--board", "no login: name at least one board (--board NAME)")
    listener = _listener(args, folder) if _writes_listener(args, folder) else None
    try:
        for name in args.remove:
            del logins[name], hashes[name]
            with contextlib.suppress(FileNotFoundError):
                folder.login(name).unlink()
            print(f"{name}: removed")
        for login in asked:
            _add(folder, login, hashes, show=args.show_passwords)
            logins[login.name] = login
        _write_logins(folder, club, logins, hashes)
        if listener is not None:
            _write_conf(folder, *listener)
    except OSError as exc:
        raise BadInputError(str(exc.filename or args.out),
                            f"cannot write ({exc.strerror or exc})") from None
    return 0


def _existing(folder: Folder) -> tuple[str | None, dict[str, Login], dict[str, str]]:
    """The club, logins and hashes the folder holds (nothing for a new folder)."""
    club, logins = read_acl(folder.acl) if folder.acl.exists() else (None, {})
    hashes = read_passwords(folder.passwords) if folder.passwords.exists() else {}
    unnamed = sorted(hashes.keys() - logins.keys())
    without = sorted(logins.keys() - hashes.keys())
    if unnamed:
        raise BadInputError(str(folder.passwords), f"{unnamed[0]}: a login {folder.acl} does "
                            "not name (move the folder away to start again)")
    if without:
        raise BadInputError(str(folder.acl), f"{without[0]}: a login without a password in "
                            f"{folder.passwords} (--remove it, or add it again)")
    return club, logins, hashes


def _club(given: str | None, held: str | None) -> str:
    """The club: ``--club`` (which must be the folder's), else the folder's, else home."""
    if given is not None and BOARD_NAME.fullmatch(given) is None:
        raise BadInputError("--club", f"{given!r} is not {_NAME_RULE}, e.g. \"athens-club\"")
    if given is not None and held is not None and given != held:
        raise BadInputError("--club", f"the folder holds the logins of the club {held!r}, "
                                      f"not {given!r} (one folder per club's broker)")
    return given or held or DEFAULT_CLUB


def _check_names(removed: list[str], asked: list[Login], logins: dict[str, Login]) -> None:
    """Each name a login's, each removed one in the folder, each added one new (a removed
    one may come back: with a new password)."""
    named = [("--remove", name) for name in removed]
    named += [(f"--{login.role}", login.name) for login in asked]
    for option, name in named:
        if BOARD_NAME.fullmatch(name) is None:
            raise BadInputError(option, f"{name!r} is not {_NAME_RULE}, e.g. \"athens\"")
    for name in removed:
        if name not in logins:
            raise BadInputError("--remove", f"{name!r}: no such login in the folder")
    taken = {name: "in the folder already (--remove it too for a new password)"
             for name in logins.keys() - set(removed)}
    for login in asked:
        if login.name in taken:
            raise BadInputError(f"--{login.role} {login.name}", taken[login.name])
        taken[login.name] = f"given twice (--{login.role} {login.name})"


def _writes_listener(args: argparse.Namespace, folder: Folder) -> bool:
    return not folder.conf.exists() or any(getattr(args, option) is not None
                                           for option in _LISTENER_OPTIONS)


def _listener(args: argparse.Namespace, folder: Folder) -> tuple[Listener, str]:
    """The listener and the folder the broker reads the logins from, checked."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise BadInputError("--tls-cert" if args.tls_cert is None else "--tls-key",
                            "TLS needs both --tls-cert and --tls-key")
    port = args.port if args.port is not None else (
        PLAIN_PORT if args.tls_cert is None else TLS_PORT)
    if not 1 <= port <= 65535:
        raise BadInputError("--port", f"{port} is not 1..65535")
    if args.bind is not None:
        try:
            ipaddress.ip_address(args.bind)
        except ValueError:
            raise BadInputError("--bind", f"{args.bind!r} is not an IP address, e.g. "
                                          "192.168.1.20") from None
    broker_dir = _broker_path("--broker-dir", args.broker_dir) or str(folder.broker.absolute())
    listener = Listener(port, args.bind, _broker_path("--tls-cert", args.tls_cert),
                        _broker_path("--tls-key", args.tls_key))
    return listener, broker_dir


def _broker_path(option: str, path: str | None) -> str | None:
    if path is not None and _BROKER_PATH.fullmatch(path) is None:
        raise BadInputError(option, f"{path!r} is not an absolute path without spaces (as "
                                    "the broker host names it)")
    return path


def _add(folder: Folder, login: Login, hashes: dict[str, str], *, show: bool) -> None:
    """A new password for ``login``: in its file (0600) and, hashed, in ``hashes``."""
    password = new_password()
    path = folder.login(login.name)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    replace_file(OS_FILES, path, f"{password}\n".encode(), 0o600)
    hashes[login.name] = password_hash(password)
    shown = f" ({password})" if show else ""
    print(f"{login.name} ({login.role}): new password{shown} in {path}")


def _write_logins(folder: Folder, club: str, logins: dict[str, Login],
                  hashes: dict[str, str]) -> None:
    folder.broker.mkdir(mode=0o750, parents=True, exist_ok=True)
    replace_file(OS_FILES, folder.passwords, passwords_text(hashes).encode(), 0o640)
    replace_file(OS_FILES, folder.acl, acl_text(club, logins.values()).encode(), 0o640)
    boards = sum(login.role is Role.BOARD for login in logins.values())
    print(f"{folder.passwords}, {folder.acl}: the club {club!r}, {boards} board(s) and "
          f"{len(logins) - boards} page(s)")


def _write_conf(folder: Folder, listener: Listener, broker_dir: str) -> None:
    text = conf_text(listener, f"{broker_dir}/passwords", f"{broker_dir}/acl")
    replace_file(OS_FILES, folder.conf, text.encode(), 0o644)
    tls = "TLS" if listener.certfile else "no TLS"
    print(f"{folder.conf}: listener on port {listener.port} ({tls}); the broker reads the "
          f"logins from {broker_dir}")
