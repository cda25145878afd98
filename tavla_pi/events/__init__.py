"""The event stream: what the game decided, for the journal, LEDs, web and replay."""

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType, UnknownType

__all__ = ["Event", "EventType", "UnknownType"]
