"""One scan step of the whole product: sensors to events, events to light.

``Pipeline.step()`` scans the board, decodes the frame, passes it through
the stability filter to the referee, feeds debounced button presses, lets
timers run, tells the speech stage what happened and shows the LED
frame.  The daemon calls it on the real clock,
``tavla-pi replay`` on a virtual one: the same code either way.

Two speeds: the stable board (150 ms still) is the only input to the referee's
decisions; the provisional board (two scans agreeing,
:data:`tavla_pi.decode.stability.PROVISIONAL_SCANS`) drives the lights, through
the referee's read-only :meth:`~tavla_pi.game.referee.Referee.preview`, so a lift is
lit 40 ms after it while a glitch can at most make a light flicker.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tavla_pi.clock import Clock
from tavla_pi.decode.calibration import Calibration
from tavla_pi.decode.decoder import Decoder, SensorFrameError
from tavla_pi.decode.observation import Observation
from tavla_pi.decode.stability import STABLE_MS, ProvisionalFilter, StabilityFilter, blends
from tavla_pi.events.event import Event
from tavla_pi.game.referee import Referee
from tavla_pi.game.view import GameView, Phase
from tavla_pi.hal.base import Backend, RawFrame
from tavla_pi.hal.buttons import ButtonDecoder
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.hardware.pixel import RGB
from tavla_pi.leds import LedLayout, render
from tavla_pi.rules.color import Color
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.speech.speaker import Speech
from tavla_pi.speech.voice import open_voice

SCAN_MS = 20
"""The scan period: 50 frames a second."""


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    """Timings and brightness of the pipeline (from the config file)."""

    stable_ms: int = STABLE_MS
    brightness: float = 0.3


class Pipeline:
    """Backend -> decoder -> stability -> referee -> LEDs, one step at a time."""

    def __init__(self, backend: Backend, pinmap: PinMap, calibration: Calibration,
                 referee: Referee, clock: Clock,
                 *, settings: PipelineSettings = PipelineSettings()) -> None:
        self.backend = backend
        self.referee = referee
        self.clock = clock
        self.settings = settings
        self.decoder = Decoder(calibration, pinmap)
        self.stability = StabilityFilter(clock, settings.stable_ms)
        self.provisional = ProvisionalFilter()
        self.buttons = ButtonDecoder(tuple(pinmap.buttons))
        self.layout = LedLayout.from_pinmap(pinmap)
        self.latest: Observation | None = None
        self.frame: tuple[RGB, ...] = ()
        self.view: GameView | None = None
        """The view the last frame was rendered from (None before the first)."""
        self._preview: tuple[tuple[object, ...], Observation, GameView] | None = None
        self._lit: tuple[Observation, GameView] | None = None
        """The board the lights last showed (a provisional one, or part of one) and its
        view."""
        self._prior: tuple[Observation, tuple[Observation, GameView] | None] | None = None
        """The provisional board and what the lights showed before it came."""
        self.bad_frames = 0
        self.decided_at = clock.now_ms()
        self.speech = Speech(SpeechSettings(), open_voice, "en")
        """The speech stage (docs/SPEECH.md), off until the daemon or a scenario turns it
        on: told every scan's events and presses."""

    @property
    def settled(self) -> bool:
        """True when the latest frame is the stable one (nothing is moving)."""
        return self.latest is not None and self.latest == self.stability.stable

    @property
    def shows_stable(self) -> bool:
        """True when the lights show the stable board: no provisional board differs
        from it (one that has not stood two scans, or a phantom's, still lit)."""
        seen = self.provisional.current
        return seen is None or seen == self.stability.stable

    @property
    def still(self) -> bool:
        """True when the board is settled and the decoder's running means are full:
        more scans of an unchanged board would change nothing but the noise."""
        return self.settled and self.decoder.still

    @property
    def stable(self) -> Observation | None:
        """The board as last acted on."""
        return self.stability.stable

    def step(self) -> list[Event]:
        """Scan once and run every stage; the events decided."""
        return self.process(self.backend.sensors.scan())

    def process(self, frame: RawFrame) -> list[Event]:
        """Run every stage on one raw frame (already scanned); the events decided."""
        events = self.decide(frame)
        self.show(self.decided_at)
        return events

    def decide(self, frame: RawFrame | None = None) -> list[Event]:
        """Every stage but the LEDs, on ``frame`` (default: scan now).  The hardware is
        read first, so a read that fails leaves the game untouched; the daemon journals
        the events, then calls :meth:`show`."""
        now = self.clock.now_ms()
        if frame is None:
            frame = self.backend.sensors.scan()
        levels = self.backend.buttons.levels()
        self.decided_at = now
        events = self._sense(frame, now)
        presses = []
        for press in self.buttons.update(levels, now, on_edge=self.referee.acts_on_press):
            events += self.referee.on_button(press.name, long=press.long, now=now)
            presses.append((press.name, press.long))
        events += self.referee.tick(now, settled=self.settled)
        return events + self.speech.hear(events, presses, self.referee, now)

    def show(self, now: int) -> None:
        """Render the referee's view and write it to the LEDs (only when it changed:
        the strip keeps its colours, and a write costs the bus a few milliseconds)."""
        self.view = self.lights()
        frame = render(self.view, self.layout, now, self.settings.brightness)
        if frame != self.frame:
            self.backend.pixels.show(frame)
            self.frame = frame

    def lights(self) -> GameView:
        """The view the LEDs show: the referee's own, or, while the board has changed
        and not yet stood still long enough to decide on, the referee's preview of
        the provisional board (computed once per board and game state)."""
        view = self.referee.view()
        seen, stable = self.provisional.current, self.stability.stable
        if seen is None or seen == stable:
            self._lit = None if stable is None else (stable, view)
            return view
        if self._prior is None or self._prior[0] != seen:
            self._prior = (seen, self._lit)
        prior = self._prior[1]
        key = (seen, prior, self.referee.obs, view)
        if self._preview is None or self._preview[0] != key:
            self._preview = (key, *self._preview_of(seen, prior, stable, view))
        self._lit = self._preview[1], self._preview[2]
        return self._preview[2]

    def _preview_of(self, seen: Observation, prior: tuple[Observation, GameView] | None,
                    stable: Observation | None,
                    decided: GameView) -> tuple[Observation, GameView]:
        """The board the lights show for ``seen`` and the referee's preview of it.

        If a turn's board asks for fixes while part of its change reads as a board that
        asks for fewer, the lights show that part, the first with none or else the one
        with fewest (:func:`~tavla_pi.decode.stability.blends`): a phantom next to a
        real lift lights the lift, a phantom next to a wrong placement lights the fix
        of the placement alone; the stable board decides.  The parts are taken first
        of the change since the board lit before ``seen`` (``prior``: the last scans'
        change alone, however far the stable board is behind), then of the change
        since the stable board."""
        best = seen, self.referee.preview(seen)
        view = best[1]
        if not view.fixes or view.phase is not Phase.MOVING or view.on_roll is None:
            return best
        for part in self._parts(seen, prior, stable, decided, view.on_roll):
            partial = self.referee.preview(part)
            if len(partial.fixes) < len(best[1].fixes):
                best = part, partial
                if not partial.fixes:
                    break
        return best

    def _parts(self, seen: Observation, prior: tuple[Observation, GameView] | None,
               stable: Observation | None, decided: GameView,
               mover: Color) -> Iterator[Observation]:
        """The parts of ``seen``'s change the lights may show instead, in the order
        :meth:`_preview_of` tries them."""
        began = self.provisional.began
        if prior is not None:
            yield from blends(prior[0], seen, mover, _held(prior[1]), began)
        if stable is not None and (prior is None or prior[0] != stable):
            yield from blends(stable, seen, mover, _held(decided), began)

    def _sense(self, frame: RawFrame, now: int) -> list[Event]:
        try:
            obs = self.decoder.decode(frame)
        except SensorFrameError:
            self.bad_frames += 1
            return []
        self.latest = obs
        self.provisional.update(obs)
        stable = self.stability.update(obs)
        return [] if stable is None else self.referee.on_observation(stable, now)


def _held(view: GameView) -> int:
    """The checkers of the mover a view has in the hand (a lifted one)."""
    return 1 if view.lifted_from is not None else 0
