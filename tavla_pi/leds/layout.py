"""Which LED index shows which board feature, checked complete.

The renderer works in feature names (``point.13``, ``die.white.0.pip.3``,
see ``tavla_pi.hardware.pinmap``); a :class:`LedLayout` turns them into indices of
the chain.  Every feature is required: a board without, say, the cube
column could not say everything docs/PLAYING.md "What the lights mean"
promises, so a pin map that lacks one is refused with an error naming
what is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tavla_pi.errors import PinMapError
from tavla_pi.hardware.pinmap import LedFeature, PinMap
from tavla_pi.rules.color import Color

CUBE_VALUES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
PIPS_PER_DIE = 7
_COLORS = tuple(c.value for c in Color)


def _required() -> tuple[str, ...]:
    names = [f"point.{n}" for n in range(1, 25)]
    names += [f"bar.{c}" for c in _COLORS] + [f"tray.{c}" for c in _COLORS]
    names += [f"cube.{v}" for v in CUBE_VALUES] + [f"cube.owner.{c}" for c in _COLORS]
    names += [
        die_pip(c, d, k) for c in _COLORS for d in (0, 1) for k in range(PIPS_PER_DIE)
    ]
    return (*names, *(f"turn.{c}" for c in _COLORS))


def die_pip(color: str, die: int, pip: int) -> str:
    """The feature name of pip ``pip`` of die ``die`` on ``color``'s side."""
    return f"die.{color}.{die}.pip.{pip}"


REQUIRED_FEATURES: tuple[str, ...] = _required()
"""Every LED feature the renderer needs, in the reference order (66 names)."""
_KNOWN = frozenset(REQUIRED_FEATURES)


def location_feature(location: str, color: Color) -> str:
    """The LED of a docs/CONTRACTS.md §1 location; ``color`` picks the bar half or tray."""
    if location == "bar":
        return f"bar.{color.value}"
    if location == "off":
        return f"tray.{color.value}"
    if location.isdigit() and 1 <= int(location) <= 24 and location == str(int(location)):
        return f"point.{location}"
    raise ValueError(f"not a board location: {location!r} (expected '1'..'24', 'bar' or 'off')")


@dataclass(frozen=True, slots=True)
class LedLayout:
    """The LED chain of one board: ``count`` pixels, ``features`` by index.

    Built from a pin map (:meth:`from_pinmap`); refuses unknown, duplicate,
    out-of-range and missing features.  Indices not named by any feature
    (spare LEDs) stay dark.
    """

    count: int
    features: tuple[LedFeature, ...]
    where: str = "pin map"
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", self._check())

    @classmethod
    def from_pinmap(cls, pinmap: PinMap, where: str = "pin map") -> LedLayout:
        """The layout of ``pinmap``'s LED strip and features."""
        return cls(pinmap.leds.count, tuple(pinmap.led_features), where)

    @classmethod
    def from_names(cls, names: Iterable[str], where: str = "LED names") -> LedLayout:
        """A layout with one LED per name, indexed in the given order."""
        features = tuple(LedFeature(n, i) for i, n in enumerate(names))
        return cls(len(features), features, where)

    def index(self, feature: str) -> int:
        """The LED index of ``feature`` (KeyError if it is not a feature name)."""
        return self._index[feature]

    def _check(self) -> dict[str, int]:
        if self.count < 0:
            raise PinMapError(f"{self.where}: leds.count", f"negative: {self.count}")
        index: dict[str, int] = {}
        for feature in self.features:
            self._check_one(feature, index)
            index[feature.name] = feature.index
        missing = [n for n in REQUIRED_FEATURES if n not in index]
        if missing:
            raise PinMapError(
                f"{self.where}: LED features",
                f"{len(missing)} missing, the renderer needs every one: {', '.join(missing)}",
            )
        return index

    def _check_one(self, feature: LedFeature, seen: dict[str, int]) -> None:
        where = f"{self.where}: LED feature {feature.name!r}"
        if feature.name not in _KNOWN:
            raise PinMapError(where,
                              "unknown feature name (see tavla_pi.hardware.pinmap for the list)")
        if feature.name in seen:
            raise PinMapError(where, "named twice")
        if not 0 <= feature.index < self.count:
            raise PinMapError(where, f"index {feature.index} is outside 0..{self.count - 1}")
        for other, i in seen.items():
            if i == feature.index:
                raise PinMapError(where, f"index {i} is already {other!r}")
