"""Whole tavli matches played by hand on the modelled board, for the export tests.

:func:`play_match` drives a :class:`ScenarioRunner` turn by turn: seeded dice,
a seeded choice among the legal plays of the game being played (Portes,
Plakoto or Fevga), each play moved checker by checker (a Portes hit carried to
the bar by hand), DONE pressed, the next game set up when one ends, until the
match is over.  What it yields is what the board journals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from game_support import scenario
from sim_support import PINMAP

from tavla_pi.events.event import Event
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import PlayOf

TURN_LIMIT = 3000
"""Inputs after which a match is given up as stuck."""


def play_match(seed: int, variant: str = "tavli", length: int = 3
               ) -> tuple[ScenarioRunner, list[Event]]:
    """The runner after a whole match of ``variant`` to ``length``, and its events."""
    rng = random.Random(seed)
    runner = ScenarioRunner(PINMAP, GameSettings(), seed=seed)
    start = {"setup": "start", "variant": variant, "match_length": length}
    events = list(runner.run(scenario(start)))
    for _ in range(TURN_LIMIT):
        if runner.referee.phase is Phase.MATCH_OVER:
            return runner, events
        events += runner.run(scenario(*next_actions(runner, rng)))
    raise AssertionError(f"the match of seed {seed} did not end")


def next_actions(runner: ScenarioRunner, rng: random.Random) -> list[dict[str, Any]]:
    """What the players do next, whatever the phase."""
    referee = runner.referee
    phase = referee.phase
    if phase in (Phase.OPENING, Phase.AWAIT_ROLL):
        roller = "white" if phase is Phase.OPENING else referee.match.on_roll.value
        return [{"dice": [rng.randint(1, 6), rng.randint(1, 6)]}, {"press": f"{roller}.roll"}]
    if phase is Phase.NO_MOVE:
        return [{"wait": 5000}]
    if phase is Phase.GAME_OVER:
        return [{"setup": "start"}]
    assert phase is Phase.MOVING, phase
    return _moves(runner, rng)


def _moves(runner: ScenarioRunner, rng: random.Random) -> list[dict[str, Any]]:
    """A legal play of the roll, checker by checker, then DONE."""
    turn = runner.referee.turn
    assert turn is not None
    start = turn.start
    name, mover = runner.referee.tavli.variant, turn.mover
    plays: Sequence[PlayOf[Any]] = start.legal_plays(turn.dice)
    play = rng.choice(plays)
    actions: list[dict[str, Any]] = []
    for src, dst, hit in play.moves:
        target = location(name, mover, dst)
        actions.append({"move": f"{location(name, mover, src)}/{target}", "color": mover.value})
        if hit and name == "portes":
            actions.append({"move": f"{target}/bar", "color": mover.opponent.value})
    return [*actions, {"press": f"{mover.value}.roll"}]


def location(variant: str, color: Color, own: int) -> str:
    """The location of docs/CONTRACTS.md §1 of ``color``'s own point ``own`` (25 the bar,
    0 off) in ``variant`` (docs/VARIANTS.md: Black's numbering in Fevga)."""
    if own in (0, 25):
        return "off" if own == 0 else "bar"
    if color is Color.WHITE:
        return str(own)
    if variant == "fevga":
        return str(own + 12 if own <= 12 else own - 12)
    return str(25 - own)
