"""How the board speaks: the config's ``[speech]`` table as a value (docs/CONTRACTS.md §6)."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("el", "tr", "en")
"""The languages the board speaks (eSpeak NG's voices of the same names)."""
DEFAULT_RATE = 160
"""Words a minute: a little slower than eSpeak NG's 175, for a room with a board in it."""
RATES = (80, 450)
"""The rates eSpeak NG takes (``-s``)."""
VOLUMES = (0, 200)
"""The amplitudes eSpeak NG takes (``-a``; 100 is its default)."""


@dataclass(frozen=True, slots=True)
class SpeechSettings:
    """Whether the board speaks, in which language, how fast and loud, through which device.

    ``language`` None follows the page's language (the page says which when it is
    switched), English until it has; ``device`` None is ALSA's default device.
    """

    enabled: bool = False
    language: str | None = None
    rate: int = DEFAULT_RATE
    volume: int = 100
    device: str | None = None
