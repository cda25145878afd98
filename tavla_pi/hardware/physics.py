"""The board's magnetic design: magnets, Hall sensors, geometry, expected readings.

Pure arithmetic shared by the decoder (thresholds, crosstalk) and the modelled
board (``tavla_pi.hal.sim``), so both speak of the same physical board.

Reference design (the numbers of ``hardware/``):

- DRV5055A2 linear Hall sensors at 3.3 V: 30 mV/mT, quiescent VCC/2, linear
  range +-42 mT, output swing 0.2 V .. VCC - 0.2 V; sensitivity +-5 %,
  quiescent offset +-1 % VCC; read by a 12-bit MCP3208 with a 3.3 V reference,
  so 1 count = 0.806 mV, 37.2 counts/mT, quiescent 2048 counts, noise about
  6 counts rms.
- N42 NdFeB discs 10 mm x 3 mm, magnetised axially, Br 1.3 T +-5 %.  White
  checkers north pole up (field at the sensor points up: reading above
  quiescent), Black south pole up (below).
- Checkers 37 mm x 9 mm on a 38 mm slot pitch; the magnet's lower face is
  ``magnet_gap_mm`` = 8 mm above the sensor element for the first layer, each
  further layer 9 mm higher.

The gap is measured to the magnet's *face*, which is what the on-axis formula
uses: 8 mm gives 40.5 mT, inside the sensor's +-42 mT.  Measured to the
magnet's centre (face 6.5 mm) one checker would give 60 mT and saturate the
sensor, so one checker and a stack of two would read the same.

Expected readings (nominal parts, no crosstalk; see :func:`separation`):
empty 2048 counts; one White checker 40.5 mT, +1510 counts (3558); two stacked
47.5 mT, +1770 (3818); three 49.8 mT, clipped at the output swing (3847).
Black mirrors below quiescent (538, 278, 248).  At the worst-case tolerances
(sensitivity and Br both +-5 %) one checker spans 36.6..44.7 mT and two
stacked 42.9..48.3 mT (clipped): these overlap by 1.8 mT, so the decoder
reports a slot in that band as "one or more" rather than guess.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

# Gauss-Legendre nodes and weights on [-1, 1], 8 points: integrates the
# field of the magnet's current sheet over its thickness.
_GAUSS_8 = (
    (-0.9602898564975363, 0.1012285362903763),
    (-0.7966664774136267, 0.2223810344533745),
    (-0.5255324099163290, 0.3137066458778873),
    (-0.1834346424956498, 0.3626837833783620),
    (0.1834346424956498, 0.3626837833783620),
    (0.5255324099163290, 0.3137066458778873),
    (0.7966664774136267, 0.2223810344533745),
    (0.9602898564975363, 0.1012285362903763),
)


@dataclass(frozen=True, slots=True)
class BoardDesign:
    """Every physical figure the sensing depends on (defaults: the reference board)."""

    vcc_v: float = 3.3
    adc_levels: int = 4096
    sensitivity_mv_per_mt: float = 30.0
    output_min_v: float = 0.2
    output_max_v: float = 3.1
    sensitivity_tol: float = 0.05
    offset_tol: float = 0.01
    noise_counts: float = 6.0
    magnet_diameter_mm: float = 10.0
    magnet_thickness_mm: float = 3.0
    br_mt: float = 1300.0
    br_tol: float = 0.05
    magnet_gap_mm: float = 8.0
    checker_thickness_mm: float = 9.0
    checker_diameter_mm: float = 37.0
    slot_pitch_mm: float = 38.0
    point_pitch_mm: float = 40.0
    bar_width_mm: float = 50.0
    tip_gap_mm: float = 24.0

    @property
    def adc_max(self) -> int:
        """The largest ADC code (4095 for 12 bits)."""
        return self.adc_levels - 1

    @property
    def counts_per_mt(self) -> float:
        """ADC counts per millitesla at nominal sensitivity."""
        return self.sensitivity_mv_per_mt / 1000.0 / self.vcc_v * self.adc_levels

    @property
    def quiescent_counts(self) -> float:
        """The nominal reading with no field (VCC/2)."""
        return self.adc_levels / 2.0

    @property
    def offset_tol_counts(self) -> float:
        """The worst-case quiescent offset of an uncalibrated sensor, in counts."""
        return self.offset_tol * self.adc_levels

    @property
    def swing_counts(self) -> tuple[float, float]:
        """The lowest and highest reading the sensor's output can produce."""
        scale = self.adc_levels / self.vcc_v
        return self.output_min_v * scale, self.output_max_v * scale

    def layer_height_mm(self, layer: int) -> float:
        """Height of the magnet's lower face above the sensor for ``layer`` (0 first)."""
        return self.magnet_gap_mm + layer * self.checker_thickness_mm

    @property
    def gain_bounds(self) -> tuple[float, float]:
        """Worst-case low and high factors of sensitivity times Br."""
        s, m = self.sensitivity_tol, self.br_tol
        return (1.0 - s) * (1.0 - m), (1.0 + s) * (1.0 + m)


REFERENCE = BoardDesign()
"""The reference board of ``hardware/``."""

IDEAL = BoardDesign(sensitivity_tol=0.0, offset_tol=0.0, noise_counts=0.0, br_tol=0.0)
"""The reference board with perfect parts: for tests that isolate geometry."""


def elliptic_ke(m: float) -> tuple[float, float]:
    """Complete elliptic integrals K(m) and E(m) (parameter m = k**2) by the AGM."""
    a, b = 1.0, math.sqrt(1.0 - m)
    weight, total = 0.5, 0.5 * m
    while abs(a - b) > 1e-14 * a:
        a, b, c = (a + b) / 2.0, math.sqrt(a * b), (a - b) / 2.0
        weight *= 2.0
        total += weight * c * c
    k = math.pi / (2.0 * a)
    return k, k * (1.0 - total)


def _loop_kernel(radius: float, rho: float, z: float) -> float:
    """Axial field of a current loop, up to the factor mu0*I/(2*pi)."""
    d2 = (radius + rho) ** 2 + z * z
    k, e = elliptic_ke(4.0 * radius * rho / d2)
    near2 = (radius - rho) ** 2 + z * z
    return (k + (radius * radius - rho * rho - z * z) / near2 * e) / math.sqrt(d2)


def axial_field_mt(design: BoardDesign, z_mm: float) -> float:
    """On-axis field (mT) at ``z_mm`` below the magnet's face: the closed form."""
    r, t = design.magnet_diameter_mm / 2.0, design.magnet_thickness_mm
    far = (t + z_mm) / math.hypot(r, t + z_mm)
    return design.br_mt / 2.0 * (far - z_mm / math.hypot(r, z_mm))


def field_mt(design: BoardDesign, rho_mm: float, z_mm: float) -> float:
    """Vertical field (mT) of a nominal north-up magnet at a sensor.

    ``rho_mm`` is the sensor's horizontal distance from the magnet's axis,
    ``z_mm`` the height of the magnet's lower face above the sensor.  The
    magnet is a uniformly magnetised cylinder, i.e. a sheet of current loops;
    the loops' elliptic-integral fields are integrated over its thickness.
    On the axis this equals :func:`axial_field_mt`.  Off the axis it falls,
    crosses zero near 15 mm and turns slightly negative (the return flux).
    """
    if rho_mm < 1e-9:
        return axial_field_mt(design, z_mm)
    r, t = design.magnet_diameter_mm / 2.0, design.magnet_thickness_mm
    total = 0.0
    for node, weight in _GAUSS_8:
        total += weight * _loop_kernel(r, rho_mm, z_mm + t / 2.0 * (1.0 + node))
    return design.br_mt / (2.0 * math.pi) * total * t / 2.0


class FieldTable:
    """:func:`field_mt` in ADC counts at nominal sensitivity, memoised.

    Board positions repeat (slot pitch, layers), so a sensor grid needs only
    a few thousand distinct (distance, height) pairs; distances are rounded
    to 0.01 mm, far below any tolerance.
    """

    def __init__(self, design: BoardDesign) -> None:
        self.design = design
        self._cache: dict[tuple[float, float], float] = {}

    def counts(self, rho_mm: float, z_mm: float) -> float:
        """Reading (counts from quiescent) of a nominal White magnet at (rho, z)."""
        key = (round(rho_mm, 2), round(z_mm, 2))
        value = self._cache.get(key)
        if value is None:
            value = field_mt(self.design, *key) * self.design.counts_per_mt
            self._cache[key] = value
        return value


@functools.lru_cache(maxsize=8)
def field_table(design: BoardDesign) -> FieldTable:
    """The shared :class:`FieldTable` of a design."""
    return FieldTable(design)


def stack_field_mt(design: BoardDesign, layers: int) -> float:
    """On-axis field of ``layers`` checkers stacked on one slot."""
    return sum(axial_field_mt(design, design.layer_height_mm(n)) for n in range(layers))


@dataclass(frozen=True, slots=True)
class Band:
    """A worst-case span of readings, in counts from quiescent (magnitude)."""

    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Separation:
    """Worst-case reading bands for 0, 1 and 2 stacked checkers on one slot.

    ``gap_empty_one`` > 0 means an empty slot and one checker never overlap;
    ``gap_one_two`` < 0 is the width of the band where one checker and two
    stacked can read the same (the decoder's "one or more").
    """

    empty: Band
    one: Band
    two: Band
    gap_empty_one: float
    gap_one_two: float


def separation(design: BoardDesign, noise_sigmas: float = 4.5) -> Separation:
    """Worst-case bands at the tolerances, clipped to the output swing."""
    low_gain, high_gain = design.gain_bounds
    cpm = design.counts_per_mt
    clip = design.swing_counts[1] - design.quiescent_counts
    noise = noise_sigmas * design.noise_counts
    one = stack_field_mt(design, 1) * cpm
    two = stack_field_mt(design, 2) * cpm
    empty = Band(0.0, noise)
    one_band = Band(min(one * low_gain, clip) - noise, min(one * high_gain, clip) + noise)
    two_band = Band(min(two * low_gain, clip) - noise, min(two * high_gain, clip) + noise)
    return Separation(
        empty, one_band, two_band, one_band.low - empty.high, two_band.low - one_band.high
    )
