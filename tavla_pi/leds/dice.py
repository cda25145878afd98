"""The die faces: pips for a value, which dice are spent, the points won.

Each side of the board has two faces of seven pips (``die.<colour>.<d>.pip.<k>``,
pip 0 top-left .. 6 bottom-right as that player sees them).
"""

from __future__ import annotations

from tavla_pi.hardware.pixel import RGB
from tavla_pi.leds import palette, waves
from tavla_pi.leds.layout import die_pip
from tavla_pi.leds.light import Light
from tavla_pi.rules.color import Color

# Pip numbering: 0 1 / 2 3 4 / 5 6  (top-left, top-right, middle row, bottom).
PIPS: dict[int, tuple[int, ...]] = {
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}


def face(
    side: Color, die: int, value: int, color: RGB, *,
    wave: waves.Wave = waves.STEADY, level: float = palette.FULL,
) -> list[Light]:
    """The lit pips of ``value`` on die ``die`` of ``side``."""
    if value not in PIPS:
        raise ValueError(f"a die shows 1..6, got {value!r}")
    return [Light(die_pip(side.value, die, k), color, wave, level) for k in PIPS[value]]


def face_levels(dice: tuple[int, ...], used: tuple[bool, ...]) -> tuple[float, float]:
    """How bright each of the two faces is, from the used flags.

    Two different dice: a played die drops to ``USED``.  Doubles (four
    moves, two per face): face 0 stands for the first two moves, face 1
    for the last two; a face with one move left is at ``HALF``.
    """
    if len(dice) != 2:
        raise ValueError(f"expected two dice, got {dice!r}")
    if dice[0] != dice[1]:
        flags = (*used, False, False)
        return _spent(used=flags[0]), _spent(used=flags[1])
    spent = sum(used)
    return _level(2 - min(2, spent)), _level(2 - max(0, min(2, spent - 2)))


def _spent(*, used: bool) -> float:
    return palette.USED if used else palette.FULL


def _level(moves_left: int) -> float:
    return (palette.USED, palette.HALF, palette.FULL)[moves_left]


def rolled_faces(
    side: Color, dice: tuple[int, ...], used: tuple[bool, ...], *, blink_unused: bool,
) -> list[Light]:
    """The roller's two faces: lit, dimmed where used; unused ones blink if asked."""
    lights: list[Light] = []
    for die, (value, level) in enumerate(zip(dice, face_levels(dice, used), strict=True)):
        wave = waves.REJECTED if blink_unused and level > palette.USED else waves.STEADY
        lights += face(side, die, value, palette.DICE, wave=wave, level=level)
    return lights


def unplayable(side: Color, dice: tuple[int, ...]) -> list[Light]:
    """Both faces of a roll with no legal play: red, fast flicker."""
    lights: list[Light] = []
    for die, value in enumerate(dice):
        lights += face(side, die, value, palette.UNPLAYABLE, wave=waves.NO_MOVE)
    return lights


def opening(dice: tuple[int, ...]) -> list[Light]:
    """The opening roll: White's die on White's side, Black's on Black's."""
    if len(dice) != 2:
        raise ValueError(f"the opening roll is one die each, got {dice!r}")
    return [
        *face(Color.WHITE, 0, dice[0], palette.DICE),
        *face(Color.BLACK, 0, dice[1], palette.DICE),
    ]


def points_faces(points: int, cube: int) -> tuple[int, ...]:
    """The die values that show ``points`` won: their sum, or times the cube.

    Up to 6: one face; up to 12: two faces that add up (6 + rest).  Above
    that the points are the cube times 1, 2 or 3 (single, gammon,
    backgammon): one face shows the multiplier while the cube column shows
    the cube.  Anything else saturates at 6 + 6.
    """
    if points <= 0:
        return ()
    if points <= 6:
        return (points,)
    if points <= 12:
        return (6, points - 6)
    if cube >= 2 and points % cube == 0 and points // cube <= 3:
        return (points // cube,)
    return (6, 6)


def points_won(winner: Color, points: int, cube: int) -> list[Light]:
    """The winner's faces showing the points, in the winner's colour."""
    lights: list[Light] = []
    for die, value in enumerate(points_faces(points, cube)):
        lights += face(winner, die, value, palette.player(winner))
    return lights
