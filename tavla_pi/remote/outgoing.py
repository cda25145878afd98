"""This board's own decisions, read off the referee's events, as messages to the peer.

The player here plays one colour; whatever the referee commits for that
colour (a play, a double, a take or drop, a resignation offered or answered,
its flag falling on the tournament clock) is told to the friend's board.  The
other colour's events here are the friend's own decisions carried out, and are
not sent back.  Rolls are not
messages of their own: both boards make them (:mod:`tavla_pi.remote.dice`).
"""

from __future__ import annotations

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.remote.messages import Body, CubeBody, PlayBody, ResignBody, TimeBody
from tavla_pi.rules.color import Color


def own_body(event: Event, mine: Color, cube: int) -> Body | None:
    """The message body that tells the peer of ``event``, when it is this board's player's
    (``mine``) decision, or its flag's fall; ``cube``: the cube's value as the event left
    it."""
    if event.type is EventType.CLOCK:
        return TimeBody() if event.fields.get("flag") == mine.value else None
    return _decision_body(event, mine, cube)


def _decision_body(event: Event, mine: Color, cube: int) -> Body | None:
    """A play, cube action or resignation of this board's player's."""
    if event.fields.get("player") != mine.value:
        return None
    kind = event.type
    if kind is EventType.PLAYED:
        high, low = event["dice"]
        return PlayBody((high, low), event["play"], event["position_id"])
    if kind is EventType.DOUBLE_OFFERED:
        return CubeBody("double")
    if kind is EventType.DOUBLE_TAKEN:
        return CubeBody("beaver" if event.fields.get("beaver") else "take")
    if kind is EventType.DOUBLE_DROPPED:
        return CubeBody("drop")
    return _resign_body(event, cube)


def _resign_body(event: Event, cube: int) -> ResignBody | None:
    kind = event.type
    if kind is EventType.RESIGN_OFFERED:
        return ResignBody("offer", int(event["points"]) // max(cube, 1))
    if kind is EventType.RESIGN_ACCEPTED:
        return ResignBody("accept")
    if kind is EventType.RESIGN_DECLINED:
        return ResignBody("decline")
    return None
