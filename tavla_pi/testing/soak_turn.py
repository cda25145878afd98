"""The soak's player at the board: a chosen play moved by hand and committed with DONE.

A :class:`HandTurn` carries out the steps of :class:`~tavla_pi.testing.hand.Hand` for
its :class:`~tavla_pi.testing.soak.Session`, looks at the lights as a player would (once
the board has settled), answers the board's question which of several plays it shows,
and presses DONE; every answer of the referee on the way is checked (a lifted checker's
lit destinations, each placement's verdict, never a commit while out of sync).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.replay.actions import (
    SHORT_PRESS_MS,
    Action,
    GlitchAction,
    MoveAction,
    PlaceAction,
    PressAction,
    WaitAction,
)
from tavla_pi.replay.runner import SETTLE_MS
from tavla_pi.rules.color import Color
from tavla_pi.testing.hand import HandStep, done_button
from tavla_pi.testing.scenario_writer import action_json
from tavla_pi.testing.unseen import unseen_placement

if TYPE_CHECKING:
    from tavla_pi.testing.soak import Chosen, Session

DONE_ATTEMPTS = 3
"""How often the hand presses DONE on a complete board before the game counts as stuck."""
CANDIDATES_LIMIT = 8
"""How often the player presses CUBE looking for its play among plays that read the same
(more than the candidates ever are: a board shows two, rarely three)."""
PLAYER_SETTLE_LIMIT_MS = 1000
"""The longest the player waits for the board to settle before looking at the lights."""
GAME_END = frozenset({EventType.PLAYED, EventType.DOUBLE_DROPPED, EventType.GAME_OVER,
                      EventType.MATCH_OVER})


class AbortError(Exception):
    """A failure after which the session cannot go on (the boards disagree)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class HandTurn:
    """The player of ``session`` moving a chosen play by hand (see the module)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def play(self, chosen: Chosen[Any], mover: Color) -> list[Event]:
        """Move ``chosen`` by hand and press DONE until it commits; DONE's events.  A step
        the referee did not answer is a failure of the session's; play goes on."""
        start = len(self.session.events)
        steps = chosen.steps()
        for step in steps:
            self._step(step, mover)
        events = self._done(chosen.notation, mover)
        self.session.counts["illegal_recovered"] += sum(s.what.startswith("illegal")
                                                        for s in steps)
        self._check_sync(self.session.events[start:])
        return events

    def _check_sync(self, events: list[Event]) -> None:
        """The referee never commits while it says the board is out of sync."""
        said = [e.type for e in events
                if e.type in (EventType.OUT_OF_SYNC, EventType.IN_SYNC, EventType.PLAYED)]
        if EventType.OUT_OF_SYNC not in said:
            return
        before = said[:said.index(EventType.PLAYED)]
        if before and before[-1] == EventType.OUT_OF_SYNC:
            self.session.fail("played_out_of_sync", "played while the last word was out_of_sync")
        else:
            self.session.counts["in_sync_again"] += 1

    def _step(self, step: HandStep, mover: Color) -> int:
        """Apply one step of the hand; check the referee answered as it must.

        Returns 1 if the referee failed to answer (a failure, recorded; the
        game goes on, as the hand puts the board right), else 0.
        """
        if step.expect == EventType.REJECTED:
            self._settle()
            if self._ambiguous():  # the board asks which play: a player would not press
                self.session.counts["early_done_skipped"] += 1
                return 0
        try:
            events, down = self._apply(step)
        except AbortError as abort:
            raise AbortError(abort.kind, f"{abort.detail} during {step.what} "
                              f"{_actions_brief(step.actions)}") from None
        if step.carries is not None and step.expect is None:
            self._check_lights(step.carries, [e for e in events if down is None or e.t <= down])
        if step.expect is None:
            return 0
        answered = any(e.type == step.expect and e.fields.get("player", mover.value)
                       == mover.value for e in events)
        answered = answered or (step.expect == EventType.OUT_OF_SYNC and step.carries is not None
                                and self._still_fixing(step.carries[1]))
        self.session.counts[f"{step.what}_answered"] += answered
        if answered:
            return 0
        if step.carries is not None and unseen_placement(self.session.runner.state(), step.carries,
                                                         mover):
            self.session.counts[f"{step.what}_unseen"] += 1
            return 0
        self.session.fail(f"{step.what}_unanswered",
                   f"expected {step.expect} after {step.what} "
                   f"{_actions_brief(step.actions)}, got {brief(events)}")
        return 1

    def _apply(self, step: HandStep) -> tuple[list[Event], int | None]:
        """Apply a step's actions: their events, and when the checker it carries was put
        down where it goes (None if it carries none).

        The lights of a lifted checker are judged as they were while it was in the
        hand: once it is down, the board is another, and a new ``lifted`` may be
        another reading of it (a complete play also reads as a partial one with a
        checker held over the tray).
        """
        events: list[Event] = []
        down = None
        for action in step.actions:
            if down is None and step.carries is not None and _puts_down(action, step.carries[1]):
                settle = SETTLE_MS if isinstance(action, MoveAction) else 0
                down = self.session.runner.clock.now_ms() + settle
            events += self.session.do(action)
        return events, down

    def _still_fixing(self, at: str) -> bool:
        """True when the referee asks to fix ``at`` already (said before, still lit: an
        illegal placement put back where the last one stood within one stable frame)."""
        return any(f["at"] == at for f in self.session.runner.state()["fix"])

    def _check_lights(self, carries: tuple[str, str], events: list[Event]) -> None:
        """A lifted checker's lit destinations include where the hand legally takes it."""
        src, dst = carries
        lifts = [e for e in events if e.type == EventType.LIFTED and e.fields.get("from") == src]
        self.session.counts["lifts_seen"] += bool(lifts)
        if lifts and dst not in lifts[-1].fields.get("destinations", ()):
            self.session.fail("destination_not_lit",
                       f"lifted from {src}, lit {lifts[-1].fields.get('destinations')}, "
                       f"legal to {dst}")

    def _ambiguous(self) -> bool:
        """True when the board asks which of several plays it shows."""
        return bool(self.session.runner.state()["candidates"])

    def _settle(self) -> None:
        """Wait (scan by scan, recorded) until the referee has seen the board as it is.

        One scan at least: right after an action the pipeline has not scanned yet.
        And not before the hand's glitches are over: a phantom where a checker
        was just lifted hides the lift, so the sensors read the board as it was
        and look settled; no player looks at the lights before a phantom
        (a checker carried over the board) is gone, nor while the lights still show
        a provisional board that is not the stable one (a phantom's fixes lit a scan
        after it has gone: session 23000173 read no candidates there and pressed DONE
        without choosing the play).
        """
        pipeline = self.session.runner.pipeline
        for _ in range(PLAYER_SETTLE_LIMIT_MS // SCAN_MS):
            self.session.do(WaitAction(SCAN_MS))
            quiet = self.session.runner.clock.now_ms() >= self.session.glitch_until
            if quiet and self.session.runner.settled and pipeline.shows_stable:
                return

    def _done(self, notation: str, mover: Color) -> list[Event]:
        """Press DONE (confirming the play ``notation`` if the board asks) until it commits."""
        for attempt in range(DONE_ATTEMPTS):
            self._settle()
            self._confirm(notation, mover)
            events = self.session.do(press(done_button(mover)), expect=GAME_END)
            if any(e.type == EventType.PLAYED for e in events):
                return events
            reasons = [e.fields.get("reason") for e in events if e.type == EventType.REJECTED]
            self.session.fail("done_refused", f"DONE on the complete board {notation}: "
                       f"{reasons or [str(e.type) for e in events]} (attempt {attempt + 1})")
            self.session.do(WaitAction(1000))
        raise AbortError("stuck", f"DONE never committed {notation}")

    def _confirm(self, notation: str, mover: Color) -> None:
        """When plays read the same, cycle (CUBE) until the one DONE confirms is ours.

        The lights do not say which play DONE would confirm; this player reads
        it in the state (``confirms``, as the web page has it).
        """
        state = self.session.runner.state()
        if not state["candidates"]:
            return
        self.session.counts["ambiguous_asked"] += 1
        if self.session.naive_done:
            return
        offered: list[str | None] = []
        for _ in range(CANDIDATES_LIMIT):
            offered.append(state["confirms"])
            if offered[-1] == notation or not state["candidates"]:
                return
            self.session.do(press(f"{mover.value}.cube"))
            state = self.session.runner.state()
        raise AbortError("wrong_belief", f"asked, DONE offered {offered}, not {notation}")


def brief(events: Iterable[Event]) -> list[dict[str, Any]]:
    """``events`` as dicts for a failure's detail (the lifts left out)."""
    return [e.to_dict() for e in events if e.type != EventType.LIFTED]


def _actions_brief(actions: Iterable[Action]) -> list[dict[str, Any]]:
    return [action_json(a) for a in actions if not isinstance(a, WaitAction | GlitchAction)]


def _puts_down(action: Action, at: str) -> bool:
    """True if ``action`` puts a checker down at ``at`` (a placement, or a whole move)."""
    match action:
        case PlaceAction(location):
            return location == at
        case MoveAction(_, target):
            return target == at
    return False


def press(button: str) -> PressAction:
    """A short press of ``button``."""
    return PressAction(button, SHORT_PRESS_MS, long=False)
