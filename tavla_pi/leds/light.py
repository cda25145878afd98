"""One lit LED of a scene: which feature, what colour, how it moves in time."""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.hardware.pixel import RGB
from tavla_pi.leds.palette import FULL, scale
from tavla_pi.leds.waves import STEADY, Wave


@dataclass(frozen=True, slots=True)
class Light:
    """``feature`` shows ``color`` at ``level`` (0..1), shaped by ``wave``."""

    feature: str
    color: RGB
    wave: Wave = STEADY
    level: float = FULL

    def rgb_at(self, elapsed_ms: int, brightness: float) -> RGB:
        """The pixel ``elapsed_ms`` into the scene, at ``brightness`` 0..1."""
        return scale(self.color, self.level * self.wave.level_at(elapsed_ms) * brightness)
