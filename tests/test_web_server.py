"""The HTTP server on a real socket: parsing, limits, keep-alive, streams, shutdown."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from tavla_pi.web import server as http
from tavla_pi.web.server import HttpServer, Request, Response, Stream

Handler = Callable[[Request], Awaitable[Response | Stream]]


async def echo(request: Request) -> Response | Stream:
    if request.path == "/boom":
        raise RuntimeError("a bug in a handler")
    if request.path == "/stream":
        return Stream(ticks())
    return Response.json({"method": request.method, "path": request.path,
                          "query": request.query, "body": request.body.decode("latin-1"),
                          "type": request.media_type})


async def ticks() -> AsyncIterator[bytes]:
    n = 0
    while True:
        yield f"data: {n}\n\n".encode()
        n += 1
        await asyncio.sleep(0)
        if n > 2:
            await asyncio.Event().wait()  # then quiet until the server closes


async def serving(test: Callable[[int], Awaitable[None]], handler: Handler = echo) -> None:
    server = HttpServer(handler, "127.0.0.1", 0)
    await server.start()
    assert server.port != 0
    try:
        await test(server.port)
    finally:
        await server.close()


async def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return parse(answer)


def parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, payload


def get(path: str, extra: str = "", version: str = "1.1") -> bytes:
    return f"GET {path} HTTP/{version}\r\nHost: x\r\nConnection: close\r\n{extra}\r\n".encode()


def run(test: Callable[[int], Awaitable[None]], handler: Handler = echo) -> None:
    asyncio.run(serving(test, handler))


def test_a_request_and_its_json_answer() -> None:
    async def test(port: int) -> None:
        status, headers, payload = await exchange(port, get("/api/state?x=1&y="))
        assert status == 200
        assert headers["Content-Type"] == "application/json"
        assert headers["Content-Length"] == str(len(payload))
        assert headers["Connection"] == "close"
        assert json.loads(payload) == {"method": "GET", "path": "/api/state",
                                       "query": {"x": "1", "y": ""}, "body": "", "type": ""}
        raw = (b"POST /api/sim HTTP/1.1\r\nContent-Type: application/json; charset=utf-8\r\n"
               b"Content-Length: 4\r\nConnection: close\r\n\r\nabcd")
        status, _, payload = await exchange(port, raw)
        assert json.loads(payload)["body"] == "abcd"
        assert json.loads(payload)["type"] == "application/json"
    run(test)


@pytest.mark.parametrize(("raw", "status", "error"), [
    (b"HELLO\r\n\r\n", 400, "malformed request line"),
    (b"GET / HTTP/2.0\r\n\r\n", 400, "malformed request line"),
    (b"GET http://x/ HTTP/1.1\r\n\r\n", 400, "must be a path"),
    (b"G3T / HTTP/1.1\r\n\r\n", 400, "malformed request line"),
    (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400, "malformed header line"),
    (b"GET / HTTP/1.1\r\n bad: folded\r\n\r\n", 400, "malformed header line"),
    (b"GET / HTTP/1.1\r\nX: " + b"a" * 9000 + b"\r\n\r\n", 431, "request head larger"),
    (b"POST / HTTP/1.1\r\nContent-Length: 99999\r\n\r\n", 413, "request body larger"),
    (b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400, "Content-Length is not a number"),
    (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n", 411,
     "Content-Length, not chunked"),
    (b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort", 400, "shorter than its"),
    (b"GET / HTTP/1.1\r\nHost: x", 400, "incomplete request"),
])
def test_malformed_requests_get_a_json_4xx(raw: bytes, status: int, error: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "HEAD_TIMEOUT_S", 5.0)

    async def test(port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw)
        await writer.drain()
        if raw.endswith((b"short", b"Host: x")):
            writer.write_eof()  # the client gives up half way
        got_status, headers, payload = parse(await reader.read())
        writer.close()
        assert got_status == status
        assert headers["Connection"] == "close"
        assert error in json.loads(payload)["error"]
    run(test)


def test_keep_alive_serves_several_requests_on_one_connection() -> None:
    async def test(port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for n in range(3):
            writer.write(f"GET /{n} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status, headers, _ = parse(head)
            assert (status, headers["Connection"]) == (200, "keep-alive")
            payload = await reader.readexactly(int(headers["Content-Length"]))
            assert json.loads(payload)["path"] == f"/{n}"
        writer.write(b"GET /last HTTP/1.0\r\n\r\n")  # HTTP/1.0 closes unless asked not to
        status, headers, _ = parse(await reader.read())
        assert headers["Connection"] == "close"
        writer.close()
    run(test)


def test_a_failing_handler_answers_500_and_ends_only_its_connection(
        caplog: pytest.LogCaptureFixture) -> None:
    async def test(port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(get("/boom").replace(b"Connection: close", b"Connection: keep-alive"))
        status, headers, payload = parse(await reader.read())
        assert (status, headers["Connection"]) == (500, "close")
        assert "log" in json.loads(payload)["error"]
        writer.close()
        status, _, _ = await exchange(port, get("/fine"))
        assert status == 200
    run(test)
    assert "HTTP GET /boom failed" in caplog.text


def test_too_many_connections_get_503_only_when_all_are_busy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "MAX_CONNECTIONS", 2)
    release = asyncio.Event()

    async def slow(request: Request) -> Response | Stream:
        if request.path == "/slow":
            await release.wait()
        return await echo(request)

    async def test(port: int) -> None:
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        for reader, writer in held:  # served once, kept alive: both wait for a request
            writer.write(b"GET / HTTP/1.1\r\n\r\n")
            await reader.readuntil(b"\r\n\r\n")
        status, _, _ = await exchange(port, get("/"))
        assert status == 200  # an idle one gave up its place
        busy = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        for _, writer in busy:
            writer.write(get("/slow"))
            await writer.drain()
        await asyncio.sleep(0.05)
        status, headers, payload = await exchange(port, get("/"))
        assert status == 503 and json.loads(payload) == {"error": "too many connections"}
        assert headers["Retry-After"] == "2"
        release.set()
        for reader, writer in busy:
            assert parse(await reader.read())[0] == 200
            writer.close()
        for _, writer in held:
            writer.close()
    run(test, slow)


def test_streams_run_until_the_server_closes() -> None:
    async def test_stream() -> None:
        server = HttpServer(echo, "127.0.0.1", 0)
        await server.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(get("/stream"))
        head = await reader.readuntil(b"\r\n\r\n")
        status, headers, _ = parse(head)
        assert status == 200
        assert headers["Content-Type"] == "text/event-stream"
        assert "Content-Length" not in headers
        assert headers["Cache-Control"] == "no-cache"
        for n in range(3):
            assert await reader.readuntil(b"\n\n") == f"data: {n}\n\n".encode()
        await server.close()
        rest = await asyncio.wait_for(reader.read(), 5)
        assert rest == b""  # the end: the server hung up
        writer.close()
    asyncio.run(test_stream())


def test_a_taken_port_is_an_os_error() -> None:
    async def test(port: int) -> None:
        second = HttpServer(echo, "127.0.0.1", port)
        with pytest.raises(OSError):
            await second.start()
    run(test)


def test_response_helpers() -> None:
    answer = Response.error(409, "no checker")
    assert (answer.status, json.loads(answer.body)) == (409, {"error": "no checker"})
    assert Response.json({"a": "ü"}).body == '{"a":"ü"}'.encode()
    request = Request("POST", "/", {}, {"content-type": "Application/JSON ; charset=utf-8"})
    assert request.media_type == "application/json"


def test_unknown_status_codes_still_make_a_status_line() -> None:
    head = http._head(599, "text/plain", (), 0, keep=False).decode()
    assert head.startswith("HTTP/1.1 599 \r\n")
