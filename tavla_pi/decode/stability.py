"""Pass an observation on only once it has held still: glitches never reach the game."""

from __future__ import annotations

from tavla_pi.clock import Clock
from tavla_pi.decode.observation import Observation

STABLE_MS = 150


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
