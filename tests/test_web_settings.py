"""GET and POST /api/settings in process, on a virtual clock: the page reads and changes who
the computer plays; a change waits for the next new match, or applies at once while the
board is set up for a match's first game; hostile bodies get a 4xx and change nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.engine.levels import Level
from tavla_pi.events.hub import EventHub
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import MemoryJournal, VirtualDaemon, body
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response

TOKEN = "s3cret-token-0123456789"
DEFAULTS: dict[str, Any] = {
    "color": None, "level": "expert", "coach": True, "blunder_threshold": 0.08,
    "remote": None, "friends": [], "variant": "portes", "clock": None,
    "engine": {"installed": True, "message": None},
    "speech": {"enabled": False, "language": "en", "follows_page": True, "rate": 160,
               "volume": 100}}


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def post(daemon: VirtualDaemon, data: Any) -> tuple[int, Any]:
    answer = await daemon.request("POST", "/api/settings", data)
    return answer.status, body(answer)


async def get(daemon: VirtualDaemon) -> Any:
    answer = await daemon.request("GET", "/api/settings")
    assert answer.status == 200
    assert ("Cache-Control", "no-store") in answer.headers
    return body(answer)


def test_the_settings_are_the_configs_and_say_gnubg_is_here(tmp_path: Path) -> None:
    async def scenario() -> None:
        assert await get(VirtualDaemon(tmp_path)) == DEFAULTS
        configured = GameSettings(opponent=OpponentSettings(
            color=Color.BLACK, level=Level.WORLD_CLASS, coach=False, blunder_threshold=0.2))
        assert await get(VirtualDaemon(tmp_path, settings=configured)) == {
            **DEFAULTS, "color": "black", "level": "world class", "coach": False,
            "blunder_threshold": 0.2}
    run(scenario())


def test_before_the_first_game_a_change_applies_at_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path, settings=GameSettings(match_length=5))
        status, answer = await post(daemon, {"color": "black", "level": "casual"})
        assert status == 200
        assert answer == {**DEFAULTS, "color": "black", "level": "casual", "applied": "now"}
        assert [e.to_dict() for e in daemon.memory.events] == [
            {"t": 0, "type": "new_match", "match_length": 5, "opponent": "black",
             "level": "casual"}]
        assert daemon.referee.settings.opponent.level is Level.CASUAL
        status, answer = await post(daemon, {"coach": False, "blunder_threshold": 0})
        assert (status, answer["applied"], answer["coach"]) == (200, "now", False)
        assert len(daemon.memory.events) == 1
        events = (await daemon.sim({"setup": "start"}))["events"]
        events += (await daemon.sim({"wait": 400}))["events"]
        assert [e["type"] for e in events] == ["game_started"]
        assert await get(daemon) == {**DEFAULTS, "color": "black", "level": "casual",
                                     "coach": False, "blunder_threshold": 0.0}
    run(scenario())


def test_during_a_game_a_change_waits_for_the_next_new_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        await daemon.sim({"setup": "start"})
        await daemon.sim({"wait": 400})
        status, answer = await post(daemon, {"color": "white", "level": "advanced"})
        assert (status, answer["applied"], answer["color"]) == (200, "next_match", "white")
        assert daemon.referee.settings.opponent == OpponentSettings()
        assert [e.type for e in daemon.memory.events] == ["game_started"]
        events = (await daemon.sim({"setup": "start", "match_length": 3}))["events"]
        assert events[0] == {"t": events[0]["t"], "type": "new_match", "match_length": 3,
                             "opponent": "white", "level": "advanced"}
        assert daemon.referee.settings.opponent.color is Color.WHITE
        status, answer = await post(daemon, {"color": None})  # the new match's game began
        assert (status, answer["color"], answer["applied"]) == (200, None, "next_match")
        status, answer = await post(daemon, {"color": "none"})
        assert (status, answer["color"]) == (200, None)
    run(scenario())


def test_without_gnubg_the_computer_is_refused_with_the_one_line(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path, engine_missing=NOT_INSTALLED)
        assert (await get(daemon))["engine"] == {"installed": False, "message": NOT_INSTALLED}
        status, answer = await post(daemon, {"color": "black"})
        assert (status, answer) == (409, {"error": NOT_INSTALLED})
        status, answer = await post(daemon, {"level": "beginner", "color": None})
        assert (status, answer["level"], answer["color"]) == (200, "beginner", None)
        assert daemon.memory.events == []
    run(scenario())


HOSTILE: list[tuple[str, bytes, int, str]] = [
    ("a wrong colour", b'{"color": "red"}', 400,
     'request body: color: expected one of "white", "black", "none", got \'red\''),
    ("a wrong level", b'{"level": "worldclass"}', 400, "request body: level: expected one of"),
    ("a level as a number", b'{"level": 5}', 400, "request body: level: expected one of"),
    ("coach as a string", b'{"coach": "yes"}', 400, "request body: coach: expected true or"),
    ("NaN", b'{"blunder_threshold": NaN}', 400, "blunder_threshold: expected a number 0..1"),
    ("Infinity", b'{"blunder_threshold": Infinity}', 400, "expected a number 0..1"),
    ("too big", b'{"blunder_threshold": 2}', 400, "expected a number 0..1, got 2"),
    ("a bool threshold", b'{"blunder_threshold": true}', 400, "expected a number 0..1"),
    ("an unknown key", b'{"colour": "black"}', 400,
     "request body: colour: unknown key (known: color, level, coach, blunder_threshold); "
     "did you mean 'color'?"),
    ("a long unknown key", b'{"' + b"k" * 10_000 + b'": 1}', 400, "unknown key"),
    ("deep nesting", b"[" * 16_000, 400, "nested deeper than 32 levels"),
    ("a huge integer", b'{"blunder_threshold": ' + b"9" * 5000 + b"}", 400, "5000 digits"),
    ("a lone surrogate", b'{"level": "\\ud800"}', 400, "request body: level"),
    ("not UTF-8", b'{"level": "\xff"}', 400, "request body: not UTF-8"),
    ("not JSON", b"color=black", 400, "request body: not valid JSON"),
    ("a list", b'["color", "black"]', 400, "expected a JSON object of settings"),
    ("null", b"null", 400, "expected a JSON object of settings"),
    ("one good, one bad", b'{"color": "black", "level": "grand"}', 400, "level"),
]


@pytest.mark.parametrize(("name", "payload", "status", "words"), HOSTILE,
                         ids=[case[0] for case in HOSTILE])
def test_hostile_bodies_get_a_4xx_and_change_nothing(tmp_path: Path, name: str, payload: bytes,
                                                     status: int, words: str) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        before = await get(daemon)
        answer = await daemon.request("POST", "/api/settings", payload)
        assert answer.status == status, name
        error = body(answer)["error"]
        assert words in error and "\n" not in error and len(error) < 400, error
        assert await get(daemon) == before
        assert daemon.memory.events == []
    run(scenario())


@pytest.mark.parametrize(("headers", "status"), [
    ({"content-type": "text/plain"}, 415),
    ({"content-type": "application/x-www-form-urlencoded"}, 415),
    ({"content-type": "application/json; charset=utf-8"}, 200),
])
def test_only_json_is_taken(tmp_path: Path, headers: dict[str, str], status: int) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path)
        answer = await daemon.request("POST", "/api/settings", {"coach": False}, headers)
        assert answer.status == status
        assert daemon.referee.next_opponent.coach is (status != 200)
    run(scenario())


def test_the_token_guards_the_settings(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path, token=TOKEN)
        for method in ("GET", "POST"):
            answer = await daemon.request(method, "/api/settings", {"coach": False})
            assert answer.status == 401
        answer = await daemon.request("POST", "/api/settings", {"coach": False},
                                      {"authorization": f"Bearer {TOKEN}"})
        assert answer.status == 200 and body(answer)["coach"] is False
        answer = await daemon.request("PUT", "/api/settings", {})
        assert answer.status == 401  # the token first: nothing is said to a stranger
        answer = await daemon.request("PUT", "/api/settings", {},
                                      {"authorization": f"Bearer {TOKEN}"})
        assert answer.status == 405 and ("Allow", "GET, POST") in answer.headers
    run(scenario())


def test_a_journal_that_cannot_be_written_is_a_503(tmp_path: Path) -> None:
    async def scenario() -> None:
        journal = MemoryJournal()
        daemon = VirtualDaemon(tmp_path, journal=journal)
        journal.fail = True
        status, answer = await post(daemon, {"color": "black"})
        assert status == 503 and "No space left on device" in answer["error"]
        status, answer = await post(daemon, {"coach": False})
        assert status == 503 and "resumes from its journal" in answer["error"]
    run(scenario())


def test_an_api_without_settings_says_so() -> None:
    async def scenario() -> None:
        api = Api(dict, EventHub(), None, token=None, loopback=True)
        for method in ("GET", "POST"):
            answer = await api.handle(Request(method, "/api/settings", {},
                                              {"content-type": "application/json"}, b"{}"))
            assert isinstance(answer, Response) and answer.status == 404
            assert json.loads(answer.body)["error"] == "this daemon has no settings to change"
    run(scenario())


def test_the_page_chooses_the_clock_of_the_next_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        daemon = VirtualDaemon(tmp_path, settings=GameSettings(match_length=3))
        status, answer = await post(daemon, {"clock": {"delay_s": 8}})
        assert status == 200 and answer["applied"] == "now"
        assert answer["clock"] == {"delay_s": 8, "reserve_s_per_point": 120}
        assert [e.to_dict() for e in daemon.memory.events] == [
            {"t": 0, "type": "new_match", "match_length": 3,
             "clock": {"delay_s": 8, "reserve_s_per_point": 120}}]
        state = await daemon.state()
        assert state["clock"]["reserve_s"] == {"white": 360.0, "black": 360.0}
        status, answer = await post(daemon, {"color": "black"})  # the clock stays
        assert (status, answer["clock"]["delay_s"]) == (200, 8)
        assert daemon.referee.clock is not None
        status, answer = await post(daemon, {"clock": None})
        assert (status, answer["clock"], answer["applied"]) == (200, None, "now")
        assert (await daemon.state())["clock"] is None
    run(scenario())


@pytest.mark.parametrize(("change", "error"), [
    ({"clock": {"delay_s": -1}}, "request body: clock: clock delay_s: expected 0..600, got -1"),
    ({"clock": {"delay": 12}}, "request body: clock: clock: unknown key 'delay'"),
    ({"clock": 12}, 'request body: clock: expected an object {"delay_s": 12, '
                    '"reserve_s_per_point": 120}'),
    ({"clock": {}}, "request body: clock: money play has no clock: play a match of 1 point "
                    "or more ([game] match_length)"),
])
def test_a_bad_clock_is_refused_and_changes_nothing(tmp_path: Path, change: dict[str, Any],
                                                    error: str) -> None:
    async def scenario() -> None:
        length = 0 if change == {"clock": {}} else 3
        daemon = VirtualDaemon(tmp_path, settings=GameSettings(match_length=length))
        status, answer = await post(daemon, change)
        assert (status, answer) == (400, {"error": error})
        assert daemon.memory.events == [] and (await get(daemon))["clock"] is None
    run(scenario())
