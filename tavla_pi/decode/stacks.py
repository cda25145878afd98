"""One checker or two stacked? Told apart by following each pocket's steps.

A pocket's absolute reading cannot always tell one checker from two
stacked: with the parts' tolerances the two bands overlap (``ONE_PLUS``).
But a second checker put on a first raises the reading by a clear step
(the second layer's field, about 260 counts on the reference board) and
taking it off lowers it by as much, whatever the tolerances.  Anchored
whenever a pocket reads empty, exactly one or clearly two, the watch
counts those steps, so a stack that grows or shrinks one checker at a time
stays exact.  A third layer's step is too small to see (the sensor nears
its output swing): two is the most the watch ever claims.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, WEAK

MASK_STEPS = (0.75, 1.6)
"""How much weaker than its own reading (in second-layer steps) a lone checker reads
with one of the other colour on it: that checker's field, about one step (1.0-1.2).
Two magnets of one colour differ by up to 0.6 of a step (Br +-5 % each)."""


class StackWatch:
    """Per pocket: how many checkers (0, 1, 2) it holds, when its history says so."""

    def __init__(self, sensors: int, second_layer_step: float) -> None:
        self.half_step = second_layer_step / 2.0
        self.count: list[int | None] = [None] * sensors
        self.ref = [0.0] * sensors
        self.sign = [0] * sensors
        """The colour of each pocket's checkers as last anchored (+1 White, -1 Black,
        0 empty or not yet seen)."""
        self.sure = [False] * sensors
        """Whether each reference is a reading of the pocket's own checkers: not one
        taken with no history (a checker of the other colour may have lain on it)."""

    def update(self, levels: Sequence[int], magnitudes: Sequence[float],
               signs: Sequence[int], steady: Sequence[bool]) -> list[int | None]:
        """Feed one frame's levels, field magnitudes, signs (0 where a level has none)
        and which readings have been steady a while; each pocket's known count."""
        count, ref, sign, sure, half = self.count, self.ref, self.sign, self.sure, self.half_step
        mask = MASK_STEPS[0] * 2.0 * half
        for i, level in enumerate(levels):
            a = magnitudes[i]
            if level == EMPTY:
                count[i], ref[i], sign[i], sure[i] = 0, a, 0, True
            elif signs[i] and signs[i] != sign[i]:
                sure[i] = count[i] == 0
                count[i], ref[i], sign[i] = _fresh(level, count[i]), a, signs[i]
            elif level == ONE:
                if count[i] != 1 or ref[i] - a < mask:
                    sure[i] = count[i] is not None and sure[i]
                    count[i], ref[i] = 1, a
                # else: the one checker reads a layer's step weaker (an opposite checker
                # on it): keep its own reading, or taking that off would count two
            elif level == TWO_PLUS:
                count[i], ref[i], sure[i] = 2, a, True
            elif level == ONE_PLUS:
                count[i], ref[i] = _stepped(count[i], ref[i], a, half, steady[i])
                if count[i] == 2 and not sure[i]:
                    count[i] = None  # a step up from a reference that may have been masked
        return count

    def masked(self, levels: Sequence[int], magnitudes: Sequence[float]) -> list[int]:
        """Pockets known to hold one checker that now read about a step weaker: a
        checker of the other colour lies on it (its field opposes the one below)."""
        step = 2.0 * self.half_step
        low, high = MASK_STEPS[0] * step, MASK_STEPS[1] * step
        count, ref = self.count, self.ref
        return [i for i, level in enumerate(levels)
                if count[i] == 1 and level in (WEAK, ONE, ONE_PLUS)
                and low <= ref[i] - magnitudes[i] <= high]


def _fresh(level: int, known: int | None) -> int | None:
    """The count of a pocket that now reads a colour it did not hold (put on an empty
    pocket, or its checkers swapped for the other colour's within one scan)."""
    if level == ONE or (level == ONE_PLUS and known == 0):
        return 1
    return 2 if level == TWO_PLUS else None


def _stepped(known: int | None, ref: float, a: float, half: float,
             steady: bool) -> tuple[int | None, float]:
    """The count after a one-or-more reading ``a``, from the last known count and reading.

    The reference follows small changes (drift, the crosstalk estimate, a checker
    swapped for a slightly stronger one): at once within a quarter step, and
    within half a step once the reading has been steady a while.
    """
    if known is None:
        return None, a
    if known == 0:
        return 1, a  # one checker put on an empty pocket
    if known == 1 and a - ref > half:
        return 2, a
    if known == 2 and ref - a > half:
        return 1, a
    follows = abs(a - ref) < (half if steady else half / 2.0)
    return known, a if follows else ref
