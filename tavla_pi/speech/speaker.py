"""The speaker: the scan loop's side of speech, a bounded queue of sentences.

Each scan the pipeline hands the speaker the events it decided, the presses it saw and
the referee.  The speaker turns the events into sentences (:mod:`tavla_pi.speech.narrate`),
queues them, drops the ones the board has made wrong since, and when the voice is free
starts the next one and says so with a ``spoken`` event (docs/CONTRACTS.md §6): the
journal, the page and a test all get the words at the moment the board begins to say
them.  Nothing here waits: the voice plays outside the scan loop.

A sentence goes stale, and is dropped unsaid, when
- it names a lifted checker's destinations and that checker has been put down;
- it is a fix and the board is in sync again, or a newer fix replaces it;
- it is a play that has been taken back;
- it is one checker of the computer's play and the lights have moved on to the next.

MENU without the menu armed (a short press does nothing else then) asks the board
(:class:`Speech`, the stage the pipeline holds): one short press repeats the last
sentence, a second within :data:`TAP_MS` reads the position instead, a third turns
speech off; three short presses turn it on again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.view import GameView, SeatStep
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.speech.narrate import (
    Scene,
    position_sentence,
    sentence,
    step_sentence,
    switched,
)
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.speech.voice import Voice

PENDING_LIMIT = 8
"""The most sentences waiting to be said; past it the oldest is dropped (and counted)."""
TAP_MS = 1500
"""Short MENU presses this close together count as one gesture (repeat, read, switch)."""
SWITCH_TAPS = 3
"""The short MENU presses in a row that turn speech on or off."""


class Narrated(Protocol):
    """What the speaker reads of the game (the referee)."""

    def view(self) -> GameView:
        """The game as the lights show it."""
        ...

    def game_position(self) -> VariantPosition:
        """The committed position, the match's player on roll."""
        ...


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence waiting to be said: its text, the event type it speaks for, and
    what makes it stale (the lifted checker's location, the computer's step, the
    played position)."""

    text: str
    about: str
    lift: str | None = None
    step: SeatStep | None = None
    played: str | None = None


class Speaker:
    """Sentences from events, said one at a time by ``voice`` in ``language``."""

    def __init__(self, voice: Voice, language: str, *, limit: int = PENDING_LIMIT) -> None:
        self.voice = voice
        self.language = language
        self.pending: deque[Sentence] = deque()
        self.limit = limit
        self.dropped = 0
        """Sentences dropped because the queue was full."""
        self.last: Sentence | None = None
        self._step: SeatStep | None = None

    @property
    def quiet(self) -> bool:
        """True when nothing waits to be said."""
        return not self.pending

    def hear(self, events: Sequence[Event], table: Narrated, now: int) -> list[Event]:
        """One scan: queue what ``events`` say, drop what is stale; the ``spoken`` event
        of a sentence begun now, if any."""
        view = table.view()
        scene = Scene(view.variant, view.on_roll)
        for event in events:
            self._hear(event, scene)
        self._follow_steps(view, scene)
        self._prune(view)
        return self._next(now)

    def ask(self, what: str, table: Narrated) -> None:
        """A question (MENU, the page): ``"repeat"`` the last sentence or read the
        ``"position"``."""
        self._first(self.last if what == "repeat" else self._position(table, table.view()))

    def say_first(self, text: str, about: str) -> None:
        """Say ``text`` before anything waiting (speech switched on or off)."""
        self._first(Sentence(text, about))

    def close(self) -> None:
        """Silence the voice; safe twice."""
        self.pending.clear()
        self.voice.close()

    def _hear(self, event: Event, scene: Scene) -> None:
        kind = event.type
        if kind is EventType.TAKEBACK:
            self._drop(lambda s: s.played is not None)
        if kind in (EventType.IN_SYNC, EventType.OUT_OF_SYNC):
            self._drop(lambda s: s.about == EventType.OUT_OF_SYNC)
        text = sentence(event, scene, self.language)
        if text is None:
            return
        lift = str(event["from"]) if kind is EventType.LIFTED else None
        played = str(event["position_id"]) if kind is EventType.PLAYED else None
        self._queue(Sentence(text, str(kind), lift=lift, played=played))

    def _follow_steps(self, view: GameView, scene: Scene) -> None:
        """The computer's play one checker at a time, as the lights show each."""
        step = view.seat_step
        if step == self._step:
            return
        self._step = step
        if step is not None:
            text = step_sentence(step.from_, step.to, step.color, scene, self.language)
            self._queue(Sentence(text, str(EventType.ENGINE_PLAY), step=step))

    def _prune(self, view: GameView) -> None:
        self._drop(lambda s: s.lift is not None and s.lift != view.lifted_from)
        self._drop(lambda s: s.step is not None and s.step != view.seat_step)

    def _position(self, table: Narrated, view: GameView) -> Sentence:
        text = position_sentence(table.game_position(), view.dice, view.on_roll,
                                 view.score, view.match_length, self.language)
        return Sentence(text, "position")

    def _first(self, said: Sentence | None) -> None:
        """Say ``said`` next, cutting short what is being said now."""
        if said is None:
            return
        self.voice.stop()
        self.pending.appendleft(Sentence(said.text, said.about))

    def _queue(self, said: Sentence) -> None:
        self.pending.append(said)
        while len(self.pending) > self.limit:
            self.pending.popleft()
            self.dropped += 1

    def _drop(self, stale: Callable[[Sentence], bool]) -> None:
        self.pending = deque(s for s in self.pending if not stale(s))

    def _next(self, now: int) -> list[Event]:
        if not self.pending or self.voice.busy(now):
            return []
        said = self.pending.popleft()
        self.voice.say(said.text, self.language, now)
        self.last = said
        return [_emit(EventType.SPOKEN, now, text=said.text, language=self.language,
                      about=said.about)]


def _emit(kind: EventType, t: int, **fields: str) -> Event:
    """The event of ``kind`` at ``t`` with ``fields``."""
    return Event(kind, t, fields)


class Speech:
    """The pipeline's speech stage: a :class:`Speaker` while speech is on, else silence.

    MENU's short presses ask it (repeat, read the position) and, ``switch_taps`` of them
    in a row, switch it on or off (None: never; a scenario's speech is its ``setup``'s);
    switched off, it says so and falls silent once that is said.
    """

    def __init__(self, settings: SpeechSettings, voices: Callable[[SpeechSettings], Voice],
                 language: str, *, switch_taps: int | None = SWITCH_TAPS) -> None:
        self.voices = voices
        self.switch_taps = switch_taps
        self.settings = settings
        self.language = language
        self.speaker: Speaker | None = None
        self._leaving = False
        self._taps: list[int] = []
        self.set(settings, language)

    @property
    def quiet(self) -> bool:
        """True when nothing waits to be said (always, while speech is off)."""
        return self.speaker is None or self.speaker.quiet

    def set(self, settings: SpeechSettings, language: str) -> None:
        """Speak (or not) as ``settings`` say, in ``language``, from now on."""
        self.close()
        self.settings, self.language, self._leaving = settings, language, False
        self.speaker = Speaker(self.voices(settings), language) if settings.enabled else None

    def hear(self, events: Sequence[Event], presses: Iterable[tuple[str, bool]],
             table: Narrated, now: int) -> list[Event]:
        """One scan's events and presses; the ``spoken`` event begun now, if any."""
        for name, long in presses:
            if name == "menu" and not long and table.view().menu is None:
                self._tap(table, now)
        speaker = self.speaker
        if speaker is None:
            return []
        said = speaker.hear([] if self._leaving else events, table, now)
        if self._leaving and speaker.quiet and not speaker.voice.busy(now):
            self.close()
        return said

    def close(self) -> None:
        """Silence the voice; safe twice."""
        if self.speaker is not None:
            self.speaker.close()
        self.speaker = None

    def _tap(self, table: Narrated, now: int) -> None:
        """A short MENU press: the first repeats, the second reads, the third switches."""
        if self._taps and now - self._taps[-1] > TAP_MS:
            self._taps = []
        self._taps.append(now)
        if self.switch_taps is not None and len(self._taps) >= self.switch_taps:
            self._taps = []
            self._switch()
        elif self.speaker is not None and not self._leaving and len(self._taps) <= 2:
            self.speaker.ask("repeat" if len(self._taps) == 1 else "position", table)

    def _switch(self) -> None:
        on = self.speaker is None or self._leaving
        if on:
            self.set(replace(self.settings, enabled=True), self.language)
        self.settings = replace(self.settings, enabled=on)
        speaker = self.speaker
        assert speaker is not None
        speaker.pending.clear()
        speaker.say_first(switched(on=on, language=self.language), "speech")
        self._leaving = not on
