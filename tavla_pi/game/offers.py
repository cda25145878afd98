"""The referee's part that answers the cube and resignations (a double offered, taken,
beavered or dropped; a resignation chosen, offered, accepted or declined)."""

from __future__ import annotations

from tavla_pi.errors import IllegalPlayError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.refereebase import RefereeBase
from tavla_pi.game.view import Phase
from tavla_pi.rules import Resignation
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.color import Color


class Offers(RefereeBase):
    """The cube and resignations, for :class:`~tavla_pi.game.referee.Referee`."""

    def _offer_double(self, color: Color) -> None:
        if not self.tavli.cube_allowed:
            self._reject(color, f"no cube in {self.tavli.variant}"
                         + (" in a tavli match" if self.tavli.variant == "portes" else ""))
            return
        verdict = cube_rules.may_double(self.match, color, self.settings.rules)
        if not verdict:
            self._reject(color, verdict.reason)
            return
        self.match = cube_rules.offer_double(self.match, color, self.settings.rules)
        self._emit(EventType.DOUBLE_OFFERED, player=color.value, cube=self.match.cube * 2)
        self._enter(Phase.DOUBLE_OFFERED)

    def _answer_double(self, color: Color, role: str, long: bool) -> None:
        answerer = self.match.to_act  # the doubled player, or the doubler after a beaver
        if color is not answerer:
            self._reject(color, f"{answerer.value} must take or drop the double")
        elif role == "roll":
            self.match = cube_rules.take(self.match, color)
            self._emit(EventType.DOUBLE_TAKEN, player=color.value, cube=self.match.cube)
            self._enter(Phase.AWAIT_ROLL)
        elif long and cube_rules.may_beaver(self.match, color, self.settings.rules):
            self.match = cube_rules.beaver(self.match, color, self.settings.rules)
            self._emit(EventType.DOUBLE_TAKEN, player=color.value, cube=self.match.cube,
                       beaver=True)
        else:
            cube = self.match.cube * 2
            self.match, result = cube_rules.drop(self.match, color, self.settings.rules)
            self._emit(EventType.DOUBLE_DROPPED, player=color.value, cube=cube)
            self._game_over(result)

    def _resign_gesture(self, color: Color, role: str, long: bool) -> bool:
        """A press before the roll that chooses, offers or withdraws a resignation."""
        gesture = self.resign.press(self.match, color, role, long)
        if gesture is None:
            return False
        if gesture.reason:
            self._reject(color, gesture.reason)
        elif gesture.offer:
            self._offer_resignation(color, gesture.offer)
        return True

    def _offer_resignation(self, color: Color, level: Resignation) -> None:
        try:
            self.match, points = self.resign.offer(self.phase, self.match, color, level)
        except IllegalPlayError as exc:
            self._reject(color, str(exc))
            return
        self._emit(EventType.RESIGN_OFFERED, player=color.value, points=points)
        self._enter(Phase.RESIGN_OFFERED)

    def _answer_resignation(self, color: Color, accept: bool) -> None:
        try:
            self.match, points, result = self.resign.answer(self.match, color, accept,
                                                            self.settings.rules)
        except IllegalPlayError as exc:
            self._reject(color, str(exc))
            return
        if result is not None:
            self._emit(EventType.RESIGN_ACCEPTED, player=color.value, points=points)
            self._game_over(result)
        else:
            self._emit(EventType.RESIGN_DECLINED, player=color.value, points=points)
            self._enter(Phase.AWAIT_ROLL)

    def offer_resignation(self, color: Color, level: Resignation, now: int) -> list[Event]:
        """``color`` (the computer) offers to resign ``level`` before its roll."""
        self._now = now
        self._offer_resignation(color, level)
        return self._flush()

    def answer_resignation(self, color: Color, accept: bool, now: int) -> list[Event]:
        """``color`` (the computer) accepts or declines the resignation on offer."""
        self._now = now
        self._answer_resignation(color, accept)
        return self._flush()
