"""How fast the board answers a hand, in virtual time: ``tavla-pi replay --timings``.

A :class:`Timeline` is told each thing the hand does (a :class:`Mark`: a checker
lifted or placed, a button pressed or released) and, after every scan, the events
of the scan, the game's own view (what it decided on the stable board) and the view
the LED frame was rendered from.  Per kind of answer it keeps two latencies from
the hand's action: to the *event*, the scan in which the game answered on the
stable board (its event, where the answer has one: ``lifted``, ``out_of_sync``,
``played``, ``in_sync``), and to the first *frame* that shows the answer.

The answers counted are those the game gave before the hand's next action: a
lift answered only after the checker was put down again is counted apart, as a
quick lift, with whether the frame lit it meanwhile.  The frame's p99 is also
given for the answers no phantom reading (a ``glitch``) overlapped: the lights
show a phantom as long as it lasts, and one of the mover's colour beside a
lift reads as a move.  A frame is rendered from
its view in the same scan, so the view stands for the frame.

A :class:`FlickerCount` watches the same scans for lights that came on and went
out again within :data:`FLICKER_MS` with no action of the hand to put them out
(the soak reports them per 1,000 plays).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.view import GameView, Phase
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.rules.color import Color

LIFT = "lift -> destinations"
PLACE = "place -> verdict"
HIT = "hit -> put it on the bar"
DONE_RELEASE = "DONE -> committed (from the release)"
DONE_PRESS = "DONE -> committed (from the press)"
FIX = "fix -> in sync"
ANSWERS = (LIFT, PLACE, HIT, DONE_RELEASE, DONE_PRESS, FIX)
"""The kinds of answer, in the order the table lists them."""
NOT_PLAYING = frozenset({Phase.SETUP, Phase.GAME_OVER, Phase.MATCH_OVER})
"""Phases whose lights are no answer to a hand's move (setting up, a game's end)."""

FLICKER_MS = 100
"""A light withdrawn sooner than this after it came on flickered."""

ViewTest = Callable[[GameView], bool]


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing the hand did at ``t_ms``: ``kind`` is ``lift``, ``place``, ``press``,
    ``release``, ``glitch`` (a phantom reading for ``ms``) or ``other`` (setting up,
    loading); ``where`` a location or a button; ``hands`` the checkers held after
    it, White's and Black's."""

    kind: str
    t_ms: int
    where: str = ""
    color: Color | None = None
    hands: tuple[int, int] = (0, 0)
    ms: int = 0


class Watcher(Protocol):
    """What a replay tells about itself, action by action and scan by scan."""

    def mark(self, mark: Mark, stable: GameView) -> None:
        """The hand did something; ``stable`` is the game's view just before."""

    def scan(self, t_ms: int, events: Iterable[Event], stable: GameView,
             shown: GameView) -> None:
        """One scan ran: its events, the game's view and the view the frame shows."""


@dataclass
class Latencies:
    """The latencies of one kind of answer, in virtual ms."""

    event: list[int] = field(default_factory=list)
    frame: list[int] = field(default_factory=list)
    clear: list[int] = field(default_factory=list)
    """The frame latencies of the answers no phantom reading (a glitch) overlapped."""
    unlit: int = 0
    """Answers the game gave that no frame showed before the hand's next action."""


@dataclass(frozen=True, slots=True)
class _Scan:
    t_ms: int
    stable: GameView
    shown: GameView


@dataclass
class _Window:
    """A lift or a placement, and the scans until the hand's next action."""

    mark: Mark
    before: GameView
    scans: list[_Scan] = field(default_factory=list)


@dataclass
class _Done:
    """A DONE press while moving: when it was pressed, released, committed, shown."""

    press_ms: int
    release_ms: int | None = None
    played_ms: int | None = None
    frame_ms: int | None = None


class Timeline:
    """Latencies per kind of answer, from the marks and scans of one or more replays."""

    def __init__(self) -> None:
        self.answers: dict[str, Latencies] = {kind: Latencies() for kind in ANSWERS}
        self.quick_lifts = 0
        """Lifts the game answered only after the hand's next action (or never)."""
        self.quick_lit = 0
        """Of those, the ones a frame lit before the hand's next action."""
        self._window: _Window | None = None
        self._done: _Done | None = None
        self._phantoms: list[tuple[int, int]] = []

    # -- what the runner reports -----------------------------------------------------

    def mark(self, mark: Mark, stable: GameView) -> None:
        """The hand did something; ``stable`` is the game's view just before."""
        if mark.kind == "glitch":
            self._phantoms = [(a, b) for a, b in self._phantoms if b > mark.t_ms - 1000]
            self._phantoms.append((mark.t_ms, mark.t_ms + mark.ms))
            return
        self._close_window()
        if mark.kind == "release":
            if self._done is not None and self._done.release_ms is None:
                self._done.release_ms = mark.t_ms
            return
        self._close_done()
        if mark.kind == "press" and stable.phase is Phase.MOVING and stable.on_roll is not None \
                and mark.where == f"{stable.on_roll.value}.roll":
            self._done = _Done(mark.t_ms)
        elif mark.kind in ("lift", "place"):
            self._window = _Window(mark, stable)

    def scan(self, t_ms: int, events: Iterable[Event], stable: GameView,
             shown: GameView) -> None:
        """One scan ran: its events, the game's view and the view shown."""
        if self._window is not None:
            self._window.scans.append(_Scan(t_ms, stable, shown))
        done = self._done
        if done is None:
            return
        if done.played_ms is None and any(e.type == EventType.PLAYED for e in events):
            done.played_ms = t_ms
        if done.played_ms is not None and done.frame_ms is None \
                and shown.phase is not Phase.MOVING:
            done.frame_ms = t_ms

    def close(self) -> None:
        """The replay is over: count what is still open."""
        self._close_window()
        self._close_done()

    # -- answers ---------------------------------------------------------------------

    def _close_done(self) -> None:
        done, self._done = self._done, None
        if done is None or done.played_ms is None:
            return
        self._add_done(DONE_PRESS, done.press_ms, done)
        if done.release_ms is not None:
            self._add_done(DONE_RELEASE, done.release_ms, done)

    def _add_done(self, kind: str, since: int, done: _Done) -> None:
        answer = self.answers[kind]
        assert done.played_ms is not None
        answer.event.append(done.played_ms - since)
        if done.frame_ms is None:
            answer.unlit += 1
        else:
            answer.frame.append(done.frame_ms - since)
            answer.clear.append(done.frame_ms - since)

    def _close_window(self) -> None:
        window, self._window = self._window, None
        if window is None or not window.scans:
            return
        found = _answer(window)
        if found is None:
            return
        kind, check = found
        t0 = window.mark.t_ms
        event = _first(window.scans, lambda s: check(s.stable))
        frame = _first(window.scans, lambda s: check(s.shown))
        if event is None:
            if kind == LIFT:
                self.quick_lifts += 1
                self.quick_lit += frame is not None
            return
        answer = self.answers[kind]
        answer.event.append(event - t0)
        if frame is None:
            answer.unlit += 1
            return
        answer.frame.append(frame - t0)
        if not any(a <= max(event, frame) and b > t0 for a, b in self._phantoms):
            answer.clear.append(frame - t0)

    # -- the table -------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Per kind: how many answers, median, p99 and max of both latencies (ms)."""
        out: dict[str, Any] = {}
        for kind, answer in self.answers.items():
            out[kind] = {"answers": len(answer.event), "event": _stats(answer.event),
                         "frame": _stats(answer.frame), "clear": _stats(answer.clear),
                         "unlit": answer.unlit}
        out["quick_lifts"] = {"lifts": self.quick_lifts, "lit": self.quick_lit}
        return out

    def table(self) -> str:
        """The latency table, as ``tavla-pi replay --timings`` prints it."""
        head = (f"{'answer (virtual ms from the hand)':<38} {'n':>5}   "
                f"{'event: median':>13} {'p99':>5} {'max':>5}   "
                f"{'frame: median':>13} {'p99':>5} {'max':>5}   {'no phantom: p99':>15}")
        lines = [head]
        for kind, answer in self.answers.items():
            event, frame, clear = (_stats(answer.event), _stats(answer.frame),
                                   _stats(answer.clear))
            lines.append(f"{kind:<38} {len(answer.event):>5}   {_row(event, 13)}   "
                         f"{_row(frame, 13)}   {clear['p99'] if clear else '-':>15}"
                         + (f"   ({answer.unlit} not lit)" if answer.unlit else ""))
        lines.append(f"quick lifts (put down before the game answered): {self.quick_lifts}, "
                     f"lit by a frame meanwhile: {self.quick_lit}")
        return "\n".join(lines)


def _answer(window: _Window) -> tuple[str, ViewTest] | None:
    """What the game is to answer the window's action with, and how to tell a view shows
    it (None: no answer of a kind counted)."""
    mark, before = window.mark, window.before
    if before.phase in NOT_PLAYING:
        return None
    last = _lit(window.scans[-1].stable)
    if before.fixes:
        return FIX, lambda v: not v.fixes
    if before.phase is not Phase.MOVING or before.on_roll is None:
        return None
    if not before.to_bar and last.to_bar:
        return HIT, lambda v: bool(v.to_bar)
    return _movers_answer(mark, before, last) if mark.color is before.on_roll else None


def _movers_answer(mark: Mark, before: GameView, last: GameView) -> tuple[str, ViewTest] | None:
    """A lift of one of the mover's checkers, or the placement that empties the hands."""
    assert before.on_roll is not None
    held = _hands(mark, before.on_roll)
    if mark.kind == "lift" and held == (1, 0) and before.lifted_from != mark.where:
        return LIFT, lambda v: v.lifted_from == mark.where
    if mark.kind == "place" and held == (0, 0) and last.lifted_from is None \
            and last != _lit(before):
        return PLACE, lambda v: _lit(v) == last
    return None


def _hands(mark: Mark, mover: Color) -> tuple[int, int]:
    white, black = mark.hands
    return (white, black) if mover is Color.WHITE else (black, white)


def _lit(view: GameView) -> GameView:
    """The view less what only time changes (the blinking dice)."""
    return replace(view, dice_blink=False) if view.dice_blink else view


def _first(scans: list[_Scan], check: Callable[[_Scan], bool]) -> int | None:
    return next((s.t_ms for s in scans if check(s)), None)


def _stats(values: list[int]) -> dict[str, int] | None:
    """Median, p99 (nearest rank) and max; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(math.ceil(0.99 * len(ordered)) - 1, 0)
    return {"median": ordered[(len(ordered) - 1) // 2], "p99": ordered[rank],
            "max": ordered[-1]}


def _row(stats: dict[str, int] | None, width: int) -> str:
    if stats is None:
        return f"{'-':>{width}} {'-':>5} {'-':>5}"
    return f"{stats['median']:>{width}} {stats['p99']:>5} {stats['max']:>5}"


class FlickerCount:
    """Lights that flickered: came on and went out again within :data:`FLICKER_MS`
    while the hand did nothing.

    A light is one thing the frame shows: a lifted checker's origin, each lit
    destination, each fix, each hit checker to put on the bar, each candidate,
    "press DONE".  One the hand's own action put out is no flicker, however short
    its life: a checker lifted and put down again within 100 ms lit its
    destinations, and they went out because the play went on.  A light counts
    once the hand has done nothing (no lift, place, press or release) since the scan
    before it came on (the earliest that could still have lit it): nothing but the
    board's reading changed, so the lights followed a board that was not there.
    ``followed`` counts the short-lived lights the hand put out, apart.
    ``unseen`` counts the flickers the game's own (stable) view never showed;
    ``phantom`` those lit while a phantom reading (a ``glitch`` mark) stood.
    """

    def __init__(self) -> None:
        self.flickers = 0
        self.followed = 0
        self.unseen = 0
        self.phantom = 0
        self._on: dict[tuple[str, str], tuple[int, bool]] = {}
        self._phantoms: list[tuple[int, int]] = []
        self._acted = -1_000_000
        """When the hand last did something."""

    def mark(self, mark: Mark, stable: GameView) -> None:
        """Remember when phantom readings stand and when the hand last acted."""
        if mark.kind == "glitch":
            self._phantoms = [(a, b) for a, b in self._phantoms if b > mark.t_ms - 1000]
            self._phantoms.append((mark.t_ms, mark.t_ms + mark.ms))
        else:
            self._acted = mark.t_ms

    def scan(self, t_ms: int, events: Iterable[Event], stable: GameView,
             shown: GameView) -> None:
        """Follow every light of the frame on and off."""
        now, decided = lights(shown), lights(stable)
        for light in [k for k in self._on if k not in now]:
            since, seen = self._on.pop(light)
            if t_ms - since >= FLICKER_MS:
                continue
            if self._acted > since - SCAN_MS:
                self.followed += 1
                continue
            self.flickers += 1
            self.unseen += not seen
            self.phantom += any(a <= t_ms and b >= since for a, b in self._phantoms)
        for light in now:
            since, seen = self._on.get(light, (t_ms, False))
            self._on[light] = (since, seen or light in decided)


def lights(view: GameView) -> frozenset[tuple[str, str]]:
    """The lights a view asks for, each as (what, where)."""
    found = {("destination", d) for d in view.destinations}
    found |= {("fix", f"{f.at} {f.color.value} {f.delta:+d}") for f in view.fixes}
    found |= {("to_bar", p) for p in view.to_bar}
    found |= {("candidate", c) for c in view.candidates}
    if view.lifted_from is not None:
        found.add(("lifted", view.lifted_from))
    if view.press_done:
        found.add(("press_done", ""))
    return frozenset(found)
