"""How long reading and checking pinout.toml takes, and the cost of the lookups.

Runs on any machine; on a Pi Zero 2 W expect roughly ten times these figures.
"""

from __future__ import annotations

import time

from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.rules.color import Color


def per_call_us(action: object, repeat: int) -> float:
    """Mean microseconds of ``action()`` over ``repeat`` calls."""
    assert callable(action)
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    """Print the figures."""
    print(f"load_pinmap (read, parse, check): {per_call_us(load_pinmap, 200):8.1f} us")
    pm = load_pinmap()

    def every_site() -> None:
        for point in range(1, 25):
            for slot in range(6):
                pm.point_sensor(point, slot)
        for color in Color:
            for slot in range(4):
                pm.bar_sensor(color, slot)

    print(f"152 sensor lookups:               {per_call_us(every_site, 2000):8.1f} us")
    names = [f.name for f in pm.led_features]
    print(f"66 LED lookups:                   "
          f"{per_call_us(lambda: [pm.led_index(n) for n in names], 2000):8.1f} us")


if __name__ == "__main__":
    main()
