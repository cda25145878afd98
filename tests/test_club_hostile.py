"""A hostile client on the club's broker against a running ``tavla-pi club --boards``
(SPEC: docs/CLUB.md, "What the page checks", "What a flood costs"): a board publishing
each bad state leaves every other board shown and the page live, and a flood of 4,000
events of 15 KB adds less than 5 MB to the page's server."""

from __future__ import annotations

import functools
import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from club_support import (
    ClubProcess,
    a_state,
    boards_file,
    event_payload,
    signed,
    state_payload,
    status_payload,
)
from paho.mqtt.client import Client
from paho.mqtt.enums import CallbackAPIVersion
from programs import needs

from tavla_pi.remote.keys import BoardKey
from tavla_pi.testing.mosquitto import Mosquitto

pytestmark = needs("mosquitto")
TIMEOUT_S = 20.0
KNOWN = ("athens", "izmir", "rhodes")
"""The boards the page's --boards file names; rhodes is the one that goes bad."""
FLOOD = 4000
EVENT_BYTES = 15_000
FLOOD_S = 5.0
GROWTH_BYTES = 5 * 1024 * 1024


@dataclass
class Club:
    """The broker, the boards' keys, a client publishing on the broker and the page."""

    broker: Mosquitto
    keys: dict[str, BoardKey]
    client: Client
    page: ClubProcess
    sentinels: int = 0

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.client.publish(topic, payload, qos, retain=retain).wait_for_publish(TIMEOUT_S)

    def state(self, name: str, seq: int, **changes: Any) -> bytes:
        """Board ``name``'s state payload, signed by its key when it has one."""
        payload = state_payload(name, seq, a_state(**changes))
        key = self.keys.get(name)
        return signed(key, f"tavla/home/{name}/state", payload) if key else payload

    def club(self) -> dict[str, Any]:
        """``GET /api/club``."""
        with urllib.request.urlopen(self.page.url + "api/club", timeout=5) as answer:
            club: dict[str, Any] = json.loads(answer.read())
        return club

    def until(self, wanted: Callable[[dict[str, Any]], bool],
              timeout_s: float = TIMEOUT_S) -> dict[str, Any] | None:
        """Poll ``/api/club`` until ``wanted``; None after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while not wanted(club := self.club()):
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
        return club

    def shown(self, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Poll ``/api/club`` until ``wanted``; fails naming ``what``."""
        club = self.until(wanted)
        assert club is not None, f"no {what} in {TIMEOUT_S} s: {str(self.club())[:400]}"
        return club

    def settled(self) -> dict[str, Any]:
        """``/api/club`` once everything published so far has been read: izmir's next
        state (a sentinel published after it) is shown.  A flood may have made the page
        drop it (docs/CLUB.md, "What a flood costs"): it is sent again each second."""
        for _ in range(int(TIMEOUT_S)):
            self.sentinels += 1
            score = [0, self.sentinels]
            self.publish("tavla/home/izmir/state",
                         self.state("izmir", self.sentinels, score=score))
            club = self.until(functools.partial(_scored, score), timeout_s=1.0)
            if club is not None:
                return club
        raise AssertionError(f"no sentinel in {TIMEOUT_S} s: {str(self.club())[:400]}")


def _scored(score: list[int], club: dict[str, Any]) -> bool:
    """Whether izmir's state on ``club`` has the sentinel's ``score``."""
    return bool(club["boards"]["izmir"]["state"]["score"] == score)


def _client(broker: Mosquitto) -> Client:
    client = Client(CallbackAPIVersion.VERSION2, "hostile-and-boards")
    client.max_queued_messages_set(0)
    client.connect(broker.broker.host, broker.broker.port)
    client.loop_start()
    return client


@pytest.fixture
def club(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[Club]:
    """athens, izmir (retained good states, signed), smyrna (unverified) and a retained
    bad state of rhodes already on the broker; then the page started with --boards."""
    keys = {name: BoardKey.load_or_make(tmp_path / name) for name in KNOWN}
    client = _client(mosquitto)
    early = Club(mosquitto, keys, client, page=None)  # type: ignore[arg-type]
    for board in ("athens", "izmir", "smyrna"):
        early.publish(f"tavla/home/{board}/state", early.state(board, 1), retain=True)
    early.publish("tavla/home/aaa/state", state_payload("aaa", 1, a_state(dice="ab")),
                  retain=True)  # sorted first, as in the page's first load
    rhodes = {"v": 1, "board": "rhodes", "status": "online", "nonce": "n1"}
    early.publish("tavla/home/rhodes/status", json.dumps(keys["rhodes"].signed(
        "tavla/home/rhodes/status", rhodes)).encode(), retain=True)
    early.publish("tavla/home/rhodes/state", early.state("rhodes", 1, dice="ab"), retain=True)
    page = ClubProcess(mosquitto.url, tmp_path / "club.log", "--boards",
                       str(boards_file(tmp_path / "boards", keys)))
    early.page = page
    try:
        yield early
    finally:
        assert page.close() == 0
        client.loop_stop()
        client.disconnect()


GOOD = {"athens": True, "izmir": True, "smyrna": False}


def _shows_the_good_boards(club: dict[str, Any]) -> None:
    for name, verified in GOOD.items():
        board = club["boards"][name]
        assert board["verified"] is verified, name
        assert board["state"]["board"] == a_state()["board"], name


def _log(club: Club) -> str:
    return club.page.log.read_text(encoding="utf-8")


BAD_STATES: dict[str, dict[str, Any]] = {
    "dice ab": {"dice": "ab"},
    "off 200000": {"board": {"white": {"off": 200000}, "black": {"off": 15}}},
    "14 checkers": {"board": {"white": {"6": 14}, "black": {"off": 15}}},
    "both on one point": {"board": {"white": {"1": 15}, "black": {"1": 15}}},
    "cube 3": {"cube": {"value": 3, "owner": None, "offered": False}},
    "over 4 KB": {"phase": "x" * 5000},
    "a name of 5000": {"players": {"white": "W" * 5000, "black": "B"}},
}
"""Each bad state of the hostile client (tests/test_remote_viewstate.py has many more)."""


def test_each_bad_state_leaves_every_other_board_shown_and_the_page_live(club: Club) -> None:
    first = club.shown(lambda c: set(GOOD) <= set(c["boards"]) and "rhodes" in c["boards"],
                       "the retained states")
    _shows_the_good_boards(first)  # the page's first load: the bad ones sorted first too
    assert first["boards"]["rhodes"]["state"] is None and "aaa" not in first["boards"]
    seq = 1
    for field, changes in BAD_STATES.items():  # signed by rhodes: still refused
        seq += 1
        club.publish("tavla/home/rhodes/state", club.state("rhodes", seq, **changes), retain=True)
        club.publish("tavla/home/smyrna/state",  # unverified: refused all the same
                     state_payload("smyrna", seq, a_state(**changes)), retain=True)
        now = club.settled()
        _shows_the_good_boards(now)
        assert now["boards"]["rhodes"]["state"] is None, field
    log = _log(club)  # the first refusal of each kind at once, the rest counted (10 s)
    assert "club: tavla/home/rhodes/state: state.dice: expected" in log
    assert "club: tavla/home/aaa/state: state.dice: expected" in log
    good = club.state("rhodes", 99)
    forged = {
        "unsigned": state_payload("athens", 9, a_state(dice=[6, 6])),
        "signed by rhodes": signed(club.keys["rhodes"], "tavla/home/athens/state",
                                   state_payload("athens", 9, a_state(dice=[6, 6]))),
        "rhodes's moved": good.replace(b'"board":"rhodes"', b'"board":"athens"'),
    }
    for payload in forged.values():
        club.publish("tavla/home/athens/state", payload, retain=True)
        club.publish("tavla/home/athens/status", status_payload("athens", "gone"), retain=True)
    now = club.settled()
    _shows_the_good_boards(now)
    assert now["boards"]["athens"]["status"] == "online" and now["boards"]["athens"]["state"][
        "dice"] == []
    assert "tavla/home/athens/state: no signature" in _log(club)  # the rest counted
    club.publish("tavla/home/rhodes/state", good, retain=True)
    club.shown(lambda c: c["boards"]["rhodes"]["state"] is not None, "rhodes again")
    _live(club)


def _live(club: Club) -> None:
    """The page and its stream answer."""
    with urllib.request.urlopen(club.page.url, timeout=5) as answer:
        assert b"/static/club.js" in answer.read()
    with urllib.request.urlopen(club.page.url + "api/stream", timeout=5) as stream:
        assert stream.readline().startswith(b"retry:")


def _rss_bytes(pid: int) -> int:
    """The process's resident memory, summed over its mappings (exact, where the VmRSS of
    /proc/PID/status may lag by megabytes)."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    found = re.search(r"^Rss:\s+(\d+) kB", rollup, re.M)
    assert found, rollup
    return int(found[1]) * 1024


def _flood(club: Club, count: int, start: int = 1, seconds: float = 0.0) -> None:
    """``count`` events of 15 KB spread over ``seconds``, on 40 unverified boards' topics
    and, forged, on athens's."""
    began = time.monotonic()
    for seq in range(start, start + count):
        if (seq - start) % 8 == 0:  # the pace of the flood: 8 at a time
            time.sleep(max(0.0, began + seconds * (seq - start) / count - time.monotonic()))
        board = f"flood-{seq % 41}" if seq % 41 else "athens"
        event = {"t": seq, "type": "rolled", "player": "white", "dice": [3, 1],
                 "pad": "x" * EVENT_BYTES}
        payload = event_payload(board, seq, event)
        assert len(payload) > EVENT_BYTES
        club.publish(f"tavla/home/{board}/event", payload, qos=0)


@pytest.mark.slow
@pytest.mark.parametrize("seconds", [FLOOD_S, 0.0])
def test_a_flood_adds_less_than_5_mb_to_the_page(club: Club, seconds: float) -> None:
    """4,000 events of 15 KB through a real broker over 5 s (the page takes them all), and
    as fast as the broker takes them (the page drops what it cannot take): the page's
    process grows by less than 5 MB.  Slow: 5 s of flood."""
    club.shown(lambda c: set(GOOD) <= set(c["boards"]), "the retained states")
    _flood(club, 41)  # each flooding board once: the code it runs has run
    club.settled()
    before = _rss_bytes(club.page.proc.pid)
    began = time.monotonic()
    _flood(club, FLOOD, start=1000, seconds=seconds)
    now = club.settled()
    took = time.monotonic() - began
    grown = _rss_bytes(club.page.proc.pid) - before
    _shows_the_good_boards(now)
    assert sum(name.startswith("flood-") for name in now["boards"]) == 32 - 1  # smyrna too
    assert grown < GROWTH_BYTES, f"{grown / 2**20:.1f} MB in {took:.1f} s"
    _live(club)
    print(f"flood of {FLOOD} x {EVENT_BYTES} B in {took:.1f} s: RSS {before / 2**20:.1f} MB "
          f"+ {grown / 2**20:.2f} MB")  # the figures, for -s runs
