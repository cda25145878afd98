"""The event stream: what the game decided, for the journal, LEDs, web and replay."""

from tavla_pi.events.event import Event

__all__ = ["Event"]
