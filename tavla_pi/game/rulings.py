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
    """The press or decision is refused, for ``reason``."""

    reason: str


Ruling = Refused | Ruled | Shown
"""What an offer, an answer to one, or a part's decision leads to."""
