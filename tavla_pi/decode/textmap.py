"""Text pictures of the board for ``tavla-pi diag``: raw readings and the decoded board.

Laid out as White sees the board: points 13..24 along the far edge (slot 0
at the edge), 12..1 along the near edge, the bar in the middle with Black's
half on the far side and White's on the near side (slot 0 by the centre).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.hardware.pinmap import POINT_SLOTS, SensorSite
from tavla_pi.rules.color import Color

FAR_LEFT, FAR_RIGHT = range(13, 19), range(19, 25)
NEAR_LEFT, NEAR_RIGHT = range(12, 6, -1), range(6, 0, -1)
CELL = 5


def _cells(points: Sequence[int], values: dict[tuple[str, int], str], slot: int) -> str:
    return "".join(f"{values.get((str(p), slot), '-'):>{CELL}}" for p in points)


def _half(values: dict[tuple[str, int], str], left: Sequence[int], right: Sequence[int],
          bar: Color, slots: Sequence[int]) -> list[str]:
    header = "    " + _cells(left, {(str(p), 0): str(p) for p in left}, 0)
    header += f"  {'bar':^{CELL}}  " + _cells(right, {(str(p), 0): str(p) for p in right}, 0)
    lines = [header]
    for slot in slots:
        bar_cell = values.get((f"bar.{bar.value}", POINT_SLOTS - 1 - slot), "")
        lines.append(
            f"s{slot}  " + _cells(left, values, slot) + f"  {bar_cell:^{CELL}}  "
            + _cells(right, values, slot)
        )
    return lines


def render_raw(frame: Sequence[int], sites: Sequence[SensorSite]) -> str:
    """Every sensor's raw reading, placed where the sensor sits."""
    values: dict[tuple[str, int], str] = {}
    for value, site in zip(frame, sites, strict=True):
        key = site.location if site.color is None else f"bar.{site.color.value}"
        values[(key, site.slot)] = str(value)
    far = _half(values, FAR_LEFT, FAR_RIGHT, Color.BLACK, range(POINT_SLOTS))
    near = _half(values, NEAR_LEFT, NEAR_RIGHT, Color.WHITE, range(POINT_SLOTS - 1, -1, -1))
    return "\n".join([*far, "", *near[1:], near[0]])


def reading_text(reading: Reading) -> str:
    """``.`` empty, ``W5``, ``B6-9``, ``W1+B1`` (both colours), ``?0-3`` (colour unknown)."""
    def span(low: int, high: int) -> str:
        return str(low) if low == high else f"{low}-{high}"

    if reading.color is None:
        return "." if reading.count.high == 0 else "?" + span(reading.count.low, reading.count.high)
    text = reading.color.value[0].upper() + span(reading.count.low, reading.count.high)
    other = reading.other
    if other.high:
        text += "+" + reading.color.opponent.value[0].upper() + span(other.low, other.high)
    return text


def render_observation(observation: Observation) -> str:
    """The decoded board, one cell per point and bar half, then any faults."""
    def row(points: Sequence[int], bar: Reading) -> str:
        cells = "".join(f"{reading_text(observation.point(p)):>{CELL + 1}}" for p in points)
        return cells[: 6 * (CELL + 1)] + f"  {reading_text(bar):^{CELL}}  " + cells[6 * (CELL + 1):]

    far = [*FAR_LEFT, *FAR_RIGHT]
    near = [*NEAR_LEFT, *NEAR_RIGHT]
    lines = [
        "    " + "".join(f"{p:>{CELL + 1}}" for p in far[:6]) + f"  {'bar':^{CELL}}  "
        + "".join(f"{p:>{CELL + 1}}" for p in far[6:]),
        "    " + row(far, observation.bar_black),
        "    " + row(near, observation.bar_white),
        "    " + "".join(f"{p:>{CELL + 1}}" for p in near[:6]) + f"  {'':^{CELL}}  "
        + "".join(f"{p:>{CELL + 1}}" for p in near[6:]),
    ]
    lines += [f"fault: {f.kind} at sensor {f.sensor}: {f.detail}" for f in observation.faults]
    return "\n".join(lines)
