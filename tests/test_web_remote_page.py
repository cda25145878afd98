"""Two boards, one game, on two simulator pages: board ``athens`` (its player plays White)
and board ``izmir`` (Black) of a :class:`~tavla_pi.testing.remote.Pair`, each daemon's
page in headless chromium, play turns against each other through a real Mosquitto.

Everything a player does is done through the pages: on the page of the player on roll
the ROLL button rolls, the checkers are dragged with the mouse and ROLL again is DONE;
the other page meanwhile says "Waiting for ..." (never "The computer is thinking"),
then lights the friend's play ("athens plays ...: move the checker from ... to ..."),
and its hand carries the play out by dragging the same checkers on that page too.
Before the last play the broker stops and starts again: each page says its friend's
board is not reached while it is away, and the game goes on once both are back.
After each play both boards' ``position_id`` and ``match_id`` (GET /api/state) are the
same, and so are the IDs both pages show.  The dice are both boards' (fair dice): the
plays are chosen, seeded, among the legal ones of whatever is rolled.
Screenshots: ``test-artifacts/``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from programs import needs
from web_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, centre, target_of

from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.hand import hand_moves
from tavla_pi.testing.mosquitto import Mosquitto
from tavla_pi.testing.remote import BOARDS, FriendBoard, Pair

pytestmark = [pytest.mark.slow, needs("chromium", "mosquitto")]
pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
from playwright.sync_api import (  # noqa: E402 (after the skip when playwright is missing)
    ConsoleMessage,
    Page,
    sync_playwright,
)

TIMEOUT_MS = 20_000
"""A page's bound on any one wait (two daemons, a broker and a browser on two cores)."""
PLAYS = 6
"""Plays to make: three of each colour (at least four, both colours)."""
SETTLE_S = 10.0


@dataclass
class Side:
    """One board of the pair and its page."""

    board: FriendBoard
    page: Page

    @property
    def name(self) -> str:
        """The board's name."""
        return self.board.name

    def hints(self) -> list[str]:
        """The page's hint lines now."""
        return self.page.locator("#hints li").all_inner_texts()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    """Both boards started on a broker of their own, connected to each other."""
    (tmp_path / "broker").mkdir()
    with Mosquitto(tmp_path / "broker") as broker:
        boards = Pair(tmp_path, broker)
        try:
            boards.start()
            yield boards
        finally:
            boards.close()


@pytest.fixture
def sides(pair: Pair) -> Iterator[dict[Color, Side]]:
    """Each board's page, by the colour its player plays; no script may fail on either."""
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=CHROMIUM_ARGS, headless=True)
        out: dict[Color, Side] = {}
        for board in pair.boards:
            context = browser.new_context(locale="en-US",
                                          viewport={"width": 1400, "height": 900})
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
            page.on("console", console)
            page.goto(f"http://127.0.0.1:{board.daemon.port}/")
            page.wait_for_selector("#conn[data-state=live]")
            page.wait_for_selector("body[data-backend=sim]")
            out[board.color] = Side(board, page)
        yield out
        browser.close()
    unexpected = [e for e in errors if "Failed to load resource" not in e]
    assert not unexpected, unexpected


# ---- what a hand does on a page ---------------------------------------------------------

def on(board: FriendBoard, location: str, color: str) -> int:
    """How many ``color`` checkers the board's sensors see at ``location``."""
    physical = board.state()["physical"]
    stacks = physical["bar"][color] if location == "bar" else \
        physical["points"].get(location, [])
    return sum(stack.count(color) for stack in stacks)


def drag(side: Side, action: dict[str, Any]) -> None:
    """Carry one checker (a ``move`` action: "from/to" and its colour) with the mouse, and
    wait (bounded) until the board sees it arrive, as a hand waits to see it lie."""
    source, target = action["move"].split("/")
    color = action["color"]
    before = on(side.board, target, color)
    page = side.page
    page.evaluate("window.scrollTo(0, 0)")  # the board at the top: all of it in view
    page.mouse.move(*centre(page, f".checker.{color}[data-loc='{source}']"))
    page.mouse.down()
    page.mouse.move(*centre(page, target_of(source, color)), steps=3)
    page.mouse.move(*centre(page, target_of(target, color)), steps=5)
    page.mouse.up()
    deadline = time.monotonic() + SETTLE_S
    while on(side.board, target, color) != before + 1:
        assert time.monotonic() < deadline, (
            f"{side.name}: {action} not seen on the board; the page says "
            f"{page.inner_text('#notice')!r}, {page.inner_text('#phase')!r}, {side.hints()}")
        page.wait_for_timeout(50)


def press(side: Side, button: str) -> None:
    """Click one of the page's buttons: a short press."""
    side.page.click(f"[data-button='{button}']")


def hint(side: Side, text: str) -> str:
    """Wait for a hint line that starts with ``text``; the whole line."""
    line = side.page.locator("#hints li", has_text=text).first
    line.wait_for()
    found: str = line.inner_text()
    return found


# ---- the game ---------------------------------------------------------------------------


def opening(sides: dict[Color, Side]) -> None:
    """Both boards laid out from their pages; the opening rolled on athens's (again after
    a tie) until it is decided on both."""
    for side in sides.values():
        side.page.click("#sim-setup")
    for side in sides.values():
        side.page.wait_for_selector("body[data-phase=opening]")
    athens = sides[Color.WHITE]
    for throws in range(1, 20):
        press(athens, "white.roll")
        athens.page.wait_for_function(
            "n => document.querySelectorAll('#log li[data-type=opening_roll]').length >= n",
            arg=throws)
        if athens.board.state()["phase"] != "opening":
            break
    for side in sides.values():
        side.board.until(lambda s: s["phase"] not in ("opening", "setup"), "the opening")


def play_turn(sides: dict[Color, Side], rng: random.Random) -> Color | None:
    """One turn through the pages: the roll, the play and DONE on the mover's page; the
    friend's play waited for, lit and carried out on the other page.  The mover (None:
    the roll could not be played, the turn passed)."""
    state = sides[Color.WHITE].board.until(
        lambda s: s["on_roll"] is not None and s["phase"] in ("await_roll", "moving"),
        "a turn")
    color = Color(state["on_roll"])
    mover, other = sides[color], sides[color.opponent]
    if state["phase"] == "await_roll":
        press(mover, f"{color.value}.roll")
        state = mover.board.until(lambda s: s["phase"] != "await_roll", "the roll")
    if state["phase"] == "no_move":
        for side in (mover, other):
            side.board.until(lambda s: s["on_roll"] == color.opponent.value, "the pass")
        return None
    assert hint(other, f"Waiting for {mover.name}") == f"Waiting for {mover.name}"
    a, b = state["dice"]
    play = rng.choice(Position.from_position_id(state["position_id"]).legal_plays((a, b)))
    carry(mover, play, color)
    mover.board.choose(play, lambda: press(mover, f"{color.value}.cube"))
    press(mover, f"{color.value}.roll")  # DONE
    after = mover.board.until(lambda s: s["position_id"] == play.result.position_id()
                              and s["phase"] != "moving", "the play committed")
    lit = other.board.until(lambda s: s["engine_play"] is not None, "the friend's play")
    assert hint(other, f"{mover.name} plays ").startswith(
        f"{mover.name} plays {lit['engine_play']['play']}: move the checker from ")
    carry(other, play, color)
    ids = (after["position_id"], after["match_id"])
    shown = other.board.until(lambda s: (s["position_id"], s["match_id"]) == ids
                              or s["press_done"], "the play carried out")
    if (shown["position_id"], shown["match_id"]) != ids:  # a tall stack hides the rest
        press(other, f"{color.opponent.value}.roll")
        other.board.until(lambda s: (s["position_id"], s["match_id"]) == ids, "DONE's commit")
    return color


def carry(side: Side, play: Play, color: Color) -> None:
    """Drag the checkers of ``play`` on the side's page, a hit blot to the bar first."""
    for action in hand_moves(play, color):
        drag(side, action)


def same_ids(sides: dict[Color, Side]) -> str:
    """Both boards and both pages show one position and match; its IDs."""
    states = [side.board.state() for side in sides.values()]
    ids = {f"{s['position_id']} · {s['match_id']}" for s in states}
    assert len(ids) == 1, ids
    shown = ids.pop()
    for side in sides.values():
        side.page.wait_for_function("t => document.querySelector('#ids').textContent === t",
                                    arg=shown)
    return shown


def unreached(side: Side) -> str:
    """The line that says the friend's board is not reached, on the side's page."""
    friend = next(b for b in BOARDS if b != side.name)
    return f"{friend}'s board is not reached: the game is kept; it goes on when both are back"


def broker_away_and_back(pair: Pair, sides: dict[Color, Side]) -> None:
    """The broker stops: each page says its friend's board is not reached; it starts
    again: the line goes once both boards see each other."""
    pair.broker.stop()
    for side in sides.values():
        hint(side, unreached(side))
    pair.broker.start()
    pair.until_connected()
    for side in sides.values():
        side.page.locator("#hints li", has_text=unreached(side)).wait_for(state="detached")


SAID = """async () => {
  const words = await import('/static/words.js');
  const base = { phase: 'moving', on_roll: 'black', dice: [3, 1], cube: { value: 1 } };
  const remote = { peer: 'izmir', connected: true, waiting_for: null,
                   trouble: 'out of sync with izmir: a play that is not legal' };
  return [words.hints({ ...base, engine_thinking: true, remote,
                        engine_trouble: remote.trouble }),
          words.hints({ ...base, menu: { opponent: 'black', level: null, remote: 'izmir',
                                         variant: 'portes', notice: null } })];
}"""
"""The words of what a game with a friend's board does not show here: its trouble, and
the MENU's mode of a match with it."""


def test_two_pages_play_each_other_through_the_broker(pair: Pair,
                                                      sides: dict[Color, Side]) -> None:
    for side in sides.values():
        friend = sides[side.board.color.opponent].name
        assert side.board.state()["remote"]["peer"] == friend
        side.page.wait_for_function("v => document.querySelector('#set-color').value === v",
                                    arg=f"remote:{friend}")  # the settings offer the friend
        chosen = side.page.locator("#set-color option:checked").inner_text()
        assert chosen == f"{friend}'s board (a friend)"
    assert sides[Color.WHITE].page.evaluate(SAID) == [
        ["Out of sync with izmir: a play that is not legal"],
        ["The new match: izmir's board plays Black"]]
    opening(sides)
    rng = random.Random(23)
    movers: list[Color] = []
    positions = [same_ids(sides)]
    while len(movers) < PLAYS:
        if len(movers) == PLAYS - 1:
            broker_away_and_back(pair, sides)  # the game is kept, and goes on
        mover = play_turn(sides, rng)
        if mover is None:
            continue
        movers.append(mover)
        positions.append(same_ids(sides))
        for side in sides.values():
            assert not [h for h in side.hints() if "computer" in h.lower()], side.hints()
    assert set(movers) == {Color.WHITE, Color.BLACK}
    assert len(set(positions)) == len(positions)  # every play moved the game on
    for side in sides.values():
        played = side.page.locator("#log li[data-type=played]").count()
        assert played == PLAYS, (side.name, played)
        ARTIFACTS.mkdir(exist_ok=True)
        side.page.screenshot(path=str(ARTIFACTS / f"simulator-remote-{side.name}.png"),
                             full_page=True)
