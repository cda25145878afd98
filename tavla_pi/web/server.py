"""A small HTTP/1.1 server on asyncio streams: requests in, responses or event streams out.

The standard library keeps the daemon's start-up and memory low on a Pi Zero
2 W; the interface is a handful of routes (``tavla_pi.web.api``).  It reads
one request at a time per connection (keep-alive, no pipelining), refuses
what it does not handle with a 4xx and a JSON ``{"error": ...}``, bounds
header and body sizes, idle time and the number of connections, and closes
every connection, streams included, on ``close()``.  The request target and each
query parameter's name and value must be texts (UTF-8 without a control character
or a lone surrogate, :func:`tavla_pi.bounded.text_fault`), else 400: no route sees
one that is not.

No client can lock the others out.  Requests and event streams have their own
limits (:data:`MAX_CONNECTIONS`, :data:`MAX_STREAMS`).  A new connection that
finds the request table full takes the place of the one that has waited
longest for its request head (a slow or idle client, told 503), so a client
dribbling its headers is cut as soon as someone else needs the place; only
when every place is busy answering is the newcomer told 503.  A client that hangs up is
noticed at once, mid-answer or mid-stream: its handler is cancelled (an
abandoned ``POST /api/sim`` stops waiting), its stream ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl

from tavla_pi.bounded import text_fault

log = logging.getLogger("tavla_pi.web")

MAX_HEAD = 8 * 1024
MAX_BODY = 16 * 1024
MAX_CONNECTIONS = 128
"""Connections reading or being answered a request (event streams not counted)."""
MAX_STREAMS = 32
"""Event streams open at once; more get 503 and retry (the page does, after 2 s)."""
HEAD_TIMEOUT_S = 5.0
"""The time a new connection has to send its whole request head."""
IDLE_TIMEOUT_S = 5.0
SEND_TIMEOUT_S = 5.0
"""How long a client may leave an answer or a stream unread before it is cut."""
LINGER_S = 0.5
"""How long a refused connection may still send before it is closed."""
MAX_REQUESTS = 100
"""Requests served on one kept-alive connection before it is closed."""
QUICK_METHODS = ("GET", "HEAD")
"""Methods answered without a wait (event streams watch the client themselves)."""
UNIQUE_HEADERS = ("content-length", "host")
"""Headers a request may send only once (two Content-Lengths are how smuggling starts)."""


@dataclass(frozen=True, slots=True)
class Request:
    """One parsed request; header names are lower case."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes = b""

    @property
    def media_type(self) -> str:
        """The Content-Type without parameters, lower case."""
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass(frozen=True, slots=True)
class Response:
    """A complete answer: status, body and extra headers."""

    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def json(cls, data: Any, status: int = 200,
             headers: tuple[tuple[str, str], ...] = ()) -> Response:
        """``data`` as a JSON body."""
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        # a lone surrogate (echoed from a hostile request) becomes the JSON escape \udxxx
        body = text.encode("utf-8", "backslashreplace")
        return cls(status, body, "application/json", headers)

    @classmethod
    def error(cls, status: int, message: str,
              headers: tuple[tuple[str, str], ...] = ()) -> Response:
        """A ``{"error": message}`` answer."""
        return cls.json({"error": message}, status, headers)


@dataclass(frozen=True, slots=True)
class Stream:
    """An answer sent piece by piece until the iterator ends or the client leaves."""

    chunks: AsyncIterator[bytes]
    content_type: str = "text/event-stream"
    headers: tuple[tuple[str, str], ...] = field(default=(("Cache-Control", "no-cache"),))


Handler = Callable[[Request], Awaitable[Response | Stream]]


class BadRequestError(Exception):
    """A request the server refuses before any handler sees it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class HttpServer:
    """Serves ``handler`` on ``host``:``port`` (port 0: a free one, see :attr:`port`)."""

    def __init__(self, handler: Handler, host: str, port: int) -> None:
        self._handler = handler
        self._host = host
        self._port = port
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._requests: set[asyncio.Task[None]] = set()
        self._waiting: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        self._closing = False
        """The connections waiting for a request head, longest waiting first."""
        self._streams: set[asyncio.Task[None]] = set()
        self.port = port

    async def start(self) -> None:
        """Bind and listen; ``OSError`` if the address is taken or not ours."""
        self._server = await asyncio.start_server(self._connection, self._host, self._port,
                                                  limit=MAX_HEAD, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self, grace_s: float = 0.0) -> None:
        """Stop listening and end every connection, streams included.  A connection
        answering a request may take up to ``grace_s`` to send its answer (the request
        that made the daemon stop hears why)."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        answering = self._requests - set(self._waiting)
        for task in self._tasks - answering:
            task.cancel()
        if answering and grace_s > 0:
            await asyncio.wait(answering, timeout=grace_s)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=0.5)
        if self._server is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 0.5)
            self._server = None

    @property
    def connections(self) -> dict[str, int]:
        """How many connections are open: ``requests`` (``waiting`` of them for a head)
        and ``streams``."""
        return {"requests": len(self._requests), "waiting": len(self._waiting),
                "streams": len(self._streams)}

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            if self._admit(task):
                await self._serve(reader, writer, task)
            else:
                await _refuse(reader, writer, _busy("too many connections"))
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError,
                TimeoutError):
            pass
        except Exception:
            log.exception("HTTP connection failed")
        finally:
            for table in (self._tasks, self._requests, self._streams):
                table.discard(task)
            self._waiting.pop(task, None)
            writer.close()

    def _admit(self, task: asyncio.Task[None]) -> bool:
        """Give ``task`` a place for requests, cutting the longest waiting if need be."""
        if len(self._requests) >= MAX_CONNECTIONS:
            oldest = next(iter(self._waiting), None)
            if oldest is None:
                return False  # every place is busy answering: the newcomer retries
            _head_and_body(self._waiting.pop(oldest), _busy("too many connections"))
            oldest.cancel()  # it closes its connection once the answer is written
            self._requests.discard(oldest)
        self._requests.add(task)
        return True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     task: asyncio.Task[None]) -> None:
        for served in range(MAX_REQUESTS):
            self._waiting[task] = writer
            try:
                request = await _read_request(reader, HEAD_TIMEOUT_S if served == 0
                                              else IDLE_TIMEOUT_S)
            except BadRequestError as exc:
                await _refuse(reader, writer, Response.error(exc.status, str(exc)))
                return
            finally:
                self._waiting.pop(task, None)
            if request is None:
                return
            try:
                answer, more = await self._answer(request, reader)
            except Exception:
                log.exception("HTTP %s %s failed", request.method, request.path)
                await _send(writer, Response.error(500, "the board failed to answer: its log "
                                                   "says why"), keep=False)
                return
            if answer is None:
                return  # the client left: nobody to answer
            if isinstance(answer, Stream):
                await self._stream(reader, writer, answer, task)
                return
            keep = (_keep_alive(request) and not more and served + 1 < MAX_REQUESTS
                    and not self._closing)
            await _send(writer, answer, keep=keep)
            if not keep:
                return

    async def _answer(self, request: Request,
                      reader: asyncio.StreamReader) -> tuple[Response | Stream | None, bool]:
        """The handler's answer, raced against the client hanging up (None: it did, and
        the handler was cancelled); and whether the client sent more meanwhile (it
        pipelines, which is not served: the connection closes after the answer).  A GET
        is answered at once or with a stream (which watches for itself): no race."""
        if request.method in QUICK_METHODS:
            return await self._handler(request), False
        work = asyncio.ensure_future(self._handler(request))
        gone = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not work.done() and not _sent_more(gone):
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
                return None, False
            return await work, _sent_more(gone) if gone.done() else False
        finally:
            for pending in (work, gone):
                pending.cancel()
            await asyncio.gather(work, gone, return_exceptions=True)

    async def _stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      stream: Stream, task: asyncio.Task[None]) -> None:
        """Send ``stream`` until it ends or the client hangs up (or sends anything)."""
        try:
            if len(self._streams) >= MAX_STREAMS:
                await _send(writer, _busy("too many event streams"), keep=False)
                return
            self._requests.discard(task)
            self._streams.add(task)
            pump = asyncio.ensure_future(_pump(writer, stream))
            gone = asyncio.ensure_future(reader.read(1))
            try:
                await asyncio.wait({pump, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for pending in (pump, gone):
                    pending.cancel()
                await asyncio.gather(pump, gone, return_exceptions=True)
            error = pump.exception() if pump.done() and not pump.cancelled() else None
            if error is not None:
                raise error
        finally:
            closer = getattr(stream.chunks, "aclose", None)
            if closer is not None:
                await closer()


def _sent_more(gone: asyncio.Future[bytes]) -> bool:
    """True if the read racing a handler got data; False if it got the end (or failed)."""
    if not gone.done() or gone.cancelled() or gone.exception() is not None:
        return False
    return bool(gone.result())


def _busy(message: str) -> Response:
    return Response.error(503, message, (("Retry-After", "2"),))


async def _read_request(reader: asyncio.StreamReader, timeout: float) -> Request | None:
    """The next request, or None when the client closed or went quiet."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except TimeoutError:
        return None
    except asyncio.IncompleteReadError as exc:
        if exc.partial.strip():
            raise BadRequestError(400, "incomplete request") from None
        return None
    except asyncio.LimitOverrunError:
        raise BadRequestError(431, f"request head larger than {MAX_HEAD} bytes") from None
    method, target, headers = _parse_head(head)
    path, _, query_text = target.partition("?")  # the path exactly: "//x/api/state" is no
    query = _query(query_text)  # host and path
    body = await _read_body(reader, headers)
    return Request(method, path, query, headers, body)


def _query(text: str) -> dict[str, str]:
    """The query's parameters, %-decoded; each name and value must be a text (UTF-8, no
    control character: :func:`~tavla_pi.bounded.text_fault`), else BadRequestError."""
    try:
        pairs = parse_qsl(text, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise BadRequestError(400, "the query is not UTF-8 once %-decoded") from None
    for name, value in pairs:
        where = f"query parameter {json.dumps(name[:40])}"
        if (fault := text_fault(name)) is not None:
            raise BadRequestError(400, f"{where}: the name {fault}")
        if (fault := text_fault(value)) is not None:
            raise BadRequestError(400, f"{where}: {fault}")
    return dict(pairs)


def _parse_head(head: bytes) -> tuple[str, str, dict[str, str]]:
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        raise BadRequestError(400, "undecodable request head") from None
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1.") or not parts[0].isalpha():
        raise BadRequestError(400, "malformed request line")
    if not parts[1].startswith("/"):
        raise BadRequestError(400, "the request target must be a path")
    target = _target(parts[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise BadRequestError(400, "malformed header line")
        key = name.lower()
        if key in headers and key in UNIQUE_HEADERS:
            raise BadRequestError(400, f"more than one {name} header")
        headers[key] = value.strip()
    headers.setdefault(":version", parts[2])
    return parts[0], target, headers


def _target(raw: str) -> str:
    """The request target (read as Latin-1) as the UTF-8 text it must be, without a
    control character (a path names a file or a match: a text like any other)."""
    try:
        target = raw.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequestError(400, "the request target is not UTF-8") from None
    fault = text_fault(target)
    if fault is not None:
        raise BadRequestError(400, f"the request target {fault}")
    return target


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "transfer-encoding" in headers:
        raise BadRequestError(411, "send the body with a Content-Length, not chunked")
    length_text = headers.get("content-length", "0")
    if not length_text.isdigit():
        raise BadRequestError(400, "Content-Length is not a number")
    length = int(length_text)
    if length > MAX_BODY:
        raise BadRequestError(413, f"request body larger than {MAX_BODY} bytes")
    if not length:
        return b""
    try:
        return await asyncio.wait_for(reader.readexactly(length), HEAD_TIMEOUT_S)
    except (TimeoutError, asyncio.IncompleteReadError):
        raise BadRequestError(400, "request body shorter than its Content-Length") from None


def _keep_alive(request: Request) -> bool:
    connection = request.headers.get("connection", "").lower()
    if request.headers.get(":version") == "HTTP/1.0":
        return connection == "keep-alive"
    return connection != "close"


def _head(status: int, content_type: str, extra: tuple[tuple[str, str], ...],
          length: int | None, *, keep: bool) -> bytes:
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
    lines = [f"HTTP/1.1 {status} {phrase}", f"Content-Type: {content_type}",
             "X-Content-Type-Options: nosniff", f"Connection: {'keep-alive' if keep else 'close'}"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines += [f"{name}: {value}" for name, value in extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _send(writer: asyncio.StreamWriter, response: Response, *, keep: bool) -> None:
    _head_and_body(writer, response, keep=keep)
    await asyncio.wait_for(writer.drain(), SEND_TIMEOUT_S)


def _head_and_body(writer: asyncio.StreamWriter, response: Response, *, keep: bool = False) -> None:
    """Queue the whole answer on ``writer`` (it is sent even if the connection closes now)."""
    writer.write(_head(response.status, response.content_type, response.headers,
                       len(response.body), keep=keep) + response.body)


async def _refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  response: Response) -> None:
    """Answer, then read what the client still sends before closing, so that
    closing with unread input does not reset the connection before the answer arrives."""
    await _send(writer, response, keep=False)
    if writer.can_write_eof():
        writer.write_eof()
    with contextlib.suppress(TimeoutError, ConnectionError):
        await asyncio.wait_for(reader.read(4 * MAX_BODY), LINGER_S)


async def _pump(writer: asyncio.StreamWriter, stream: Stream) -> None:
    """The stream's head, then each chunk as it comes; a client that leaves a chunk
    unread for :data:`SEND_TIMEOUT_S` ends it (TimeoutError)."""
    writer.write(_head(200, stream.content_type, stream.headers, None, keep=False))
    await asyncio.wait_for(writer.drain(), SEND_TIMEOUT_S)
    async for chunk in stream.chunks:
        writer.write(chunk)
        await asyncio.wait_for(writer.drain(), SEND_TIMEOUT_S)
