"""The web page's settings: the game, who the computer plays, at what level, the coach.

``GET /api/settings`` and ``POST /api/settings`` (docs/CONTRACTS.md §5) go
through :class:`SettingsDesk`, the daemon's side of
:class:`tavla_pi.web.api.SettingsControl`.  A change is checked as the
config file's ``[opponent]`` keys are, and is the referee's
``next_opponent``: the next new match takes it, and the match being set up
for its first game takes it at once (its journal then says so with a
``new_match``).

``variant`` ("portes", "plakoto", "fevga" or "tavli", the config's ``[game]
variant``) goes to the referee the same way, through its ``next_variant`` and
``choose_variant`` (:class:`VariantChoice`); a referee without them plays
Portes only, and a request for another game is refused by name.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.config import parse_opponent
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.simdesk import StoppingError
from tavla_pi.errors import BadInputError, EngineError
from tavla_pi.events import Event
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import OpponentSettings

WHERE = "request body"
_VARIANTS = ("portes", "plakoto", "fevga", "tavli")
"""The games a match may play: one of the three, or "tavli", the three in turn."""


@runtime_checkable
class VariantChoice(Protocol):
    """The referee's side of the game chosen: as ``next_opponent`` and
    ``choose_opponent``, the next new match takes it (at once while the board is
    set up for a match's first game)."""

    @property
    def next_variant(self) -> str:
        """The game the next new match plays."""
        ...

    def choose_variant(self, variant: str, now: int) -> list[Event]:
        """Choose the next new match's game; the events that says."""
        ...


class SettingsDesk:
    """The opponent settings of the running daemon, as the web page reads and changes them."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def settings(self) -> dict[str, Any]:
        """The settings the next new match takes, and whether the computer can play here."""
        missing = self.core.referee.menu.engine_missing
        return {**settings_json(self.core.referee.next_opponent),
                "variant": self._next_variant(),
                "engine": {"installed": missing is None, "message": missing}}

    def _next_variant(self) -> str:
        referee = self.core.referee
        return referee.next_variant if isinstance(referee, VariantChoice) else "portes"

    def change(self, body: bytes) -> dict[str, Any]:
        """Apply a JSON object of ``[opponent]`` keys; the settings after it, and
        ``applied``: ``"now"`` or ``"next_match"``.

        BadInputError for a body or value that is wrong, EngineError when the
        computer is asked for where gnubg is not installed (nothing changes).
        """
        referee = self.core.referee
        changes = _object(body)
        variant = parse_variant(changes.pop("variant", self._next_variant()),
                                isinstance(referee, VariantChoice))
        chosen = parse_opponent(changes, WHERE, referee.next_opponent)
        if variant != "portes" and chosen.color is not None:
            raise BadInputError(f"{WHERE}: variant",
                                f"the computer plays Portes only, not {variant!r}: choose "
                                "two players for it")
        missing = referee.menu.engine_missing
        if "color" in changes and chosen.color is not None and missing is not None:
            raise EngineError(missing)
        if self.core.failure is not None:
            raise StoppingError(f"{self.core.failure}: the daemon stops and resumes from "
                                "its journal")
        now = self.core.pipeline.clock.now_ms()
        if isinstance(referee, VariantChoice) and variant != referee.next_variant:
            self.core.commit(referee.choose_variant(variant, now))
        self.core.commit(referee.choose_opponent(chosen, now))
        applied = "now" if referee.settings.opponent == chosen and \
            _playing(referee) == variant else "next_match"
        return {**self.settings(), "applied": applied}


def parse_variant(value: object, playable: bool) -> str:
    """The game ``value`` names, or a BadInputError naming the key (``playable``: whether
    the referee plays games other than Portes)."""
    if value not in _VARIANTS:
        shown = ", ".join(f'"{v}"' for v in _VARIANTS)
        raise BadInputError(f"{WHERE}: variant", f"expected one of {shown}, got {value!r}")
    if value != "portes" and not playable:
        raise BadInputError(f"{WHERE}: variant",
                            f"this board plays Portes only so far, not {value!r}")
    return str(value)


def _playing(referee: Referee) -> str:
    """The game setting of the match being played: ``GameSettings.variant`` where the
    game knows it, else Portes (read by name while the two are built apart)."""
    return str(getattr(referee.settings, "variant", "portes"))


def settings_json(opponent: OpponentSettings) -> dict[str, Any]:
    """The ``[opponent]`` keys of ``opponent`` as JSON values (``color`` null: two players)."""
    color = opponent.color
    return {"color": color.value if color is not None else None,
            "level": opponent.level.value, "coach": opponent.coach,
            "blunder_threshold": opponent.blunder_threshold}


def _object(body: bytes) -> dict[str, Any]:
    try:
        data = parse_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInputError(WHERE, "not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise BadInputError(WHERE, f"not valid JSON ({exc.msg} at column {exc.colno})") \
            from None
    except LimitError as exc:
        raise BadInputError(WHERE, str(exc)) from None
    if not isinstance(data, dict):
        raise BadInputError(WHERE, "expected a JSON object of settings, e.g. "
                                   '{"color": "black", "level": "expert"}')
    return data
