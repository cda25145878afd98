"""The club page's HTTP side: its routes on :class:`tavla_pi.web.server.HttpServer`.

| route | answer |
| --- | --- |
| ``GET /`` | the club page (``tavla_pi/club/static/index.html``) |
| ``GET /static/<file>`` | the club page's files, then the board page's (board.js, ...) |
| ``GET /api/club`` | every board: status, latest state, when, its current match's log, |
| | whether its key signed it (``verified``) |
| ``GET /api/stream`` | server-sent events: each message as it comes from the broker, |
| | ``{"board", "kind": "event"/"state"/"status", "verified", "payload"}`` |
| ``GET /api/matches`` | the matches finished tonight |
| ``GET /api/matches/<name>.mat`` | one of them as a GNU Backgammon match file |
| ``GET /api/matches.zip`` | all of them |

Every message is checked and applied once, on the asyncio loop (:meth:`ClubSite.arrive`,
called there by the listener's thread), and its stream chunk is made once for every
page: the payload's bytes as they came (compact JSON), wrapped.  A page that reads
too slowly for :data:`STREAM_BOUND` messages or :data:`STREAM_BYTES` is cut (it
reconnects and reloads).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path

from tavla_pi.club.model import ClubModel, FinishedMatch
from tavla_pi.club.payloads import ClubMessage
from tavla_pi.web.api import HEARTBEAT_S, PAGE_HEADERS, STATIC_TYPES, static_files
from tavla_pi.web.server import Request, Response, Stream

STREAM_BOUND = 2000
"""Messages held for one page; a page further behind is cut."""
STREAM_BYTES = 2 * 1024 * 1024
"""Bytes held for one page; a page further behind is cut."""
NO_STORE = (("Cache-Control", "no-store"),)
log = logging.getLogger("tavla_pi.club")


def club_files() -> dict[str, tuple[bytes, str]]:
    """The club page's files and, where the club has none of that name, the board page's."""
    files = static_files()
    for entry in resources.files("tavla_pi.club").joinpath("static").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in STATIC_TYPES and not entry.name.startswith("."):
            files[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return files


def stream_chunk(message: ClubMessage, payload: bytes) -> bytes:
    """The server-sent event of one message: ``payload`` as it came when it is one line."""
    if b"\n" in payload or b"\r" in payload:
        payload = json.dumps(message.payload, separators=(",", ":")).encode()
    verified = "true" if message.verified else "false"
    head = (f'data: {{"board":"{message.board}","kind":"{message.kind}",'
            f'"verified":{verified},"payload":')
    return head.encode() + payload + b"}\n\n"


class _Follower:
    """One page's stream: the chunks not yet sent (``held``: their bytes); ``cut`` once it
    fell too far behind."""

    __slots__ = ("chunks", "cut", "held")

    def __init__(self) -> None:
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue(STREAM_BOUND)
        self.cut = False
        self.held = 0


class ClubSite:
    """The club page's routes over ``model``; ``out``: a folder each finished match is
    also written to."""

    def __init__(self, model: ClubModel) -> None:
        self.model = model
        self._followers: set[_Follower] = set()
        self._files = club_files()
        self._routes: dict[str, Callable[[Request], Awaitable[Response | Stream]]] = {
            "/": self._index, "/api/club": self._club, "/api/stream": self._stream,
            "/api/matches": self._matches, "/api/matches.zip": self._zip}

    @property
    def routes(self) -> tuple[str, ...]:
        """The paths this page answers exactly, each to GET (``/static/FILE`` and
        ``/api/matches/NAME.mat`` besides); it takes no request body."""
        return tuple(self._routes)

    def arrive(self, topic: str, payload: bytes) -> None:
        """One message from the broker (on the loop): apply it and send it to every page."""
        message = self.model.receive(topic, payload)
        if message is None:
            return
        chunk = stream_chunk(message, payload)
        for follower in self._followers:
            if follower.cut:
                continue
            if follower.held + len(chunk) > STREAM_BYTES or follower.chunks.full():
                follower.cut = True
                if follower.chunks.full():
                    follower.chunks.get_nowait()
                follower.chunks.put_nowait(b"")  # wakes it to end
                continue
            follower.chunks.put_nowait(chunk)
            follower.held += len(chunk)

    async def handle(self, request: Request) -> Response | Stream:
        """The answer to one request."""
        if request.method not in ("GET", "HEAD"):
            return Response.error(405, f"{request.method} is not allowed here (only GET)",
                                  (("Allow", "GET"),))
        route = self._routes.get(request.path)
        if route is not None:
            return await route(request)
        if request.path.startswith("/static/"):
            return self._static(request.path.removeprefix("/static/"))
        if request.path.startswith("/api/matches/") and request.path.endswith(".mat"):
            return self._match_file(request.path.removeprefix("/api/matches/"))
        return Response.error(404, f"no such resource: {request.path[:100]}")

    async def _index(self, _: Request) -> Response:
        return self._static("index.html")

    def _static(self, name: str) -> Response:
        found = self._files.get(name)
        if found is None:
            return Response.error(404, f"no such resource: /static/{name[:100]}")
        content, content_type = found
        return Response(200, content, content_type, PAGE_HEADERS)

    async def _club(self, _: Request) -> Response:
        return Response(200, self.model.summary_json(), "application/json", NO_STORE)

    async def _matches(self, _: Request) -> Response:
        return Response.json(self.model.matches(), headers=NO_STORE)

    def _match_file(self, name: str) -> Response:
        match = self.model.finished.get(name)
        if match is None:
            return Response.error(404, f"no finished match {name[:100]!r}")
        return Response(200, match.text.encode("ascii", "replace"),
                        "text/plain; charset=us-ascii",
                        (*NO_STORE, ("Content-Disposition", f'attachment; filename="{name}"')))

    async def _zip(self, _: Request) -> Response:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for match in self.model.finished.values():
                archive.writestr(match.name, match.text)
        return Response(200, buffer.getvalue(), "application/zip",
                        (*NO_STORE, ("Content-Disposition",
                                     f'attachment; filename="{self.model.club}-matches.zip"')))

    async def _stream(self, request: Request) -> Response | Stream:
        if request.query:
            return Response.error(400, "/api/stream takes no parameters")
        return Stream(self._chunks())

    async def _chunks(self) -> AsyncIterator[bytes]:
        follower = _Follower()
        self._followers.add(follower)
        try:
            yield b"retry: 2000\n\n"
            while True:
                try:
                    chunk = await asyncio.wait_for(follower.chunks.get(), HEARTBEAT_S)
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                if follower.cut:
                    log.warning("club: a page read too slowly; its stream is cut")
                    return
                follower.held -= len(chunk)
                yield chunk
        finally:
            self._followers.discard(follower)


def write_match(folder: Path) -> Callable[[FinishedMatch], None]:
    """What ``--out`` does with each finished match: write its file into ``folder``."""

    def write(match: FinishedMatch) -> None:
        path = folder / match.name
        try:
            path.write_text(match.text, encoding="ascii", errors="replace")
        except OSError as exc:
            log.warning("club: %s: cannot write (%s)", path, exc.strerror)
            return
        log.info("club: %s finished a match: %s", match.board, path)

    return write
