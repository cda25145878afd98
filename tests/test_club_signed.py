"""The club page's model with ``--boards`` (SPEC: docs/CLUB.md, "The boards a page
trusts"): a known board's payloads count only with its signature, every other board is
shown apart as unverified, and a board's bad state never reaches the page."""

from __future__ import annotations

import json
import logging

import pytest
from club_support import (
    a_state,
    event_payload,
    match_events,
    signed,
    state_payload,
)

from tavla_pi.clock import VirtualClock
from tavla_pi.club.model import ClubModel
from tavla_pi.club.site import ClubSite
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import BoardKey

CLUB = "home"


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BoardKey]:
    """The keys of athens and izmir (the club knows them) and of a stranger."""
    folder = tmp_path_factory.mktemp("keys")
    return {name: BoardKey.load_or_make(folder / name) for name in ("athens", "izmir", "x")}


def _model(keys: dict[str, BoardKey], clock: VirtualClock | None = None) -> ClubModel:
    refusals = RefusalLog(logging.getLogger("tavla_pi.club"), clock or VirtualClock())
    return ClubModel(CLUB, keys={n: keys[n].public for n in ("athens", "izmir")},
                     refusals=refusals)


def _topic(board: str, leaf: str) -> str:
    return f"tavla/{CLUB}/{board}/{leaf}"


def _signed_state(key: BoardKey, board: str, seq: int = 1, **changes: object) -> bytes:
    return signed(key, _topic(board, "state"), state_payload(board, seq, a_state(**changes)))


def test_a_known_boards_signed_payloads_make_a_verified_board(
        keys: dict[str, BoardKey]) -> None:
    model = _model(keys)
    athens = keys["athens"]
    status = {"v": 1, "board": "athens", "status": "online", "nonce": "c0ffee-1"}
    assert model.receive(_topic("athens", "status"),
                         json.dumps(athens.signed(_topic("athens", "status"), status)).encode())
    message = model.receive(_topic("athens", "state"), _signed_state(athens, "athens"))
    assert message is not None and message.verified and "sig" not in message.payload
    for seq, event in enumerate(match_events()[:3], start=1):
        topic = _topic("athens", "event")
        assert model.receive(topic, signed(athens, topic, event_payload("athens", seq, event)))
    board = model.summary()["boards"]["athens"]
    assert board["verified"] and board["status"] == "online" and board["state"] == a_state()
    assert len(board["log"]) == 3


@pytest.mark.parametrize("forgery", ["unsigned", "another key", "another board's topic",
                                     "a field changed", "a garbled signature"])
def test_a_known_boards_payload_without_its_signature_is_refused(
        keys: dict[str, BoardKey], forgery: str, caplog: pytest.LogCaptureFixture) -> None:
    model = _model(keys)
    model.receive(_topic("athens", "state"), _signed_state(keys["athens"], "athens"))
    before = json.dumps(model.summary())
    evil = state_payload("athens", 2, a_state(dice=[6, 6], phase="moving"))
    payload = {
        "unsigned": evil,
        "another key": signed(keys["x"], _topic("athens", "state"), evil),
        "another board's topic": signed(keys["athens"], _topic("izmir", "state"), evil),
        "a field changed": _signed_state(keys["athens"], "athens").replace(b'"seq":1', b'"seq":9'),
        "a garbled signature": _signed_state(keys["athens"], "athens")[:-10] + b'AAAAAAAA"}',
    }[forgery]
    caplog.clear()
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        assert model.receive(_topic("athens", "state"), payload) is None
    assert json.dumps(model.summary()) == before
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "tavla/home/athens/state: " in lines[0], lines
    assert "signature" in lines[0]


def test_an_unknown_board_is_shown_unverified_apart(keys: dict[str, BoardKey]) -> None:
    model = _model(keys)
    model.receive(_topic("athens", "state"), _signed_state(keys["athens"], "athens"))
    assert model.receive(_topic("smyrna", "state"), state_payload("smyrna", 1, a_state()))
    assert model.receive(_topic("rhodes", "state"), _signed_state(keys["x"], "rhodes"))
    boards = model.summary()["boards"]
    assert {name: board["verified"] for name, board in boards.items()} == {
        "athens": True, "rhodes": False, "smyrna": False}


def test_without_boards_every_board_is_unverified(keys: dict[str, BoardKey]) -> None:
    model = ClubModel(CLUB)
    assert model.receive(_topic("athens", "state"), _signed_state(keys["athens"], "athens"))
    assert model.summary()["boards"]["athens"]["verified"] is False


def test_a_replayed_last_will_of_an_earlier_connection_is_refused(
        keys: dict[str, BoardKey]) -> None:
    model = _model(keys)
    topic = _topic("athens", "status")

    def status(text: str, nonce: str) -> bytes:
        data = {"v": 1, "board": "athens", "status": text, "nonce": nonce}
        return json.dumps(keys["athens"].signed(topic, data)).encode()
    old_will = status("gone", "first")
    assert model.receive(topic, status("online", "first"))
    assert model.receive(topic, old_will)
    assert model.receive(topic, status("online", "second"))
    assert model.receive(topic, old_will) is None
    assert model.boards["athens"].status == "online"
    assert model.receive(topic, status("gone", "second"))
    assert model.boards["athens"].status == "gone"


BAD_STATES = {
    "dice ab": a_state(dice="ab"),
    "off 200000": a_state(board={"white": {"off": 200000}, "black": {"off": 15}}),
    "14 checkers": a_state(board={"white": {"6": 14}, "black": {"off": 15}}),
    "cube 3": a_state(cube={"value": 3, "owner": None, "offered": False}),
    "a long name": a_state(players={"white": "W" * 5000, "black": "B"}),
}


@pytest.mark.parametrize("name", sorted(BAD_STATES))
def test_a_bad_state_never_reaches_the_page_signed_or_not(
        keys: dict[str, BoardKey], name: str) -> None:
    site = ClubSite(_model(keys))
    for board in ("athens", "smyrna"):
        site.arrive(_topic(board, "state"), _signed_state(keys["athens"], board))
    for board in ("athens", "smyrna"):
        bad = state_payload(board, 2, BAD_STATES[name])
        site.arrive(_topic(board, "state"), signed(keys["athens"], _topic(board, "state"), bad))
    boards = site.model.summary()["boards"]
    assert boards["athens"]["state"] == a_state() and boards["smyrna"]["state"] == a_state()


def test_a_flood_of_forgeries_is_one_line_per_interval(
        keys: dict[str, BoardKey], caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    model = _model(keys, clock)
    forged = state_payload("athens", 2, a_state())
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        for _ in range(5000):
            model.receive(_topic("athens", "state"), forged)
            model.receive(_topic("izmir", "state"), b"{bad")
        clock.advance(model.refusals.interval_ms)
        model.refusals.flush()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4, lines
    assert "4999 more refused (board athens)" in lines[2] + lines[3]
    assert "4999 more refused (board izmir)" in lines[2] + lines[3]


def test_an_event_of_odd_numbers_or_text_is_refused_or_kept_whole(
        caplog: pytest.LogCaptureFixture) -> None:
    model = ClubModel(CLUB)
    topic = _topic("smyrna", "event")
    nan = b'{"v":1,"board":"smyrna","seq":1,"at":5,"event":{"t":1,"type":"later","x":NaN}}'
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        assert model.receive(topic, nan) is None
    assert "event: a number that is not finite" in caplog.records[0].getMessage()
    odd = b'{"v":1,"board":"smyrna","seq":2,"at":5,"event":{"t":1,"type":"later","x":"\\ud800"}}'
    assert model.receive(topic, odd) is not None
    assert model.summary()["boards"]["smyrna"]["log"] == [{"t": 1, "type": "later", "x": "\ud800"}]
