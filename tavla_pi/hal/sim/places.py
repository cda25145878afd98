"""Checkers and the places that hold them on the modelled board.

A place is a point or one half of the bar: a row of pockets (slots), each
with a stack of checkers, plus any checkers left lying between two pockets.
Pure bookkeeping; the magnets it yields feed the sensor model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tavla_pi.errors import TavlaError
from tavla_pi.hal.sim.sensors import Magnet
from tavla_pi.hardware.geometry import slot_xy
from tavla_pi.hardware.physics import BoardDesign
from tavla_pi.rules.color import Color


class BoardActionError(TavlaError, ValueError):
    """An action the modelled board cannot do (no such checker, empty hand, ...)."""


@dataclass(eq=False, slots=True)
class Checker:
    """One checker: its colour and its magnet's Br relative to nominal."""

    color: Color
    strength: float


@dataclass(eq=False, slots=True)
class Stray:
    """A checker lying between two pockets: ``slot`` is fractional, ``layer`` its level."""

    checker: Checker
    slot: float
    layer: int


class Place:
    """A point or a bar half: stacks per pocket (bottom first) and strays."""

    def __init__(self, location: str, half: Color | None, slots: int) -> None:
        self.location = location
        self.half = half
        self.stacks: list[list[Checker]] = [[] for _ in range(slots)]
        self.strays: list[Stray] = []
        self._order: list[Checker] = []

    def next_free(self) -> tuple[int, int]:
        """The pocket a placed checker goes to: first free one, lowest layer first."""
        heights = [len(stack) for stack in self.stacks]
        layer = min(heights)
        return heights.index(layer), layer

    def add(self, checker: Checker, pocket: int | None = None) -> None:
        """Put a checker in the next free pocket, or on top of ``pocket``'s stack."""
        slot = self.next_free()[0] if pocket is None else self._pocket(pocket)
        self.stacks[slot].append(checker)
        self._order.append(checker)

    def lone_other(self, color: Color) -> int | None:
        """The pocket of the one checker here when it is the only one and not ``color``'s
        (a blot to pin), else None."""
        if len(self._order) != 1 or self._order[0].color is color or self.strays:
            return None
        return next(slot for slot, stack in enumerate(self.stacks) if stack)

    def _pocket(self, pocket: int) -> int:
        if not 0 <= pocket < len(self.stacks):
            raise BoardActionError(
                f"{self.name}: no pocket {pocket} (0..{len(self.stacks) - 1})"
            )
        return pocket

    def add_between(self, checker: Checker, slot_a: int, fraction: float) -> None:
        """Leave a checker between pocket ``slot_a`` and the next one."""
        if not 0 <= slot_a < len(self.stacks) - 1:
            raise BoardActionError(
                f"{self.location}: no slot pair {slot_a}/{slot_a + 1} "
                f"(slots 0..{len(self.stacks) - 1})"
            )
        if not 0.0 < fraction < 1.0:
            raise BoardActionError(f"{self.location}: fraction {fraction} not in (0, 1)")
        layer = max(len(self.stacks[slot_a]), len(self.stacks[slot_a + 1]))
        self.strays.append(Stray(checker, slot_a + fraction, layer))
        self._order.append(checker)

    def take(self, color: Color, pocket: int | None = None) -> Checker:
        """Remove the most recently placed checker of ``color``, or the top of ``pocket``'s
        stack (which must be ``color``'s: a hand lifts the top checker)."""
        if pocket is not None:
            return self._take_top(color, self._pocket(pocket))
        for checker in reversed(self._order):
            if checker.color is color:
                self._remove(checker)
                return checker
        raise BoardActionError(f"no {color.value} checker on {self.name}")

    def _take_top(self, color: Color, pocket: int) -> Checker:
        stack = self.stacks[pocket]
        if not stack or stack[-1].color is not color:
            raise BoardActionError(
                f"no {color.value} checker on top of {self.name} pocket {pocket}"
            )
        checker = stack[-1]
        self._remove(checker)
        return checker

    def _remove(self, checker: Checker) -> None:
        self._order.remove(checker)
        for stack in self.stacks:
            if checker in stack:
                stack.remove(checker)
                return
        self.strays = [s for s in self.strays if s.checker is not checker]

    def take_all(self) -> list[Checker]:
        """Empty the place; returns its checkers."""
        checkers = list(self._order)
        self.stacks = [[] for _ in self.stacks]
        self.strays = []
        self._order = []
        return checkers

    def count(self, color: Color) -> int:
        """Checkers of ``color`` here, in pockets or between them."""
        return sum(1 for c in self._order if c.color is color)

    @property
    def name(self) -> str:
        """``"13"`` or ``"bar (white half)"``."""
        return self.location if self.half is None else f"bar ({self.half.value} half)"

    def magnets(self, design: BoardDesign) -> Iterator[Magnet]:
        """The magnet of every checker here, where it lies."""
        for slot, stack in enumerate(self.stacks):
            x, y = slot_xy(design, self.location, slot, self.half)
            for layer, checker in enumerate(stack):
                yield _magnet(design, x, y, layer, checker)
        for stray in self.strays:
            x, y = slot_xy(design, self.location, stray.slot, self.half)
            yield _magnet(design, x, y, stray.layer, stray.checker)


def _magnet(design: BoardDesign, x: float, y: float, layer: int, checker: Checker) -> Magnet:
    sign = 1.0 if checker.color is Color.WHITE else -1.0
    return Magnet(x, y, design.layer_height_mm(layer), sign * checker.strength)
