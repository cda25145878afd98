"""The HTTP interface's handlers, in process, on a virtual clock: a game through POST /api/sim,
bad requests refused without changing anything, the token, the Host check, the event stream."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.daemon import simstore
from tavla_pi.events.hub import EventHub
from tavla_pi.testing.daemon import VirtualDaemon, body
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response, Stream

TOKEN = "s3cret-token-0123456789"
OPENING: list[dict[str, Any]] = [
    {"setup": "start"}, {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
    {"move": "8/5", "color": "white"}, {"move": "6/5", "color": "white"},
]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def play(daemon: VirtualDaemon, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    events = []
    for action in actions:
        events += (await daemon.sim(action))["events"]
    return events


def test_a_game_through_post_api_sim(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        events = await play(daemon, OPENING)
        assert [e["type"] for e in events][:2] == ["game_started", "opening_roll"]
        state = await daemon.state()
        assert state["phase"] == "moving" and state["on_roll"] == "white"
        assert state["dice"] == [3, 1]
        assert state["sensed"]["white"]["5"] == [2, 2]
        assert state["board"]["white"]["8"] == 3  # committed only at DONE
        done = await daemon.sim({"press": "white.roll"})
        assert done["applied"] == "press"  # the action's scenario key, as it always was
        played = [e for e in done["events"] if e["type"] == "played"]
        assert [(e["player"], e["play"]) for e in played] == [("white", "8/5 6/5")]
        state = await daemon.state()
        assert state["phase"] == "await_roll" and state["on_roll"] == "black"
        assert state["board"]["white"] == {"5": 2, "6": 4, "8": 2, "13": 5, "24": 2}
        assert state["position_id"] == played[0]["position_id"]
        assert state["match_id"] == played[0]["match_id"]
        assert len(state["leds"]) == len(daemon.pipeline.frame)
        assert all(len(c) == 7 and c.startswith("#") for c in state["leds"])
        # the journal had every event before anyone saw it, in the same order
        assert [e.to_dict() for e in daemon.memory.events] == \
            [e.to_dict() for e in daemon.hub.game]
    run(scenario())


BAD = [
    ("POST", "/api/sim", b'{"setup": "start"}', {"content-type": "text/plain"}, 415,
     "expected Content-Type: application/json"),
    ("POST", "/api/sim", b'{"setup": ', {}, 400, "request body: not valid JSON"),
    ("POST", "/api/sim", b"[1, 2]", {}, 400, "expected a JSON object"),
    ("POST", "/api/sim", b"", {}, 400, "request body: expected one action"),
    ("POST", "/api/sim", b"# a comment", {}, 400, "request body: expected one action"),
    ("POST", "/api/sim", b"\xff\xfe", {}, 400, "not UTF-8"),
    ("POST", "/api/sim", b'{"jump": "13"}', {}, 400, "expected exactly one action key"),
    ("POST", "/api/sim", b'{"lift": "13", "color": "red"}', {}, 400,
     'field "color": expected "white" or "black", got "red"'),
    ("POST", "/api/sim", b'{"wait": 600000}', {}, 400, "at most 5000 ms per request"),
    ("POST", "/api/sim", b'{"load": {"position_id": "nonsense", "match_id": "x"}}', {}, 400,
     "nonsense"),
    ("POST", "/api/sim", b'{"lift": "7", "color": "white"}', {}, 409, "no white checker"),
    ("POST", "/api/sim", b'{"place": "7", "color": "black"}', {}, 409, "no black checker in"),
    ("GET", "/api/sim", b"", {}, 405, "GET is not allowed here (only POST)"),
    ("POST", "/api/state", b"{}", {}, 405, "only GET"),
    ("DELETE", "/", b"", {}, 405, "only GET"),
    ("GET", "/api/nothing", b"", {}, 404, "no such resource: /api/nothing"),
    ("GET", "/index.php", b"", {}, 404, "no such resource"),
    ("GET", "/api/state", b"", {"host": "attacker.example:8750"}, 421, "only to localhost"),
]


@pytest.mark.parametrize("case", BAD, ids=[f"{c[0]} {c[1]} {c[4]}" for c in BAD])
def test_bad_requests_change_nothing(tmp_path: Path, case: tuple[Any, ...]) -> None:
    method, path, payload, headers, status, error = case

    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        await play(daemon, OPENING)
        before = await daemon.state()
        journaled = list(daemon.memory.events)
        saved = (tmp_path / simstore.SIM_BOARD_FILENAME).read_text()
        answer = await daemon.request(method, path, payload, headers)
        assert answer.status == status
        assert answer.content_type == "application/json"
        assert error in body(answer)["error"]
        if status == 405:
            assert dict(answer.headers)["Allow"] in ("GET", "POST")
        await daemon.sleep(400)
        assert await daemon.state() == before
        assert daemon.memory.events == journaled
        assert (tmp_path / simstore.SIM_BOARD_FILENAME).read_text() == saved
    run(scenario())


def test_no_simulator_on_the_real_board(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        api = Api(daemon.core.state, daemon.hub, None, token=None, loopback=True)
        answer = await api.handle(Request("POST", "/api/sim", {}, {
            "content-type": "application/json"}, b'{"setup": "start"}'))
        assert isinstance(answer, Response) and answer.status == 404
        assert body(answer) == {"error": "POST /api/sim works only on the sim backend"}
    run(scenario())


def test_the_token_guards_the_api_not_the_page(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path, token=TOKEN)
        for given in ({}, {"authorization": "Bearer wrong"}, {"authorization": TOKEN},
                      {"authorization": f"Bearer {TOKEN}x"}):
            answer = await daemon.request("GET", "/api/state", headers=given)
            assert answer.status == 401
            assert dict(answer.headers)["WWW-Authenticate"].startswith("Bearer")
        answer = await daemon.request("POST", "/api/sim", {"setup": "start"})
        assert answer.status == 401
        assert daemon.backend.board.counts()[("off", daemon_white())] == 15
        ok = {"authorization": f"Bearer {TOKEN}"}
        assert (await daemon.request("GET", "/api/state", headers=ok)).status == 200
        page = await daemon.request("GET", "/")
        assert page.status == 200 and page.content_type.startswith("text/html")
        assert b"/api/state" in page.body
    run(scenario())


def daemon_white() -> Any:
    from tavla_pi.rules.color import Color
    return Color.WHITE


@pytest.mark.parametrize(("host", "served"), [
    ("127.0.0.1:8750", True), ("localhost", True), ("LOCALHOST:1", True), ("[::1]:8750", True),
    ("127.1.2.3", True), ("", True), ("192.168.1.9:8750", False), ("evil.example", False),
    ("localhost.evil.example", False), ("[::2]:80", False),
])
def test_loopback_answers_only_to_local_names(tmp_path: Path, host: str, *, served: bool) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        answer = await daemon.request("GET", "/api/state", headers={"host": host})
        assert (answer.status == 200) is served
    run(scenario())


def test_the_event_stream_starts_with_the_current_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        await play(daemon, OPENING)
        answer = await daemon.api.handle(Request("GET", "/api/events", {}, {}, b""))
        assert isinstance(answer, Stream)
        assert answer.content_type == "text/event-stream"
        chunks = answer.chunks
        assert await anext(chunks) == b"retry: 2000\n\n"
        backlog = [json.loads((await anext(chunks))[6:]) for _ in daemon.hub.game]
        assert backlog == [e.to_dict() for e in daemon.hub.game]
        assert backlog[0]["type"] == "game_started"
        assert daemon.hub.subscribers == 1
        pending = asyncio.ensure_future(anext(chunks))
        await daemon.sim({"press": "white.roll"})
        live = await pending
        assert live.startswith(b"data: {") and live.endswith(b"}\n\n")
        assert json.loads(live[6:])["type"] in ("in_sync", "played")
        await chunks.aclose()  # type: ignore[attr-defined]
        assert daemon.hub.subscribers == 0
    run(scenario())


def test_a_quiet_stream_sends_keep_alive_comments(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tavla_pi.web.api.HEARTBEAT_S", 0)
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        answer = await daemon.api.handle(Request("GET", "/api/events", {}, {}, b""))
        assert isinstance(answer, Stream)
        assert await anext(answer.chunks) == b"retry: 2000\n\n"
        assert await anext(answer.chunks) == b": keep-alive\n\n"
        daemon.hub.close()
        with pytest.raises(StopAsyncIteration):
            await anext(answer.chunks)
    run(scenario())


def test_a_subscriber_too_far_behind_is_dropped() -> None:
    from tavla_pi.events.event import Event
    from tavla_pi.events.types import EventType

    async def scenario() -> None:
        hub = EventHub()
        sub = hub.subscribe()
        sub._limit = 3
        hub.publish([Event(EventType.IN_SYNC, t) for t in range(5)])
        assert sub.dropped and await sub.next(0) is None
    run(scenario())


def test_setup_may_start_a_match_of_a_given_length(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        events = (await daemon.sim({"setup": "start", "match_length": 5}))["events"]
        assert [(e["type"], e["match_length"]) for e in events] == [("new_match", 5)]
        await daemon.sleep(400)
        state = await daemon.state()
        assert (state["phase"], state["match_length"]) == ("opening", 5)
        assert [e.type for e in daemon.memory.events] == ["new_match", "game_started"]
    run(scenario())
