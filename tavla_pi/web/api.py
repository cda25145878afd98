"""The daemon's HTTP interface (docs/CONTRACTS.md §5): the page, state, events, simulator.

| route | answer |
| --- | --- |
| ``GET /`` | the web page (``static/index.html``) |
| ``GET /static/<file>`` | the page's modules, style sheet and pictures (``static/``) |
| ``GET /api/state`` | the state as JSON (:mod:`tavla_pi.pipeline.snapshot`) |
| ``GET /api/events`` | server-sent events: the current game's events, then live ones; |
| | with ``?leds=1`` also ``event: leds`` frames whenever the LEDs change |
| ``POST /api/sim`` | one scenario action as a JSON body (sim backend only, else 404) |
| ``GET /api/settings`` | the opponent settings of the next new match, and whether gnubg is here |
| ``POST /api/settings`` | change them: a JSON object of ``[opponent]`` keys |
| ``POST /api/speech`` | ask the board's voice: ``{"ask": "repeat"}`` or ``{"ask": "position"}`` |
| ``POST /api/speech/audio`` | ``{"text", "language"}`` rendered by espeak-ng as ``audio/wav`` |
| ``GET /api/review`` | gnubg's review of the latest reviewed game; ``?game=N`` of game N; |
| | ``?match=1`` of the whole match (202 ``{"status": "running"}`` until it is done) |

With a token configured every ``/api/`` request needs ``Authorization:
Bearer <token>``.  On a loopback address only requests naming this machine
in ``Host`` are served, so a web page elsewhere cannot reach the board
through the browser (DNS rebinding).  A refused request changes nothing.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from typing import Any, Protocol

from tavla_pi.bounded import LimitError, check_texts, parse_json
from tavla_pi.errors import BadInputError, EngineError, JournalError, TavlaError
from tavla_pi.events.hub import EventHub
from tavla_pi.hal.sim.places import BoardActionError
from tavla_pi.leds import RGB, to_hex
from tavla_pi.replay.actions import Action, parse_line
from tavla_pi.speech.settings import LANGUAGES
from tavla_pi.web.server import Request, Response, Stream

HEARTBEAT_S = 1.0
"""A comment line on a quiet event stream, so a client gone without a word is noticed
within a second or two (one that hangs up properly, at once)."""
MAX_SIM_WAITING = 4
"""``POST /api/sim`` requests that may wait for the simulator at once; more get 503."""
LED_PERIOD_S = 0.05
"""How often a stream with ``?leds=1`` looks for a new LED frame (at most 20 frames a second)."""
JSON = "application/json"
STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
PAGE_HEADERS = (
    ("Cache-Control", "no-cache"),
    ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; "
                                "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    ("Referrer-Policy", "no-referrer"),
)
"""The page and its files: revalidated on every load, nothing from elsewhere, no framing."""

Route = Callable[[Request], Awaitable[Response | Stream]]


def page() -> bytes:
    """The web page as shipped with the package."""
    return resources.files("tavla_pi.web").joinpath("static/index.html").read_bytes()


def static_files() -> dict[str, tuple[bytes, str]]:
    """Every file of ``static/`` the page may load: name -> (content, content type)."""
    files: dict[str, tuple[bytes, str]] = {}
    for entry in resources.files("tavla_pi.web").joinpath("static").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in STATIC_TYPES and not entry.name.startswith("."):
            files[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return files


class SimControl(Protocol):
    """What ``POST /api/sim`` needs of the simulator (the daemon's ``SimDesk``)."""

    def check(self, action: Action) -> None:
        """Refuse an action that cannot be applied now (:class:`BadInputError`)."""

    async def apply(self, action: Action) -> None:
        """Carry the action out on the simulated board, on the real clock."""


class SettingsControl(Protocol):
    """What ``/api/settings`` needs of the daemon (its ``SettingsDesk``)."""

    def settings(self) -> dict[str, Any]:
        """The settings as JSON: the next new match's opponent, and ``engine``."""

    def change(self, body: bytes) -> dict[str, Any]:
        """Apply a request body of changes; the settings after it.

        :class:`BadInputError` for a wrong body or value, :class:`EngineError`
        when the computer is asked for where it cannot play.
        """


class SpeechControl(Protocol):
    """The board's voice as the page asks it (the daemon's speech stage)."""

    def ask(self, what: str) -> None:
        """Say again the last thing said (``"repeat"``) or read the position
        (``"position"``); :class:`BadInputError` for anything else."""

    def audio(self, text: str, language: str) -> bytes:
        """``text`` said in ``language`` as WAV bytes; a :class:`TavlaError` (not a
        :class:`BadInputError`) or :class:`OSError` when espeak-ng cannot render it."""
        ...


class ReviewAnswer(Protocol):
    """An answer of :class:`ReviewSource`: an HTTP status and its JSON body."""

    @property
    def status(self) -> int:
        """200, 202 (being computed), 404 (none) or 503 (cannot be made now)."""
        ...

    @property
    def body(self) -> dict[str, Any]:
        """The review's fields, ``{"status": "running"}`` or ``{"error": ...}``."""
        ...


class ReviewSource(Protocol):
    """What ``GET /api/review`` needs (the daemon's ``Reviews``)."""

    def game_review(self, number: int | None) -> ReviewAnswer:
        """Game ``number``'s review (None: the latest reviewed)."""
        ...

    def match_review(self) -> ReviewAnswer:
        """The whole match's review, started in the background when first asked."""
        ...


class Api:
    """Routes requests to the running daemon's state, events, simulator, settings and
    reviews."""

    def __init__(self, state: Callable[[], dict[str, Any]], hub: EventHub,
                 sim: SimControl | None, *, token: str | None, loopback: bool,
                 leds: Callable[[], Sequence[RGB]] | None = None,
                 settings: SettingsControl | None = None,
                 reviews: ReviewSource | None = None,
                 speech: SpeechControl | None = None) -> None:
        self._state = state
        self._speech = speech
        self._hub = hub
        self._sim = sim
        self._settings = settings
        self._reviews = reviews
        self._token = token
        self._loopback = loopback
        self._leds = leds
        self._page = page()
        self._static = static_files()
        self._sim_waiting = 0
        self._routes: dict[str, dict[str, Route]] = {
            "/": {"GET": self._index},
            "/api/state": {"GET": self._get_state},
            "/api/events": {"GET": self._events},
            "/api/sim": {"POST": self._post_sim},
            "/api/settings": {"GET": self._get_settings, "POST": self._post_settings},
            "/api/review": {"GET": self._get_review},
            "/api/speech": {"POST": self._post_speech},
            "/api/speech/audio": {"POST": self._post_speech_audio},
        }

    @property
    def routes(self) -> dict[str, tuple[str, ...]]:
        """Each path this API answers exactly, with its methods (``/static/FILE`` besides)."""
        return {path: tuple(methods) for path, methods in self._routes.items()}

    async def handle(self, request: Request) -> Response | Stream:
        """The answer to one request."""
        refused = self._refuse(request)
        if refused is not None:
            return refused
        methods = self._routes.get(request.path)
        if methods is None and request.path.startswith("/static/"):
            methods = {"GET": self._static_file}
        if methods is None:
            return Response.error(404, f"no such resource: {request.path}")
        route = methods.get(request.method)
        if route is None:
            allow = ", ".join(methods)
            return Response.error(405, f"{request.method} is not allowed here (only {allow})",
                                  (("Allow", allow),))
        return await route(request)

    def _refuse(self, request: Request) -> Response | None:
        if self._loopback and not _local_host(request.headers.get("host")):
            return Response.error(421, "this server answers only to localhost addresses")
        if self._token is not None and request.path.startswith("/api/"):
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self._token}".encode()):
                return Response.error(401, "missing or wrong token (Authorization: Bearer ...)",
                                      (("WWW-Authenticate", 'Bearer realm="tavla-pi"'),))
        return None

    async def _index(self, _: Request) -> Response:
        return Response(200, self._page, "text/html; charset=utf-8", PAGE_HEADERS)

    async def _static_file(self, request: Request) -> Response:
        found = self._static.get(request.path.removeprefix("/static/"))
        if found is None:
            return Response.error(404, f"no such resource: {request.path}")
        content, content_type = found
        return Response(200, content, content_type, PAGE_HEADERS)

    async def _get_state(self, _: Request) -> Response:
        return Response.json(self._state(), headers=(("Cache-Control", "no-store"),))

    async def _events(self, request: Request) -> Response | Stream:
        unknown = sorted(set(request.query) - {"leds"})
        if unknown:
            return Response.error(400, f"/api/events: unknown parameter {unknown[0][:20]!r} "
                                       "(only leds=0 or leds=1)")
        leds = request.query.get("leds", "0")
        if leds not in ("0", "1"):
            return Response.error(400, f"/api/events: leds must be 0 or 1, got {leds[:20]!r}")
        frames = self._leds if leds == "1" else None
        return Stream(self._sse(frames))

    async def _sse(self, frames: Callable[[], Sequence[RGB]] | None) -> AsyncIterator[bytes]:
        """The stream's chunks; it subscribes when the first is asked for (a stream
        refused before it starts leaves no subscriber behind)."""
        wait = LED_PERIOD_S if frames is not None else HEARTBEAT_S
        shown: Sequence[RGB] | None = None
        quiet = 0.0
        sub = self._hub.subscribe()
        try:
            yield b"retry: 2000\n\n"
            while True:
                if frames is not None and frames() != shown:
                    shown = frames()
                    yield _led_chunk(shown)
                item = await sub.next(wait)
                if item is None:
                    return
                if item is False:
                    quiet += wait
                    if quiet >= HEARTBEAT_S:
                        quiet = 0.0
                        yield b": keep-alive\n\n"
                    continue
                assert item is not True
                quiet = 0.0
                yield f"data: {item.to_json()}\n\n".encode()
        finally:
            self._hub.unsubscribe(sub)

    async def _get_review(self, request: Request) -> Response:
        try:
            whole, game = review_query(request.query)
        except BadInputError as exc:
            return Response.error(400, str(exc))
        if self._reviews is None:
            return Response.error(404, "no reviews here: this board does not review its games")
        found = self._reviews.match_review() if whole else self._reviews.game_review(game)
        return Response.json(found.body, found.status, (("Cache-Control", "no-store"),))

    async def _post_sim(self, request: Request) -> Response:
        if self._sim is None:
            return Response.error(404, "POST /api/sim works only on the sim backend")
        if request.media_type != JSON:
            return Response.error(415, f"expected Content-Type: {JSON}")
        try:
            action = sim_action(request.body)
            self._sim.check(action)
        except BadInputError as exc:
            return Response.error(400, str(exc))
        if self._sim_waiting >= MAX_SIM_WAITING:
            return Response.error(503, "the simulator is busy with other requests",
                                  (("Retry-After", "1"),))
        self._sim_waiting += 1
        try:
            return await self._apply(action)
        finally:
            self._sim_waiting -= 1

    async def _apply(self, action: Any) -> Response:
        assert self._sim is not None
        listener = self._hub.subscribe(history=False)
        try:
            await self._sim.apply(action)
        except TavlaError as exc:
            return refusal(exc)
        finally:
            self._hub.unsubscribe(listener)
        events = [e.to_dict() for e in listener.drain()]
        applied = type(action).__name__.removesuffix("Action").lower()
        return Response.json({"applied": applied, "events": events})


    async def _get_settings(self, _: Request) -> Response:
        if self._settings is None:
            return Response.error(404, "this daemon has no settings to change")
        return Response.json(self._settings.settings(), headers=(("Cache-Control", "no-store"),))

    async def _post_settings(self, request: Request) -> Response:
        if self._settings is None:
            return Response.error(404, "this daemon has no settings to change")
        if request.media_type != JSON:
            return Response.error(415, f"expected Content-Type: {JSON}")
        try:
            return Response.json(self._settings.change(request.body))
        except (TavlaError, OSError) as exc:
            return refusal(exc)

    def _speech_refusal(self, request: Request) -> Response | None:
        """404 without a voice, 415 for a body that is not JSON; None: go on."""
        if self._speech is None:
            return Response.error(404, NO_SPEECH)
        if request.media_type != JSON:
            return Response.error(415, f"expected Content-Type: {JSON}")
        return None

    async def _post_speech(self, request: Request) -> Response:
        refused = self._speech_refusal(request)
        if refused is not None or self._speech is None:
            return refused or Response.error(404, NO_SPEECH)
        try:
            self._speech.ask(speech_ask(request.body))
        except BadInputError as exc:
            return Response.error(400, str(exc))
        return Response.json({"ok": True})

    async def _post_speech_audio(self, request: Request) -> Response:
        refused = self._speech_refusal(request)
        if refused is not None or self._speech is None:
            return refused or Response.error(404, NO_SPEECH)
        try:
            text, language = speech_text(request.body)
            # eSpeak NG takes a while: in a thread, so that the scan loop never waits
            wav = await asyncio.to_thread(self._speech.audio, text, language)
        except BadInputError as exc:
            return Response.error(400, str(exc))
        except (TavlaError, OSError) as exc:
            return Response.error(503, str(exc))
        return Response(200, wav, "audio/wav", (("Cache-Control", "no-store"),))


NO_SPEECH = "speech is not configured"
SPEECH_ASKS = ("repeat", "position")
MAX_SPEECH_TEXT = 2000
"""The longest text ``POST /api/speech/audio`` renders (a position read-out is shorter)."""


def refusal(exc: Exception) -> Response:
    """The answer to a request the daemon could not carry out: 409 when it cannot be done
    here (no such checker, no gnubg), 400 when the request is wrong, else 503 (the
    journal failed: the daemon stops and the game resumes from it)."""
    if isinstance(exc, BoardActionError | EngineError):
        return Response.error(409, str(exc))
    if isinstance(exc, BadInputError) and not isinstance(exc, JournalError):
        return Response.error(400, str(exc))
    return Response.error(503, str(exc))


def sim_action(body: bytes) -> Action:
    """The one scenario action a request body holds; :class:`BadInputError` for anything else."""
    where = "request body"
    try:
        action = parse_line(body.decode("utf-8"), where)
    except UnicodeDecodeError:
        raise BadInputError(where, "not UTF-8") from None
    if action is None:
        raise BadInputError(where, "expected one action as a JSON object")
    return action


def json_object(body: bytes, where: str) -> dict[str, Any]:
    """A request body's JSON object, every string in it a text (no control character, no
    lone surrogate: :func:`~tavla_pi.bounded.check_texts`); :class:`BadInputError` for
    anything else."""
    try:
        data = parse_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInputError(where, "not UTF-8") from None
    except (ValueError, LimitError):
        raise BadInputError(where, "expected a JSON object") from None
    if not isinstance(data, dict):
        raise BadInputError(where, "expected a JSON object")
    check_texts(data, where)
    return data


def speech_ask(body: bytes) -> str:
    """What ``POST /api/speech`` asks the voice for: ``"repeat"`` or ``"position"``."""
    where = "request body"
    data = json_object(body, where)
    if set(data) != {"ask"} or data["ask"] not in SPEECH_ASKS:
        raise BadInputError(where, 'expected {"ask": "repeat"} or {"ask": "position"}')
    ask: str = data["ask"]
    return ask


def speech_text(body: bytes) -> tuple[str, str]:
    """The text and language ``POST /api/speech/audio`` renders."""
    where = "request body"
    data = json_object(body, where)
    if set(data) != {"text", "language"}:
        raise BadInputError(where, 'expected {"text": ..., "language": ...}')
    text, language = data["text"], data["language"]
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_SPEECH_TEXT:
        raise BadInputError(where, f"text: expected 1 to {MAX_SPEECH_TEXT} characters")
    if language not in LANGUAGES:
        raise BadInputError(where, "language: expected one of " + ", ".join(LANGUAGES))
    return text, language


def review_query(query: dict[str, str]) -> tuple[bool, int | None]:
    """Which review ``GET /api/review`` asks for: the whole match's (True), else a game's
    (its number; None: the latest); :class:`BadInputError` for any other query."""
    where = "/api/review"
    unknown = sorted(set(query) - {"game", "match"})
    if unknown:
        raise BadInputError(where, f"unknown parameter {unknown[0][:20]!r} "
                                   "(only game=N or match=1)")
    if len(query) > 1:
        raise BadInputError(where, "ask for game=N or for match=1, not both")
    if "match" in query:
        if query["match"] != "1":
            raise BadInputError(where, f"match must be 1, got {query['match'][:20]!r}")
        return True, None
    if "game" not in query:
        return False, None
    text = query["game"]
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1):
        raise BadInputError(where, f"game must be a number from 1 to 999999, got {text[:20]!r}")
    return False, int(text)


def _led_chunk(frame: Sequence[RGB]) -> bytes:
    """One LED frame as a named server-sent event (ignored by plain ``data`` readers)."""
    return b"event: leds\ndata: " + json.dumps([to_hex(rgb) for rgb in frame]).encode() + b"\n\n"


def _local_host(host: str | None) -> bool:
    """True for a missing Host, ``localhost`` or a loopback IP, with or without a port."""
    if not host:
        return True
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
