"""Fixtures shared by the test modules: the reference pin map, a virtual clock, the modelled board.

The one pin map is the reference board's real wiring (``hardware/pinout.toml``,
``sim_support.PINMAP``); a test that needs other wiring derives it from the
``pinmap`` fixture with ``dataclasses.replace`` and says why.

A test that needs an outside program (gnubg, chromium, ...) carries the ``needs`` mark
of ``programs.py``: it skips with one line where the program is missing (fails under
``TAVLA_REQUIRE_PROGRAMS=1``), and the run ends with a line naming those skips.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import settings
from programs import REQUIRE, missing, required, skipped_for
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.hal.sim import SimBoard
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.testing.bgammon import BgammonServer, ConnectionOpener
from tavla_pi.testing.mosquitto import Mosquitto

# Speed is measured in bench/, never asserted: Hypothesis' per-example deadline
# (200 ms) failed a rules property on two cores shared with other work.
settings.register_profile("tavla", deadline=None)
settings.load_profile("tavla")


@pytest.fixture(scope="session")
def pinmap() -> PinMap:
    """The reference board's pin map (read once; a frozen value, not to be mutated)."""
    return PINMAP


@pytest.fixture
def clock() -> VirtualClock:
    """A virtual clock at 0 ms: time moves only when the test advances it."""
    return VirtualClock()


@pytest.fixture
def sim_board(pinmap: PinMap, clock: VirtualClock) -> SimBoard:
    """The modelled board on the reference pin map: empty, parts at BOM tolerances, seed 0."""
    return SimBoard(pinmap, clock, random.Random(0))


@pytest.fixture
def factory() -> MockFactory:
    """A fresh gpiozero MockFactory: mock pins for the Pi backend's drivers."""
    return MockFactory()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A started anonymous broker on a free port, stopped after the test (the test carries
    ``needs("mosquitto")``)."""
    with Mosquitto(tmp_path) as broker:
        yield broker


@pytest.fixture
def bgammon_server(tmp_path: Path) -> Iterator[BgammonServer]:
    """A started bgammon-server on a free port (TCP only), stopped after the test (the test
    carries ``needs("bgammon-server")``)."""
    with BgammonServer(tmp_path) as server:
        yield server


@pytest.fixture
def online() -> Iterator[ConnectionOpener]:
    """Opens online connections (``online(settings, clock=None, names=None)``: started,
    polled as the scan loop polls), closed after the test."""
    opener = ConnectionOpener()
    yield opener
    opener.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs(*programs): the test runs an outside program "
                                       "(tests/programs.py): skipped where it is missing")
    if not hasattr(config, "workerinput"):  # the run's own process (each xdist worker's: no)
        config.pluginmanager.register(SkipCount(config), "tavla-missing-programs")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture: skip (or, where required, fail) a test whose program is missing."""
    lacking = missing(item)
    if not lacking:
        return
    if required():
        pytest.fail(f"{lacking[0].missing} ({REQUIRE} is set)", pytrace=False)
    pytest.skip(lacking[0].missing)


class SkipCount:
    """Counts the skips for a missing program (every worker's reports arrive here) and
    says them in the run's last line."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.skipped: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped and isinstance(report.longrepr, tuple):
            name = skipped_for(str(report.longrepr[2]))
            if name is not None:
                self.skipped[name] += 1

    def pytest_unconfigure(self) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            said = ", ".join(f"{name} ({n} tests)" for name, n in sorted(self.skipped.items()))
            reporter.write_line(f"skipped for a missing program: {said or 'none'}")
