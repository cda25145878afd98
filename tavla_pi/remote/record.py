"""One remote match as this board's journal records it: its id, the messages, the dice.

Everything the remote side must not forget is an event, journaled before it
has an effect (:mod:`tavla_pi.remote.session`): the match's id and peer
(``remote_match``), each message sent (``remote_sent``, before it goes out),
each of the peer's applied (``remote_taken``, in the batch of its effects),
each commitment and contribution of the dice (``dice_commit``,
``dice_reveal``; this board's own commitments keep its secret contribution).
:func:`record_of` folds a journal back into a :class:`RemoteRecord`, so that a
board that lost its power goes on with the same numbers and the same dice.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from tavla_pi.errors import DiceError
from tavla_pi.events.event import Event
from tavla_pi.events.types import ROLL_EVENTS, EventType
from tavla_pi.remote.dice import RollCheck
from tavla_pi.remote.messages import GameMessage, MessageError, message_from_json
from tavla_pi.rules.color import Color

log = logging.getLogger("tavla_pi.remote")



@dataclass
class RemoteRecord:
    """A remote match: its id, the peer and its colour, this board's messages, how many of
    the peer's are applied, the dice's commitments and contributions, the rolls made."""

    match_uid: str
    board: str
    peer: str
    color: Color
    sent: list[GameMessage] = field(default_factory=list)
    taken: int = 0
    own: dict[int, str] = field(default_factory=dict)
    """This board's contribution per roll (secret until revealed)."""
    rolls_made: int = 0
    check: RollCheck = field(init=False)

    def __post_init__(self) -> None:
        self.check = RollCheck(self.match_uid, (self.board, self.peer))

    @property
    def fresh(self) -> bool:
        """True while no roll of the match is made nor revealed by this board."""
        return self.rolls_made == 0 and not self.check.revealed(self.board, 0)

    def fold(self, event: Event) -> None:
        """Take one journaled event of this match in."""
        if event.type in ROLL_EVENTS:  # each is numbered, from 0
            self.rolls_made += 1
        elif event.fields.get("match_uid") == self.match_uid:
            self._fold_remote(event)

    def _fold_remote(self, event: Event) -> None:
        try:
            if event.type is EventType.REMOTE_SENT:
                self.sent.append(message_from_json(event["message"], "the journal"))
            elif event.type is EventType.REMOTE_TAKEN:
                self.taken = max(self.taken, int(event["seq"]))
            elif event.type is EventType.DICE_COMMIT:
                self._fold_commit(event)
            elif event.type is EventType.DICE_REVEAL:
                self.check.reveal(event["board"], int(event["roll"]), event["contribution"])
        except (DiceError, MessageError) as exc:  # resume's journal check names it
            log.warning("journal: %s: %s", event.type, exc)

    def _fold_commit(self, event: Event) -> None:
        roll = int(event["roll"])
        self.check.commit(event["board"], roll, event["digest"])
        if event["board"] == self.board and "contribution" in event.fields:
            self.own[roll] = event["contribution"]


def record_of(events: Sequence[Event], board: str) -> RemoteRecord | None:
    """The remote match the journal's last match is bound to (None: it is not bound to
    one, or a new match began after the last binding)."""
    start = None
    for index, event in enumerate(events):
        if event.type is EventType.REMOTE_MATCH:
            start = index
        elif event.type is EventType.NEW_MATCH:
            start = None
    if start is None:
        return None
    bound = events[start]
    record = RemoteRecord(bound["match_uid"], board, bound["peer"], Color(bound["color"]))
    for event in events[start + 1:]:
        record.fold(event)
    return record
