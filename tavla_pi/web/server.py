"""A small HTTP/1.1 server on asyncio streams: requests in, responses or event streams out.

The standard library keeps the daemon's start-up and memory low on a Pi Zero
2 W; the interface is a handful of routes (``tavla_pi.web.api``).  It reads
one request at a time per connection (keep-alive, no pipelining), refuses
what it does not handle with a 4xx and a JSON ``{"error": ...}``, bounds
header and body sizes, idle time and the number of connections, and closes
every connection, streams included, on ``close()``.
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
from urllib.parse import parse_qsl, urlsplit

log = logging.getLogger("tavla_pi.web")

MAX_HEAD = 8 * 1024
MAX_BODY = 16 * 1024
MAX_CONNECTIONS = 64
HEAD_TIMEOUT_S = 10.0
IDLE_TIMEOUT_S = 5.0
LINGER_S = 0.5
"""How long a refused connection may still send before it is closed."""
MAX_REQUESTS = 100
"""Requests served on one kept-alive connection before it is closed."""


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
        self.port = port

    async def start(self) -> None:
        """Bind and listen; ``OSError`` if the address is taken or not ours."""
        self._server = await asyncio.start_server(self._connection, self._host, self._port,
                                                  limit=MAX_HEAD, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening and end every connection, streams included."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=0.5)
        if self._server is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 0.5)
            self._server = None

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            if len(self._tasks) > MAX_CONNECTIONS:
                await _refuse(reader, writer, Response.error(503, "too many connections"))
            else:
                await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("HTTP connection failed")
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for served in range(MAX_REQUESTS):
            try:
                request = await _read_request(reader, HEAD_TIMEOUT_S if served == 0
                                              else IDLE_TIMEOUT_S)
            except BadRequestError as exc:
                await _refuse(reader, writer, Response.error(exc.status, str(exc)))
                return
            if request is None:
                return
            answer = await self._handler(request)
            if isinstance(answer, Stream):
                await _stream(writer, answer)
                return
            keep = _keep_alive(request) and served + 1 < MAX_REQUESTS
            await _send(writer, answer, keep)
            if not keep:
                return


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
    body = await _read_body(reader, headers)
    url = urlsplit(target)
    query = dict(parse_qsl(url.query, keep_blank_values=True))
    return Request(method, url.path or "/", query, headers, body)


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
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise BadRequestError(400, "malformed header line")
        headers[name.lower()] = value.strip()
    headers.setdefault(":version", parts[2])
    return parts[0], parts[1], headers


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
          length: int | None, keep: bool) -> bytes:
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
    lines = [f"HTTP/1.1 {status} {phrase}", f"Content-Type: {content_type}",
             "X-Content-Type-Options: nosniff", f"Connection: {'keep-alive' if keep else 'close'}"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines += [f"{name}: {value}" for name, value in extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _send(writer: asyncio.StreamWriter, response: Response, keep: bool) -> None:
    writer.write(_head(response.status, response.content_type, response.headers,
                       len(response.body), keep) + response.body)
    await writer.drain()


async def _refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  response: Response) -> None:
    """Answer, then read what the client still sends before closing, so that
    closing with unread input does not reset the connection before the answer arrives."""
    await _send(writer, response, keep=False)
    if writer.can_write_eof():
        writer.write_eof()
    with contextlib.suppress(TimeoutError, ConnectionError):
        await asyncio.wait_for(reader.read(4 * MAX_BODY), LINGER_S)


async def _stream(writer: asyncio.StreamWriter, stream: Stream) -> None:
    writer.write(_head(200, stream.content_type, stream.headers, None, keep=False))
    await writer.drain()
    try:
        async for chunk in stream.chunks:
            writer.write(chunk)
            await writer.drain()
    finally:
        closer = getattr(stream.chunks, "aclose", None)
        if closer is not None:
            await closer()
