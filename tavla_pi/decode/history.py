"""Per-sensor memory across frames: running means while quiet, stuck detection."""

from __future__ import annotations

import math
from collections.abc import Sequence

WINDOW = 16
JUMP_SIGMAS = 4.0


class QuietMean:
    """Each sensor's mean reading since it last moved, over up to ``WINDOW`` frames.

    A sample further than ``JUMP_SIGMAS`` noise from the mean restarts the
    mean there, so a checker arriving or leaving shows at once, while a
    steady weak field (a checker between two pockets) is averaged out of
    the noise.  ``spreads()`` is the noise left in each mean.
    """

    def __init__(self, noise: Sequence[float]) -> None:
        self._noise = list(noise)
        self._jump = [JUMP_SIGMAS * x for x in noise]
        self.mean = [0.0] * len(noise)
        self._count = [0] * len(noise)
        self._root = [0.0] + [1.0 / math.sqrt(n) for n in range(1, WINDOW + 1)]

    def update(self, samples: Sequence[float]) -> None:
        """Fold one frame's samples (readings less offsets) into the means."""
        mean, count, jump = self.mean, self._count, self._jump
        for i, x in enumerate(samples):
            n, m = count[i], mean[i]
            if n == 0 or abs(x - m) > jump[i]:
                mean[i], count[i] = x, 1
                continue
            if n < WINDOW:
                n = count[i] = n + 1
            mean[i] = m + (x - m) / n

    def restart(self, i: int, x: float) -> None:
        """Start sensor ``i``'s mean afresh at ``x`` (its surroundings changed)."""
        self.mean[i], self._count[i] = x, 1

    def steady(self) -> list[bool]:
        """Which sensors' readings have stayed put for a whole window."""
        return [n >= WINDOW for n in self._count]

    def spreads(self) -> list[float]:
        """The noise (counts rms) still in each sensor's mean, in order."""
        root = self._root
        return [x * root[n if n > 1 else 1] for x, n in zip(self._noise, self._count, strict=True)]


class StuckWatch:
    """Sensors whose reading has not changed for ``frames`` scans in a row.

    Only sensors marked ``watched`` (those with measurable noise) count: a
    live sensor's noise makes an identical reading scan after scan vanishingly
    unlikely.
    """

    def __init__(self, watched: Sequence[bool], frames: int) -> None:
        self.frames = frames
        self._watched = list(watched)
        self._last: list[int] = [-1] * len(watched)
        self._runs = [0] * len(watched)

    def update(self, frame: Sequence[int]) -> list[int]:
        """Feed one frame; the indices stuck as of now."""
        last, runs = self._last, self._runs
        stuck = []
        for i, value in enumerate(frame):
            if value == last[i]:
                runs[i] += 1
                if runs[i] >= self.frames and self._watched[i]:
                    stuck.append(i)
            else:
                last[i], runs[i] = value, 1
        return stuck
