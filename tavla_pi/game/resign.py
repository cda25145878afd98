"""Resignations on the board: the gesture that chooses and offers one, and the computer's side.

The player on roll resigns before rolling (GNU Backgammon weighs an offer
made by the player on roll): a long press of their own CUBE starts choosing,
with a single shown on the cube column; each short CUBE shows the next level
(single, gammon, backgammon, then single again); ROLL offers the level shown
and a second long CUBE withdraws the choice.  Choosing is only shown, never
journaled: the offer itself is the ``resign_offered`` event.  The opponent
answers as to a double: ROLL accepts, CUBE declines; the computer answers at
once through :class:`~tavla_pi.engine.Engine` (``resign_answer``).  A level
declined may not be offered again before the next roll or cube action, nor a
lower one (:mod:`tavla_pi.rules.resign`).

The computer's own offers follow gnubg's ComputerTurn (play.c): before its
cube decision, in a position that is no longer a contact position, it asks
(``resign_offer``: gnubg's getResignation at 0 plies) and offers what it is
told if that is above what was declined this turn.  :func:`offer_due`,
:func:`offer_to_make` and :func:`answer_due` say when; the referee's
``offer_resignation`` and ``answer_resignation`` carry it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavla_pi.errors import IllegalPlayError
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchRules, MatchState, Resignation
from tavla_pi.rules.position import Position
from tavla_pi.rules.resign import (
    decline_resignation,
    in_contact,
    levels_above,
    may_resign,
    offer_resignation,
    resignation_points,
    take_resignation,
)
from tavla_pi.rules.scoring import GameResult

_KEEPS_DECLINED = (Phase.AWAIT_ROLL, Phase.RESIGN_OFFERED)


@dataclass(frozen=True)
class Gesture:
    """A press the resignation gesture took: offer ``offer``, or refuse with ``reason``
    (neither: only what the cube column shows has changed)."""

    offer: Resignation = Resignation.NONE
    reason: str = ""


class ResignDesk:
    """The resignation being chosen (not yet offered) and the level declined this turn."""

    def __init__(self, declined: Resignation = Resignation.NONE) -> None:
        self.choosing: tuple[Color, Resignation] | None = None
        self.declined = declined

    @classmethod
    def loaded(cls, match: MatchState) -> ResignDesk:
        """A fresh desk for a loaded Match ID; IllegalPlayError if its offer is not playable."""
        if why := unplayable_offer(match):
            raise IllegalPlayError(why)
        return cls()

    def press(self, match: MatchState, color: Color, role: str, *, long: bool) -> Gesture | None:
        """A press before the roll, as the gesture reads it; None if it is not one of its."""
        if self.choosing is None:
            if not (long and role == "cube" and color is match.on_roll):
                return None
            return self._start(match, color)
        chooser, level = self.choosing
        if color is not chooser:
            return None
        if role != "cube":
            self.choosing = None
            return Gesture(offer=level)
        if long:
            self.choosing = None
            return Gesture()
        self.choosing = (chooser, _next_level(level, self.declined))
        return Gesture()

    def _start(self, match: MatchState, color: Color) -> Gesture:
        choices = levels_above(self.declined)
        first = choices[0] if choices else Resignation.BACKGAMMON
        verdict = may_resign(match, color, first, self.declined)
        if not verdict:
            return Gesture(reason=verdict.reason)
        self.choosing = (color, first)
        return Gesture()

    def offer(self, phase: Phase, match: MatchState, color: Color,
              level: Resignation) -> tuple[MatchState, int]:
        """``color`` offers ``level``: the match then, and the points offered.

        IllegalPlayError (with the reason) when it is not before the roll or
        the rules do not allow it.
        """
        if phase is not Phase.AWAIT_ROLL:
            raise IllegalPlayError(f"no resignation now ({phase.value})")
        offered = offer_resignation(match, color, level, self.declined)
        return offered, resignation_points(offered, level)

    def answer(self, match: MatchState, color: Color, *, accept: bool,
               rules: MatchRules) -> tuple[MatchState, int, GameResult | None]:
        """``color`` accepts or declines: the match then, the points offered, and the
        result when accepted.  IllegalPlayError when ``color`` may not answer."""
        level = match.resignation
        points = resignation_points(match, level)
        if accept:
            after, result = take_resignation(match, color, rules)
            return after, points, result
        declined = decline_resignation(match, color)
        self.declined = level
        return declined, points, None

    def entered(self, phase: Phase) -> None:
        """The game entered ``phase``: choosing lasts only before the roll, and what was
        declined only until the offerer rolls or the cube moves (gnubg's ApplyMoveRecord)."""
        if phase is not Phase.AWAIT_ROLL:
            self.choosing = None
        if phase not in _KEEPS_DECLINED:
            self.declined = Resignation.NONE

    def shown(self, phase: Phase, match: MatchState) -> dict[str, Any]:
        """The resignation as :class:`~tavla_pi.game.view.GameView` fields (none: {})."""
        if phase is Phase.RESIGN_OFFERED:
            return {"resigning": match.on_roll, "resign_level": match.resignation,
                    "resign_offered": True}
        if self.choosing is not None and phase is Phase.AWAIT_ROLL:
            chooser, level = self.choosing
            return {"resigning": chooser, "resign_level": level}
        return {}


def _next_level(level: Resignation, declined: Resignation) -> Resignation:
    choices = levels_above(declined)
    return choices[(choices.index(level) + 1) % len(choices)]


def unplayable_offer(match: MatchState) -> str:
    """Why the board cannot continue from a Match ID's resignation ("" if it can).

    The board plays offers made before the roll by the player on roll, with
    no double pending (or none at all).
    """
    if not match.resignation or match.game_state is not GameState.PLAYING:
        return ""
    if match.dice is not None or match.double_offered or match.to_act is match.on_roll:
        return ("a resignation on offer after the roll, or not by the player on roll, "
                "which this board does not play")
    return ""


# -- the computer's side ------------------------------------------------------------------


def answer_due(phase: Phase, match: MatchState, player: Color) -> bool:
    """Whether a resignation waits for ``player``'s answer (ask ``resign_answer``)."""
    return phase is Phase.RESIGN_OFFERED and match.to_act is player


def offer_due(phase: Phase, match: MatchState, position: Position, player: Color,
              declined: Resignation) -> bool:
    """Whether ``player`` should be asked ``resign_offer`` now, before its cube decision.

    As gnubg's ComputerTurn: on its own turn before the roll with nothing on
    offer, only once the position is no longer a contact position
    (ClassifyPosition at most CLASS_RACE), and while a level above the one
    declined this turn is left.
    """
    if phase is not Phase.AWAIT_ROLL or match.on_roll is not player:
        return False
    if match.to_act is not player or match.double_offered or match.resignation:
        return False
    return bool(levels_above(declined)) and not in_contact(position)


def offer_to_make(answer: Resignation, declined: Resignation) -> Resignation | None:
    """The level the computer offers for the engine's ``answer``, or None (play on).

    gnubg's ComputerTurn resigns only when getResignation gives a level
    above ``fResignationDeclined``: ``nResign > 0 && nResign > declined``.
    """
    level = Resignation(answer)
    return level if level and level > declined else None
