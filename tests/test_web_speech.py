"""POST /api/speech and /api/speech/audio in process: the page asks the board's voice to
repeat or read the position, and has a sentence rendered to WAV; bad bodies get a 400,
a missing espeak-ng a 503, a daemon without speech a 404."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tavla_pi.errors import BadInputError, TavlaError
from tavla_pi.events.hub import EventHub
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response

WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


class SpeechProgramMissingError(TavlaError):
    """What a voice without espeak-ng raises (the real one's class is the lead's)."""


class Voice:
    """A speech stage that remembers what it was asked and renders a fixed WAV."""

    def __init__(self, *, installed: bool = True) -> None:
        self.asked: list[str] = []
        self.rendered: list[tuple[str, str]] = []
        self.installed = installed

    def ask(self, what: str) -> None:
        if what not in ("repeat", "position"):
            raise BadInputError("speech", f"cannot {what!r}")
        self.asked.append(what)

    def audio(self, text: str, language: str) -> bytes:
        if not self.installed:
            raise SpeechProgramMissingError("install espeak-ng (apt install espeak-ng)")
        self.rendered.append((text, language))
        return WAV + text.encode()


def post(api: Api, path: str, data: Any, content_type: str = "application/json") -> Response:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    head = {"host": "127.0.0.1", "content-type": content_type}
    answer = asyncio.run(api.handle(Request("POST", path, {}, head, raw)))
    assert isinstance(answer, Response)
    return answer


def api_with(voice: Voice | None) -> Api:
    return Api(dict, EventHub(), None, token=None, loopback=True, speech=voice)


@pytest.mark.parametrize("what", ["repeat", "position"])
def test_the_page_asks_the_voice(what: str) -> None:
    voice = Voice()
    answer = post(api_with(voice), "/api/speech", {"ask": what})
    assert (answer.status, json.loads(answer.body)) == (200, {"ok": True})
    assert voice.asked == [what]


@pytest.mark.parametrize("data", [
    {"ask": "sing"}, {"ask": 1}, {}, {"ask": "repeat", "more": 1}, ["repeat"], b"{", b"\xff",
])
def test_a_bad_ask_is_a_400_and_asks_nothing(data: Any) -> None:
    voice = Voice()
    answer = post(api_with(voice), "/api/speech", data)
    assert answer.status == 400
    assert "error" in json.loads(answer.body)
    assert voice.asked == []


def test_audio_is_the_voices_wav() -> None:
    voice = Voice()
    answer = post(api_with(voice), "/api/speech/audio", {"text": "έξι τέσσερα", "language": "el"})
    assert answer.status == 200
    assert answer.content_type == "audio/wav"
    assert answer.body == WAV + "έξι τέσσερα".encode()
    assert voice.rendered == [("έξι τέσσερα", "el")]


@pytest.mark.parametrize("data", [
    {"text": "six four", "language": "de"}, {"text": "", "language": "en"},
    {"text": "x" * 2001, "language": "en"}, {"text": 6, "language": "en"},
    {"text": "six four"}, {"text": "a", "language": "en", "rate": 1}, b"null",
])
def test_a_bad_audio_body_is_a_400_and_renders_nothing(data: Any) -> None:
    voice = Voice()
    answer = post(api_with(voice), "/api/speech/audio", data)
    assert answer.status == 400
    assert voice.rendered == []


@pytest.mark.parametrize(("text", "fault"), [
    ("six\x00four", "holds a NUL (U+0000) at index 3"),
    ("six\ud800", "holds a lone surrogate (U+D800) at index 3"),
    ("six\nfour", "holds a control character (U+000A, a newline) at index 3"),
    ("\x1b[2Jsix", "holds a control character (U+001B) at index 0"),
])
def test_a_text_with_a_control_character_is_a_400_naming_it(text: str, fault: str) -> None:
    voice = Voice()
    answer = post(api_with(voice), "/api/speech/audio", {"text": text, "language": "en"})
    assert (answer.status, json.loads(answer.body)) == (
        400, {"error": f"request body: text: {fault}"})
    assert voice.rendered == []


def test_the_longest_text_is_rendered() -> None:
    voice = Voice()
    assert post(api_with(voice), "/api/speech/audio",
                {"text": "x" * 2000, "language": "tr"}).status == 200


def test_audio_without_espeak_is_a_503_naming_it() -> None:
    answer = post(api_with(Voice(installed=False)), "/api/speech/audio",
                  {"text": "six four", "language": "en"})
    assert answer.status == 503
    assert "espeak-ng" in json.loads(answer.body)["error"]


@pytest.mark.parametrize(("path", "data"), [
    ("/api/speech", {"ask": "repeat"}), ("/api/speech/audio", {"text": "a", "language": "en"})])
def test_without_speech_both_routes_are_a_404(path: str, data: Any) -> None:
    answer = post(api_with(None), path, data)
    assert (answer.status, json.loads(answer.body)) == (404, {"error": "speech is not configured"})


@pytest.mark.parametrize("path", ["/api/speech", "/api/speech/audio"])
def test_a_body_that_is_not_json_typed_is_a_415(path: str) -> None:
    voice = Voice()
    assert post(api_with(voice), path, {"ask": "repeat"}, "text/plain").status == 415
    assert voice.asked == []
