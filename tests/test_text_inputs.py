"""Every text input is a text (docs/CONTRACTS.md §7 additions): no NUL, no lone surrogate, no
other control character reaches a route, a program or a file.

The check itself (:func:`tavla_pi.bounded.text_fault`), then the real HTTP server on
loopback: every route of the daemon and of the club page, found from their route
tables, refuses such a character in the request target, a query parameter and (the
daemon's POST routes) any string of the JSON body with a 400 naming the field and
the character, and still takes a good text.  Then the config's paths and names and a
scenario's fields.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from programs import needs
from test_hostile_inputs import serving

from tavla_pi.bounded import NOT_TEXT, check_texts, json_text_fault, text_fault
from tavla_pi.club.model import ClubModel
from tavla_pi.club.site import ClubSite
from tavla_pi.config import parse_config
from tavla_pi.errors import BadInputError, ConfigError, ScenarioError
from tavla_pi.replay.actions import parse_line
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.web.server import Request, Response, Stream

# ---- the check ---------------------------------------------------------------------------

NOT_TEXTS: list[tuple[str, str]] = [
    ("a\x00b", "holds a NUL (U+0000) at index 1"),
    ("\ud800", "holds a lone surrogate (U+D800) at index 0"),
    ("ok\udfff", "holds a lone surrogate (U+DFFF) at index 2"),
    ("a\tb", "holds a control character (U+0009, a tab) at index 1"),
    ("line\n", "holds a control character (U+000A, a newline) at index 4"),
    ("\r", "holds a control character (U+000D, a carriage return) at index 0"),
    ("x\x1b[31m", "holds a control character (U+001B) at index 1"),
    ("del\x7f", "holds a control character (U+007F, DEL) at index 3"),
    ("c1\x85", "holds a control character (U+0085) at index 2"),
]
TEXTS = ["Ayşe", "έξι τέσσερα", "Çağla", "five 😀", "a b", "\u00a0", "x" * 2000, ""]


@pytest.mark.parametrize(("text", "fault"), NOT_TEXTS, ids=[repr(t[0])[:12] for t in NOT_TEXTS])
def test_the_check_names_the_first_wrong_character_and_where(text: str, fault: str) -> None:
    assert text_fault(text) == fault
    assert text_fault(text + "\x00") == fault  # the first one
    with pytest.raises(BadInputError) as refused:
        check_texts({"name": ["ok", text]}, "request body")
    assert str(refused.value) == f"request body: name[1]: {fault}"


@pytest.mark.parametrize("text", TEXTS)
def test_a_text_passes(text: str) -> None:
    assert text_fault(text) is None
    check_texts({"name": [text, {"again": text}]}, "request body")


def test_the_forbidden_characters_are_the_controls_and_the_surrogates() -> None:
    forbidden = {code for code in range(0x110000) if NOT_TEXT.match(chr(code))}
    assert forbidden == {*range(0x00, 0x20), *range(0x7F, 0xA0), *range(0xD800, 0xE000)}


def test_every_string_value_of_a_json_value_is_checked_by_place() -> None:
    assert json_text_fault({"a": {"b": ["ok", "y\x01"]}}) == (
        "a.b[1]", "holds a control character (U+0001) at index 1")
    assert json_text_fault([{"s": ["\ud800"]}]) == ("[0].s[0]",
                                                    "holds a lone surrogate (U+D800) at index 0")
    assert json_text_fault({"n": 1, "t": True, "z": None, "s": "Ayşe"}) is None
    with pytest.raises(BadInputError, match=r"^request body: speech\.language: holds a NUL"):
        check_texts({"speech": {"language": "\x00"}}, "request body")


# ---- over HTTP: every route of the daemon and of the club page -----------------------------

QUERY_FAULTS: list[tuple[str, str]] = [
    ("q=a%00", 'query parameter "q": holds a NUL (U+0000) at index 1'),
    ("q=%09", 'query parameter "q": holds a control character (U+0009, a tab) at index 0'),
    ("q=x%1B", 'query parameter "q": holds a control character (U+001B) at index 1'),
    ("q=%C2%85", 'query parameter "q": holds a control character (U+0085) at index 0'),
    ("a%00=1", 'query parameter "a\\u0000": the name holds a NUL (U+0000) at index 1'),
    ("q=%ED%A0%80", "the query is not UTF-8 once %-decoded"),  # an encoded surrogate
    ("q=%FF", "the query is not UTF-8 once %-decoded"),
]
BODY_FAULTS: list[tuple[bytes, str]] = [
    (b'{"zz": "a\\u0000b"}', "holds a NUL (U+0000) at index 1"),
    (b'{"zz": "\\ud800"}', "holds a lone surrogate (U+D800) at index 0"),
    (b'{"zz": "x\\u001b"}', "holds a control character (U+001B) at index 1"),
    (b'{"zz": "a\\tb"}', "holds a control character (U+0009, a tab) at index 1"),
    (b'{"zz": ["ok", {"yy": "\\u0085"}]}', "holds a control character (U+0085) at index 0"),
]
NOT_UTF8 = [b'{"zz": "\xff"}', b'{"zz": "\xed\xa0\x80"}', b'{"zz": "\xc3"}']
GOOD: dict[str, Any] = {
    "/api/sim": {"setup": "start"},
    "/api/settings": {"level": "expert", "speech": {"page_language": "el"}},
    "/api/speech": {"ask": "position"},
    "/api/speech/audio": {"text": "Ayşe: έξι τέσσερα", "language": "el"},
}
"""A good body of each POST route (the speech's needs espeak-ng to answer 200)."""


def request(method: str, target: bytes, payload: bytes = b"") -> bytes:
    return (method.encode() + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Connection: close\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(payload)).encode() + b"\r\n\r\n" + payload)


async def exchange(port: int, raw: bytes) -> tuple[int, bytes]:
    """The status and body of the answer to ``raw`` (the head only of a stream)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    status = int(head.split()[1])
    answer = b"" if b"text/event-stream" in head else await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return status, answer


def refusal(answer: tuple[int, bytes]) -> str:
    """The error of a 400 (it must be one, in JSON)."""
    status, payload = answer
    assert status == 400, (status, payload[:200])
    error: str = json.loads(payload)["error"]
    return error


Handler = Callable[[Request], Awaitable[Response | Stream]]


def serve(handler: Handler, test: Callable[[int], Awaitable[None]],
          caplog: pytest.LogCaptureFixture) -> None:
    """``test`` against ``handler`` on a real server on loopback; no log line of an error."""
    with caplog.at_level(logging.WARNING):
        asyncio.run(serving(handler, test))
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


def every_target(paths: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """(method, path) of every route of a route table."""
    return [(method, path) for path, methods in paths.items() for method in methods]


def test_every_daemon_route_refuses_a_query_that_is_not_a_text(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    daemon = VirtualDaemon(tmp_path)
    targets = [*every_target(daemon.api.routes), ("GET", "/static/style.css")]
    assert len(targets) >= 9

    async def test(port: int) -> None:
        for method, path in targets:
            for query, fault in QUERY_FAULTS:
                answer = await exchange(port, request(method, f"{path}?{query}".encode(), b"{}"))
                assert refusal(answer) == fault, (method, path, query)
    serve(daemon.api.handle, test, caplog)


def test_every_club_route_refuses_a_query_that_is_not_a_text_and_takes_no_body(
        caplog: pytest.LogCaptureFixture) -> None:
    site = ClubSite(ClubModel("home"))
    paths = [*site.routes, "/static/club.js", "/api/matches/athens-1.mat"]
    assert "/api/stream" in paths and "/api/club" in paths

    async def test(port: int) -> None:
        for path in paths:
            for query, fault in QUERY_FAULTS:
                answer = await exchange(port, request("GET", f"{path}?{query}".encode()))
                assert refusal(answer) == fault, (path, query)
            status, _ = await exchange(port, request("POST", path.encode(), b'{"zz": "\\u0000"}'))
            assert status == 405, path  # no route of the club reads a body
    serve(site.handle, test, caplog)


@pytest.mark.parametrize(("target", "fault"), [
    (b"/api/state\x01", "the request target holds a control character (U+0001) at index 10"),
    (b"/api/matches/a\x7f.mat", "the request target holds a control character (U+007F, DEL) "
                                "at index 14"),
    (b"/static/\t", "the request target holds a control character (U+0009, a tab) at index 8"),
    (b"/api/\xff", "the request target is not UTF-8"),
    (b"/api/\xed\xa0\x80", "the request target is not UTF-8"),
])
def test_a_request_target_that_is_not_a_text_never_reaches_a_route(
        target: bytes, fault: str, caplog: pytest.LogCaptureFixture) -> None:
    seen: list[Request] = []

    async def handler(request: Request) -> Response:
        seen.append(request)
        return Response.json({"path": request.path})

    async def test(port: int) -> None:
        assert refusal(await exchange(port, request("GET", target))) == fault
        status, answer = await exchange(port, request("GET", "/api/Ayşe?q=έξι".encode()))
        assert (status, json.loads(answer)) == (200, {"path": "/api/Ayşe"})
    serve(handler, test, caplog)
    assert [r.query for r in seen] == [{"q": "έξι"}]


def test_every_post_route_of_the_daemon_refuses_a_body_string_that_is_not_a_text(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    daemon = VirtualDaemon(tmp_path)
    posts = [path for path, methods in daemon.api.routes.items() if "POST" in methods]
    assert sorted(posts) == sorted(GOOD), "a new POST route: add a good body of it to GOOD"

    async def test(port: int) -> None:
        for path in posts:
            for payload, fault in BODY_FAULTS:
                error = refusal(await exchange(port, request("POST", path.encode(), payload)))
                assert error.startswith("request body: ") and error.endswith(fault), (path, error)
                assert "zz" in error, (path, error)
            for payload in NOT_UTF8:
                error = refusal(await exchange(port, request("POST", path.encode(), payload)))
                assert error.startswith("request body") and "not UTF-8" in error, (path, error)
        assert daemon.memory.events == []
    serve(daemon.api.handle, test, caplog)


def test_good_texts_still_work_on_every_route(tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    daemon = VirtualDaemon(tmp_path, speech=SpeechSettings(enabled=True))
    site = ClubSite(ClubModel("home"))

    async def test(port: int) -> None:
        for path, good in GOOD.items():
            if path != "/api/speech/audio":  # rendered by espeak-ng: its own test
                status, answer = await exchange(port, request("POST", path.encode(),
                                                              json.dumps(good).encode()))
                assert status == 200, (path, answer[:200])
        assert (await exchange(port, request("GET", b"/api/events?leds=1")))[0] == 200
        status, answer = await exchange(port, request("GET", b"/api/review?game=1"))
        assert status == 404 and b"no reviews here" in answer  # the query was taken
    serve(daemon.api.handle, test, caplog)

    async def club(port: int) -> None:
        assert (await exchange(port, request("GET", b"/api/stream")))[0] == 200
        assert (await exchange(port, request("GET", b"/api/matches/izmir-1.mat")))[0] == 404
    serve(site.handle, club, caplog)


@needs("espeak-ng")
def test_the_speech_renders_a_good_text_and_refuses_a_nul_without_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    daemon = VirtualDaemon(tmp_path)

    async def test(port: int) -> None:
        good = json.dumps(GOOD["/api/speech/audio"]).encode()
        status, wav = await exchange(port, request("POST", b"/api/speech/audio", good))
        assert status == 200 and wav.startswith(b"RIFF")
        for text, fault in NOT_TEXTS:
            payload = json.dumps({"text": f"six{text}", "language": "en"}).encode()
            error = refusal(await exchange(port, request("POST", b"/api/speech/audio", payload)))
            assert error == f"request body: text: {text_fault('six' + text)}", (fault, error)
    serve(daemon.api.handle, test, caplog)


# ---- the config's paths and names, a scenario's fields -------------------------------------

@pytest.mark.parametrize(("section", "key"), [
    ("board", "pinout"), ("daemon", "state_dir"), ("network", "ca_file"),
    ("network", "password_file"), ("players", "white"), ("players", "black")])
@pytest.mark.parametrize(("text", "fault"), NOT_TEXTS[:1] + NOT_TEXTS[3:],
                         ids=[repr(t[0])[:12] for t in NOT_TEXTS[:1] + NOT_TEXTS[3:]])
def test_a_config_path_or_name_that_is_not_a_text_is_named(section: str, key: str, text: str,
                                                           fault: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config({section: {key: text}}, "c.toml", Path("/etc/tavla-pi"))
    message = str(refused.value)
    assert message.startswith(f"c.toml: [{section}] {key}: expected ")
    assert message.endswith(f", got one that {fault}")


def test_a_config_name_that_is_a_text_is_taken() -> None:
    config = parse_config({"players": {"white": "Ayşe", "black": "Çağla"},
                           "daemon": {"state_dir": "ş/state"}}, "c.toml", Path("/etc/tavla-pi"))
    assert (config.players.white, config.state_dir) == ("Ayşe", Path("/etc/tavla-pi/ş/state"))


@pytest.mark.parametrize(("line", "where"), [
    ('{"press": "white.roll\\u0000"}', 's.jsonl:3: field "press": holds a NUL'),
    ('{"load": {"position_id": "\\ud800", "match_id": "x"}}',
     's.jsonl:3: field "load.position_id": holds a lone surrogate (U+D800) at index 0'),
    ('{"dice": [1, "\\u0007"]}', 's.jsonl:3: field "dice[1]": holds a control character'),
])
def test_a_scenario_field_that_is_not_a_text_is_named(line: str, where: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_line(line, "s.jsonl:3")
    assert str(refused.value).startswith(where)
