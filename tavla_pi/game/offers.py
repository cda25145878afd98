"""The cube and resignations: what a press about them, or a seat's decision, leads to.

:class:`Offers` reads the game at its :class:`OfferTable` and rules on a
double offered, taken, beavered or dropped, and on a resignation chosen,
offered, accepted or declined.  A ruling (:data:`~tavla_pi.game.rulings.Ruling`) is a
refusal with its reason, or the event that says what was done; the referee writes it
through the fold, which says what the game is then.  Nothing here
changes the game but the :class:`~tavla_pi.game.resign.ResignDesk` (what is
being chosen, what was declined).
"""

from __future__ import annotations

from typing import Protocol

from tavla_pi.errors import IllegalPlayError
from tavla_pi.events.types import EventType
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.rulings import Refused, Ruled, Ruling, Shown
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules import Resignation
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


class OfferTable(Protocol):
    """What the offers read of the game (the referee's state)."""

    @property
    def phase(self) -> Phase:
        """The game's phase (the referee's state)."""
        ...

    @property
    def match(self) -> MatchState:
        """The game's match (the referee's state)."""
        ...

    settings: GameSettings
    resign: ResignDesk
    @property
    def tavli(self) -> TavliMatch:
        """The game's tavli (the referee's state)."""
        ...

    @property
    def committed(self) -> VariantPosition:
        """The game's committed (the referee's state)."""
        ...


class Offers:
    """The cube and resignations of the game at ``table``."""

    def __init__(self, table: OfferTable) -> None:
        self.table = table

    @property
    def may_resign(self) -> bool:
        """Whether the game has resignations: a game with the cube has them (one, two or
        three times its value); Plakoto and Fevga are played out."""
        return self.table.committed.has_cube

    def double(self, color: Color) -> Ruling:
        """``color`` offers a double before rolling."""
        tavli, match, rules = self.table.tavli, self.table.match, self.table.settings.rules
        if refusal := tavli.cube_refusal():
            return Refused(refusal)
        verdict = cube_rules.may_double(match, color, rules)
        if not verdict:
            return Refused(verdict.reason)
        offered = cube_rules.offer_double(match, color, rules)
        return Ruled(EventType.DOUBLE_OFFERED,
                     {"player": color.value, "cube": offered.cube * 2})

    def answer_double(self, color: Color, role: str, *, long: bool) -> Ruling:
        """``color``'s press with a double offered: ROLL takes, a long CUBE beavers (where
        the rules allow it), CUBE drops."""
        match, rules = self.table.match, self.table.settings.rules
        answerer = match.to_act  # the doubled player, or the doubler after a beaver
        if color is not answerer:
            return Refused(f"{answerer.value} must take or drop the double")
        if role == "roll":
            taken = cube_rules.take(match, color)
            return Ruled(EventType.DOUBLE_TAKEN,
                         {"player": color.value, "cube": taken.cube})
        if long and cube_rules.may_beaver(match, color, rules):
            beavered = cube_rules.beaver(match, color, rules)
            return Ruled(EventType.DOUBLE_TAKEN,
                         {"player": color.value, "cube": beavered.cube, "beaver": True})
        return Ruled(EventType.DOUBLE_DROPPED,
                     {"player": color.value, "cube": match.cube * 2})

    def resign_gesture(self, color: Color, role: str, *, long: bool) -> Ruling | None:
        """A press before the roll that chooses, offers or withdraws a resignation; None
        when the press is not one of the gesture's."""
        gesture = self.table.resign.press(self.table.match, color, role, long=long)
        if gesture is None:
            return None
        if gesture.reason:
            return Refused(gesture.reason)
        if gesture.offer:
            return self.offer_resignation(color, gesture.offer)
        return Shown()

    def offer_resignation(self, color: Color, level: Resignation) -> Ruling:
        """``color`` offers to resign ``level`` before its roll."""
        table = self.table
        try:
            _, points = table.resign.offer(table.phase, table.match, color, level)
        except IllegalPlayError as exc:
            return Refused(str(exc))
        return Ruled(EventType.RESIGN_OFFERED,
                     {"player": color.value, "points": points})

    def answer_resignation(self, color: Color, *, accept: bool) -> Ruling:
        """``color`` accepts or declines the resignation on offer."""
        table = self.table
        try:
            _, points, result = table.resign.answer(table.match, color, accept=accept,
                                                           rules=table.settings.rules)
        except IllegalPlayError as exc:
            return Refused(str(exc))
        if result is not None:
            return Ruled(EventType.RESIGN_ACCEPTED,
                         {"player": color.value, "points": points})
        return Ruled(EventType.RESIGN_DECLINED,
                     {"player": color.value, "points": points})
