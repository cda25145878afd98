"""The modelled sensor chain: magnets -> field -> Hall sensor -> ADC counts.

Each sensor gets its own sensitivity and quiescent offset, drawn once from
the injected random source within the design's tolerances (a normal
distribution with the tolerance as three sigma, cut off at the tolerance);
each scan adds Gaussian noise.  The output clips at the sensor's swing and
the ADC's range.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tavla_pi.hal.base import RawFrame
from tavla_pi.hardware.geometry import Xy, site_xy
from tavla_pi.hardware.physics import BoardDesign, field_table
from tavla_pi.hardware.pinmap import SensorSite

SKIP_CHUNK_WORDS = 1 << 20
"""Random words skipped at a time by :meth:`SensorModel.skip_noise` (4 MB)."""
_TWO_PI = 2.0 * math.pi


@dataclass(frozen=True, slots=True)
class Magnet:
    """One checker's magnet: where it is and how strong, signed by colour.

    ``strength`` is Br relative to nominal, positive for White (north up),
    negative for Black; ``height_mm`` is its lower face above the sensors.
    """

    x_mm: float
    y_mm: float
    height_mm: float
    strength: float


def truncated_normal(rng: random.Random, tol: float) -> float:
    """A draw from N(0, tol/3) kept within +-tol (0 when ``tol`` is 0)."""
    if tol <= 0.0:
        return 0.0
    while True:
        value = rng.gauss(0.0, tol / 3.0)
        if abs(value) <= tol:
            return value


def unit_normals(rng: random.Random, n: int) -> list[float]:
    """``n`` draws of ``rng.gauss()``, made in one loop: the same numbers, and ``rng``
    left as ``n`` calls of it would leave it.

    CPython's ``gauss()`` makes its draws in pairs from two ``random()`` calls
    and keeps the second of a pair in the instance's ``gauss_next`` for the next
    call; this does the same, inlined (tests/test_hal_sim_noise.py checks the
    two agree, half-used pair included).
    """
    state = vars(rng)
    pending: float | None = state["gauss_next"]
    draws: list[float] = []
    if pending is not None and n > 0:
        draws.append(pending)
        pending = None
        n -= 1
    uniform, cos, sin, log, sqrt = rng.random, math.cos, math.sin, math.log, math.sqrt
    for _ in range(n // 2):
        x2pi = uniform() * _TWO_PI
        g2rad = sqrt(-2.0 * log(1.0 - uniform()))
        draws.append(cos(x2pi) * g2rad)
        draws.append(sin(x2pi) * g2rad)
    if n % 2:
        x2pi = uniform() * _TWO_PI
        g2rad = sqrt(-2.0 * log(1.0 - uniform()))
        draws.append(cos(x2pi) * g2rad)
        pending = sin(x2pi) * g2rad
    state["gauss_next"] = pending
    return draws


class SensorModel:
    """The 152 Hall sensors of a modelled board, in frame order."""

    def __init__(self, design: BoardDesign, sites: Sequence[SensorSite],
                 rng: random.Random) -> None:
        self.design = design
        self.positions: tuple[Xy, ...] = tuple(site_xy(design, s) for s in sites)
        self.gain = tuple(1.0 + truncated_normal(rng, design.sensitivity_tol) for _ in sites)
        self.offset = tuple(truncated_normal(rng, design.offset_tol_counts) for _ in sites)
        self._table = field_table(design)
        self._unit: dict[tuple[float, float, float], tuple[float, ...]] = {}
        self._base: tuple[Sequence[float] | None, list[float]] = (None, [])

    def field_counts(self, magnets: Iterable[Magnet]) -> list[float]:
        """Field at every sensor from ``magnets``, in counts at nominal sensitivity."""
        field = [0.0] * len(self.positions)
        for magnet in magnets:
            unit = self._unit_field(magnet.x_mm, magnet.y_mm, magnet.height_mm)
            strength = magnet.strength
            field = [f + strength * u for f, u in zip(field, unit, strict=True)]
        return field

    def _unit_field(self, x_mm: float, y_mm: float, height_mm: float) -> tuple[float, ...]:
        """Every sensor's reading of a nominal White magnet at a place (memoised:
        checkers sit on a few hundred places)."""
        key = (x_mm, y_mm, height_mm)
        unit = self._unit.get(key)
        if unit is None:
            table = self._table
            unit = tuple(table.counts(math.hypot(x - x_mm, y - y_mm), height_mm)
                         for x, y in self.positions)
            self._unit[key] = unit
        return unit

    def read(self, field: Sequence[float], rng: random.Random,
             stuck: dict[int, int]) -> RawFrame:
        """One scan: each sensor's output clipped to its swing, plus noise, as ADC codes."""
        noise, top = self.design.noise_counts, self.design.adc_max
        base = self._output(field)
        if noise > 0.0:  # z * noise: gauss(0.0, noise), which adds it to 0.0
            values = [round(out + z * noise)
                      for out, z in zip(base, unit_normals(rng, len(base)), strict=True)]
        else:
            values = [round(out) for out in base]
        if min(values) < 0 or max(values) > top:  # the ADC's range (rare: a wide swing)
            values = [v if 0 <= v <= top else (0 if v < 0 else top) for v in values]
        for i, value in stuck.items():
            values[i] = value
        return tuple(values)

    def skip_noise(self, rng: random.Random, scans: int) -> None:
        """Move ``rng`` on exactly as ``scans`` calls of :meth:`read` would, without reading.

        ``gauss()`` draws in pairs, each pair from two ``random()`` calls of two
        32-bit words: an even number of draws a scan takes two words a draw, which
        ``getrandbits`` skips in C.  The last scan is drawn for real, so the pair
        ``gauss()`` keeps half-used is the one those scans would have left.
        """
        draws = len(self.positions) if self.design.noise_counts > 0.0 else 0
        if scans <= 0 or draws == 0:
            return
        if draws % 2 == 0:
            words = 2 * draws * (scans - 1)
            while words > 0:
                chunk = min(words, SKIP_CHUNK_WORDS)
                rng.getrandbits(32 * chunk)
                words -= chunk
            scans = 1
        unit_normals(rng, draws * scans)

    def _output(self, field: Sequence[float]) -> list[float]:
        """Each sensor's noiseless output for ``field``, clipped to its swing (kept
        for the last field: the board's field changes only when a checker moves)."""
        last, base = self._base
        if last is not field:
            low, high = self.design.swing_counts
            centre = self.design.quiescent_counts
            base = [min(high, max(low, centre + offset + gain * b))
                    for offset, gain, b in zip(self.offset, self.gain, field, strict=True)]
            self._base = (field, base)
        return base
