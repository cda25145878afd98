"""Slot levels to an :class:`Observation`: colours, count intervals, location faults.

Per place the count of a colour is the sum of its slots' counts: ``ONE``
is exactly 1, ``ONE_PLUS`` at least 1, ``TWO_PLUS`` at least 2, and a
``WEAK`` or ``UNKNOWN`` slot could hold anything of either colour.  The upper
bound is then tightened by the one fact the sensors cannot break: each side
has 15 checkers, so a place holds at most 15 minus the lower bounds of that
colour everywhere else.

One prior narrows the interval: a hand fills a place's first layer before
it stacks a second (the modelled board does the same), so while any pocket
of a place is empty, a slot in the band where one checker and two stacked
overlap (``ONE_PLUS``, from the parts' tolerances) counts as one.  A
clearly stacked pair (``TWO_PLUS``) still counts as two or more.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from tavla_pi.decode.observation import (
    MAX_CHECKERS,
    NOTHING,
    CountRange,
    Observation,
    Reading,
    SensorFault,
)
from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, UNKNOWN, WEAK, Group, Tables
from tavla_pi.rules.color import Color

_LOW = (0, 0, 1, 1, 2, 0)
"""Least checkers a slot at each level holds."""


@functools.lru_cache(maxsize=512)
def count_range(low: int, high: int) -> CountRange:
    """A shared :class:`CountRange` (observations are rebuilt every frame)."""
    return CountRange(low, high)


@dataclass(slots=True)
class _Summary:
    """What the slots of one place add up to."""

    low: dict[Color, int] = field(default_factory=lambda: {Color.WHITE: 0, Color.BLACK: 0})
    open: dict[Color, bool] = field(
        default_factory=lambda: {Color.WHITE: False, Color.BLACK: False}
    )
    first: list[tuple[Color, int]] = field(default_factory=list)
    unknown: bool = False
    weak_runs: list[list[int]] = field(default_factory=list)


def _summarise(group: Group, levels: list[int], signs: list[int]) -> _Summary:
    summary = _Summary()
    previous_weak = False
    first_layer_open = any(levels[i] == EMPTY for i in group.sensors)
    for slot, i in enumerate(group.sensors):
        level = levels[i]
        if level == ONE_PLUS and first_layer_open:
            level = ONE  # hands fill the first layer before stacking: see the module docstring
        if level >= UNKNOWN or level == WEAK:
            summary.unknown = True
            if level == WEAK:
                if not previous_weak:
                    summary.weak_runs.append([])
                summary.weak_runs[-1].append(slot)
            previous_weak = level == WEAK
            continue
        previous_weak = False
        if level < ONE:
            continue
        color = Color.WHITE if signs[i] > 0 else Color.BLACK
        summary.low[color] += _LOW[level]
        summary.open[color] |= level in (ONE_PLUS, TWO_PLUS)
        if not any(c is color for c, _ in summary.first):
            summary.first.append((color, i))
    return summary


def _count(summary: _Summary, color: Color, totals: dict[Color, int]) -> CountRange:
    low = summary.low[color]
    if not (summary.open[color] or summary.unknown):
        return count_range(low, low)
    cap = MAX_CHECKERS - (totals[color] - low)
    return count_range(low, max(low, min(MAX_CHECKERS, cap)))


def _reading(summary: _Summary, totals: dict[Color, int]) -> Reading:
    if summary.first:
        color = summary.first[0][0]
        return Reading(color, _count(summary, color, totals),
                       _count(summary, color.opponent, totals))
    if summary.unknown:
        cap = MAX_CHECKERS - min(totals.values())
        return Reading(None, count_range(0, cap))
    return NOTHING


def _place_faults(group: Group, summary: _Summary) -> list[SensorFault]:
    name = group.location if group.half is None else f"bar ({group.half.value} half)"
    faults = []
    for run in summary.weak_runs:
        slots = f"slots {run[0]}-{run[-1]}" if len(run) > 1 else f"slot {run[0]}"
        faults.append(SensorFault(
            group.sensors[run[0]], group.location, "between_slots",
            f"{name}: weak field over {slots}: a checker between pockets or off-centre?",
        ))
    if len(summary.first) > 1:
        faults.append(SensorFault(
            summary.first[1][1], group.location, "mixed_colors",
            f"{name}: white and black checkers both sensed",
        ))
    return faults


def assemble(tables: Tables, levels: list[int], signs: list[int],
             sensor_faults: list[SensorFault]) -> Observation:
    """The observation of one frame's slot levels and signs."""
    summaries = [_summarise(g, levels, signs) for g in tables.groups]
    totals = {
        color: sum(s.low[color] for s in summaries) for color in (Color.WHITE, Color.BLACK)
    }
    points = [NOTHING] * 24
    bar = {Color.WHITE: NOTHING, Color.BLACK: NOTHING}
    faults = list(sensor_faults)
    for group, summary in zip(tables.groups, summaries, strict=True):
        reading = _reading(summary, totals)
        if group.half is None:
            points[int(group.location) - 1] = reading
        else:
            bar[group.half] = reading
        faults += _place_faults(group, summary)
    faults.sort(key=lambda f: (f.sensor, f.kind))
    return Observation(tuple(points), bar[Color.WHITE], bar[Color.BLACK], tuple(faults))
