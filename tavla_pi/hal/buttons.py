"""Button presses from raw levels: debouncing, short and long presses.

Pure logic over sampled levels and an injected time in milliseconds, so the
real board, the modelled board and the tests share it.  A level change counts
once it has held for the debounce time, and a press lasts from its first edge
to the first edge of its release.  A short press is reported when the button
is released; a long press once, while the button is still held, as soon as it
passes the long threshold (its release then reports nothing).  Bounces report
nothing.

A press may instead be reported on its edge, as a short press, as soon as its
debounced edge is seen: :meth:`ButtonDecoder.update` asks ``on_edge(name)``, and
the caller answers True only where no long press of that button means anything
(the game's rule: the mover's ROLL = DONE while moving,
:meth:`tavla_pi.game.referee.Referee.acts_on_press`).  Such a press reports
nothing more: neither its release nor a long press.  A DONE is then acted on one
debounce time (two or three scans) after the finger comes down, not after it lifts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from tavla_pi.hardware.pinmap import BUTTON_NAMES

DEBOUNCE_MS = 30
LONG_PRESS_MS = 1500


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A finished gesture on one button: a short press or a long press."""

    name: str
    long: bool
    t_ms: int


class _ButtonState:
    """What the decoder knows about one button between samples."""

    __slots__ = ("candidate", "candidate_since", "pressed", "pressed_since", "reported")

    def __init__(self) -> None:
        self.pressed = False
        self.pressed_since = 0
        self.reported = False
        """The press being held has been reported already (long, or on its edge)."""
        self.candidate: bool | None = None
        self.candidate_since = 0


class ButtonDecoder:
    """Turns sampled button levels into :class:`ButtonEvent` values.

    Call :meth:`update` with every sample (``True`` while a button is held
    down) and the sample's time; it returns the events that sample completes.
    A button missing from a sample counts as released.
    """

    def __init__(self, names: Iterable[str] = BUTTON_NAMES, *,
                 debounce_ms: int = DEBOUNCE_MS, long_ms: int = LONG_PRESS_MS) -> None:
        if debounce_ms < 0:
            raise ValueError(f"debounce_ms must be >= 0, got {debounce_ms}")
        if long_ms <= debounce_ms:
            raise ValueError(f"long_ms ({long_ms}) must exceed debounce_ms ({debounce_ms})")
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._states = {name: _ButtonState() for name in names}
        self._last_t: int | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The buttons this decoder follows."""
        return tuple(self._states)

    def pressed(self, name: str) -> bool:
        """The debounced level of one button."""
        return self._states[name].pressed

    @property
    def quiet(self) -> bool:
        """True when more samples of the same levels can complete no event: nothing is
        debouncing, and no button is held short of a long press."""
        return all(s.candidate is None and (s.reported or not s.pressed)
                   for s in self._states.values())

    def update(self, levels: Mapping[str, bool], t_ms: int, *,
               on_edge: Callable[[str], bool] = lambda name: False) -> list[ButtonEvent]:
        """Feed one sample taken at ``t_ms``; return the events it completes.  A press
        whose edge this sample confirms is reported at once if ``on_edge(name)``."""
        if self._last_t is not None and t_ms < self._last_t:
            raise ValueError(f"button sample at {t_ms} ms is older than {self._last_t} ms")
        self._last_t = t_ms
        events: list[ButtonEvent] = []
        for name, state in self._states.items():
            event = self._step(name, state, level=bool(levels.get(name, False)), t_ms=t_ms,
                               on_edge=on_edge)
            if event is not None:
                events.append(event)
        return events

    def _step(self, name: str, state: _ButtonState, *, level: bool, t_ms: int,
              on_edge: Callable[[str], bool]) -> ButtonEvent | None:
        """Advance one button by one sample."""
        if level == state.pressed:
            state.candidate = None
        elif state.candidate != level:
            state.candidate = level
            state.candidate_since = t_ms
        if state.candidate is not None and t_ms - state.candidate_since >= self.debounce_ms:
            return self._accept(name, state, t_ms, on_edge)
        return self._check_long(name, state, t_ms)

    def _accept(self, name: str, state: _ButtonState, t_ms: int,
                on_edge: Callable[[str], bool]) -> ButtonEvent | None:
        """A level change has held long enough: it is real."""
        state.pressed = bool(state.candidate)
        state.candidate = None
        if state.pressed:
            state.pressed_since = state.candidate_since
            state.reported = on_edge(name)
            if state.reported:
                return ButtonEvent(name, long=False, t_ms=t_ms)
            return self._check_long(name, state, t_ms)
        if state.reported:
            return None
        held_ms = state.candidate_since - state.pressed_since
        return ButtonEvent(name, long=held_ms >= self.long_ms, t_ms=t_ms)

    def _check_long(self, name: str, state: _ButtonState, t_ms: int) -> ButtonEvent | None:
        """Report a long press once, as soon as the hold passes the threshold.

        Not while a release is pending: if it turns out real, the press was
        measured from edge to edge and may still be short.
        """
        if (state.pressed and not state.reported and state.candidate is None
                and t_ms - state.pressed_since >= self.long_ms):
            state.reported = True
            return ButtonEvent(name, long=True, t_ms=t_ms)
        return None

    def __repr__(self) -> str:
        return (f"ButtonDecoder({list(self._states)!r}, debounce_ms={self.debounce_ms}, "
                f"long_ms={self.long_ms})")
