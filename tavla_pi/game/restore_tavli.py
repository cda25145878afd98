"""The journal's fold for Plakoto, Fevga and the tavli match (:mod:`tavla_pi.game.restore`).

A ``new_match`` names its ``variant`` (none: Portes), a ``game_started`` the
game's; a Plakoto or Fevga game starts on its variant's start, its ``played``
events are legal plays of the rolled dice leading to the event's ``board``
(the authority: the Position and Match IDs of these games are informative,
checked only as the referee derives them); a game's end scores the tavli match.
"""

from __future__ import annotations

from dataclasses import replace

from tavla_pi.events.event import Event
from tavla_pi.game.fold_checks import Folding
from tavla_pi.game.tavli import commit_variant, high_first, position_id, start_position
from tavla_pi.game.view import Phase
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import VariantPlay, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


def new_tavli(fold: Folding, event: Event) -> TavliMatch:
    """The tavli match a ``new_match`` begins (its ``variant``; none: Portes)."""
    name = event.fields.get("variant", "portes")
    return TavliMatch.new(str(name), int(event["match_length"]), fold.settings.tavli)


def started(fold: Folding, event: Event, position: Position) -> VariantPosition | None:
    """The game a ``game_started`` begins: its variant checked against the match's
    (a Portes position not at the start is a ``load``, which makes it a Portes match);
    the Plakoto or Fevga start, None in Portes."""
    name, match = event.fields.get("variant", "portes"), fold.match
    tavli = replace(fold.state.tavli, length=match.match_length, score=match.score)
    fold.set(tavli=tavli)  # the Match ID says the length and the score
    if name == "portes" and (tavli.variant != "portes" or position != Position.initial()):
        fold.set(tavli=TavliMatch.new("portes", fold.match.match_length, fold.settings.tavli))
        return None
    if name != tavli.variant:
        raise ValueError(f"the game now is {tavli.variant}, not {name!r}")
    if name == "portes":
        return None
    start = start_position(name, fold.match.on_roll)
    if event["position_id"] != position_id(start):
        raise ValueError(f"a game of {name} starts at {position_id(start)}")
    return start


def fold_played(fold: Folding, event: Event, start: VariantPosition) -> None:
    """A Plakoto or Fevga ``played``: the legal play of the roll leading to its board."""
    fold.expect(Phase.MOVING, "play is awaited")
    a, b = fold.state.dice
    if list(event["dice"]) != high_first((a, b)):
        raise ValueError(f"dice are {high_first((a, b))} by the rules, not {event['dice']!r}")
    play = _play_to(start, (a, b), event["board"])
    if event["play"] != play.notation:
        raise ValueError(f"the play's notation is {play.notation!r}, not {event['play']!r}")
    match, result = commit_variant(fold.match, play)
    for name, derived in (("position_id", position_id(play.result)),
                          ("match_id", match.match_id())):
        if event[name] != derived:
            raise ValueError(f"{name} is {derived!r} by the rules, not {event[name]!r}")
    fold.set(match=match, variant_position=play.result, before_play=None)
    if result is None:
        fold.set(phase=Phase.AWAIT_ROLL)
    else:
        fold.game_over(match, result)


def _play_to(start: VariantPosition, dice: tuple[int, int], board: object) -> VariantPlay:
    """The legal play of ``dice`` from ``start`` whose result is ``board``."""
    for play in start.legal_plays(dice):
        if play.result.board() == board:
            return play
    raise ValueError(f"no legal play of {dice[0]}-{dice[1]} leads to the board {board!r}")
