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

from tavla_pi.decode.geometry import Xy, site_xy
from tavla_pi.decode.physics import BoardDesign, field_table
from tavla_pi.hal.base import RawFrame
from tavla_pi.pinmap import SensorSite


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


class SensorModel:
    """The 152 Hall sensors of a modelled board, in frame order."""

    def __init__(self, design: BoardDesign, sites: Sequence[SensorSite],
                 rng: random.Random) -> None:
        self.design = design
        self.positions: tuple[Xy, ...] = tuple(site_xy(design, s) for s in sites)
        self.gain = tuple(1.0 + truncated_normal(rng, design.sensitivity_tol) for _ in sites)
        self.offset = tuple(truncated_normal(rng, design.offset_tol_counts) for _ in sites)
        self._table = field_table(design)

    def field_counts(self, magnets: Iterable[Magnet]) -> list[float]:
        """Field at every sensor from ``magnets``, in counts at nominal sensitivity."""
        table = self._table
        field = [0.0] * len(self.positions)
        for magnet in magnets:
            for i, (x, y) in enumerate(self.positions):
                rho = math.hypot(x - magnet.x_mm, y - magnet.y_mm)
                field[i] += magnet.strength * table.counts(rho, magnet.height_mm)
        return field

    def read(self, field: Sequence[float], rng: random.Random,
             stuck: dict[int, int]) -> RawFrame:
        """One scan: each sensor's output clipped to its swing, plus noise, as ADC codes."""
        design = self.design
        low, high = design.swing_counts
        centre, noise, top = design.quiescent_counts, design.noise_counts, design.adc_max
        values = []
        for i, b in enumerate(field):
            out = min(high, max(low, centre + self.offset[i] + self.gain[i] * b))
            if noise > 0.0:
                out += rng.gauss(0.0, noise)
            values.append(min(top, max(0, round(out))))
        for i, value in stuck.items():
            values[i] = value
        return tuple(values)
