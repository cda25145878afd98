"""The web page's settings: the game, who the computer plays, at what level, the coach.

``GET /api/settings`` and ``POST /api/settings`` (docs/CONTRACTS.md §5) go
through :class:`SettingsDesk`, the daemon's side of
:class:`tavla_pi.web.api.SettingsControl`.  A change is checked as the
config file's ``[opponent]`` keys are, and is the referee's
``next_opponent``: the next new match takes it, and the match being set up
for its first game takes it at once (its journal then says so with a
``new_match``).

``variant`` ("portes", "plakoto", "fevga" or "tavli", the config's ``[game]
variant``) goes to the referee the same way, as its ``next_variant``
(``choose_variant``); the computer plays Portes only.
"""

from __future__ import annotations

import json
from typing import Any

from tavla_pi.bounded import LimitError, parse_json
from tavla_pi.config import parse_opponent
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.simdesk import StoppingError
from tavla_pi.daemon.speech import SpeechDesk
from tavla_pi.errors import BadInputError, EngineError
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.tavlimatch import MATCHES, computer_may_play

WHERE = "request body"


class SettingsDesk:
    """The opponent settings of the running daemon, as the web page reads and changes them."""

    def __init__(self, core: Core, speech: SpeechDesk) -> None:
        self.core = core
        self.speech = speech

    def settings(self) -> dict[str, Any]:
        """The settings the next new match takes, and whether the computer can play here."""
        missing = self.core.referee.menu.engine_missing
        return {**settings_json(self.core.referee.next_opponent),
                "variant": self.core.referee.next_variant,
                "engine": {"installed": missing is None, "message": missing},
                "speech": self.speech.json()}

    def change(self, body: bytes) -> dict[str, Any]:
        """Apply a JSON object of ``[opponent]`` keys; the settings after it, and
        ``applied``: ``"now"`` or ``"next_match"``.

        BadInputError for a body or value that is wrong, EngineError when the
        computer is asked for where gnubg is not installed (nothing changes).
        """
        referee = self.core.referee
        changes = _object(body)
        speak = self.speech.checked(changes.pop("speech", {}))
        variant = parse_variant(changes.pop("variant", referee.next_variant))
        chosen = parse_opponent(changes, WHERE, referee.next_opponent)
        if not computer_may_play(variant) and chosen.color is not None:
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
        speak()
        if variant != referee.next_variant:
            self.core.commit(referee.choose_variant(variant, now))
        self.core.commit(referee.choose_opponent(chosen, now))
        applied = "now" if referee.settings.opponent == chosen and \
            referee.settings.variant == variant else "next_match"
        return {**self.settings(), "applied": applied}


def parse_variant(value: object) -> str:
    """The game ``value`` names, or a BadInputError naming the key."""
    if value not in MATCHES:
        shown = ", ".join(f'"{v}"' for v in MATCHES)
        raise BadInputError(f"{WHERE}: variant", f"expected one of {shown}, got {value!r}")
    return str(value)


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
