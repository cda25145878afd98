"""One function per meaning of docs/PLAYING.md "What the lights mean".

Each takes the :class:`GameView` and returns the lights of its meaning
(empty when the meaning does not apply now).  They know feature names,
colours and waves, never LED indices or the brightness setting; the
compositor (``tavla_pi.leds.render``) decides what wins where two meet.
"""

from __future__ import annotations

from tavla_pi.game.view import GameView, Phase
from tavla_pi.hardware.pixel import DARK
from tavla_pi.leds import dice, palette, tavli, waves
from tavla_pi.leds.layout import CUBE_VALUES, location_feature
from tavla_pi.leds.light import Light
from tavla_pi.rules.color import Color

_PLAYING = (Phase.AWAIT_ROLL, Phase.MOVING, Phase.NO_MOVE)
_CUBE_COLUMN = (*(f"cube.{v}" for v in CUBE_VALUES), *(f"cube.owner.{c.value}" for c in Color))
LEVEL_LEDS = tuple(f"cube.{value}" for value in CUBE_VALUES[:3])
"""The cube column's LEDs that show a resignation's level (single, gammon, backgammon)."""
_OVER = (Phase.GAME_OVER, Phase.MATCH_OVER)


def _mover(view: GameView, meaning: str) -> Color:
    if view.on_roll is None:
        raise ValueError(f"GameView.{meaning} needs on_roll (whose checkers they are)")
    return view.on_roll


def fixes(view: GameView) -> list[Light]:
    """Out of sync, and setup guidance: where to add (slow) or remove (fast).

    Where one location needs both, the removal shows first: the board is
    cleared before it is filled.
    """
    removes = [f for f in view.fixes if f.delta < 0]
    adds = [f for f in view.fixes if f.delta > 0]
    if len(removes) + len(adds) != len(view.fixes):
        raise ValueError(f"GameView.fixes: a fix of 0 checkers: {view.fixes}")
    lights = [
        Light(location_feature(f.at, f.color), palette.REMOVE, waves.FAST_REMOVE) for f in removes
    ]
    return lights + [
        Light(location_feature(f.at, f.color), palette.ADD, waves.SLOW_ADD) for f in adds
    ]


def to_bar(view: GameView) -> list[Light]:
    """A hit checker still on its point: the point and its bar half alternate."""
    if not view.to_bar:
        return []
    victim = _mover(view, "to_bar").opponent
    lights = [
        Light(location_feature(at, victim), palette.TO_BAR, waves.TO_BAR_POINT)
        for at in view.to_bar
    ]
    return [*lights, Light(f"bar.{victim.value}", palette.TO_BAR, waves.TO_BAR_BAR)]


def candidates(view: GameView) -> list[Light]:
    """Plays the board could mean: each candidate point double-flashes."""
    if not view.candidates:
        return []
    mover = _mover(view, "candidates")
    return [
        Light(location_feature(at, mover), palette.CANDIDATE, waves.DOUBLE_FLASH)
        for at in view.candidates
    ]


def lifted(view: GameView) -> list[Light]:
    """A checker in the hand: its source dim in the mover's colour, destinations bright."""
    if view.lifted_from is None:
        return []
    mover = _mover(view, "lifted_from")
    lights = [
        Light(location_feature(at, mover), palette.DESTINATION) for at in view.destinations
    ]
    source = location_feature(view.lifted_from, mover)
    return [*lights, Light(source, palette.player(mover), level=palette.SOURCE)]


def suggested(view: GameView) -> list[Light]:
    """A play the engine suggests: it walks, each checker's from then to, one at a time."""
    if not view.suggested:
        return []
    mover = _mover(view, "suggested")
    on: dict[str, list[tuple[int, int]]] = {}
    for n, (source, target) in enumerate(view.suggested):
        start = n * waves.WALK_STEP_MS
        lit = start + waves.WALK_LIT_MS
        on.setdefault(location_feature(source, mover), []).append((start, lit))
        on.setdefault(location_feature(target, mover), []).append((lit, lit + waves.WALK_LIT_MS))
    period = len(view.suggested) * waves.WALK_STEP_MS
    shift = view.suggested_since_ms - view.since_ms
    return [Light(feature, palette.SUGGESTED, waves.spans(period, times, shift))
            for feature, times in on.items()]


def seat_step(view: GameView) -> list[Light]:
    """The computer's next checker to move: its point, then where it goes, in turn.

    The point glows in the checker's colour (the computer's, or the human's blot
    it hit, going to its bar half), the destination in green.
    """
    step = view.seat_step
    if step is None:
        return []
    return [
        Light(location_feature(step.from_, step.color), palette.player(step.color),
              waves.ENGINE_FROM),
        Light(location_feature(step.to, step.color), palette.DESTINATION, waves.ENGINE_TO),
    ]


def seat_waiting(view: GameView) -> list[Light]:
    """The seat keeps the game from beginning (an online opponent sought, the server's
    opening dice asked for): the seat's end of the cube column and its 32 and 64 pulse,
    as the online mode shows them in MENU."""
    color = view.seat_color
    if view.phase is not Phase.OPENING or not view.seat_thinking or color is None:
        return []
    lit = [Light(f"cube.{v}", palette.CUBE, waves.SEEKING) for v in CUBE_VALUES[-2:]]
    return [*lit, Light(f"cube.owner.{color.value}", palette.player(color), waves.SEEKING)]


def seat_trouble(view: GameView) -> list[Light]:
    """The engine cannot answer: the computer's turn LED flashes vermillion."""
    if view.seat_trouble is None or view.seat_color is None:
        return []
    return [Light(f"turn.{view.seat_color.value}", palette.REMOVE, waves.ENGINE_TROUBLE)]


def dice_shown(view: GameView) -> list[Light]:
    """The roll: opening dice one per side, else the roller's two faces."""
    if not view.dice:
        return []
    if view.phase is Phase.OPENING:
        return dice.opening(view.dice)
    roller = _mover(view, "dice")
    if view.no_legal_move or view.phase is Phase.NO_MOVE:
        return dice.unplayable(roller, view.dice)
    return dice.rolled_faces(roller, view.dice, view.dice_used, blink_unused=view.dice_blink)


def cube(view: GameView) -> list[Light]:
    """The cube's value (one LED of the column) and owner; centred at 1: faint 64.

    While a resignation is chosen or offered the column is the resignation's; a game
    without a cube (:func:`tavli.has_cube`) shows nothing of one.
    """
    if view.resigning is not None or not tavli.has_cube(view):
        return []
    if view.cube_value == 1:
        if view.phase is Phase.SETUP:
            return []
        return [Light("cube.64", palette.CUBE, level=palette.FAINT)]
    if view.cube_value not in CUBE_VALUES:
        raise ValueError(f"GameView.cube_value: expected 1 or {CUBE_VALUES}, got {view.cube_value}")
    lights = [Light(f"cube.{view.cube_value}", palette.CUBE)]
    if view.cube_owner is not None:
        owner = view.cube_owner
        lights.append(Light(f"cube.owner.{owner.value}", palette.player(owner)))
    return lights


def menu(view: GameView) -> list[Light]:
    """The armed MENU: the mode a second long press starts, on the cube column.

    The computer's mode: its end of the column in its colour and one LED per
    level (beginner 1 .. world class 6, from the 2 up), in its colour too; two
    players: both ends, each in its player's colour, the values dark for
    Portes, and for a Greek game its LED of the column's 2, 4 and 8 (Portes,
    Plakoto, Fevga; all three for a tavli match) in the cube's colour; a friend's
    board: its end of the column in its colour and the 64 in the cube's; the online
    opponent: its end in its colour and the 32 and 64 in the cube's.  The rest
    of the column is dark, so the cube's own light cannot be mistaken for it.  A match
    on the tournament clock lights both trays in the cube's colour too.
    """
    if view.menu is None:
        return []
    mode = view.menu.mode
    seat = mode.seat
    if seat.color is None:
        lit = [Light(f"cube.owner.{c.value}", palette.player(c), waves.MENU) for c in Color]
        lit += [Light(f, palette.CUBE, waves.MENU) for f in tavli.match_leds(mode.variant)]
    else:
        colour = palette.player(seat.color)
        lit = [Light(f"cube.owner.{seat.color.value}", colour, waves.MENU)]
        levels = CUBE_VALUES[:mode.level_number] if seat.level is not None else ()
        lit += [Light(f"cube.{v}", colour, waves.MENU) for v in levels]
        if seat.friend is not None:  # the friend's board: the column's top
            lit.append(Light(f"cube.{CUBE_VALUES[-1]}", palette.CUBE, waves.MENU))
        if seat.online:  # the online opponent: the column's two top values
            lit += [Light(f"cube.{v}", palette.CUBE, waves.MENU) for v in CUBE_VALUES[-2:]]
    if view.menu.clock:
        lit += [Light(f"tray.{c.value}", palette.CUBE, waves.MENU) for c in Color]
    shown = {light.feature for light in lit}
    return lit + [Light(f, DARK) for f in _CUBE_COLUMN if f not in shown]


def clock(view: GameView) -> list[Light]:
    """The tournament clock: while a player's reserve runs (the delay spent), the cube
    column is a bar of the reserve left, in that player's colour, from the column's 2
    end (all six LEDs: the full reserve); in the last 30 s it blinks.  The rest of the
    column is dark, so the cube's own light cannot be mistaken for it.  A double or a
    resignation on offer keeps the column (the answerer's reserve runs all the same).
    """
    bar = view.clock_bar
    if bar is None or view.double_offered_by is not None or view.resigning is not None:
        return []
    color, lit, last = bar
    wave = waves.CLOCK_LAST if last else waves.STEADY
    shown = [Light(f"cube.{v}", palette.player(color), wave) for v in CUBE_VALUES[:lit]]
    names = {light.feature for light in shown}
    return shown + [Light(f, DARK) for f in _CUBE_COLUMN if f not in names]


def double_offer(view: GameView) -> list[Light]:
    """A pending double: the offered value and the taker's turn blink together.

    ``cube_value`` is the cube as it stands; the offer is twice that.
    """
    doubler = view.double_offered_by
    if doubler is None:
        return []
    offered = 2 * view.cube_value
    if offered not in CUBE_VALUES:
        raise ValueError(f"GameView: a double from cube {view.cube_value} is not possible")
    taker = doubler.opponent
    return [
        Light(f"cube.{offered}", palette.CUBE, waves.OFFER),
        Light(f"turn.{taker.value}", palette.player(taker), waves.OFFER),
    ]


def resignation(view: GameView) -> list[Light]:
    """A resignation: its level on the cube column, in the resigner's colour.

    One LED from the column's 2 end for a single, two for a gammon, three
    for a backgammon: steady while the resigner chooses, then blinking
    together with the answerer's turn LED until the offer is answered.
    """
    resigner = view.resigning
    if resigner is None:
        return []
    level = int(view.resign_level)
    if not 1 <= level <= len(LEVEL_LEDS):
        raise ValueError(f"GameView.resign_level: expected 1..3, got {view.resign_level!r}")
    colour = palette.player(resigner)
    wave = waves.OFFER if view.resign_offered else waves.STEADY
    lights = [Light(feature, colour, wave) for feature in LEVEL_LEDS[:level]]
    if view.resign_offered:
        answerer = resigner.opponent
        lights.append(Light(f"turn.{answerer.value}", palette.player(answerer), waves.OFFER))
    return lights


def turn(view: GameView) -> list[Light]:
    """Whose turn: steady; breathing when the move is complete (press DONE).

    At the opening roll either player may roll, so both turn LEDs are lit.
    """
    if view.phase is Phase.OPENING:
        return [Light(f"turn.{c.value}", palette.player(c)) for c in Color]
    if view.phase not in _PLAYING or view.on_roll is None:
        return []
    wave = waves.PRESS_DONE if view.press_done else waves.STEADY
    return [Light(f"turn.{view.on_roll.value}", palette.player(view.on_roll), wave)]


def winner(view: GameView) -> list[Light]:
    """Game over: the winner's turn LED and tray, and the points on their dice.

    Steady after a game; a slow beat when the match is won.
    """
    if view.phase not in _OVER or view.winner is None:
        return []
    won = view.winner
    wave = waves.MATCH_WON if view.phase is Phase.MATCH_OVER else waves.STEADY
    colour = palette.player(won)
    return [
        Light(f"turn.{won.value}", colour, wave),
        Light(f"tray.{won.value}", colour, wave),
        *dice.points_won(won, view.points_won, view.cube_value),
    ]
