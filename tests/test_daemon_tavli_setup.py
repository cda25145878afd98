"""The simulator desk (POST /api/sim) sets up each game of tavli as the game needs it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import VirtualDaemon


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def set_up(daemon: VirtualDaemon, action: dict[str, Any]) -> dict[str, Any]:
    await daemon.sim(action)
    await daemon.sleep(1000)
    return await daemon.state()


def test_setup_lays_out_the_start_of_the_configured_variant(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path, settings=GameSettings(variant="plakoto"))
    state = run(set_up(daemon, {"setup": "start"}))
    assert (set(state["sensed"]["white"]), set(state["sensed"]["black"])) == ({"24"}, {"1"})
    assert (state["phase"], state["variant"]) == ("opening", "plakoto")


def test_setup_with_a_variant_starts_a_match_of_it_on_its_start(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    state = run(set_up(daemon, {"setup": "start", "variant": "fevga", "match_length": 3}))
    assert (set(state["sensed"]["white"]), set(state["sensed"]["black"])) == ({"24"}, {"12"})
    assert (state["phase"], state["variant"], state["match_length"]) == ("opening", "fevga", 3)


def test_setup_lays_a_pile_of_fifteen_layer_by_layer_a_scan_between(tmp_path: Path) -> None:
    # Fifteen laid in one scan read wrong (tests/soak_failures/fifteen_laid_at_once.jsonl):
    # the page's "set up" lays a Greek start as a hand does.
    daemon = VirtualDaemon(tmp_path, settings=GameSettings(variant="fevga"))
    board, sleep, piles = daemon.backend.board, daemon.desk.sleep_ms, []

    async def watched(ms: int) -> None:
        counts = board.counts()
        piles.append((counts.get(("24", Color.WHITE)), counts.get(("12", Color.BLACK))))
        await sleep(ms)

    daemon.desk.sleep_ms = watched
    state = run(set_up(daemon, {"setup": "start"}))
    assert piles == [(6, 6), (12, 12)]
    assert set(state["sensed"]["white"]) == {"24"} and state["phase"] == "opening"
