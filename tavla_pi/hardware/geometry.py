"""Where every sensor slot lies on the board, in millimetres.

Seen from White's side: x runs left to right along the board, y from White's
edge (points 1..12) to Black's edge (13..24).  Points 12..7 and 13..18 are
the left quarters, 6..1 and 19..24 the right ones, the bar between them.
Slot 0 of a point is at the board's edge (the point's base); slots run
towards the middle at the slot pitch.  The bar holds White's half nearer
White's edge and Black's half nearer Black's, slot 0 of each next to the
board's centre line.
"""

from __future__ import annotations

from tavla_pi.hardware.physics import BoardDesign
from tavla_pi.hardware.pinmap import POINT_SLOTS, SensorSite
from tavla_pi.rules.color import Color

Xy = tuple[float, float]


def board_depth_mm(design: BoardDesign) -> float:
    """Distance between the two long edges: two rows of points and the tip gap."""
    return 2.0 * POINT_SLOTS * design.slot_pitch_mm + design.tip_gap_mm


def _point_x(design: BoardDesign, point: int) -> float:
    """Centre line of a point across the board."""
    pitch = design.point_pitch_mm
    right = 6 * pitch + design.bar_width_mm
    if point <= 6:
        return right + (6 - point + 0.5) * pitch
    if point <= 12:
        return (12 - point + 0.5) * pitch
    if point <= 18:
        return (point - 13 + 0.5) * pitch
    return right + (point - 19 + 0.5) * pitch


def slot_xy(design: BoardDesign, location: str, slot: float, half: Color | None = None) -> Xy:
    """Centre of a slot; fractional ``slot`` gives a place between two slots.

    ``location`` is ``"1"``..``"24"`` or ``"bar"`` (with ``half`` the colour).
    """
    pitch = design.slot_pitch_mm
    depth = board_depth_mm(design)
    offset = pitch / 2.0 + slot * pitch
    if location == "bar":
        x = 6 * design.point_pitch_mm + design.bar_width_mm / 2.0
        y = depth / 2.0 - offset if half is Color.WHITE else depth / 2.0 + offset
        return x, y
    point = int(location)
    y = offset if point <= 12 else depth - offset
    return _point_x(design, point), y


def site_xy(design: BoardDesign, site: SensorSite) -> Xy:
    """Centre of the slot a sensor sits under."""
    return slot_xy(design, site.location, site.slot, site.color)
