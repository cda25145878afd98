"""What the journal's fold checks an event's fields with, for every part of the fold.

:mod:`tavla_pi.game.restore` folds the journal; its parts for the computer
and the coach (:mod:`tavla_pi.game.restore_computer`) and for the games of
tavli (:mod:`tavla_pi.game.restore_tavli`) fold their own events.  They all
read the fold through :class:`Folding` and check fields with the functions
here: each raises :class:`~tavla_pi.errors.RefusedEventError` saying why an event
does not follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.tavli import EndOfGame
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.tavli import VariantPlay


class Folding(Protocol):
    """The journal's fold as its parts read and change it: the state so far, the
    settings it is folded with, the event due next (None: none must come)."""

    state: State
    settings: GameSettings
    due: EventType | None

    @property
    def match(self) -> MatchState:
        """The match so far."""
        ...

    def set(self, **changes: Any) -> None:
        """Change fields of the state."""
        ...

    def expect(self, phase: Phase, what: str) -> None:
        """RefusedEventError unless the state is in ``phase``."""
        ...

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """The legal plays of ``dice`` from the committed position."""
        ...

    def pass_if_stuck(self) -> None:
        """A turn with no legal move passed (the step without an event)."""
        ...

    def game_over(self, match: MatchState, result: EndOfGame) -> None:
        """A game ended with ``result``: ``match`` scored."""
        ...


def color_of(event: Event, name: str = "player") -> Color:
    """The colour ``event`` names in field ``name``."""
    return Color(event[name])


def die(value: Any) -> int:
    """``value`` as a die, 1 to 6."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise RefusedEventError(f"{value!r} is not a die 1..6")
    return value


def dice_of(event: Event) -> tuple[int, int]:
    """The two dice of ``event``, as recorded."""
    a, b = event["dice"]
    return die(a), die(b)


def high_low(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice, the higher first (as a turn's roll is recorded)."""
    return max(dice), min(dice)


def same(name: str, recorded: Any, derived: Any) -> None:
    """RefusedEventError unless the event's ``recorded`` value is the one the rules derive."""
    if recorded != derived:
        raise RefusedEventError(f"{name} is {derived!r} by the rules, not {recorded!r}")


def mover_of(fold: Folding, event: Event) -> Color:
    """The player ``event`` names, who must be on roll."""
    color = color_of(event)
    if color is not fold.match.on_roll:
        raise RefusedEventError(f"{color.value} is not on roll ({fold.match.on_roll.value} is)")
    return color


def chosen_play(fold: Folding, event: Event) -> tuple[VariantPlay, Color]:
    """The legal play of the roll being moved that ``event`` (a ``played`` or an
    ``engine_play``) records, and its player."""
    mover = mover_of(fold, event)
    fold.expect(Phase.MOVING, "play is awaited")
    a, b = fold.state.dice
    same("dice", dice_of(event), high_low((a, b)))
    start = fold.state.game_position()
    play = start.recorded_play((a, b), event["position_id"], event.fields.get("board"))
    if play is None:
        raise RefusedEventError(f"no legal play of {a}-{b} leads from {start.position_id()} to "
                         f"{event['position_id']}")
    same("the play's notation", event["play"], play.notation)
    return play, mover


def play_to(fold: Folding, dice: tuple[int, int], position_id: Any) -> VariantPlay:
    """The legal play of ``dice`` that leads to ``position_id``."""
    for play in fold.legal_plays(dice):
        if play.result.position_id() == position_id:
            return play
    raise RefusedEventError(f"no legal play of {dice[0]}-{dice[1]} leads from "
                     f"{fold.state.game_position().position_id()} to {position_id}")
