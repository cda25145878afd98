"""The online panel of the simulator page in headless chromium, against a real
bgammon-server (docs/ONLINE.md): the page lists the server's open matches, joins the one
a socket opponent opened, chats with it, and plays a turn against it; the board's
checkers (the board's player's and, when the opponent starts, its lit play) are
dragged with the mouse and ROLL is pressed on the page.  The board's position is then
the server's.  Screenshots: ``test-artifacts/``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from programs import needs
from test_web_remote_page import Side
from test_web_remote_page import drag as drag_checker
from web_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

from tavla_pi.online.model import ME, OPPONENT, Said
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.bgammon import BgammonServer, SocketPlayer
from tavla_pi.testing.hand import hand_moves
from tavla_pi.testing.online import HAND, ONLINE, OnlineBoard, OnlineMatch

pytestmark = [pytest.mark.slow, needs("chromium", "bgammon-server")]
pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
from playwright.sync_api import Page, sync_playwright  # noqa: E402 (after the skip)

TIMEOUT_MS = 20_000


def drag(board: OnlineBoard, page: Page, play: Play, color: Color) -> None:
    """Carry ``play`` out with the mouse, each checker waited for on the board (as on the
    friend's board's page)."""
    for action in hand_moves(play, color):
        drag_checker(Side(board, page), action)


def test_the_page_joins_an_open_match_chats_and_plays_a_turn(
        tmp_path: Path, bgammon_server: BgammonServer) -> None:
    board = OnlineBoard(tmp_path / "board", bgammon_server)
    board.daemon.start()
    with SocketPlayer(bgammon_server.port) as opponent, sync_playwright() as playwright:
        try:
            opponent.login("pagefriend")
            match_id = opponent.create(1, "page match")
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                 args=CHROMIUM_ARGS, headless=True)
            page = browser.new_context(locale="en-US", viewport={"width": 1400,
                                                                 "height": 900}).new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(f"http://127.0.0.1:{board.daemon.port}/")
            page.wait_for_selector("#online:not([hidden])")
            page.click("#online-refresh")
            page.click(f"#online-matches button[data-match='{match_id}']")
            board.until(lambda s: (s["online"]["match"] or {}).get("id") == match_id
                        and s["online"]["match"]["opponent"] == "Guest_pagefriend",
                        "the match joined from the page")
            page.wait_for_function(
                "() => document.querySelector('#online-status').textContent"
                ".includes('against Guest_pagefriend')")
            chat(page, opponent)
            turn(board, page, OnlineMatch(board, opponent, random.Random(4)))
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "online-page.png"), full_page=True)
            browser.close()
        finally:
            board.daemon.close()


def chat(page: Page, opponent: SocketPlayer) -> None:
    """The opponent's message is shown on the page; the page's reaches the opponent."""
    opponent.say("good luck")
    page.wait_for_function(
        "() => document.querySelector('#online-chat').textContent.includes('good luck')")
    page.fill("#online-say", "thanks, you too")
    page.click("#online-say-button")
    said = opponent.wait_for(Said)
    assert said.message == "thanks, you too"


def turn(board: OnlineBoard, page: Page, match: OnlineMatch) -> None:
    """The board set up and the opening thrown from the page; the opponent's first play
    (if it starts) carried out by dragging; then the board's player's turn on the page."""
    page.click("#sim-setup")
    page.wait_for_selector("body[data-phase=opening]")
    match.opponent.roll()
    page.click(f"[data-button='{HAND.value}.roll']")
    state = board.until(lambda s: s["phase"] not in ("opening", "setup"), "the opening")
    if state["on_roll"] == ONLINE.value:
        server = match.opponent.wait_board(lambda b: b.dice[0] != 0)
        play = match.opponent_play(server)
        assert play is not None  # an opening roll can always be played
        lit = board.until(lambda s: s["engine_play"] is not None, "the opponent's play lit")
        assert lit["engine_play"]["play"] == play.notation
        drag(board, page, play, ONLINE)
        state = board.until(lambda s: (s["on_roll"] == HAND.value and s["phase"] != "moving")
                            or (s["phase"] == "moving" and s["on_roll"] == HAND.value),
                            "the opponent's play committed")
        if state["phase"] == "await_roll":
            page.click(f"[data-button='{HAND.value}.roll']")
        state = board.until(lambda s: s["phase"] == "moving" and s["on_roll"] == HAND.value,
                            "the board's roll")
    match.opponent.wait_board(lambda b: b.turn == OPPONENT and b.winner == 0)
    a, b = state["dice"]
    play = random.Random(8).choice(Position.from_position_id(state["position_id"])
                                   .legal_plays((a, b)))
    drag(board, page, play, HAND)
    board.choose(play, lambda: page.click(f"[data-button='{HAND.value}.cube']"))
    page.click(f"[data-button='{HAND.value}.roll']")  # DONE
    match.check(lambda s: s.turn == ME or s.winner != 0)
    assert match.checked == 1
