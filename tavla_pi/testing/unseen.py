"""What the soak's judge excuses: a hand's placement the sensors cannot tell.

The referee answers what the sensors read.  Where they read a count as a range
(a tall stack, the start piles of Plakoto and Fevga, a checker over the
opponent's), a board that differs from the real one only within those ranges
reads the same, and the rules, not the sensors, settle it at DONE
(hardware/GEOMETRY.md "Fifteen checkers on one point").  The judge takes the
snapshot of ``GET /api/state`` (with ``physical``: where the modelled checkers
really are).
"""

from __future__ import annotations

from typing import Any

from tavla_pi.rules.board import POINTS
from tavla_pi.rules.color import Color


def unseen_placement(state: dict[str, Any], carries: tuple[str, str], mover: Color) -> bool:
    """True if the sensors cannot tell the hand's checker carried ``src`` -> ``dst``.

    Either they read fewer of ``mover``'s checkers on ``dst`` than stand there, or
    the referee reads one of them in the hand (the hand holds none once it is down)
    while a place of theirs reads a range that also holds one fewer than stand
    there: an illegal move read as a legal one from the pile and a checker lifted.
    """
    if state["sensed"] is None:
        return False
    _, dst = carries
    if dst not in ("bar", "off") and reads_fewer(state, dst, mover):
        return True
    lifted = state["lifted"]
    return bool(lifted is not None
                and any(reads_fewer(state, at, mover) for at in POINTS if at != dst))


def reads_fewer(state: dict[str, Any], at: str, mover: Color) -> bool:
    """True if the sensors' count of ``mover``'s checkers on point ``at`` may be lower
    than the number standing there."""
    low, _ = state["sensed"][mover.value].get(at, (0, 0))
    pockets = state["physical"]["points"].get(at, ())
    return bool(low < sum(stack.count(mover.value) for stack in pockets))
