"""Brightness over time: the timing half of every light pattern.

A :class:`Wave` is a loop of linear segments, played from the moment the
view changed (``GameView.since_ms``), so every frame is a pure function of
the time.  The named waves below are the pattern vocabulary; each meaning
uses a different one where it could share an LED with another, so that a
player who cannot tell the colours apart still reads the board by rhythm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise


@dataclass(frozen=True, slots=True)
class Segment:
    """``ms`` milliseconds ramping linearly from level ``start`` to ``end``."""

    ms: int
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class Wave:
    """A repeating brightness envelope (levels 0..1), one loop per period."""

    segments: tuple[Segment, ...]

    def __post_init__(self) -> None:
        if not self.segments or any(s.ms <= 0 for s in self.segments):
            raise ValueError(f"a wave needs segments of positive length, got {self.segments}")

    @classmethod
    def steps(cls, *steps: tuple[int, float]) -> Wave:
        """A wave of flat steps, each ``(ms, level)``."""
        return cls(tuple(Segment(ms, level, level) for ms, level in steps))

    @property
    def period_ms(self) -> int:
        """The length of one loop."""
        return sum(s.ms for s in self.segments)

    @property
    def steady(self) -> bool:
        """True when the level never changes."""
        levels = {s.start for s in self.segments} | {s.end for s in self.segments}
        return len(levels) == 1

    def level_at(self, elapsed_ms: int) -> float:
        """The level ``elapsed_ms`` after the wave started (negative: the start)."""
        t = max(0, elapsed_ms) % self.period_ms
        for seg in self.segments:
            if t < seg.ms:
                return seg.start + (seg.end - seg.start) * t / seg.ms
            t -= seg.ms
        raise AssertionError("unreachable: t is below the period")


def spans(period_ms: int, on: Iterable[tuple[int, int]], shift_ms: int = 0) -> Wave:
    """A loop of ``period_ms``: on during each ``(start, end)`` span, off between, the
    whole loop started ``shift_ms`` late (so that it begins where a scene lit it)."""
    intervals: list[tuple[int, int]] = []
    for start, end in on:
        if not 0 <= start < end <= period_ms:
            raise ValueError(f"a span must lie inside the loop of {period_ms} ms: {start}..{end}")
        first = (start + shift_ms) % period_ms
        last = first + end - start
        intervals += [(first, last)] if last <= period_ms else [
            (first, period_ms), (0, last - period_ms)]
    cuts = sorted({0, period_ms, *(x for span in intervals for x in span)})
    return Wave.steps(*(
        (b - a, 1.0 if any(s <= a < e for s, e in intervals) else 0.0)
        for a, b in pairwise(cuts)
    ))


def blink(on_ms: int, off_ms: int) -> Wave:
    """On for ``on_ms``, off for ``off_ms``, starting on."""
    return Wave.steps((on_ms, 1.0), (off_ms, 0.0))


STEADY = Wave.steps((1000, 1.0))
"""Always on: a state that simply is (whose turn, the cube, a destination)."""

SLOW_ADD = blink(800, 400)
"""Out of sync, put a checker here: slow, mostly on (1.2 s loop)."""

FAST_REMOVE = blink(150, 150)
"""Out of sync, take a checker away: fast flicker (0.3 s loop)."""

DOUBLE_FLASH = Wave.steps((120, 1.0), (120, 0.0), (120, 1.0), (640, 0.0))
"""One of several candidate plays: two short flashes, then a pause (1 s)."""

TO_BAR_POINT = blink(400, 400)
TO_BAR_BAR = Wave.steps((400, 0.0), (400, 1.0))
"""A hit checker: its point and its bar half take turns (0.8 s loop)."""

ENGINE_FROM = Wave.steps((600, 1.0), (600, 0.15))
ENGINE_TO = Wave.steps((600, 0.15), (600, 1.0))
"""The computer's next checker: its point bright, then its destination (1.2 s loop)."""

ENGINE_TROUBLE = blink(200, 1000)
"""The engine cannot answer: a short flash every 1.2 s on the computer's turn LED."""

OFFER = blink(500, 500)
"""A pending double: the offered cube and the taker's turn, together (1 s)."""

PRESS_DONE = Wave((Segment(1000, 0.1, 1.0), Segment(1000, 1.0, 0.1)))
"""The move is complete, press DONE: a slow breathing pulse (2 s)."""

NO_MOVE = blink(120, 120)
"""The roll cannot be played: the dice flicker fast (0.24 s loop)."""

REJECTED = blink(300, 300)
"""DONE pressed too early: the unused dice blink (0.6 s loop)."""

MATCH_WON = blink(900, 300)
"""The match winner's turn LED and tray: a long, slow beat (1.2 s)."""

CLOCK_LAST = blink(250, 250)
"""The last 30 s of a player's reserve: the cube column's bar blinks (0.5 s loop)."""

WALK_STEP_MS = 1200
WALK_LIT_MS = 500
"""A suggested play walks one checker at a time: in each 1.2 s step the point it
leaves lights 0.5 s, then the point it reaches 0.5 s, then a 0.2 s pause."""

MENU = Wave.steps((700, 1.0), (300, 0.15))
"""The armed MENU's mode on the cube column: on, with a short dip, never dark (1 s)."""

SEEKING = Wave.steps((900, 0.15), (900, 1.0))
"""An opponent sought before the game begins: a slow breath on the cube column (1.8 s)."""

PIN_BREAK = Wave.steps((1400, 1.0), (200, 0.0))
"""A pinned checker's point (Plakoto): on, with a short dark break every 1.6 s."""

FIRST_CHECKER = Wave((Segment(400, 0.15, 1.0), Segment(400, 1.0, 0.15)))
"""Fevga's first checker, the only one that may move: a quick swell (0.8 s), never dark."""
