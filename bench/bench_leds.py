"""How long the LED renderer takes for one frame (busy and idle boards).

Run: .venv/bin/python bench/bench_leds.py
"""

from __future__ import annotations

import time

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import REQUIRED_FEATURES, LedLayout, render
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color

LAYOUT = LedLayout.from_names(REQUIRED_FEATURES)
VIEWS = {
    "idle (turn + cube)": GameView(Phase.AWAIT_ROLL, Color.WHITE),
    "busy (dice, lifted, fixes, candidates)": GameView(
        Phase.MOVING, Color.WHITE, dice=(3, 3), dice_used=(True, False, False, False),
        lifted_from="13", destinations=("10", "7", "4", "1"), cube_value=4,
        cube_owner=Color.BLACK, fixes=(Fix("8", Color.WHITE, 1), Fix("6", Color.WHITE, -1)),
        candidates=("20", "21"), to_bar=("5",), press_done=True,
    ),
}


def main() -> None:
    """Print microseconds per frame for each view."""
    frames = 5000
    for name, view in VIEWS.items():
        start = time.perf_counter()
        for t in range(frames):
            render(view, LAYOUT, t * 20, 0.5)
        per_frame = (time.perf_counter() - start) / frames * 1e6
        print(f"{name}: {per_frame:.1f} us per frame ({frames} frames)")


if __name__ == "__main__":
    main()
