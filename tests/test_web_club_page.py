"""``tavla-pi club`` in headless chromium: two real boards (``tavla-pi run --backend sim``
daemons ``athens`` and ``izmir`` broadcasting to a real Mosquitto) play at once; the club
page shows both live, and one full size with its log after a click; a board that stops is
shown gone.  A hostile client's boards, sorted first, publish states no board writes (the
server refuses them), and one more is slipped into ``/api/club`` as if the server had
let it through: the page draws it clipped, and every other board as ever.
Screenshots: ``test-artifacts/``.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from club_support import ClubProcess, a_state, compact, state_payload, status_payload
from paho.mqtt.client import Client
from paho.mqtt.enums import CallbackAPIVersion
from programs import needs
from web_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

from tavla_pi.testing.broadcast import ProcessTable, play_turn, set_up
from tavla_pi.testing.daemon_process import DaemonProcess
from tavla_pi.testing.mosquitto import Mosquitto

pytestmark = [pytest.mark.slow, needs("chromium", "mosquitto")]
pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
from playwright.sync_api import Route, expect, sync_playwright  # noqa: E402

TIMEOUT_MS = 20_000
BOARDS = ("athens", "izmir")
START_TIMEOUT_S = 20.0
CLOCKED = {"athens": '[game]\nmatch_length = 3\n[clock]\nenabled = true\ndelay_s = 0\n'
                     '[players]\nwhite = "Ayşe"\nblack = "Nikos"\n'}
"""Athens plays a 3-point match on the tournament clock (no delay: the reserve runs at
once), its players named."""
BAD_STATES = {"aaa-dice": a_state(dice="ab"),
              "aab-off": a_state(board={"white": {"off": 200000}, "black": {"off": 15}})}
"""What a hostile client publishes as boards sorted before the real ones."""
SLIPPED = {"status": "online", "at": 1, "seq": 0, "log": [{"t": 1, "type": 42}, None],
           "verified": False,
           "state": {**a_state(dice="ab", score="x", players={"white": "W" * 5000}),
                     "board": {"white": {"off": 200000, "5": -3}, "black": {"off": "many"}}}}
"""A board's entry the server would never send, slipped into /api/club."""


def _board(folder: Path, broker: Mosquitto, name: str) -> DaemonProcess:
    folder.mkdir()
    config = folder / "config.toml"
    config.write_text(f'[network]\nbroker = "{broker.url}"\nboard = "{name}"\n'
                      + CLOCKED.get(name, ""))
    return DaemonProcess(folder / "state", folder / "notify", config)


def _publish_bad_states(broker: Mosquitto) -> None:
    """A client on the broker without any key publishes each of :data:`BAD_STATES`."""
    client = Client(CallbackAPIVersion.VERSION2, "hostile")
    client.connect(broker.broker.host, broker.broker.port)
    client.loop_start()
    for name, state in BAD_STATES.items():
        client.publish(f"tavla/home/{name}/status", status_payload(name), 1,
                       retain=True).wait_for_publish()
        client.publish(f"tavla/home/{name}/state", state_payload(name, 1, state), 1,
                       retain=True).wait_for_publish()
    client.publish("tavla/home/aac-huge/state", compact({"pad": "x" * 15000}), 1,
                   retain=True).wait_for_publish()
    client.loop_stop()
    client.disconnect()


def _slip_in(route: Route) -> None:
    """``/api/club`` as the server answers it, with :data:`SLIPPED` as board ``aaa-slipped``."""
    answer = route.fetch()
    club = answer.json()
    club["boards"]["aaa-slipped"] = SLIPPED
    route.fulfill(response=answer, json=club)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[dict[str, DaemonProcess], ClubProcess]]:
    """A broker, both boards started on it, and the club page's server."""
    (tmp_path / "broker").mkdir()
    with Mosquitto(tmp_path / "broker") as broker:
        daemons = {name: _board(tmp_path / name, broker, name) for name in BOARDS}
        server = None
        try:
            for daemon in daemons.values():
                daemon.start()
            _publish_bad_states(broker)
            server = ClubProcess(broker.url, tmp_path / "club.log")
            yield daemons, server
        finally:
            if server is not None:
                server.close()
            for daemon in daemons.values():
                daemon.close()


def _turn(table: ProcessTable, rng: random.Random) -> dict[str, Any]:
    """One turn played on the board (out of Playwright's own event loop)."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, play_turn(table, rng)).result()


def _to_play(state: dict[str, Any]) -> str:
    return f"{state['players'][state['on_roll']]} to play"


def test_two_boards_live_and_one_full_size(
        club: tuple[dict[str, DaemonProcess], ClubProcess]) -> None:
    daemons, server = club
    tables = {name: ProcessTable(daemon) for name, daemon in daemons.items()}
    rng = random.Random(24)
    for table in tables.values():
        asyncio.run(set_up(table))
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route("**/api/club", _slip_in)
        page.goto(server.url)
        for name in BOARDS:  # the retained state of each: both boards at once
            tile = page.locator(f'.club-table[data-board="{name}"]')
            expect(tile.locator("circle.checker")).to_have_count(30)
            expect(tile).to_have_attribute("data-status", "online")
            expect(tile).to_have_attribute("data-verified", "false")  # no --boards
        for name in BAD_STATES:  # shown, but none of what the server refused
            tile = page.locator(f'.club-table[data-board="{name}"]')
            expect(tile).to_have_attribute("data-status", "online")
            expect(tile.locator("circle.checker, rect.tray-checker")).to_have_count(0)
        slipped = page.locator('.club-table[data-board="aaa-slipped"]')
        expect(slipped.locator("rect.tray-checker")).to_have_count(15)  # 200000 clipped
        expect(slipped.locator(".player.white")).to_have_text("W" * 32 + " 0")
        expect(page.locator('.club-table[data-board="aac-huge"]')).to_have_count(0)
        expect(page.locator("#unverified-title")).to_be_visible()
        for _ in range(2):  # both play, turn about: the page follows each live
            for name, table in tables.items():
                state = _turn(table, rng)
                tile = page.locator(f'.club-table[data-board="{name}"]')
                expect(tile.locator(".turn-text")).to_have_text(_to_play(state))
                expect(tile.locator(".dice")).to_have_count(0)
        clock = page.locator('.club-table[data-board="athens"] .clock')
        expect(clock).to_have_text(re.compile(r"clock [0-5]:\d\d / [0-5]:\d\d"))  # both ran
        expect(clock).not_to_have_text(clock.inner_text())  # the mover's counts down
        expect(page.locator('.club-table[data-board="izmir"] .clock')).to_have_count(0)
        expect(page.locator('.club-table[data-board="athens"] .player.white')).to_contain_text(
            "Ayşe")
        page.screenshot(path=str(ARTIFACTS / "club-grid.png"))
        page.locator('.club-table[data-board="athens"]').click()
        full = page.locator("#full")
        expect(full).to_be_visible()
        expect(page.locator("#grid")).to_be_hidden()
        expect(page.locator("#full-name")).to_contain_text("athens")
        expect(full.locator("#full-board circle.checker")).to_have_count(30)
        log = page.locator("#full-log li[data-type=played]")
        expect(log).to_have_count(2)  # athens's two plays since the opening
        state = _turn(tables["athens"], rng)  # live in the full view too
        expect(log).to_have_count(3)
        expect(full.locator(".turn-text")).to_have_text(_to_play(state))
        page.screenshot(path=str(ARTIFACTS / "club-full.png"))
        page.locator("#back").click()
        expect(page.locator("#grid")).to_be_visible()
        daemons["izmir"].close()  # a clean stop says gone
        expect(page.locator('.club-table[data-board="izmir"]')).to_have_attribute(
            "data-status", "gone")
        expect(page.locator('.club-table[data-board="athens"]')).to_have_attribute(
            "data-status", "online")
        page.screenshot(path=str(ARTIFACTS / "club-gone.png"))
        browser.close()
        assert not errors, errors
