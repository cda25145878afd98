"""The lights of Greek tavli (docs/VARIANTS.md): pins, Fevga's first checker, the game.

Like ``patterns``, one function per meaning of docs/PLAYING.md "What the lights mean",
each taking the :class:`GameView` and returning its lights; the compositor
decides what wins where two meet.
"""

from __future__ import annotations

from tavla_pi.game.view import GameView, Phase
from tavla_pi.leds import palette, waves
from tavla_pi.leds.layout import location_feature
from tavla_pi.leds.light import Light
from tavla_pi.rules.tavlimatch import GAMES, cycle_of
from tavla_pi.rules.variants import Variant, variant

GAME_LEDS: tuple[str, ...] = ("cube.2", "cube.4", "cube.8")
"""Game n of the tavli cycle (:data:`~tavla_pi.rules.tavlimatch.GAMES`) lights the cube
column's n-th LED from the 2."""


def has_cube(view: GameView) -> bool:
    """Whether the game now has a cube to show: Portes played on its own, or a cube
    already turned in a tavli match's Portes.  Plakoto and Fevga have none."""
    if not _game_of(view).has_cube:
        return False
    return cycle_of(view.match_variant) == (view.variant,) or view.cube_value > 1


def match_leds(match: str) -> tuple[str, ...]:
    """The cube column's LEDs that show the games of a match called ``match`` (MENU's
    two-player modes): each game's own (its :attr:`~Variant.slot`), in the order played;
    none for a match of one game with a cube (Portes alone), whose column is the cube's."""
    games = [variant(name) for name in cycle_of(match)]
    if len(games) == 1 and games[0].has_cube:
        return ()
    return tuple(GAME_LEDS[game.slot] for game in games)


def _game_of(view: GameView) -> Variant:
    """The game the view says is played (ValueError naming the field for another)."""
    if view.variant not in GAMES:
        raise ValueError(f"GameView.variant: expected one of {GAMES}, got {view.variant!r}")
    return variant(view.variant)


def pinned(view: GameView) -> list[Light]:
    """Each pinned checker's point, in that checker's colour, half bright with a short
    dark break: the checker cannot move and the point is closed to its side."""
    return [
        Light(location_feature(at, color), palette.player(color), waves.PIN_BREAK,
              level=palette.PINNED)
        for at, color in sorted(view.pinned.items())
    ]


def first_checker_lights(view: GameView) -> list[Light]:
    """Fevga, while the first-checker rule binds: that checker's point swells quickly in
    the mover's colour (also while it is in the hand), so it is clear which may move."""
    if view.first_checker is None or view.phase is not Phase.MOVING or view.on_roll is None:
        return []
    return [Light(location_feature(view.first_checker, view.on_roll),
                  palette.player(view.on_roll), waves.FIRST_CHECKER)]


def game(view: GameView) -> list[Light]:
    """Where the game has no cube, the cube column shows the game instead: its three
    lower LEDs stand for Portes, Plakoto and Fevga, the one played full, the others
    faint (three LEDs lit never read as a cube, which lights one).  A resignation
    being chosen or offered holds the column meanwhile."""
    if has_cube(view) or view.resigning is not None:
        return []
    playing = _game_of(view).slot
    return [
        Light(feature, palette.CUBE, level=palette.FULL if n == playing else palette.GAME_OTHER)
        for n, feature in enumerate(GAME_LEDS)
    ]
