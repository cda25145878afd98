"""POST /api/settings with ``variant``: the game of the next new match (Portes, Plakoto,
Fevga or a tavli match), checked by name, handed to the referee as the opponent is:
while the board is set up for a match's first game it starts that match at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.rules.color import Color
from tavla_pi.testing.daemon import VirtualDaemon, body

VARIANTS = ("portes", "plakoto", "fevga", "tavli")


def new_matches(daemon: VirtualDaemon) -> list[dict[str, Any]]:
    """The ``new_match`` events journaled, without their time."""
    return [{k: v for k, v in e.to_dict().items() if k not in ("t", "type")}
            for e in daemon.memory.events if e.type == "new_match"]


async def post(daemon: VirtualDaemon, data: Any) -> tuple[int, Any]:
    answer = await daemon.request("POST", "/api/settings", data)
    return answer.status, body(answer)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chosen_game_reaches_the_referee_and_starts_a_match_being_set_up(
        tmp_path: Path, variant: str) -> None:
    daemon = VirtualDaemon(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": variant}))
    assert status == 200
    assert answer["variant"] == variant == daemon.core.referee.next_variant
    assert answer["applied"] == "now"
    assert daemon.core.referee.settings.variant == variant
    started = [] if variant == "portes" else [{"match_length": 0, "variant": variant}]
    assert new_matches(daemon) == started


def test_the_game_is_kept_when_only_the_opponent_changes(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    asyncio.run(post(daemon, {"variant": "tavli"}))
    status, answer = asyncio.run(post(daemon, {"coach": False}))
    assert (status, answer["variant"], answer["applied"]) == (200, "tavli", "now")
    assert daemon.core.referee.tavli.name == "tavli"


@pytest.mark.parametrize("value", ["narde", "Plakoto", 3, None, ["fevga"]])
def test_an_unknown_game_is_a_400_naming_the_key_and_the_choices(
        tmp_path: Path, value: object) -> None:
    daemon = VirtualDaemon(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": value}))
    assert status == 400
    assert answer["error"].startswith("request body: variant: expected one of "
                                      '"portes", "plakoto", "fevga", "tavli"')
    assert daemon.core.referee.next_variant == "portes" and new_matches(daemon) == []


def test_the_computer_plays_portes_only(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": "plakoto", "color": "black"}))
    assert status == 400
    assert "the computer plays Portes only" in answer["error"]
    referee = daemon.core.referee
    assert referee.next_opponent.color is None and referee.next_variant == "portes"


async def set_up(daemon: VirtualDaemon, action: dict[str, Any]) -> dict[str, Any]:
    """POST a ``setup`` action, let the board settle; /api/state then."""
    await daemon.sim(action)
    await daemon.sleep(400)
    return await daemon.state()


@pytest.mark.parametrize(("variant", "black_start"), [("plakoto", "1"), ("fevga", "12")])
def test_the_simulators_setup_lays_out_the_chosen_games_start(
        tmp_path: Path, variant: str, black_start: str) -> None:
    daemon = VirtualDaemon(tmp_path)
    asyncio.run(post(daemon, {"variant": variant}))
    state = asyncio.run(set_up(daemon, {"setup": "start"}))  # the page's button
    assert (state["phase"], state["variant"], state["fix"]) == ("opening", variant, [])
    assert state["board"] == {"white": {"24": 15}, "black": {black_start: 15}, "pinned": {}}


def test_a_setup_naming_a_game_starts_a_match_of_it(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    state = asyncio.run(set_up(daemon, {"setup": "start", "variant": "fevga",
                                        "match_length": 3}))
    assert new_matches(daemon) == [{"match_length": 3, "variant": "fevga"}]
    assert (state["phase"], state["variant"], state["match_length"]) == ("opening", "fevga", 3)
    state = asyncio.run(set_up(daemon, {"setup": "start", "variant": "tavli"}))
    assert new_matches(daemon)[-1] == {"match_length": 3, "variant": "tavli"}
    assert (state["phase"], state["variant"], state["match_variant"], state["fix"]) == (
        "opening", "portes", "tavli", [])


async def pin_in_plakoto(daemon: VirtualDaemon) -> None:
    """White 6-5 24/13, Black 6-5 1/12 (alone), then White's 2-1 24/22 13/12: a pin."""
    await set_up(daemon, {"setup": "start"})
    for dice in ([6, 1], [6, 5], [6, 5], [2, 1]):
        await daemon.sim({"dice": dice})
    for action in ({"press": "white.roll"}, {"press": "white.roll"},
                   {"move": "24/13", "color": "white"}, {"press": "white.roll"},
                   {"press": "black.roll"}, {"move": "1/12", "color": "black"},
                   {"press": "black.roll"}, {"press": "white.roll"},
                   {"move": "13/12", "color": "white"}, {"move": "24/22", "color": "white"},
                   {"press": "white.roll"}):
        await daemon.sim(action)


def test_in_plakoto_the_simulated_hand_lays_a_pinner_on_top(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    asyncio.run(post(daemon, {"variant": "plakoto"}))
    asyncio.run(pin_in_plakoto(daemon))
    assert asyncio.run(daemon.state())["pinned"] == {"12": "black"}
    assert daemon.backend.board.pockets("12") == ((Color.BLACK, Color.WHITE), (), (), (), (), ())
