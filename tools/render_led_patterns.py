"""Draw every LED meaning, from the renderer itself, as SVG pictures.

Usage (from the repository root)::

    .venv/bin/python tools/render_led_patterns.py            # write docs/leds/*.svg
    .venv/bin/python tools/render_led_patterns.py --check    # exit 1 if any is stale

Each picture is a schematic top view of the board (White sits at the
bottom, Black at the top) with every LED in the colour ``render`` gives it
at one instant, and below it a strip of each blinking LED over 2.4 s, so
the rhythm that carries the meaning is visible too.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from tavla_pi.engine.levels import Level
from tavla_pi.game.menu import MenuView, Mode
from tavla_pi.game.view import GameView, Phase, SeatStep
from tavla_pi.leds import REQUIRED_FEATURES, RGB, LedLayout, render, to_hex
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import Resignation

OUT_DIR = Path(__file__).resolve().parent.parent / "docs" / "leds"
LAYOUT = LedLayout.from_names(REQUIRED_FEATURES, "reference layout")
STRIP_MS = 2400
STEP_MS = 10
PX_PER_MS = 0.22
W, B = Color.WHITE, Color.BLACK


@dataclass(frozen=True)
class Scene:
    """One documented meaning: a view and the instant the board picture shows."""

    slug: str
    title: str
    view: GameView
    at_ms: int = 0


_moving = partial(GameView, Phase.MOVING, W)


SCENES: tuple[Scene, ...] = (
    Scene("turn", "Whose turn (White to roll), cube centred", GameView(Phase.AWAIT_ROLL, W)),
    Scene("opening", "Opening roll: White's 5, Black's 2", GameView(Phase.OPENING, dice=(5, 2))),
    Scene("dice", "Dice 6-4, the 6 played", _moving(dice=(6, 4), dice_used=(True, False))),
    Scene("doubles", "Doubles 3-3, three of four played", GameView(
        Phase.MOVING, B, dice=(3, 3), dice_used=(True, True, True, False))),
    Scene("lifted", "A checker lifted from 13 (dice 6-3)",
          _moving(dice=(6, 3), lifted_from="13", destinations=("4", "7", "10"))),
    Scene("bear_off", "Bearing off: lifted from 3 (dice 3-1)",
          _moving(dice=(3, 1), lifted_from="3", destinations=("2", "off"))),
    Scene("cube", "Cube at 4, owned by White", GameView(
        Phase.AWAIT_ROLL, B, cube_value=4, cube_owner=W)),
    Scene("double_offered", "White redoubles to 4, Black to take or drop", GameView(
        Phase.DOUBLE_OFFERED, W, cube_value=2, cube_owner=W, double_offered_by=W)),
    Scene("resign_choosing", "Black, before rolling, chooses to resign a gammon", GameView(
        Phase.AWAIT_ROLL, B, cube_value=2, cube_owner=B, resigning=B,
        resign_level=Resignation.GAMMON)),
    Scene("resign_offered", "White offers to resign a single, Black to accept or decline",
          GameView(Phase.RESIGN_OFFERED, W, resigning=W, resign_level=Resignation.SINGLE,
                   resign_offered=True)),
    Scene("press_done", "Move complete: press DONE",
          _moving(dice=(5, 2), dice_used=(True, True), press_done=True), at_ms=1000),
    Scene("no_legal_move", "Black's 6-6 cannot be played", GameView(
        Phase.NO_MOVE, B, dice=(6, 6), no_legal_move=True)),
    Scene("rejected_done", "DONE too early: the 4 is still to play",
          _moving(dice=(4, 1), dice_used=(False, True), dice_blink=True)),
    Scene("out_of_sync", "Out of sync: add on 8, remove from 6 and from Black's bar",
          _moving(dice=(2, 1), fixes=(Fix("8", W, 1), Fix("6", W, -1), Fix("bar", B, -1)))),
    Scene("to_bar", "White hit on 5: put Black's checker on the bar",
          _moving(dice=(4, 2), dice_used=(True, False), to_bar=("5",))),
    Scene("candidates", "Ambiguous: the board could mean a play via 8 or via 7",
          _moving(dice=(5, 1), candidates=("8", "7"))),
    Scene("suggested", "Hint (or a blunder warning's better play): 24/18 13/11 walks",
          _moving(dice=(6, 2), suggested=(("24", "18"), ("13", "11"))), at_ms=100),
    Scene("setup", "Setup: checkers still to place (and one to take away)", GameView(
        Phase.SETUP, fixes=(Fix("13", W, 3), Fix("24", W, 2), Fix("12", B, 5),
                            Fix("17", B, 1), Fix("20", B, -1)))),
    Scene("game_over", "Black wins a gammon: 2 points", GameView(
        Phase.GAME_OVER, winner=B, points_won=2)),
    Scene("game_over_cube", "White wins a backgammon at cube 8: 24 points", GameView(
        Phase.GAME_OVER, cube_value=8, cube_owner=B, winner=W, points_won=24)),
    Scene("match_over", "White wins the match (last game: 4 points)", GameView(
        Phase.MATCH_OVER, cube_value=2, cube_owner=W, winner=W, points_won=4)),
    Scene("menu_computer", "MENU: the computer to play Black at advanced (4 of 6)", GameView(
        Phase.AWAIT_ROLL, W, cube_value=2, cube_owner=W,
        menu=MenuView(Mode(B, Level.ADVANCED)))),
    Scene("menu_two_players", "MENU: two players at the board", GameView(
        Phase.SETUP, menu=MenuView(Mode()))),
    Scene("engine_step", "The computer (Black) plays 13/8 6/4: move its checker from 12 to 17",
          GameView(Phase.MOVING, B, dice=(5, 2), seat_color=B, seat_play="13/8 6/4",
                   seat_step=SeatStep("12", "17", B))),
    Scene("pinned", "Plakoto: Black pinned on 5 and White on 20, White to move 3-1", _moving(
        dice=(3, 1), variant="plakoto", match_variant="tavli", tavli_game=2,
        pinned={"5": B, "20": W})),
    Scene("first_checker", "Fevga: White's first checker, on 18, must go on (dice 6-5)",
          _moving(dice=(6, 5), variant="fevga", match_variant="fevga", first_checker="18",
                  lifted_from="18", destinations=("12", "13", "7"))),
    Scene("tavli_game", "A tavli match: game 3, Fevga, set up", GameView(
        Phase.SETUP, variant="fevga", match_variant="tavli", tavli_game=3,
        fixes=(Fix("24", W, 15), Fix("12", B, 15)))),
    Scene("engine_trouble", "The computer (Black) cannot answer: gnubg is restarting",
          GameView(Phase.AWAIT_ROLL, B, seat_color=B,
                   seat_trouble="the computer cannot answer: gnubg died"), at_ms=100),
)

# ---- where each LED sits in the schematic (x, y), White at the bottom ----

_PW = 44          # point width
_LEFT, _RIGHT = 90, 394  # x of the first point of each half
_TOP_LED, _BOTTOM_LED = 30, 490


def _point_xy(n: int) -> tuple[int, int]:
    if n >= 13:  # top row, 13..24 left to right
        col = n - 13
        return _column_x(col), _TOP_LED
    col = 12 - n  # bottom row, 12..1 left to right
    return _column_x(col), _BOTTOM_LED


def _column_x(col: int) -> int:
    base = _LEFT if col < 6 else _RIGHT
    return base + (col % 6) * _PW + _PW // 2


def _pip_xy(color: str, die: int, pip: int) -> tuple[int, int]:
    dx, dy = ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1))[pip]
    if color == "black":  # Black's dice are seen from the top of the board
        cx, cy, dx, dy = 210 - die * 64, 260, -dx, -dy
    else:
        cx, cy = 486 + die * 64, 260
    return cx + dx * 15, cy + dy * 15


def _xy(name: str) -> tuple[int, int]:
    parts = name.split(".")
    fixed = {
        "bar.black": (372, 200), "bar.white": (372, 320),
        "tray.black": (700, 130), "tray.white": (700, 390),
        "turn.black": (700, 30), "turn.white": (700, 490),
        "cube.owner.black": (40, 120), "cube.owner.white": (40, 400),
    }
    if name in fixed:
        return fixed[name]
    if parts[0] == "point":
        return _point_xy(int(parts[1]))
    if parts[0] == "cube":
        return 40, 160 + 40 * (6 - int(parts[1]).bit_length() + 1)
    return _pip_xy(parts[1], int(parts[2]), int(parts[4]))


# ---- drawing ----

def _board() -> list[str]:
    out = ['<rect x="80" y="10" width="588" height="500" rx="6" fill="#241b12"/>',
           '<rect x="356" y="10" width="32" height="500" fill="#3a2c1d"/>',
           '<rect x="676" y="10" width="48" height="500" rx="4" fill="#2b2117"/>',
           '<rect x="20" y="100" width="40" height="320" rx="4" fill="#2b2117"/>']
    for n in range(1, 25):
        x, y = _point_xy(n)
        tip = 230 if y == _TOP_LED else 290
        base = 44 if y == _TOP_LED else 476
        fill = "#5a4630" if n % 2 else "#3e3022"
        out.append(f'<polygon points="{x - 20},{base} {x + 20},{base} {x},{tip}" fill="{fill}"/>')
        ty = 224 if y == _TOP_LED else 302
        out.append(f'<text x="{x}" y="{ty}" class="n">{n}</text>')
    for color in ("white", "black"):
        for die in (0, 1):
            cx, cy = _pip_xy(color, die, 3)
            out.append(f'<rect x="{cx - 25}" y="{cy - 25}" width="50" height="50" rx="7" '
                       'fill="#15110c" stroke="#4b3b29"/>')
    for v in (2, 4, 8, 16, 32, 64):
        x, y = _xy(f"cube.{v}")
        out.append(f'<text x="{x - 24}" y="{y + 4}" class="n" text-anchor="end">{v}</text>')
    labels = (("BLACK", 372, 22), ("WHITE", 372, 506), ("bar", 372, 264), ("cube", 40, 96),
              ("turn", 700, 52), ("tray", 700, 152), ("tray", 700, 376), ("turn", 700, 474))
    out += [f'<text x="{x}" y="{y}" class="n">{t}</text>' for t, x, y in labels]
    return out


def _led(name: str, rgb: RGB) -> str:
    x, y = _xy(name)
    r = 5 if name.startswith("die.") else 8
    if rgb == (0, 0, 0):
        return f'<circle cx="{x}" cy="{y}" r="{r}" fill="#111" stroke="#555"/>'
    return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{to_hex(rgb)}" stroke="#fff" ' \
           'stroke-width="0.5"/>'


def _frame(view: GameView, ms: int) -> dict[str, RGB]:
    frame = render(view, LAYOUT, view.since_ms + ms, 1.0)
    return {name: frame[LAYOUT.index(name)] for name in REQUIRED_FEATURES}


def _strips(view: GameView) -> list[tuple[str, list[RGB]]]:
    """The LEDs that change over time, one row per distinct rhythm."""
    frames = [_frame(view, t) for t in range(0, STRIP_MS, STEP_MS)]
    rows: dict[tuple[RGB, ...], list[str]] = {}
    for name in REQUIRED_FEATURES:
        seq = tuple(f[name] for f in frames)
        if len(set(seq)) > 1:
            rows.setdefault(seq, []).append(name)
    return [(_label(names), list(seq)) for seq, names in rows.items()]


def _label(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return f"{names[0]} (+{len(names) - 1})"


def _runs(seq: list[RGB]) -> list[tuple[int, int, RGB]]:
    """Consecutive equal samples merged: (first index, length, colour)."""
    runs: list[tuple[int, int, RGB]] = []
    for i, rgb in enumerate(seq):
        if runs and runs[-1][2] == rgb:
            start, length, _ = runs[-1]
            runs[-1] = (start, length + 1, rgb)
        else:
            runs.append((i, 1, rgb))
    return runs


def _strip_svg(rows: list[tuple[str, list[RGB]]], top: int) -> list[str]:
    if not rows:
        return [f'<text x="20" y="{top + 16}" class="t">every LED is steady</text>']
    out = [f'<text x="20" y="{top + 14}" class="t">over time, 0 to {STRIP_MS / 1000:g} s '
           "(ticks every 0.5 s):</text>"]
    for i, (label, seq) in enumerate(rows):
        y = top + 24 + 20 * i
        out.append(f'<text x="190" y="{y + 12}" class="t" text-anchor="end">{label}</text>')
        for start, length, rgb in _runs(seq):
            fill = "#111" if rgb == (0, 0, 0) else to_hex(rgb)
            x, w = _ms_x(start * STEP_MS), PX_PER_MS * length * STEP_MS
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="16" fill="{fill}"/>')
    bottom = top + 24 + 20 * len(rows)
    for t in range(0, STRIP_MS + 1, 500):
        x = _ms_x(t)
        out.append(f'<line x1="{x:.1f}" y1="{top + 20}" x2="{x:.1f}" y2="{bottom}" '
                   'stroke="#888" stroke-width="0.5"/>')
    return out


def _ms_x(ms: int) -> float:
    return 200 + PX_PER_MS * ms


def svg(scene: Scene) -> str:
    """The picture of ``scene`` as SVG text (deterministic)."""
    frame = _frame(scene.view, scene.at_ms)
    rows = _strips(scene.view)
    height = 560 + max(1, len(rows)) * 20 + 20
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="760" height="{height}" '
        f'viewBox="0 0 760 {height}">',
        "<style>.n{font:10px sans-serif;fill:#bbb;text-anchor:middle}"
        ".t{font:12px sans-serif;fill:#ddd}</style>",
        f'<rect width="760" height="{height}" fill="#0d0b08"/>',
        *_board(),
        *(_led(name, rgb) for name, rgb in frame.items()),
        f'<text x="20" y="540" class="t">{scene.title} (board at {scene.at_ms} ms)</text>',
        *_strip_svg(rows, 548),
        "</svg>",
    ]
    return "\n".join(body) + "\n"


def render_all() -> dict[str, str]:
    """Every picture, by file name."""
    return {f"{scene.slug}.svg": svg(scene) for scene in SCENES}


def main(argv: Sequence[str] | None = None) -> int:
    """Write the pictures (or, with --check, report stale ones)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if a picture is stale")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output directory")
    args = parser.parse_args(argv)
    pictures = render_all()
    if args.check:
        stale = [n for n, text in pictures.items() if _read(args.out / n) != text]
        for name in stale:
            print(f"{args.out / name}: stale, run tools/render_led_patterns.py", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in pictures.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(pictures)} pictures to {args.out}")
    return 0


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


if __name__ == "__main__":
    sys.exit(main())
