"""What the referee's parts return: an event to write, a refusal, or only a change shown.

The parts (:mod:`tavla_pi.game.offers`, :mod:`tavla_pi.game.clockdesk`,
:mod:`tavla_pi.game.matchdesk`) read the game and rule; the referee carries a ruling
out in one place, writing its event through the fold
(:func:`tavla_pi.game.fold.push`), which says what the game is then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavla_pi.events.types import EventType
from tavla_pi.game.deciding import Press
from tavla_pi.game.matchclock import FLAG_KIND
from tavla_pi.game.state import State
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color


@dataclass(frozen=True)
class Ruled:
    """An event of ``kind`` with ``fields`` is to be written."""

    kind: EventType
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Shown:
    """Only what the cube column shows has changed (a resignation being chosen)."""


@dataclass(frozen=True)
class Refused:
    """The press or decision is refused, for ``reason``; ``player`` whose (None: the one
    who pressed or decided)."""

    reason: str
    player: Color | None = None


@dataclass(frozen=True)
class Synced:
    """The board needs ``fixes`` to show the game (none: it shows it)."""

    fixes: tuple[Fix, ...]


@dataclass(frozen=True)
class Passed:
    """The turn with no legal move passes now (the one step without an event)."""


Ruling = Refused | Ruled | Shown | Press | Synced | Passed
"""What an offer, an answer to one, or a part's decision leads to (a :class:`Press`: the
button pressed, by the seat or by the hand again)."""


def owed(state: State) -> Ruled | None:
    """The next event a game's end owes once its last play, drop, accepted resignation or
    fallen flag is written (``state.due``): the ``game_over``, then the ``match_over``."""
    result, match = state.result, state.match
    if state.due is EventType.GAME_OVER and result is not None:
        winner = result.winner.value if result.winner is not None else None
        return Ruled(EventType.GAME_OVER, {"winner": winner, "kind": result.kind,
                                           "cube": match.cube, "points": result.points,
                                           "score": list(match.score)})
    if state.due is not EventType.MATCH_OVER:
        return None
    flag = state.clock.flag if state.clock is not None else None
    decided = match.match_winner if flag is None else flag.opponent
    assert decided is not None  # the fold owes a match's end only once it is decided
    fields: dict[str, Any] = {"winner": decided.value, "score": list(match.score)}
    return Ruled(EventType.MATCH_OVER, fields if flag is None else {**fields,
                                                                   "reason": FLAG_KIND})
