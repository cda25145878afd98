"""The club page's model: checked messages update a board; a bad one is one log line
naming the topic and the field and changes nothing; a finished match becomes a .mat file."""

from __future__ import annotations

import json
import logging

import pytest
from club_support import (
    a_state,
    compact,
    event_payload,
    match_events,
    state_payload,
    status_payload,
)

from tavla_pi.club.model import LOG_BOUND, ClubModel, FinishedMatch
from tavla_pi.events.event import Event
from tavla_pi.export import format_match, record_match

CLUB = "home"
STATUS = "tavla/home/athens/status"
STATE = "tavla/home/athens/state"
EVENT = "tavla/home/athens/event"


def test_a_status_a_state_and_events_make_the_board() -> None:
    model = ClubModel(CLUB)
    assert model.receive(STATUS, status_payload("athens")) is not None
    assert model.receive(STATE, state_payload("athens", 3, a_state())) is not None
    events = match_events()[:3]
    for seq, event in enumerate(events, start=1):
        assert model.receive(EVENT, event_payload("athens", seq, event)) is not None
    board = model.summary()["boards"]["athens"]
    assert board["status"] == "online"
    assert board["state"]["players"] == {"white": "Ayşe", "black": "Berk"}
    assert board["log"] == events
    assert board["seq"] == 3 and board["at"] == 1_700_000_000_003
    model.receive(STATUS, status_payload("athens", "gone"))
    assert model.summary()["boards"]["athens"]["status"] == "gone"
    assert model.summary()["boards"]["athens"]["state"] is not None  # still shown, gone


@pytest.mark.parametrize(("topic", "payload", "field"), [
    (STATE, compact({"v": 2, "board": "athens", "seq": 1, "at": 1, "dropped": 0, "state": {}}),
     "v:"),
    (STATE, compact({"v": 1, "board": "izmir", "seq": 1, "at": 1, "dropped": 0, "state": {}}),
     "board:"),
    (STATE, compact({"v": 1, "board": "athens", "seq": 1, "at": 1, "state": {}}), "dropped:"),
    (STATE, compact({"v": 1, "board": "athens", "seq": -1, "at": 1, "dropped": 0,
                     "state": {}}), "seq:"),
    (STATE, compact({"v": 1, "board": "athens", "seq": 1, "at": 1, "dropped": 0,
                     "state": []}), "state:"),
    (EVENT, compact({"v": 1, "board": "athens", "seq": 1, "at": 1,
                     "event": {"t": 0}}), "event.type:"),
    (EVENT, compact({"v": 1, "board": "athens", "seq": 0, "at": 1,
                     "event": {"t": 0, "type": "rolled"}}), "seq:"),
    (STATUS, compact({"v": 1, "board": "athens", "status": "away"}), "status:"),
    (STATUS, compact({"v": 1, "board": "athens", "status": "gone", "x": 1}), "x:"),
    (STATUS, b"{not json", "not JSON"),
    (STATUS, b"\xff\xfe", "not UTF-8"),
    (STATE, b'{"v":1,"board":"athens","pad":"' + b"x" * 17000 + b'"}', "bytes"),
    ("tavla/home/Athens/state", state_payload("Athens", 1, {}), "topic"),
    ("tavla/other/athens/state", state_payload("athens", 1, {}), "topic"),
])
def test_a_bad_payload_is_one_log_line_and_changes_nothing(
        caplog: pytest.LogCaptureFixture, topic: str, payload: bytes, field: str) -> None:
    model = ClubModel(CLUB)
    model.receive(STATE, state_payload("athens", 1, a_state()))
    before = json.dumps(model.summary())
    caplog.clear()
    with caplog.at_level(logging.WARNING, "tavla_pi.club"):
        assert model.receive(topic, payload) is None
    assert json.dumps(model.summary()) == before
    assert len(caplog.records) == 1
    line = caplog.records[0].getMessage()
    assert field in line and topic.split("/")[2].lower() in line.lower()


def test_a_new_match_starts_the_log_again_and_the_log_is_bounded() -> None:
    model = ClubModel(CLUB)
    rolled = {"t": 5, "type": "rolled", "player": "white", "dice": [3, 1]}
    for seq in range(1, LOG_BOUND + 11):
        model.receive(EVENT, event_payload("athens", seq, rolled))
    assert len(model.boards["athens"].log) == LOG_BOUND
    model.receive(EVENT, event_payload("athens", LOG_BOUND + 11,
                                       {"t": 9, "type": "new_match", "match_length": 3}))
    assert [e["type"] for e in model.boards["athens"].log] == ["new_match"]


def test_a_finished_match_is_a_mat_file() -> None:
    finished: list[FinishedMatch] = []
    model = ClubModel(CLUB, finished.append)
    model.receive(STATE, state_payload("athens", 0, a_state(match_length=1)))
    for seq, event in enumerate(match_events(), start=1):
        model.receive(EVENT, event_payload("athens", seq, event))
    assert len(finished) == 1
    match = finished[0]
    assert match.name.startswith("athens-") and match.name.endswith(".mat")
    assert match.length == 1 and sorted(match.score) == [0, 1]
    assert " 1 point match" in match.text and "Game 1" in match.text
    whole = record_match([Event.from_dict(e) for e in match_events()], str)
    assert match.text == format_match(whole)  # what `tavla-pi export` writes of it
    assert model.matches() == [match.summary()]
    assert model.matches()[0]["players"] == {"white": "Ayşe", "black": "Berk"}


def test_a_match_seen_only_in_part_makes_no_file() -> None:
    model = ClubModel(CLUB)
    events = match_events()
    over = next(e for e in events if e["type"] == "match_over")
    model.receive(EVENT, event_payload("athens", 1, over))
    assert model.finished == {}
