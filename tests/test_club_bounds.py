"""What a flood can make the club page hold is bounded (SPEC: docs/CLUB.md, "What a flood
costs"): each board's events in rings bounded in count and bytes, the unverified boards
few and sharing one budget, the finished matches bounded, the messages waiting for the
loop and for each page bounded in bytes."""

from __future__ import annotations

import asyncio
import json
import logging
import tracemalloc
from typing import Any

import pytest
from club_support import event_payload, match_events, signed
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tavla_pi.clock import VirtualClock
from tavla_pi.club.listener import Handoff
from tavla_pi.club.model import (
    LOG_BYTES,
    MAX_UNVERIFIED,
    MAX_UNVERIFIED_FINISHED,
    RECORD_BYTES,
    UNVERIFIED_BYTES,
    ClubModel,
    FinishedMatch,
)
from tavla_pi.club.ring import EventRing, compact_json
from tavla_pi.club.site import STREAM_BYTES, ClubSite
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import BoardKey
from tavla_pi.remote.messages import MAX_CAST_BYTES
from tavla_pi.web.server import Request, Stream

CLUB = "home"
FLOOD = 4000
"""Events in a flood: the hostile client's (docs/CLUB.md)."""
GROWTH_BYTES = 5 * 1024 * 1024
"""What a flood may add to the memory the model holds."""


def _rolled(n: int, pad: int = 0) -> dict[str, Any]:
    event: dict[str, Any] = {"t": n, "type": "rolled", "player": "white", "dice": [3, 1]}
    if pad:
        event["pad"] = "x" * pad
    return event


def _big(board: str, seq: int) -> bytes:
    """An event of a board's topic as large as a board may write one, with room for its
    signature (16 KB signed)."""
    payload = event_payload(board, seq, _rolled(seq, MAX_CAST_BYTES - 350))
    assert MAX_CAST_BYTES - 450 < len(payload) <= MAX_CAST_BYTES - 150
    return payload


def test_a_ring_keeps_the_newest_within_its_count_and_bytes() -> None:
    ring = EventRing(count=3, size=1000)
    for n in range(5):
        ring.append(compact_json(_rolled(n)))
    assert [e["t"] for e in ring] == [2, 3, 4] and ring.dropped == 2
    ring.append(compact_json(_rolled(5, pad=900)))
    assert [e["t"] for e in ring] == [5] and ring.dropped == 5 and ring.used <= 1000
    ring.append(compact_json(_rolled(6, pad=2000)))  # too big for the ring at all
    assert [e["t"] for e in ring] == [5] and ring.dropped == 6
    ring.clear()
    assert len(ring) == 0 and ring.used == 0


def test_a_flooded_boards_events_stay_within_its_rings() -> None:
    model = ClubModel(CLUB)
    for seq in range(1, FLOOD + 1):
        assert model.receive(f"tavla/{CLUB}/flood/event", _big("flood", seq))
    board = model.boards["flood"]
    assert board.seq == FLOOD
    assert board.log.used <= LOG_BYTES and board.recorded.used <= RECORD_BYTES
    assert all("pad" not in e for e in board.recorded)  # a match file needs no padding
    assert [e["t"] for e in board.log][-1] == FLOOD


def test_unverified_boards_are_few_and_share_one_budget(caplog: pytest.LogCaptureFixture) -> None:
    model = ClubModel(CLUB)
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        for seq in range(1, FLOOD + 1):
            name = f"b{seq % (MAX_UNVERIFIED + 8)}"
            model.receive(f"tavla/{CLUB}/{name}/event", _big(name, seq))
    assert len(model.boards) == MAX_UNVERIFIED
    assert sum(board.kept for board in model.boards.values()) <= UNVERIFIED_BYTES
    refused = [r.getMessage() for r in caplog.records]
    assert len(refused) == 1 and f"more than {MAX_UNVERIFIED} unverified" in refused[0]


def test_a_flood_of_unverified_boards_never_touches_a_verified_one() -> None:
    key = BoardKey(Ed25519PrivateKey.generate())
    model = ClubModel(CLUB, keys={"athens": key.public})
    topic = f"tavla/{CLUB}/athens/event"
    for seq in range(1, 11):
        model.receive(topic, signed(key, topic, event_payload("athens", seq, _rolled(seq))))
    kept = [e["t"] for e in model.boards["athens"].log]
    for seq in range(1, FLOOD + 1):
        name = f"b{seq % MAX_UNVERIFIED}"
        model.receive(f"tavla/{CLUB}/{name}/event", _big(name, seq))
    assert [e["t"] for e in model.boards["athens"].log] == kept == list(range(1, 11))


def _held(model: ClubModel, flood: list[tuple[str, bytes]]) -> int:
    """The bytes the model's memory grows by while it takes ``flood``."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for topic, payload in flood:
            model.receive(topic, payload)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_the_model_holds_less_than_5_mb_more_after_a_flood() -> None:
    key = BoardKey(Ed25519PrivateKey.generate())
    model = ClubModel(CLUB, keys={"athens": key.public}, refusals=RefusalLog(
        logging.getLogger("tavla_pi.club"), VirtualClock()))
    topic = f"tavla/{CLUB}/athens/event"
    assert model.receive(topic, signed(key, topic, _big("athens", 1)))
    _held(model, [(f"tavla/{CLUB}/smyrna/event", _big("smyrna", 1))])  # each path run once
    flood = []
    for seq in range(2, FLOOD + 2):  # 15 KB each: a verified board's, unverified ones'
        name = ("athens", "smyrna", f"u{seq % 40}")[seq % 3]
        payload = _big(name, seq)
        flood.append((f"tavla/{CLUB}/{name}/event",
                      signed(key, topic, payload) if name == "athens" else payload))
    assert len(flood) == FLOOD and sum(len(p) for _, p in flood) > 60_000_000
    grown = _held(model, flood)
    assert len(model.boards["athens"].log) > 0 and model.boards["athens"].seq > FLOOD - 3
    assert grown < LOG_BYTES + RECORD_BYTES + UNVERIFIED_BYTES < GROWTH_BYTES + 2 * 2**20
    assert grown < GROWTH_BYTES, f"{grown / 2**20:.1f} MB"


def _resigned_match() -> list[dict[str, Any]]:
    """A 1-point match White resigns after the opening roll."""
    resigned = {"player": "white", "points": 1}
    return [*match_events()[:3], {"t": 900, "type": "resign_offered", **resigned},
            {"t": 950, "type": "resign_accepted", **resigned},
            {"t": 950, "type": "game_over", "winner": "black", "kind": "single", "cube": 1,
             "points": 1, "score": [0, 1]},
            {"t": 950, "type": "match_over", "winner": "black", "score": [0, 1]}]


def test_unverified_boards_keep_a_bounded_number_of_matches() -> None:
    every: list[FinishedMatch] = []
    model = ClubModel(CLUB, every.append)
    events = _resigned_match()
    seq = 0
    for game in range(MAX_UNVERIFIED_FINISHED + 5):
        for event in events:
            seq += 1
            model.receive(f"tavla/{CLUB}/smyrna/event",
                          event_payload("smyrna", seq, event, at=1_700_000_000_000 + game * 1000))
    assert len(every) == MAX_UNVERIFIED_FINISHED + 5 == len({m.name for m in every})
    assert [m["name"] for m in model.matches()] == [m.name for m in every[5:]]
    assert len(model.boards["smyrna"].recorded) == 0  # each match's record is made once


def test_what_waits_for_the_loop_is_bounded_in_bytes() -> None:
    loop = asyncio.new_event_loop()
    arrived: list[str] = []
    refusals = RefusalLog(logging.getLogger("tavla_pi.club"), VirtualClock())
    handoff = Handoff(loop, lambda topic, payload: arrived.append(topic), refusals,
                      limit=100_000)
    try:
        for n in range(20):  # the loop is busy: nothing is taken meanwhile
            handoff(f"tavla/home/b{n}/event", b"x" * 9_000)
        assert handoff.dropped == 9
        loop.run_until_complete(asyncio.sleep(0))
        assert arrived == [f"tavla/home/b{n}/event" for n in range(11)]
        handoff("tavla/home/later/event", b"x" * 9_000)  # room again
        loop.run_until_complete(asyncio.sleep(0))
        assert arrived[-1] == "tavla/home/later/event" and handoff.dropped == 9
    finally:
        loop.close()


def test_a_page_that_reads_too_slowly_is_cut_within_its_bytes() -> None:
    site = ClubSite(ClubModel(CLUB))
    room = STREAM_BYTES // (len(_big("flood", 1)) + 100)  # chunks that fit: under 2000

    async def flood(behind: int) -> list[bytes]:
        stream = await site.handle(Request("GET", "/api/stream", {}, {}))
        assert isinstance(stream, Stream)
        await anext(stream.chunks)  # subscribed now
        for seq in range(1, behind + 1):
            site.arrive(f"tavla/{CLUB}/flood/event", _big("flood", seq))
        chunks = []
        async for chunk in stream.chunks:
            chunks.append(chunk)
            if len(chunks) == behind:
                await stream.chunks.aclose()  # type: ignore[attr-defined]
        return chunks

    chunks = asyncio.run(flood(room))  # all of them held, then read
    assert [json.loads(c.removeprefix(b"data: "))["payload"]["seq"] for c in chunks] == list(
        range(1, room + 1))
    assert asyncio.run(flood(room + 3)) == []  # cut: it reconnects and reads /api/club
