"""The players' names (``[players] white``, ``black``): shown on the board's page next to each
side and sent to the club's viewers (``players`` in /api/state)."""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.rules.color import Color

MAX_NAME_CHARS = 32
"""The longest name: it fits beside a side of the board."""


def is_name(value: object) -> bool:
    """Whether ``value`` is a player's name: 1 to 32 printable characters, not all spaces."""
    return (isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS
            and value.isprintable() and not value.isspace())


@dataclass(frozen=True, slots=True)
class PlayerNames:
    """Who plays White and who plays Black (by default, the colours' names)."""

    white: str = "White"
    black: str = "Black"

    def __post_init__(self) -> None:
        for color in Color:
            if not is_name(getattr(self, color.value)):
                raise ValueError(f"{color.value}: {getattr(self, color.value)!r} is not a "
                                 f"name of 1 to {MAX_NAME_CHARS} printable characters")

    def to_json(self) -> dict[str, str]:
        """``{"white": NAME, "black": NAME}``."""
        return {"white": self.white, "black": self.black}
