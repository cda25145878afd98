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

``remote`` names a friend's board the config names (``[opponent] remote``: the
referee's MENU offers it, :attr:`~tavla_pi.game.menu.Menu.modes`; the page's
``friends``): the next match is with that board, in the colour the config gives
it.  ``null`` is a match without a friend's board; so is a ``color`` sent alone
(the computer's, or two players).  The page can never name a board the config
does not.

``clock`` is the tournament clock of the next new match (docs/CLOCK.md):
``{"delay_s": 12, "reserve_s_per_point": 120}`` (either key defaulted) or
``null`` for none; the referee's ``next_clock`` (``choose_clock``), at once while
the board is set up for a match's first game.  Money play has no clock.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from tavla_pi.bounded import LimitError, check_texts, parse_json
from tavla_pi.config import parse_opponent
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.simdesk import StoppingError
from tavla_pi.daemon.speech import SpeechDesk
from tavla_pi.errors import BadInputError, EngineError
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.menu import Mode
from tavla_pi.game.seating import friend_boards, seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import MATCHES, computer_may_play

WHERE = "request body"
KEEP = object()
"""``remote`` left out of a change: the friend's board stays as it was (unless ``color``
is sent)."""


class SettingsDesk:
    """The opponent settings of the running daemon, as the web page reads and changes them."""

    def __init__(self, core: Core, speech: SpeechDesk) -> None:
        self.core = core
        self.speech = speech

    def settings(self) -> dict[str, Any]:
        """The settings the next new match takes, and whether the computer can play here."""
        referee = self.core.referee
        missing = referee.menu.engine_missing
        return {**settings_json(referee.next_opponent, tuple(friends(referee.menu.modes))),
                "variant": self.core.referee.next_variant,
                "clock": None if referee.next_clock is None else referee.next_clock.fields(),
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
        clock = parse_clock(changes.pop("clock", KEEP), referee.next_clock,
                            referee.match.match_length)
        remote = changes.pop("remote", KEEP)
        chosen = with_friend(parse_opponent(changes, WHERE, referee.next_opponent), remote,
                             color_sent="color" in changes, known=friends(referee.menu.modes))
        seat = seating(chosen)
        if not computer_may_play(variant) and seat.portes_only:
            raise BadInputError(f"{WHERE}: variant",
                                f"{seat.who} plays Portes only, not {variant!r}: choose "
                                "two players for it")
        missing = referee.menu.engine_missing
        if "color" in changes and seat.engine_color is not None and missing is not None:
            raise EngineError(missing)
        if self.core.failure is not None:
            raise StoppingError(f"{self.core.failure}: the daemon stops and resumes from "
                                "its journal")
        now = self.core.pipeline.clock.now_ms()
        speak()
        if variant != referee.next_variant:
            self.core.commit(referee.choose_variant(variant, now))
        if clock != referee.next_clock:
            self.core.commit(referee.choose_clock(clock, now))
        self.core.commit(referee.choose_opponent(chosen, now))
        running = None if referee.clock is None else referee.clock.rules
        applied = "now" if referee.settings.opponent == chosen and \
            referee.settings.variant == variant and running == clock else "next_match"
        return {**self.settings(), "applied": applied}


def parse_variant(value: object) -> str:
    """The game ``value`` names, or a BadInputError naming the key."""
    if value not in MATCHES:
        shown = ", ".join(f'"{v}"' for v in MATCHES)
        raise BadInputError(f"{WHERE}: variant", f"expected one of {shown}, got {value!r}")
    return str(value)


def parse_clock(value: object, kept: ClockRules | None, match_length: int) -> ClockRules | None:
    """The clock ``value`` names (:data:`KEEP`: ``kept``; None: none), or a BadInputError
    naming the key; a clock needs a match of 1 point or more."""
    if value is KEEP:
        return kept
    if value is None:
        return None
    try:
        clock = ClockRules.from_fields(value)
    except ValueError as exc:
        raise BadInputError(f"{WHERE}: clock", str(exc)) from None
    if match_length < 1:
        raise BadInputError(f"{WHERE}: clock", "money play has no clock: play a match of 1 "
                                               "point or more ([game] match_length)")
    return clock


def friends(modes: tuple[Mode, ...]) -> dict[str, Color]:
    """The friends' boards among the MENU's ``modes``: name -> the colour it plays."""
    return friend_boards(m.seat for m in modes)


def with_friend(chosen: OpponentSettings, remote: object, *, color_sent: bool,
                known: dict[str, Color]) -> OpponentSettings:
    """``chosen`` with the friend's board ``remote`` names (:data:`KEEP`: as it was, unless
    a ``color`` was sent); a BadInputError naming ``remote`` for a board not in ``known``."""
    if remote is KEEP:  # a colour sent alone is the computer's (or two players)
        return replace(chosen, remote=None) if color_sent else chosen
    if remote is None:  # leaving a friend's board, no colour sent: two players
        leaving = seating(chosen).friend is not None and not color_sent
        return replace(chosen, remote=None, color=None if leaving else chosen.color)
    if not isinstance(remote, str) or remote not in known:
        shown = ", ".join(f'"{name}"' for name in known) or "none is configured"
        text = repr(remote) if len(repr(remote)) <= 60 else repr(remote)[:60] + "..."
        raise BadInputError(f"{WHERE}: remote",
                            f"expected a friend's board the config names ({shown}) or "
                            f"null, got {text}")
    color = known[remote]
    if color_sent and chosen.color is not color:
        raise BadInputError(f"{WHERE}: color",
                            f"the board {remote} plays {color.value}, as the config says")
    return replace(chosen, color=color, remote=remote)


def settings_json(opponent: OpponentSettings,
                  friends: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ``[opponent]`` keys of ``opponent`` as JSON values (``color`` null: two players;
    ``remote``: the friend's board that plays ``color``, or null) and ``friends``: the
    friends' boards the config names."""
    color = opponent.color
    return {"color": color.value if color is not None else None,
            "level": opponent.level.value, "coach": opponent.coach,
            "blunder_threshold": opponent.blunder_threshold,
            "remote": opponent.remote, "friends": list(friends)}


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
    check_texts(data, WHERE)
    return data
