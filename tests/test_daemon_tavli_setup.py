"""The simulator desk (POST /api/sim) sets up each game of tavli as the game needs it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from daemon_support import VirtualDaemon

from tavla_pi.game.settings import GameSettings


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
