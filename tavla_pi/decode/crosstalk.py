"""The field the checkers found put on the sensors around them.

A magnet over one pocket reaches its neighbours too (about -12 counts at
the next pocket).  Given every sensor's level, this estimates the crosstalk
at each sensor and how uncertain that estimate is (tolerances, unknown stack
heights, pockets whose content is in doubt).  Levels change one pocket at a
time, so the estimate is updated incrementally and rebuilt now and then to
shed rounding.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN, WEAK, Tables

REBUILD_EVERY = 1000
_STACKS = {ONE: (0.0, 0.0, 0.0), ONE_PLUS: (0.5, 0.5, 3.0), TWO_PLUS: (1.0, 0.0, 3.0)}
"""Per level, the crosstalk a pocket's stack makes: the weight of its second
layer in the estimate, that layer's share of the uncertainty, and how many
third-layer fields the uncertainty allows for taller stacks."""


class Crosstalk:
    """Crosstalk (``comp``) and its uncertainty (``unc``) per sensor, in counts."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables
        n = len(tables.sites)
        self.comp = [0.0] * n
        self.unc = [0.0] * n
        self._levels = [EMPTY] * n
        self._signs = [0] * n
        self._updates = 0

    def update(self, levels: Sequence[int], signs: Sequence[int]) -> None:
        """Bring the estimate to these levels and signs (sign +1 White, -1 Black)."""
        self._updates += 1
        if self._updates >= REBUILD_EVERY:
            self._updates = 0
            self.comp = [0.0] * len(self.comp)
            self.unc = [0.0] * len(self.unc)
            self._levels = [EMPTY] * len(self._levels)
        for j, (level, sign) in enumerate(zip(levels, signs, strict=True)):
            if level != self._levels[j] or sign != self._signs[j]:
                self._add(j, self._levels[j], self._signs[j], -1.0)
                self._add(j, level, sign, 1.0)
                self._levels[j], self._signs[j] = level, sign

    def _add(self, j: int, level: int, sign: int, weight: float) -> None:
        """Add (``weight`` 1) or take away (-1) the crosstalk of pocket ``j``."""
        if level == EMPTY:
            return
        coupling = self._tables.couplings[j]
        l0, l1, l2 = coupling.layers
        comp, unc = self.comp, self.unc
        if level in (WEAK, UNKNOWN):
            for k, i in enumerate(coupling.targets):
                unc[i] += weight * (abs(l0[k]) + abs(l1[k]) + 3.0 * abs(l2[k]))
            return
        w1, u1, u2 = _STACKS[level]
        spread = self._tables.gain_spread
        for k, i in enumerate(coupling.targets):
            f = l0[k] + w1 * l1[k]
            comp[i] += weight * sign * f
            unc[i] += weight * (spread * abs(f) + u1 * abs(l1[k]) + u2 * abs(l2[k]))
