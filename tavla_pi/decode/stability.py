"""Two speeds of the same board: stable for decisions, provisional for the lights.

:class:`StabilityFilter` passes an observation on only once it has held still for
``stable_ms`` (150 ms): glitches never reach the game's decisions.
:class:`ProvisionalFilter` passes it on once :data:`PROVISIONAL_SCANS` scans in a
row agree: the lights follow a hand within two scans, and a glitch can make them
flicker, never decide (hardware/GEOMETRY.md, "How fast the board answers").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from tavla_pi.clock import Clock
from tavla_pi.decode.observation import Observation, Reading
from tavla_pi.rules.board import POINTS
from tavla_pi.rules.color import Color

STABLE_MS = 150
PROVISIONAL_SCANS = 2
"""Scans in a row that must decode the same board before the lights show it.

Why two.  A checker lifted or placed moves its pocket's reading by a whole
checker's field, more than 1,300 counts, against 6 counts rms of noise: over 200
sigma.  The decoder's running mean restarts on any jump past 4 sigma and its
thresholds sit 4.5 sigma (plus the parts' tolerances) inside the gaps between
levels, so the first scan after a clean change already decodes the new board,
and noise alone never moves a reading across a level.  One scan could then be
enough; the second makes sure the reading held for a scan period (20 ms) and is
not a one-scan event: a checker swept over a pocket, a magnet caught half way
up, a bad conversion.  A third would add 20 ms to every answer and reject only
glitches between 20 and 40 ms, out of the 10 to 140 ms the soak's glitches last;
the rest only the stable filter's 150 ms can keep from the game, and does.  So
the lights answer 20 to 40 ms after a change (40 ms in a replay, whose actions
fall on a scan), well inside 80 ms.
"""


class StabilityFilter:
    """Holds back observations until they have been the same for ``stable_ms``.

    Feed every decoded frame to :meth:`update`; it returns an observation
    the first time that observation has been seen unchanged for
    ``stable_ms`` on the injected clock, and ``None`` otherwise.  A phantom
    reading shorter than ``stable_ms`` is never passed on; neither is the
    same board twice in a row.
    """

    def __init__(self, clock: Clock, stable_ms: int = STABLE_MS) -> None:
        if stable_ms < 0:
            raise ValueError(f"stable_ms must be >= 0, got {stable_ms}")
        self.stable_ms = stable_ms
        self._clock = clock
        self._candidate: Observation | None = None
        self._since = 0
        self._stable: Observation | None = None

    def update(self, observation: Observation) -> Observation | None:
        """Feed one observation; the newly stable observation, if any."""
        now = self._clock.now_ms()
        if observation != self._candidate:
            self._candidate, self._since = observation, now
        if now - self._since < self.stable_ms or self._candidate == self._stable:
            return None
        self._stable = self._candidate
        return self._stable

    @property
    def stable(self) -> Observation | None:
        """The last observation passed on (``None`` before the first)."""
        return self._stable


class ProvisionalFilter:
    """The board as the lights show it: each location's reading once ``scans`` scans in
    a row (:data:`PROVISIONAL_SCANS`) have read it the same.

    Feed every decoded frame to :meth:`update`; :attr:`current` is the board of the
    readings agreed on so far (``None`` until the first scans agree everywhere).  A
    location is taken on its own: a checker placed on one point is lit after two
    scans even while a phantom comes or goes on another (with the whole board as the
    unit, the phantom's coming or going would restart the count).  Never an input
    to a decision: only :class:`StabilityFilter` feeds the game.
    """

    def __init__(self, scans: int = PROVISIONAL_SCANS) -> None:
        if scans < 1:
            raise ValueError(f"scans must be >= 1, got {scans}")
        self.scans = scans
        self._last: Observation | None = None
        self._scan = 0
        self._since: dict[str, int] = {}
        """The scan from which each location has read as it does in ``_last``."""
        self._current: Observation | None = None
        self._began: dict[str, int] = {}
        """The scan from which each location has read as it does in ``_current``."""

    def update(self, observation: Observation) -> Observation | None:
        """Feed one observation; the provisional board after it."""
        self._scan += 1
        last, self._last = self._last, observation
        if last is None:
            self._since = dict.fromkeys(SENSED_LOCATIONS, self._scan)
        elif observation != last:
            for place in changed_places(last, observation):
                self._since[place] = self._scan
        if self._current is None:
            if self._held(SENSED_LOCATIONS):
                self._current, self._began = observation, dict(self._since)
            return self._current
        if observation != self._current:
            self._accept(observation)
        return self._current

    def _accept(self, observation: Observation) -> None:
        assert self._current is not None
        pending = changed_places(self._current, observation)
        ready = frozenset(p for p in pending if self._held((p,)))
        self._began.update((p, self._since[p]) for p in ready)
        if len(ready) == len(pending):
            self._current = observation
        elif ready:
            self._current = blend(self._current, observation, ready)

    def _held(self, places: Iterable[str]) -> bool:
        return all(self._scan - self._since[p] + 1 >= self.scans for p in places)

    @property
    def current(self) -> Observation | None:
        """The board of the readings agreed on (``None`` before the first)."""
        return self._current

    def began(self, place: str) -> int:
        """The scan (counted from the first) from which ``place`` has read as
        :attr:`current` has it: which of two changes came first."""
        return self._began.get(place, 0)


SENSED_LOCATIONS = (*POINTS, "bar")
"""The locations :func:`changed_places` names, in board order."""

BLEND_LIMIT = 4
"""The most locations a provisional board may differ from the stable one in for
:func:`blends` to offer readings with some of those changes left out."""


def changed_places(base: Observation, new: Observation) -> tuple[str, ...]:
    """The locations ("1".."24", "bar": both halves as one) whose readings or faults
    differ between two observations, in board order."""
    out = [str(n) for n, (a, b) in enumerate(zip(base.points, new.points, strict=True), 1)
           if a != b or _faults_at(base, str(n)) != _faults_at(new, str(n))]
    if (base.bar_white, base.bar_black, _faults_at(base, "bar")) != \
            (new.bar_white, new.bar_black, _faults_at(new, "bar")):
        out.append("bar")
    return tuple(out)


def blend(base: Observation, new: Observation, places: frozenset[str]) -> Observation:
    """``base`` with the readings and faults of ``places`` taken from ``new``."""
    def pick(place: str, a: Reading, b: Reading) -> Reading:
        return b if place in places else a

    points = tuple(pick(str(n), a, b)
                   for n, (a, b) in enumerate(zip(base.points, new.points, strict=True), 1))
    faults = [f for f in base.faults if f.location not in places]
    faults += [f for f in new.faults if f.location in places]
    return Observation(points, pick("bar", base.bar_white, new.bar_white),
                       pick("bar", base.bar_black, new.bar_black),
                       tuple(sorted(faults, key=lambda f: (f.sensor, f.kind))))


def blends(base: Observation, new: Observation, mover: Color, spare: int,
           began: Callable[[str], int] = lambda place: 0) -> list[Observation]:
    """``base`` with some of the changes ``new`` brings: proper, non-empty parts of
    them, the largest first (none when they are one, or more than
    :data:`BLEND_LIMIT` locations).  The lights try these when the provisional board
    makes no sense: a phantom beside a real lift leaves the lift.

    Checkers are conserved: ``spare`` is how many of the ``mover``'s checkers the
    hand may hold over ``base`` (a lifted one).  A part never adds more of them than
    that; and while all the changes together add no more, none of those adding one
    is left out (a checker that left one place and appeared at another is the
    hand's move, not a phantom), unless it appeared before any left (``began``: the
    scan from which a place has read as ``new`` has it): a checker cannot arrive
    before it is lifted, so that one is a phantom.  One that appeared in the same
    scan as the lift no board can tell from a move made within a scan, and a move
    it is taken for: the lights may then show a fix until the phantom goes."""
    changed = changed_places(base, new)
    if len(changed) > BLEND_LIMIT:
        return []
    gain = {p: _low(new, p, mover) - _low(base, p, mover) for p in changed}
    lifted = [began(p) for p in changed if gain[p] < 0]
    moved = {p for p in changed if gain[p] > 0 and (not lifted or began(p) >= min(lifted))} \
        if sum(gain.values()) <= spare else set()
    out = []
    for size in range(len(changed) - 1, 0, -1):
        for part in combinations(changed, size):
            if sum(gain[p] for p in part) <= spare and moved <= set(part):
                out.append(blend(base, new, frozenset(part)))
    return out


def _low(obs: Observation, place: str, color: Color) -> int:
    """The fewest checkers of ``color`` the observation reads at ``place``."""
    readings = (obs.bar_white, obs.bar_black) if place == "bar" else (obs.point(int(place)),)
    return sum(r.count.low if r.color is color else r.other.low if r.color is not None else 0
               for r in readings)


def _faults_at(obs: Observation, place: str) -> list[tuple[int, str]]:
    return sorted((f.sensor, f.kind) for f in obs.faults if f.location == place)
