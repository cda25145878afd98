"""The computer's playing levels: GNU Backgammon's own predefined settings.

Each level is one of gnubg's presets (eval.c, ``aecSettings`` and
``aiSettingsMoveFilter`` in gnubg 1.07), used for both chequer play and cube
decisions as gnubg's player settings do:

============  =====  =======  =====  =====  =============  ===========
level         plies  cubeful  prune  noise  deterministic  move filter
============  =====  =======  =====  =====  =============  ===========
beginner      0      on       off    0.060  on             (none)
casual        0      on       off    0.050  on             (none)
intermediate  0      on       off    0.040  on             (none)
advanced      0      on       off    0.015  on             (none)
expert        0      on       off    0      on             (none)
world class   2      on       on     0      on             normal
============  =====  =======  =====  =====  =============  ===========

The noise of the four weaker levels is gnubg's *deterministic* noise: it is
computed from the position itself (an MD5 of the board), not drawn from a
random generator, so the same position and roll always get the same play.
That is what lets a replay or a resumed game choose the same plays.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavla_pi.errors import BadInputError

FILTER_PLIES = 4
"""gnubg's MAX_FILTER_PLIES: a move filter holds one row per ply 1..4."""


@dataclass(frozen=True)
class Filter:
    """One step of a move filter: keep ``accept`` moves, then up to ``extra``
    more within ``threshold`` of the best (``accept`` -1: skip this step)."""

    accept: int
    extra: int = 0
    threshold: float = 0.0


_SKIP = Filter(-1)
_KEEP = Filter(0, 8, 0.16)
_KEEP_FEW = Filter(0, 2, 0.04)

NORMAL_FILTER: tuple[tuple[Filter, ...], ...] = (
    (_KEEP,),
    (_KEEP, _SKIP),
    (_KEEP, _SKIP, _KEEP_FEW),
    (_KEEP, _SKIP, _KEEP_FEW, _SKIP),
)
"""gnubg's "Normal" move filter (movefilters.inc), row ``n`` for an (n+1)-ply search."""


@dataclass(frozen=True)
class EvalSettings:
    """One gnubg evaluation context, as ``set ... evaluation`` takes it."""

    plies: int
    cubeful: bool = True
    prune: bool = False
    noise: float = 0.0
    deterministic: bool = True
    movefilter: tuple[tuple[Filter, ...], ...] = NORMAL_FILTER

    def to_wire(self) -> dict[str, object]:
        """The settings as the bridge reads them from a request."""
        return {
            "plies": self.plies,
            "cubeful": self.cubeful,
            "prune": self.prune,
            "noise": self.noise,
            "deterministic": self.deterministic,
            "movefilter": [
                [[step.accept, step.extra, step.threshold] for step in row]
                for row in self.movefilter
            ],
        }


class Level(enum.Enum):
    """A playing level of the computer, named as in docs/CONTRACTS.md."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"
    WORLD_CLASS = "world class"

    @classmethod
    def named(cls, name: str, where: str = "level") -> Level:
        """The level called ``name``; BadInputError listing the names otherwise."""
        for level in cls:
            if level.value == name:
                return level
        names = ", ".join(level.value for level in cls)
        raise BadInputError(where, f"unknown level {name!r} (levels: {names})")

    @property
    def settings(self) -> EvalSettings:
        """gnubg's preset for this level (chequer play and cube decisions alike)."""
        return _PRESETS[self]

    def __repr__(self) -> str:
        return f"Level.{self.name}"


_PRESETS = {
    Level.BEGINNER: EvalSettings(plies=0, noise=0.060),
    Level.CASUAL: EvalSettings(plies=0, noise=0.050),
    Level.INTERMEDIATE: EvalSettings(plies=0, noise=0.040),
    Level.ADVANCED: EvalSettings(plies=0, noise=0.015),
    Level.EXPERT: EvalSettings(plies=0),
    Level.WORLD_CLASS: EvalSettings(plies=2, prune=True),
}
