"""What the page sends and reads, checked without a browser: hostile POST /api/sim bodies get
a 4xx and change nothing, the event stream's parameters are checked, the page's files are
served (and only they), LED frames ride the stream, and /api/state has what the page draws."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.daemon import simstore
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.leds import REQUIRED_FEATURES
from tavla_pi.testing.daemon import VirtualDaemon, body
from tavla_pi.web.api import Api, static_files
from tavla_pi.web.server import HttpServer, Request, Response, Stream

STATIC = Path(__file__).resolve().parent.parent / "tavla_pi" / "web" / "static"
OPENING: list[dict[str, Any]] = [
    {"setup": "start"}, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
    {"move": "8/5", "color": "white"},
]

HOSTILE: list[tuple[str, bytes, str]] = [
    ("deep nesting", b"[" * 16_000, "nested deeper than 32 levels"),
    ("deep object nesting", b'{"a":' * 5000, 'field "a": nested deeper than 32 levels'),
    ("a huge integer", b'{"wait": ' + b"9" * 5000 + b"}",
     'field "wait": an integer of 5000 digits'),
    ("a lone surrogate", b'{"lift": "1\\ud800", "color": "white"}', 'field "lift"'),
    ("a surrogate colour", b'{"lift": "13", "color": "\\udfff"}', 'field "color"'),
    ("NaN", b'{"wait": NaN}', 'field "wait"'),
    ("Infinity", b'{"hold": "menu", "ms": Infinity}', 'field "ms"'),
    ("a float", b'{"hold": "menu", "ms": 1500.5}', 'field "ms"'),
    ("a bool", b'{"hold": "menu", "ms": true}', 'field "ms"'),
    ("a string number", b'{"wait": "100"}', 'field "wait"'),
    ("negative time", b'{"wait": -1}', 'field "wait"'),
    ("too long a hold", b'{"hold": "menu", "ms": 5001}', "at most 5000 ms"),
    ("an object as a button", b'{"press": {"$gt": ""}}', 'field "press"'),
    ("no such button", b'{"press": "white.menu"}', 'field "press"'),
    ("two actions", b'{"press": "white.roll", "hold": "menu", "ms": 1600}',
     "exactly one action key"),
    ("a duplicate key", b'{"lift": "13", "color": "white", "lift": "../13"}', 'field "lift"'),
    ("dice out of range", b'{"dice": [0, 7]}', 'field "dice"'),
    ("three dice", b'{"dice": [1, 2, 3]}', 'field "dice"'),
    ("bool dice", b'{"dice": [true, 1]}', 'field "dice"'),
    ("a move nowhere", b'{"move": "13/13", "color": "white"}', 'field "move"'),
    ("a move as a list", b'{"move": ["13", "8"], "color": "white"}', 'field "move"'),
    ("a glitch as a string", b'{"glitch": "5"}', 'field "glitch"'),
    ("a glitch in the tray", b'{"glitch": {"at": "off", "color": "black", "ms": 40}}',
     "trays are not sensed"),
    ("a glitch without colour", b'{"glitch": {"at": "5", "ms": 40}}', 'field "glitch.color"'),
    ("a match too long", b'{"setup": "start", "match_length": 65}', 'field "match_length"'),
    ("setup of what", b'{"setup": "finish"}', 'field "setup"'),
    ("a load of nothing", b'{"load": "x"}', 'field "load"'),
    ("a bad match id", b'{"load": {"position_id": "4HPwATDgc/ABMA", "match_id": "x!"}}',
     "x!"),
    ("null", b"null", "expected a JSON object"),
    ("a string", b'"press"', "expected a JSON object"),
    ("a number", b"123", "expected a JSON object"),
    ("a byte order mark", b'\xef\xbb\xbf{"setup": "start"}', "not valid JSON"),
    ("Latin-1", b'{"lift": "13", "color": "w\xe9"}', "not UTF-8"),
    ("a NUL", b'{"lift": "13\x00", "color": "white"}', "not valid JSON"),
    ("whitespace", b"   \n\t ", "expected one action"),
    ("a lift from an empty point", b'{"lift": "7", "color": "white"}', "no white checker"),
    ("a place from an empty hand", b'{"place": "7", "color": "black"}', "no black checker"),
]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def opened(tmp_path: Path) -> VirtualDaemon:
    daemon = VirtualDaemon(tmp_path)
    for action in OPENING:
        await daemon.sim(action)
    return daemon


@pytest.mark.parametrize(("payload", "error"), [c[1:] for c in HOSTILE],
                         ids=[c[0] for c in HOSTILE])
def test_hostile_bodies_get_a_4xx_and_change_nothing(tmp_path: Path, payload: bytes,
                                                     error: str) -> None:
    async def scenario() -> None:
        daemon = await opened(tmp_path)
        before = await daemon.state()
        journaled = list(daemon.memory.events)
        saved = (tmp_path / simstore.SIM_BOARD_FILENAME).read_bytes()
        answer = await daemon.request("POST", "/api/sim", payload)
        assert 400 <= answer.status < 500, answer.body
        assert answer.content_type == "application/json"
        message = body(answer)["error"]
        assert error in message, message
        assert "\n" not in message and len(message) < 400
        await daemon.sleep(400)
        assert await daemon.state() == before
        assert daemon.memory.events == journaled
        assert (tmp_path / simstore.SIM_BOARD_FILENAME).read_bytes() == saved
    run(scenario())


@pytest.mark.parametrize(("content_type", "status"), [
    ("application/json", 200), ("application/json; charset=utf-8", 200),
    ("Application/JSON", 200), ("text/plain", 415), ("", 415), ("application/jsonx", 415),
    ("multipart/form-data; boundary=x", 415),
])
def test_only_json_is_taken(tmp_path: Path, content_type: str, status: int) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        head = {"host": "127.0.0.1", "content-type": content_type}
        answer = await daemon.api.handle(Request("POST", "/api/sim", {}, head,
                                                 b'{"dice": [6, 6]}'))
        assert isinstance(answer, Response) and answer.status == status
        assert len(daemon.dice.queue) == (2 if status == 200 else 0)
    run(scenario())


# ---- on a real socket: nothing a request sends breaks the connection's answer -------


async def exchange(port: int, raw: bytes) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), payload


def post(payload: bytes) -> bytes:
    return (b"POST /api/sim HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: " + str(len(payload)).encode()
            + b"\r\n\r\n" + payload)


@pytest.mark.parametrize("payload", [b"[" * 16_000, b'{"lift": "\\ud800x", "color": "white"}',
                                     b'{"wait": ' + b"1" * 9000 + b"}"],
                         ids=["nesting", "surrogate", "digits"])
def test_hostile_bodies_over_a_socket_get_a_json_400(tmp_path: Path, payload: bytes) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        server = HttpServer(daemon.api.handle, "127.0.0.1", 0)
        await server.start()
        try:
            status, answer = await exchange(server.port, post(payload))
            assert status == 400
            assert json.loads(answer)["error"].startswith("request body")
            status, _ = await exchange(server.port, post(b'{"dice": [2, 2]}'))
            assert status == 200  # and the server goes on serving
        finally:
            await server.close()
    run(scenario())


# ---- the event stream's parameters, and LED frames on it ---------------------------------


@pytest.mark.parametrize(("query", "error"), [
    ({"leds": "2"}, "leds must be 0 or 1"), ({"leds": ""}, "leds must be 0 or 1"),
    ({"leds": "1" * 5000}, "leds must be 0 or 1"), ({"since": "0"}, "unknown parameter"),
])
def test_the_event_stream_refuses_unknown_parameters(tmp_path: Path, query: dict[str, str],
                                                     error: str) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        answer = await daemon.api.handle(Request("GET", "/api/events", query, {}, b""))
        assert isinstance(answer, Response) and answer.status == 400
        assert error in body(answer)["error"] and len(body(answer)["error"]) < 200
        assert daemon.hub.subscribers == 0
    run(scenario())


def test_led_frames_ride_the_stream_only_when_asked(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        api = Api(daemon.core.state, daemon.hub, daemon.desk, token=None, loopback=True,
                  leds=lambda: daemon.pipeline.frame)
        await daemon.sim({"setup": "start"})
        await daemon.sleep(400)
        stream = await api.handle(Request("GET", "/api/events", {"leds": "1"}, {}, b""))
        assert isinstance(stream, Stream)
        chunks = stream.chunks
        assert await anext(chunks) == b"retry: 2000\n\n"
        first = await anext(chunks)
        assert first.startswith(b"event: leds\ndata: [")
        assert json.loads(first.split(b"data: ", 1)[1]) == (await daemon.state())["leds"]
        kinds = [json.loads((await anext(chunks))[6:])["type"] for _ in daemon.hub.game]
        assert kinds[0] == "game_started"
        await daemon.sim({"dice": [3, 1]})
        await daemon.sim({"press": "white.roll"})  # the dice light up: a new frame
        seen = [await asyncio.wait_for(anext(chunks), 2) for _ in range(2)]
        frames = [c for c in seen if c.startswith(b"event: leds")]
        events = [json.loads(c[6:]) for c in seen if c.startswith(b"data: ")]
        assert frames and json.loads(frames[-1].split(b"data: ", 1)[1]) == \
            (await daemon.state())["leds"]
        assert [e["type"] for e in events] == ["opening_roll"]
        await chunks.aclose()  # type: ignore[attr-defined]
        plain = await api.handle(Request("GET", "/api/events", {}, {}, b""))
        assert isinstance(plain, Stream)
        chunks = plain.chunks
        await anext(chunks)
        backlog = [await anext(chunks) for _ in daemon.hub.game]
        assert all(chunk.startswith(b"data: {") for chunk in backlog)
        await chunks.aclose()  # type: ignore[attr-defined]
    run(scenario())


# ---- the page's files -------------------------------------------------------------------


def test_the_page_and_every_module_it_imports_are_served(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        page = await daemon.request("GET", "/")
        assert page.status == 200 and page.content_type.startswith("text/html")
        headers = dict(page.headers)
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        wanted = set(re.findall(rb'(?:src|href)="/static/([\w.-]+)"', page.body))
        for name in sorted(STATIC.glob("*.js")):
            wanted |= set(re.findall(rb'from "\./([\w.-]+)"', name.read_bytes()))
        assert {b"app.js", b"style.css", b"board.js", b"i18n.js"} <= wanted
        for name in sorted(wanted):
            answer = await daemon.request("GET", f"/static/{name.decode()}")
            assert answer.status == 200, name
            kind = "text/javascript" if name.endswith(b".js") else "text/css"
            assert answer.content_type.startswith(kind)
            assert answer.body == (STATIC / name.decode()).read_bytes()
    run(scenario())


@pytest.mark.parametrize("path", [
    "/static/", "/static/nothing.js", "/static/../api.py", "/static/%2e%2e/api.py",
    "/static//etc/passwd", "/static/index.html/x", "/static/APP.JS", "/static/.hidden.js",
])
def test_nothing_else_is_served_from_static(tmp_path: Path, path: str) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        answer = await daemon.request("GET", path)
        assert answer.status == 404 and "no such resource" in body(answer)["error"]
        assert (await daemon.request("POST", "/static/app.js", {})).status == 405
    run(scenario())


def test_static_files_are_the_shipped_ones() -> None:
    files = static_files()
    assert set(files) == {p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css",
                                                                            ".html", ".svg")}
    assert all(content for content, _ in files.values())


# ---- what /api/state tells the page -----------------------------------------------------


def test_state_names_every_led_and_the_simulated_board(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = await opened(tmp_path)
        await daemon.sim({"lift": "6", "color": "white"})
        await daemon.sleep(400)
        state = await daemon.state()
        pinmap = load_pinmap()
        assert len(state["led_features"]) == len(state["leds"]) == pinmap.leds.count
        for feature in pinmap.led_features:
            assert state["led_features"][feature.index] == feature.name
        assert set(REQUIRED_FEATURES) <= set(state["led_features"])
        assert 0 < state["led_brightness"] <= 1
        assert state["lifted"] == {"from": "6", "destinations": ["5"]}  # the 3 is played
        physical = state["physical"]
        assert physical["hand"] == {"white": 1, "black": 0}
        assert physical["off"] == {"white": 0, "black": 0}
        assert [len(s) for s in physical["points"]["6"]] == [1, 1, 1, 1, 0, 0]
        assert [len(s) for s in physical["points"]["5"]] == [1, 0, 0, 0, 0, 0]
        assert physical["bar"] == {"white": [[], [], [], []], "black": [[], [], [], []]}
        assert state["board"]["white"]["6"] == 5  # the engine: nothing committed yet
        assert state["menu_armed"] is False and state["press_done"] is False
        await daemon.sim({"place": "5", "color": "white"})
        await daemon.sleep(400)
        state = await daemon.state()
        assert state["press_done"] is True and state["lifted"] is None
        assert [len(s) for s in state["physical"]["points"]["5"]] == [1, 1, 0, 0, 0, 0]
    run(scenario())
