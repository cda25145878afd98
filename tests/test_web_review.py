"""``GET /api/review``: the latest game's review, game N's, the whole match's (202 while it is
computed), and every refusal, on a virtual daemon with the scripted reviewer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from review_support import SHORT_GAME, ScriptedReviewer, made_up_review

from tavla_pi.clock import VirtualClock
from tavla_pi.daemon.reviews import Reviews
from tavla_pi.events.hub import EventHub
from tavla_pi.testing.daemon import VirtualDaemon, body
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response

TOKEN = "a-token-of-sixteen-or-more"


async def review(daemon: VirtualDaemon, **query: str) -> tuple[int, Any]:
    answer = await daemon.request("GET", "/api/review", query=query)
    return answer.status, body(answer)


async def finish_a_game(daemon: VirtualDaemon) -> None:
    for action in SHORT_GAME:
        await daemon.sim(action)
    await daemon.reviewed()


def test_the_latest_review_and_game_ns(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path, reviewer=ScriptedReviewer())

    async def run() -> list[tuple[int, Any]]:
        before = await review(daemon)
        await finish_a_game(daemon)
        return [before, await review(daemon), await review(daemon, game="1"),
                await review(daemon, game="2")]

    before, latest, first, second = asyncio.run(run())
    assert before == (404, {"error": "no review of any game yet"})
    fields = {**made_up_review(1).to_json(), "game": 1}
    assert latest == first == (200, fields)
    assert second == (404, {"error": "no review of game 2 yet"})


def test_the_whole_match_is_reviewed_on_demand(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer()
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> list[tuple[int, Any]]:
        none = await review(daemon, match="1")
        await finish_a_game(daemon)
        asked = await review(daemon, match="1")
        again = await review(daemon, match="1")
        await daemon.reviewed()
        return [none, asked, again, await review(daemon, match="1")]

    none, asked, again, done = asyncio.run(run())
    assert none == (404, {"error": "no finished game to review yet"})
    assert asked == again == (202, {"status": "running"})
    assert done == (200, made_up_review(None).to_json())
    assert [r.game for r in reviewer.requests] == [1, None]  # asked twice, computed once


def test_a_failed_match_review_is_said_once_then_tried_again(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer()
    daemon = VirtualDaemon(tmp_path, reviewer=reviewer)

    async def run() -> list[tuple[int, Any]]:
        await finish_a_game(daemon)
        reviewer.fail = "gnubg died"
        await review(daemon, match="1")
        await daemon.reviewed()
        return [await review(daemon, match="1"), await review(daemon, match="1")]

    failed, retried = asyncio.run(run())
    assert failed[0] == 503 and "gnubg died" in failed[1]["error"]
    assert retried == (202, {"status": "running"})


@pytest.mark.parametrize(("query", "error"), [
    ({"game": "0"}, "game must be a number from 1 to 999999, got '0'"),
    ({"game": "x"}, "game must be a number"),
    ({"game": "1234567"}, "game must be a number"),
    ({"game": "\u0661"}, "game must be a number"),  # an Arabic-Indic one
    ({"match": "2"}, "match must be 1, got '2'"),
    ({"game": "1", "match": "1"}, "not both"),
    ({"games": "1"}, "unknown parameter 'games'"),
])
def test_a_bad_query_is_a_400(tmp_path: Path, query: dict[str, str], error: str) -> None:
    daemon = VirtualDaemon(tmp_path, reviewer=ScriptedReviewer())
    status, answer = asyncio.run(review(daemon, **query))
    assert status == 400 and error in answer["error"]


def test_only_get_and_only_with_the_token(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path, reviewer=ScriptedReviewer(), token=TOKEN)

    async def run() -> list[int]:
        posted = await daemon.request("POST", "/api/review", {},
                                      {"authorization": f"Bearer {TOKEN}"})
        bare = await daemon.request("GET", "/api/review")
        good = await daemon.request("GET", "/api/review", None,
                                    {"authorization": f"Bearer {TOKEN}"})
        return [posted.status, bare.status, good.status]

    assert asyncio.run(run()) == [405, 401, 404]


def test_without_gnubg_the_answer_says_how_to_install_it() -> None:
    api = Api(dict, EventHub(), None, token=None, loopback=True,
              reviews=Reviews(None, VirtualClock()))
    none = Api(dict, EventHub(), None, token=None, loopback=True)

    async def ask(target: Api, **query: str) -> tuple[int, Any]:
        answer = await target.handle(Request("GET", "/api/review", query, {}, b""))
        assert isinstance(answer, Response)
        return answer.status, json.loads(getattr(answer, "body", b"null"))

    game, match, nothing = (asyncio.run(ask(api)), asyncio.run(ask(api, match="1")),
                            asyncio.run(ask(none)))
    assert game == (404, {"error": "no review of any game: install gnubg (apt install gnubg)"})
    assert match == (503, {"error": "no review of the match: install gnubg (apt install gnubg)"})
    assert nothing[0] == 404 and "no reviews here" in nothing[1]["error"]
