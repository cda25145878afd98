"""The club page's routes (SPEC: docs/CLUB.md, "The club page"), asked directly of
:class:`~tavla_pi.club.site.ClubSite`: the page and its files, ``/api/club``, the stream,
the finished matches one by one and zipped, ``--out``."""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from pathlib import Path

from club_support import a_state, event_payload, match_events, state_payload, status_payload

from tavla_pi.club.model import ClubModel
from tavla_pi.club.site import ClubSite, write_match
from tavla_pi.web.server import Request, Response, Stream


def _get(site: ClubSite, path: str, query: dict[str, str] | None = None) -> Response | Stream:
    return asyncio.run(site.handle(Request("GET", path, query or {}, {})))


def _response(site: ClubSite, path: str) -> Response:
    answer = _get(site, path)
    assert isinstance(answer, Response)
    return answer


def _played(site: ClubSite, board: str = "athens") -> None:
    site.arrive(f"tavla/home/{board}/status", status_payload(board))
    site.arrive(f"tavla/home/{board}/state", state_payload(board, 0, a_state(match_length=1)))
    for seq, event in enumerate(match_events(), start=1):
        site.arrive(f"tavla/home/{board}/event", event_payload(board, seq, event))


def test_the_page_and_its_files_the_board_pages_drawing_too() -> None:
    site = ClubSite(ClubModel("home"))
    page = _response(site, "/")
    assert page.status == 200 and b"/static/club.js" in page.body
    for name in ("club.js", "club.css", "board.js", "geometry.js", "style.css"):
        assert _response(site, f"/static/{name}").status == 200, name
    assert _response(site, "/static/nothing.js").status == 404
    assert _response(site, "/api/nothing").status == 404
    refused = asyncio.run(site.handle(Request("POST", "/api/club", {}, {})))
    assert isinstance(refused, Response) and refused.status == 405


def test_api_club_has_every_board() -> None:
    site = ClubSite(ClubModel("home"))
    site.arrive("tavla/home/izmir/status", status_payload("izmir", "gone"))
    site.arrive("tavla/home/athens/state", state_payload("athens", 4, a_state()))
    site.arrive("tavla/home/athens/event", b"{bad")
    club = json.loads(_response(site, "/api/club").body)
    assert club["v"] == 1 and club["club"] == "home"
    assert club["boards"]["izmir"] == {"status": "gone", "state": None, "at": None, "seq": 0,
                                       "log": [], "verified": False}
    assert club["boards"]["athens"]["state"] == a_state()


def test_the_stream_sends_each_message_as_it_came() -> None:
    site = ClubSite(ClubModel("home"))

    async def read() -> list[bytes]:
        stream = await site.handle(Request("GET", "/api/stream", {}, {}))
        assert isinstance(stream, Stream)
        chunks = [await anext(stream.chunks)]  # subscribed now
        payload = state_payload("athens", 2, a_state())
        site.arrive("tavla/home/athens/state", payload)
        site.arrive("tavla/home/athens/state", b"{bad")  # refused: not sent
        site.arrive("tavla/home/athens/status", status_payload("athens", "gone"))
        chunks += [await anext(stream.chunks), await anext(stream.chunks)]
        await stream.chunks.aclose()  # type: ignore[attr-defined]
        return chunks

    first, state, status = asyncio.run(read())
    assert first.startswith(b"retry:")
    data = json.loads(state.removeprefix(b"data: "))
    assert data == {"board": "athens", "kind": "state", "verified": False,
                    "payload": json.loads(state_payload("athens", 2, a_state()))}
    assert json.loads(status.removeprefix(b"data: "))["payload"]["status"] == "gone"
    assert isinstance(_get(site, "/api/stream", {"x": "1"}), Response)


def test_the_finished_matches_one_by_one_zipped_and_written(tmp_path: Path) -> None:
    site = ClubSite(ClubModel("home", write_match(tmp_path)))
    _played(site)
    matches = json.loads(_response(site, "/api/matches").body)
    assert len(matches) == 1
    entry = matches[0]
    assert set(entry) == {"board", "name", "match_id", "players", "score", "length"}
    assert entry["board"] == "athens" and entry["length"] == 1
    one = _response(site, f"/api/matches/{entry['name']}")
    assert one.status == 200 and b" 1 point match" in one.body
    assert (tmp_path / entry["name"]).read_bytes() == one.body
    assert _response(site, "/api/matches/izmir-1.mat").status == 404
    archive = zipfile.ZipFile(io.BytesIO(_response(site, "/api/matches.zip").body))
    assert archive.namelist() == [entry["name"]]
    assert archive.read(entry["name"]) == one.body
