"""The journal's fold of the game a match plays (:mod:`tavla_pi.game.restore`).

A ``new_match`` names its ``variant`` (none: Portes), a ``game_started`` the
game's: the match's game on its start, or (Portes only) a loaded position.
"""

from __future__ import annotations

from dataclasses import replace

from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.game.fold_checks import Folding
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import DEFAULT, variant


def new_tavli(fold: Folding, event: Event) -> TavliMatch:
    """The tavli match a ``new_match`` begins (its ``variant``; none: Portes)."""
    name = event.fields.get("variant", DEFAULT)
    return TavliMatch.new(str(name), int(event["match_length"]), fold.settings.tavli)


def started(fold: Folding, event: Event, position: Position) -> VariantPosition:
    """The game a ``game_started`` begins, its committed position: the match's game on
    its start, or a ``load`` of any position, which only GNU Backgammon's Position ID
    can say (it makes the match one of Portes)."""
    name, match = event.fields.get("variant", DEFAULT), fold.match
    tavli = replace(fold.state.tavli, length=match.match_length, score=match.score)
    fold.set(tavli=tavli)  # the Match ID says the length and the score
    start = variant(name).start(match.on_roll)
    if name == tavli.variant and event["position_id"] == start.position_id():
        return start
    if start.has_cube:  # a load
        fold.set(tavli=TavliMatch.new(name, match.match_length, fold.settings.tavli))
        return PortesPosition(position, match.on_roll)
    if name != tavli.variant:
        raise RefusedEventError(f"the game now is {tavli.variant}, not {name!r}")
    raise RefusedEventError(f"a game of {name} starts at {start.position_id()}")


def start_of_game(fold: Folding) -> VariantPosition:
    """The start of the match's game now, its player on roll."""
    return variant(fold.state.tavli.variant).start(fold.match.on_roll)
