"""``GET /api/state``: the game, the sensed board and the LEDs as one JSON object.

``board`` is what the rules engine holds (committed plays only), ``sensed``
what the sensors report: per colour and location the interval of checkers
``[low, high]`` (a stack reads as "at least n"), checkers of unknown colour
under ``unknown``, and any sensor faults.  ``leds`` is the frame last shown,
``#rrggbb`` in chain order (as ``pinout.toml`` numbers the LEDs), and
``led_features`` names the board feature each of them shows (``null`` for a
spare LED), so the web page draws every pixel where the board has it;
``led_brightness`` is the brightness setting the frame is scaled by.

Additions for the web page: what the light says in words (``lifted``,
``press_done``, ``to_bar``, ``candidates``, ``suggested``, ``winner``,
``points_won``, ``menu_armed``, ``menu``: the mode the armed MENU shows,
``resignation``, ``engine_play``: the computer's play while the hand carries it
out), the engine's ``hint`` list of this turn and the
``blunder_warning`` standing now, ``confirms``: when plays read the same, the one DONE confirms
now (CUBE offers the next; the lights alone do not tell them apart), and, on
the simulated board only, ``physical``: where the modelled checkers really are
(pockets bottom first, trays, hands), and against the computer
``engine_play`` (its play and the next checker to move for it),
``engine_thinking`` and ``engine_trouble``; ``players``: the players' names
(``[players]``); for Greek tavli ``variant`` (the game
now), ``match_variant`` (the setting), ``tavli_game``, ``pinned`` and
``first_checker``, and ``cube_in_play`` (no cube in Plakoto, Fevga, nor in a tavli
match's Portes unless its rules say); ``clock``: the match's tournament clock, null
without one (docs/CLOCK.md).

The daemon serves it; :meth:`tavla_pi.replay.runner.ScenarioRunner.state` gives
the same for a scenario.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.game.coach import Coaching, ranked_fields
from tavla_pi.game.menu import MenuView
from tavla_pi.game.players import PlayerNames
from tavla_pi.game.referee import Referee
from tavla_pi.game.view import GameView
from tavla_pi.hal.sim.backend import SimBackend
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.leds import LedLayout, to_hex
from tavla_pi.pipeline.step import Pipeline
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.board import POINTS
from tavla_pi.rules.color import Color


def snapshot(referee: Referee, pipeline: Pipeline, backend: str,
             players: PlayerNames | None = None) -> dict[str, Any]:
    """The state of the board and the game, ready for JSON; ``players``: their names."""
    match = referee.match
    view = pipeline.lights()  # the words of the lights: the provisional board's too
    owner = match.cube_owner
    return {
        "phase": referee.phase.value,
        "on_roll": view.on_roll.value if view.on_roll is not None else None,
        "position_id": referee.position_id(),
        "match_id": match.match_id(),
        "board": referee.board_dict(),
        "sensed": sensed(pipeline.stable),
        "dice": list(view.dice),
        "dice_used": list(view.dice_used),
        "cube": {"value": match.cube, "owner": owner.value if owner is not None else None,
                 "offered": view.double_offered_by is not None},
        "resignation": resignation_state(view),
        "score": list(match.score),
        "match_length": match.match_length,
        "fix": [f.to_event() for f in _fixes(view, referee)],
        "leds": [to_hex(rgb) for rgb in pipeline.frame],
        "led_features": led_features(pipeline.layout),
        "led_brightness": pipeline.settings.brightness,
        "backend": backend,
        "lifted": ({"from": view.lifted_from, "destinations": list(view.destinations)}
                   if view.lifted_from is not None else None),
        "press_done": view.press_done,
        "to_bar": list(view.to_bar),
        "candidates": list(view.candidates),
        "confirms": view.confirms,
        "suggested": [{"from": a, "to": b} for a, b in view.suggested],
        **coaching(referee.coach),
        "winner": view.winner.value if view.winner is not None else None,
        "points_won": view.points_won,
        "menu_armed": referee.menu.armed(pipeline.clock.now_ms()),
        "menu": menu_state(referee.menu.view(pipeline.clock.now_ms())),
        "physical": (physical(pipeline.backend.board)
                     if isinstance(pipeline.backend, SimBackend) else None),
        "engine_play": engine_play(view),
        "engine_thinking": view.seat_thinking,
        "engine_trouble": view.seat_trouble,
        **tavli_state(view),
        "cube_in_play": referee.tavli.cube_allowed,
        "clock": referee.clock_state(pipeline.clock.now_ms()),
        "remote": None,  # the daemon's: the friend's board (tavla_pi.remote.session)
        "online": None,  # the daemon's: the online server (tavla_pi.online.session)
        "players": (players or PlayerNames()).to_json(),
    }


def tavli_state(view: GameView) -> dict[str, Any]:
    """Greek tavli: the game now, the match's setting, the game's number in the match,
    the pinned checkers (location -> colour) and Fevga's bound first checker."""
    return {"variant": view.variant, "match_variant": view.match_variant,
            "tavli_game": view.tavli_game,
            "pinned": {at: color.value for at, color in sorted(view.pinned.items())},
            "first_checker": view.first_checker}


def coaching(coach: Coaching) -> dict[str, Any]:
    """``hint``: the hint shown this turn; ``blunder_warning``: the warning standing now."""
    hint, warning = coach.hint, coach.warning
    return {
        "hint": None if hint is None else {
            "player": hint.player.value, "dice": list(hint.dice),
            "plays": [ranked_fields(r) for r in hint.plays]},
        "blunder_warning": None if warning is None else {
            "player": warning.player.value, "play": warning.play.notation,
            "best": warning.best.notation, "loss": round(warning.loss, 4)},
    }


def menu_state(view: MenuView | None) -> dict[str, Any] | None:
    """The armed MENU's mode: the computer's (or the friend's board's, or the online
    opponent's) colour (``opponent``, null for two players), its ``level`` (null for two
    players, a friend and online), ``remote``: the friend's board (or null), the game
    (``variant``),
    ``clock``: whether it is on the tournament clock, and ``notice``: what to install,
    or null."""
    if view is None:
        return None
    seat = view.mode.seat
    return {"opponent": seat.color.value if seat.color is not None else None,
            "level": seat.level.value if seat.level is not None else None,
            "remote": seat.friend,
            "variant": view.mode.variant, "clock": view.clock, "notice": view.notice}


def resignation_state(view: GameView) -> dict[str, Any] | None:
    """The resignation being chosen (``state`` "choosing", before rolling) or offered
    (``"offered"``): who resigns and the points it concedes; None when there is none."""
    if view.resigning is None:
        return None
    return {"player": view.resigning.value, "points": int(view.resign_level) * view.cube_value,
            "state": "offered" if view.resign_offered else "choosing"}


def engine_play(view: GameView) -> dict[str, Any] | None:
    """The computer's play while the hand carries it out: the play and the next checker to
    move (``null`` when the board must be put right first)."""
    if view.seat_play is None or view.on_roll is None:
        return None
    step = view.seat_step
    following = None if step is None else {"from": step.from_, "to": step.to,
                                           "color": step.color.value}
    return {"player": view.on_roll.value, "dice": sorted(view.dice, reverse=True),
            "play": view.seat_play, "next": following}


def _fixes(view: GameView, referee: Referee) -> tuple[Fix, ...]:
    """The fixes lit; while a winner is shown, the setting up the game waits for."""
    return view.fixes or (referee.sync_fixes if view.winner is not None else ())


def led_features(layout: LedLayout) -> list[str | None]:
    """The feature name of every LED index (``None``: a spare LED)."""
    names: list[str | None] = [None] * layout.count
    for feature in layout.features:
        names[feature.index] = feature.name
    return names


def physical(board: SimBoard) -> dict[str, Any]:
    """The simulated board as it really is: colours per pocket, trays and hands."""
    points = {p: [[c.value for c in stack] for stack in board.pockets(p)] for p in POINTS}
    return {
        "points": {p: pockets for p, pockets in points.items() if any(pockets)},
        "bar": {c.value: [[k.value for k in stack] for stack in board.pockets("bar", c)]
                for c in Color},
        "off": {c.value: board.count("off", c) for c in Color},
        "hand": {c.value: board.in_hand(c) for c in Color},
    }


def sensed(obs: Observation | None) -> dict[str, Any] | None:
    """An observation as ``{"white": {loc: [low, high]}, "black": ..., "unknown": ...}``."""
    if obs is None:
        return None
    out: dict[str, Any] = {"white": {}, "black": {}, "unknown": {}}
    readings = [(str(n), r) for n, r in enumerate(obs.points, start=1)]
    readings += [("bar", obs.bar_white), ("bar", obs.bar_black)]
    for location, reading in readings:
        _add(out, location, reading)
    out["faults"] = [{"sensor": f.sensor, "location": f.location, "kind": f.kind}
                     for f in obs.faults]
    return out


def _add(out: dict[str, Any], location: str, reading: Reading) -> None:
    key = reading.color.value if reading.color is not None else "unknown"
    _merge(out[key], location, reading.count.low, reading.count.high)
    if reading.other.high and reading.color is not None:
        _merge(out[reading.color.opponent.value], location, reading.other.low, reading.other.high)


def _merge(table: dict[str, list[int]], location: str, low: int, high: int) -> None:
    if not high:
        return
    if location in table:
        low, high = table[location][0] + low, table[location][1] + high
    table[location] = [low, high]
