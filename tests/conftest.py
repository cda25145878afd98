"""Fixtures shared by the test modules: the reference pin map, a virtual clock, the modelled board.

The one pin map is the reference board's real wiring (``hardware/pinout.toml``,
``sim_support.PINMAP``); a test that needs other wiring derives it from the
``pinmap`` fixture with ``dataclasses.replace`` and says why.
"""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory
from sim_support import PINMAP

from tavla_pi.clock import VirtualClock
from tavla_pi.hal.sim import SimBoard
from tavla_pi.hardware.pinmap import PinMap


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
