"""The daemon's speech: the config's ``[speech]`` applied, the page's questions and settings.

:class:`SpeechDesk` puts the board's speech stage
(:class:`~tavla_pi.speech.speaker.Speech`, on or off as the settings say, MENU's three
short presses switch it) in the pipeline.  It is the daemon's side
of :class:`tavla_pi.web.api.SpeechControl` (``POST /api/speech``, ``/api/speech/audio``)
and of the ``speech`` object of ``/api/settings``.  With ``language`` unset the board
speaks the page's language: the page names it (``page_language``) when it is switched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla_pi.config import SCHEMA
from tavla_pi.errors import BadInputError
from tavla_pi.pipeline.step import Pipeline
from tavla_pi.speech.settings import LANGUAGES, SpeechSettings
from tavla_pi.speech.speaker import Speech
from tavla_pi.speech.voice import Voice, open_voice, render_wav

SPEECH_FIELD = "request body: speech"
CHAT_SAID_CHARS = 500
"""The most of a chat message the board says (a chat line is at most this long)."""
ASKS = ("repeat", "position")


class SpeechDesk:
    """Speech on the running board: the settings, the speaker in the pipeline."""

    def __init__(self, pipeline: Pipeline, settings: SpeechSettings, *,
                 voices: Callable[[SpeechSettings], Voice] = open_voice) -> None:
        self.pipeline = pipeline
        self.page_language: str | None = None
        pipeline.speech.close()
        self.speech = pipeline.speech = Speech(settings, voices, self._language(settings))

    def _language(self, settings: SpeechSettings) -> str:
        """The configured language, else the page's, else English."""
        return settings.language or self.page_language or "en"

    def apply(self, settings: SpeechSettings) -> None:
        """Speak (or not) as ``settings`` say, from now on."""
        self.speech.set(settings, self._language(settings))

    def json(self) -> dict[str, Any]:
        """The ``speech`` object of ``GET /api/settings`` (``enabled`` as MENU may have
        switched it)."""
        settings = self.speech.settings
        return {"enabled": settings.enabled, "language": self.speech.language,
                "follows_page": settings.language is None,
                "rate": settings.rate, "volume": settings.volume}

    def checked(self, changes: object) -> Callable[[], None]:
        """The ``speech`` object of ``POST /api/settings`` checked (BadInputError), as the
        call that applies it: any of ``enabled``, ``language``, ``rate``, ``volume``, and
        ``page_language``, the page's language (spoken while ``language`` is unset)."""
        if not isinstance(changes, Mapping):
            raise BadInputError(SPEECH_FIELD, "expected an object")
        body = dict(changes)
        page = body.pop("page_language", self.page_language)
        if page is not None and page not in LANGUAGES:
            raise BadInputError(f"{SPEECH_FIELD}: page_language", f"expected one of {LANGUAGES}")
        settings = _speech_settings(body, self.speech.settings)

        def change() -> None:
            self.page_language = page
            self.apply(settings)
        return change

    def ask(self, what: str) -> None:
        """The page's question (``repeat`` or ``position``); BadInputError when speech is
        off or ``what`` is neither."""
        speaker = self.speech.speaker
        if what not in ASKS:
            raise BadInputError(f"{SPEECH_FIELD}: ask", f"expected one of {ASKS}")
        if speaker is None:
            raise BadInputError(SPEECH_FIELD, "speech is off: turn it on in the settings")
        speaker.ask(what, self.pipeline.referee)

    def say_chat(self, player: str, text: str) -> None:
        """The online opponent's chat message, said with speech on (docs/ONLINE.md)."""
        speaker = self.speech.speaker
        if speaker is not None:
            speaker.say_first(f"{player}: {text}"[:CHAT_SAID_CHARS], "say")

    def audio(self, text: str, language: str) -> bytes:
        """``text`` as the board says it, as WAV bytes (SpeechError without eSpeak NG)."""
        return render_wav(text, language, self.speech.settings)

    def close(self) -> None:
        """Silence the board; safe twice."""
        self.speech.close()


def _speech_settings(body: Mapping[str, Any], settings: SpeechSettings) -> SpeechSettings:
    """``settings`` with the ``[speech]`` keys of ``body`` applied, checked as the config's
    (``device`` is the config file's alone)."""
    keys = {k: v for k, v in SCHEMA["speech"].items() if k != "device"}
    values: dict[str, Any] = {}
    for key, value in body.items():
        if key not in keys:
            raise BadInputError(f"{SPEECH_FIELD}: {str(key)[:40]}", "unknown key")
        name, parse = keys[key]
        values[name.removeprefix("speech_")] = parse(value, f"{SPEECH_FIELD}: {key}", Path())
    return replace(settings, **values)
