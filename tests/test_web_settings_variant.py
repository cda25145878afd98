"""POST /api/settings with ``variant``: the game of the next new match (Portes, Plakoto,
Fevga or a tavli match), checked by name, handed to the referee as the opponent is:
while the board is set up for a match's first game it starts that match at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from daemon_support import VirtualDaemon, body

VARIANTS = ("portes", "plakoto", "fevga", "tavli")


def new_matches(daemon: VirtualDaemon) -> list[dict[str, Any]]:
    """The ``new_match`` events journaled, without their time."""
    return [{k: v for k, v in e.to_dict().items() if k not in ("t", "type")}
            for e in daemon.journal.events if e.type.value == "new_match"]


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
