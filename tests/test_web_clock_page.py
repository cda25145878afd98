"""The tournament clock and the players' names on the board's page, in Chromium: the
settings panel puts the next match on a clock, the panel shows each side's reserve
counting down for the player whose time runs, and the log says so (docs/CLOCK.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from programs import needs
from web_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, SimDaemon

pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
from playwright.sync_api import (
    Page,
    sync_playwright,
)

pytestmark = [pytest.mark.slow, needs("chromium")]
TIMEOUT_MS = 10_000


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Page]:
    """The page of a sim daemon playing 3-point matches, its players named."""
    daemon = SimDaemon(tmp_path)
    daemon.config.write_text('[game]\nmatch_length = 3\n'
                             '[players]\nwhite = "Ayşe"\nblack = "Nikos"\n')
    daemon.start()
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(locale="en-US", viewport={"width": 1400, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        page.goto(daemon.url)
        page.wait_for_selector("#conn[data-state=live]")
        yield page
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "clock-page.png"))
        browser.close()
    daemon.stop()
    assert not errors, errors


def sim(page: Page, action: str) -> None:
    """One simulator action through the page's own origin."""
    status = page.evaluate(f"""async () => (await fetch("/api/sim", {{method: "POST",
        headers: {{"Content-Type": "application/json"}}, body: JSON.stringify({action})}}))
        .status""")
    assert status == 200, action


def seconds(text: str, side: str) -> int:
    found = re.search(side + r" (\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_the_panel_starts_a_clocked_match_and_the_reserve_counts_down(page: Page) -> None:
    assert page.inner_text("#players") == "White: Ayşe · Black: Nikos"
    assert page.is_hidden("#clock")
    assert not page.is_checked("#set-clock-on")
    page.check("#set-clock-on")
    page.fill("#set-clock-delay", "0")
    page.fill("#set-clock-reserve", "60")
    page.click("#set-apply")
    page.wait_for_selector("#set-status >> text=Saved: applies now")
    page.wait_for_selector("#log li[data-type=new_match] >> "
                           "text=New match to 3 points · on the clock: 0 s a turn, 1:00 a point")
    page.wait_for_selector("#clock >> text=White 3:00 · Black 3:00")
    sim(page, '{"setup": "start"}')
    sim(page, '{"wait": 400}')
    sim(page, '{"dice": [5, 2]}')
    sim(page, '{"press": "black.roll"}')  # the opening: White moves, White's time runs
    page.wait_for_selector("#clock[data-running=white]")
    page.wait_for_selector("#log li[data-type=clock] >> text=Clock: White's time runs")
    first = page.inner_text("#clock")
    assert "White" in first and "(running)" in first and seconds(first, "Black") == 180
    page.wait_for_function("() => /White 2:5[0-7]/.test(document.querySelector('#clock')"
                           ".textContent)")  # it counts down on the page between states
    assert page.is_checked("#set-clock-on") and page.input_value("#set-clock-reserve") == "60"
