"""The tournament clock of a match: a delay per turn, then a reserve per player.

A simple-delay clock as the U.S. Backgammon Clock Rules (March 2013) describe it
(docs/CLOCK.md cites them): each player has a reserve of ``reserve_s_per_point``
seconds per point of the match; whenever a player's time starts to run, the first
``delay_s`` seconds of it are free, and only then does the reserve run down.  A
player whose reserve runs out loses the match (the flag falls).

:class:`MatchClock` is a value computed from injected times: every method takes
``now`` (monotonic milliseconds, as the referee's calls carry it) and returns a new
clock.  The referee decides whose time runs
(:func:`tavla_pi.game.transitions.clock_side`); only the colours
this board times run (not the computer's; with a friend's board, only the own
player's).  The ``clock`` event holds the figures with the wall-clock time they were
made, so that a resume counts the time that ran through a power cut
(:meth:`MatchClock.resumed`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tavla_pi.rules.color import Color

DELAY_S = 12
"""The delay each turn gives before the reserve runs (USBGF: 12 seconds per move)."""
RESERVE_S_PER_POINT = 120
"""The reserve per point of the match (USBGF: two minutes per match point)."""
MAX_DELAY_S = 600
MAX_RESERVE_S_PER_POINT = 3600
LAST_SECONDS_MS = 30_000
"""In the last 30 seconds of a reserve the cube column's bar blinks."""
BAR_LEDS = 6
"""The cube column's value LEDs (2 .. 64) the reserve's bar is drawn on."""
FLAG_KIND = "time"
"""The ``reason`` of a ``match_over`` that a flag fall decided, and the kind of its result."""


@dataclass(frozen=True, slots=True)
class ClockRules:
    """The time control of a match: ``delay_s`` per turn, ``reserve_s_per_point`` per
    point of the match length (whole seconds)."""

    delay_s: int = DELAY_S
    reserve_s_per_point: int = RESERVE_S_PER_POINT

    def __post_init__(self) -> None:
        if not 0 <= self.delay_s <= MAX_DELAY_S:
            raise ValueError(f"clock delay_s: expected 0..{MAX_DELAY_S}, got {self.delay_s}")
        if not 1 <= self.reserve_s_per_point <= MAX_RESERVE_S_PER_POINT:
            raise ValueError(f"clock reserve_s_per_point: expected 1..{MAX_RESERVE_S_PER_POINT},"
                             f" got {self.reserve_s_per_point}")

    @property
    def delay_ms(self) -> int:
        """The delay in milliseconds."""
        return self.delay_s * 1000

    def reserve_ms(self, match_length: int) -> int:
        """Each player's reserve at the start of a match of ``match_length`` points."""
        return self.reserve_s_per_point * 1000 * match_length

    def fields(self) -> dict[str, int]:
        """The rules as JSON (``new_match``'s ``clock``, a scenario's ``setup``)."""
        return {"delay_s": self.delay_s, "reserve_s_per_point": self.reserve_s_per_point}

    @classmethod
    def from_fields(cls, data: Any) -> ClockRules:
        """The rules of a JSON object ``{"delay_s": 12, "reserve_s_per_point": 120}`` (either
        key may be absent: its default); ValueError names the key at fault."""
        if not isinstance(data, dict):
            raise ValueError('expected an object {"delay_s": 12, "reserve_s_per_point": 120}')
        unknown = sorted(set(data) - {"delay_s", "reserve_s_per_point"})
        if unknown:
            raise ValueError(f"clock: unknown key {unknown[0]!r}")
        values = {"delay_s": data.get("delay_s", DELAY_S),
                  "reserve_s_per_point": data.get("reserve_s_per_point", RESERVE_S_PER_POINT)}
        for key, value in values.items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"clock {key}: expected whole seconds, got {value!r}")
        return cls(**values)


def timed_colors(opponent: Color | None) -> frozenset[Color]:
    """The colours whose time this board runs, ``opponent`` being the colour the computer
    or a friend's board plays (None: two players here): not the computer's, and with a
    friend's board only the own player's (the friend's board runs the friend's)."""
    return frozenset(c for c in Color if c is not opponent)


def _pair(white: int, black: int, color: Color, value: int) -> tuple[int, int]:
    return (value, black) if color is Color.WHITE else (white, value)


@dataclass(frozen=True, slots=True)
class MatchClock:
    """The clock of a match at monotonic time ``since`` (ms).

    ``reserve`` is White's and Black's reserve left (ms); ``running`` the colour whose
    time runs (None: nobody's, or a colour this board does not time), with ``delay``
    ms of its delay left; ``timed`` the colours this board times; ``flag`` the colour
    whose reserve ran out (the match is lost; the clock then stands still).
    """

    rules: ClockRules
    reserve: tuple[int, int]
    timed: frozenset[Color]
    running: Color | None = None
    delay: int = 0
    since: int = 0
    flag: Color | None = None

    @classmethod
    def started(cls, rules: ClockRules, match_length: int, timed: frozenset[Color],
                now: int) -> MatchClock:
        """The clock of a new match of ``match_length`` points (1 or more), standing."""
        if match_length < 1:
            raise ValueError("a clock needs a match of 1 point or more (money play has none)")
        full = rules.reserve_ms(match_length)
        return cls(rules, (full, full), timed, since=now)

    def reserve_of(self, color: Color) -> int:
        """``color``'s reserve left at ``since`` (ms)."""
        return self.reserve[0] if color is Color.WHITE else self.reserve[1]

    def at(self, now: int) -> MatchClock:
        """The clock brought up to ``now``: the running side's delay spent first, then
        its reserve; the flag falls when the reserve is gone."""
        running = self.running
        elapsed = now - self.since
        if running is None or elapsed <= 0:
            return replace(self, since=max(now, self.since))
        from_delay = min(self.delay, elapsed)
        left = self.reserve_of(running) - (elapsed - from_delay)
        reserve = _pair(*self.reserve, running, max(0, left))
        if left <= 0:
            return replace(self, reserve=reserve, running=None, delay=0, since=now,
                           flag=running)
        return replace(self, reserve=reserve, delay=self.delay - from_delay, since=now)

    def lost_on_time(self, color: Color, now: int) -> MatchClock:
        """The clock at ``now`` once ``color``'s flag fell where another board times it
        (a friend's board): its reserve gone, the clock standing."""
        clock = self.at(now)
        if clock.flag is not None:
            return clock
        return replace(clock, reserve=_pair(*clock.reserve, color, 0), running=None, delay=0,
                       flag=color)

    def falls_at(self) -> int | None:
        """When the running side's flag falls if nobody presses first (None: no time runs)."""
        if self.running is None:
            return None
        return self.since + self.delay + self.reserve_of(self.running)

    def switched(self, side: Color | None, now: int) -> MatchClock:
        """The clock once ``side``'s time starts to run at ``now`` (None: it stops), with a
        fresh delay; a colour this board does not time runs no clock here."""
        clock = self.at(now)
        if clock.flag is not None:
            return clock
        running = side if side in self.timed else None
        return replace(clock, running=running,
                       delay=self.rules.delay_ms if running is not None else 0)

    def resumed(self, elapsed_ms: int, now: int) -> MatchClock:
        """The clock after a restart at ``now``: ``elapsed_ms`` (the wall-clock time since
        the figures were made; a clock gone backwards counts 0) ran for the running side:
        the figures as of ``now - elapsed_ms`` (:meth:`at` brings them up, and a flag that
        fell meanwhile falls at its first call)."""
        return replace(self, since=now - max(0, elapsed_ms))

    def fields(self, wall_ms: int) -> dict[str, Any]:
        """The ``clock`` event's fields of these figures (bring them to now first)."""
        return {"reserve_ms": {"white": self.reserve[0], "black": self.reserve[1]},
                "running": self.running.value if self.running is not None else None,
                "delay_ms": self.delay,
                "flag": self.flag.value if self.flag is not None else None,
                "wall_ms": wall_ms}

    @classmethod
    def from_fields(cls, rules: ClockRules, timed: frozenset[Color], fields: Mapping[str, Any],
                    t: int) -> MatchClock:
        """The clock a ``clock`` event at ``t`` records (its fields checked by the schema)."""
        reserve = fields["reserve_ms"]
        running, flag = fields["running"], fields["flag"]
        return cls(rules, (int(reserve["white"]), int(reserve["black"])), timed,
                   running=Color(running) if running is not None else None,
                   delay=int(fields["delay_ms"]) if running is not None else 0, since=t,
                   flag=Color(flag) if flag is not None else None)

    def state(self, now: int) -> dict[str, Any]:
        """``/api/state``'s ``clock`` at ``now`` (seconds to 0.1 s, docs/CLOCK.md)."""
        clock = self.at(now)
        return {"delay_s": self.rules.delay_s,
                "reserve_s_per_point": self.rules.reserve_s_per_point,
                "reserve_s": {"white": _seconds(clock.reserve[0]),
                              "black": _seconds(clock.reserve[1])},
                "delay_left_s": _seconds(clock.delay) if clock.running is not None else None,
                "running": clock.running.value if clock.running is not None else None,
                "flag": clock.flag.value if clock.flag is not None else None,
                "timed": [c.value for c in Color if c in self.timed]}

    def bar(self, now: int, match_length: int) -> tuple[Color, int, bool] | None:
        """The cube column's bar at ``now``: the running side, how many of the column's
        LEDs its reserve left lights (of :data:`BAR_LEDS`, the full reserve all) and
        whether it blinks (the last 30 s); None unless a reserve runs (the delay spent)."""
        clock = self.at(now)
        running = clock.running
        if running is None or clock.delay > 0:
            return None
        left, full = clock.reserve_of(running), self.rules.reserve_ms(max(1, match_length))
        lit = max(1, min(BAR_LEDS, math.ceil(BAR_LEDS * left / full)))
        return running, lit, left <= LAST_SECONDS_MS


def _seconds(ms: int) -> float:
    return round(ms / 1000, 1)
