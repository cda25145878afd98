"""What the decoder precomputes once per board: groups, bands, crosstalk couplings.

Slot levels (what one sensor says about its pocket):

- ``EMPTY``: no checker; ``WEAK``: a field too weak for a checker in the
  pocket (one lying between pockets, or off-centre);
- ``ONE``: exactly one; ``ONE_PLUS``: one or more (the tolerance band where
  one checker and two stacked can read alike); ``TWO_PLUS``: two or more;
- ``UNKNOWN``: the sensor is faulty, its pocket could hold anything.

Crosstalk: a magnet over one pocket also reaches the sensors around it
(about -12 counts at the next pocket, opposite in sign to its own reading).
For every sensor the tables hold the field each stacking layer over every
other pocket puts on it, so the decoder can subtract what the checkers it
has found put on their neighbours.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from tavla_pi.hardware.geometry import site_xy
from tavla_pi.hardware.physics import BoardDesign, field_table, stack_field_mt
from tavla_pi.hardware.pinmap import SensorSite
from tavla_pi.rules.color import Color

EMPTY, WEAK, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN = range(6)
LEVEL_NAMES = ("empty", "weak", "one", "one+", "two+", "unknown")
COUPLING_FLOOR = 0.05
"""Couplings below this (counts, all layers together) are left out."""


@dataclass(frozen=True, slots=True)
class Group:
    """The sensors of one sensed place, by slot: a point or a bar half."""

    location: str
    half: Color | None
    sensors: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Coupling:
    """Field of a nominal White magnet over one pocket at the sensors it reaches.

    ``targets[k]`` receives ``layers[n][k]`` counts from layer ``n`` (0..2).
    """

    targets: tuple[int, ...]
    layers: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]


class Tables:
    """Immutable per-board data the decoder needs every frame."""

    def __init__(self, design: BoardDesign, sites: tuple[SensorSite, ...]) -> None:
        self.design = design
        self.sites = sites
        self.groups = _groups(sites)
        cpm = design.counts_per_mt
        low_gain, high_gain = design.gain_bounds
        one, two = stack_field_mt(design, 1) * cpm, stack_field_mt(design, 2) * cpm
        self.one_min, self.one_max, self.two_min = one * low_gain, one * high_gain, two * low_gain
        self.second_layer_step = (two - one) * low_gain
        self.pin_max = self.one_max - self.second_layer_step
        """The most a pocket can read with one checker and one of the other colour on it
        (a pin: the top checker's field opposes the one below)."""
        self.gain_spread = high_gain - 1.0
        self.couplings = _couplings(design, sites)


def _groups(sites: tuple[SensorSite, ...]) -> tuple[Group, ...]:
    by_place: dict[tuple[str, Color | None], list[tuple[int, int]]] = {}
    for i, site in enumerate(sites):
        by_place.setdefault((site.location, site.color), []).append((site.slot, i))
    order = [(str(p), None) for p in range(1, 25)] + [("bar", c) for c in Color]
    return tuple(
        Group(loc, half, tuple(i for _, i in sorted(by_place[(loc, half)])))
        for loc, half in order if (loc, half) in by_place
    )


def _couplings(design: BoardDesign, sites: tuple[SensorSite, ...]) -> tuple[Coupling, ...]:
    table = field_table(design)
    points = [site_xy(design, s) for s in sites]
    heights = [design.layer_height_mm(n) for n in range(3)]
    result = []
    for j, (xj, yj) in enumerate(points):
        targets: list[int] = []
        layers: tuple[list[float], list[float], list[float]] = ([], [], [])
        for i, (xi, yi) in enumerate(points):
            if i == j:
                continue
            rho = math.hypot(xi - xj, yi - yj)
            fields = [table.counts(rho, h) for h in heights]
            if sum(abs(f) for f in fields) >= COUPLING_FLOOR:
                targets.append(i)
                for n in range(3):
                    layers[n].append(fields[n])
        result.append(Coupling(tuple(targets), (tuple(layers[0]), tuple(layers[1]),
                                                tuple(layers[2]))))
    return tuple(result)


@functools.lru_cache(maxsize=4)
def tables_for(design: BoardDesign, sites: tuple[SensorSite, ...]) -> Tables:
    """The shared :class:`Tables` of a design and sensor layout."""
    return Tables(design, sites)
