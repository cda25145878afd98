"""The outside programs that some tests need, each found once, and the mark that says so.

A test that needs one is marked ``@needs("gnubg")`` (or a module's ``pytestmark``).
Where the program is missing the test skips with one line naming the Debian package to
install (``make deps`` installs them all); with ``TAVLA_REQUIRE_PROGRAMS=1`` in the
environment (``.ci/run`` sets it) it fails instead, so that a run where an install
failed can never pass on a silently reduced suite.  The conftest counts these skips and
``make test`` ends with a line naming them.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tavla_pi.engine import find_gnubg
from tavla_pi.testing.bgammon import BGAMMON_SERVER_VARIABLE, find_bgammon_server

REQUIRE = "TAVLA_REQUIRE_PROGRAMS"
"""The environment variable that turns a skip for a missing program into a failure."""


@dataclass(frozen=True)
class Program:
    """One outside program: its name, the Debian package that installs it (or, for one
    Debian lacks, how to get it), where it is."""

    name: str
    package: str
    path: Path | None
    install: str = ""

    @property
    def missing(self) -> str:
        """The one line a test that needs it skips with (:func:`skipped_for` reads it)."""
        how = self.install or f"apt install {self.package} (or make deps)"
        return f"needs {self.name}: {how}"


def _which(name: str, package: str) -> Program:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin")  # daemons: off users' PATH
    return Program(name, package, Path(found) if found else None)


def _chromium() -> Program:
    path = Path("/usr/bin/chromium")  # Debian's; Playwright never downloads a browser
    return Program("chromium", "chromium", path if os.access(path, os.X_OK) else None)


def _bgammon_server() -> Program:
    found = find_bgammon_server()
    return Program("bgammon-server", "", found, install=(
        "build it as .ci/run does and put it on the PATH or name it in "
        f"{BGAMMON_SERVER_VARIABLE}"))


PROGRAMS: dict[str, Program] = {
    p.name: p for p in (
        Program("gnubg", "gnubg", find_gnubg()),
        _chromium(),
        _which("systemd-analyze", "systemd"),
        _which("systemd-sysusers", "systemd"),
        _which("mosquitto", "mosquitto"),
        _which("mosquitto_pub", "mosquitto-clients"),
        _which("espeak-ng", "espeak-ng"),
        _bgammon_server(),
    )
}
"""Every program a test may need, by name."""


def needs(*names: str) -> pytest.MarkDecorator:
    """The mark of a test that needs the programs ``names`` (keys of :data:`PROGRAMS`)."""
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        raise ValueError(f"no such program in tests/programs.py: {', '.join(unknown)}")
    return pytest.mark.needs(*names)


def missing(item: pytest.Item) -> list[Program]:
    """The programs that test ``item`` needs and this machine lacks."""
    names = [n for mark in item.iter_markers("needs") for n in mark.args]
    return [PROGRAMS[n] for n in dict.fromkeys(names) if PROGRAMS[n].path is None]


def skipped_for(reason: str) -> str | None:
    """The program a skip's ``reason`` says is missing, or None for any other skip."""
    found = re.search(r"needs (\S+): ", reason)
    return found.group(1) if found and found.group(1) in PROGRAMS else None


def required() -> bool:
    """True where a missing program fails the test (``TAVLA_REQUIRE_PROGRAMS=1``)."""
    return os.environ.get(REQUIRE, "") not in ("", "0")
