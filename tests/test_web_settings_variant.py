"""POST /api/settings with ``variant``: the game of the next new match (Portes, Plakoto,
Fevga or a tavli match), checked by name, handed to the referee as the opponent is; a
referee that plays Portes only refuses the others with a clear 400."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from daemon_support import VirtualDaemon, body

from tavla_pi.events import Event
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings

VARIANTS = ("portes", "plakoto", "fevga", "tavli")


class VariantReferee(Referee):
    """A stand-in for the referee's side of the variants (built apart): it records the
    game the next new match takes, as ``next_opponent`` records the opponent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.chosen = "portes"
        self.calls: list[tuple[str, int]] = []

    @property
    def next_variant(self) -> str:
        return self.chosen

    def choose_variant(self, variant: str, now: int) -> list[Event]:
        self.chosen = variant
        self.calls.append((variant, now))
        return []


def daemon_playing_variants(tmp_path: Path) -> tuple[VirtualDaemon, VariantReferee]:
    daemon = VirtualDaemon(tmp_path)
    referee = VariantReferee(GameSettings(), daemon.dice)
    daemon.core.referee = referee
    return daemon, referee


async def post(daemon: VirtualDaemon, data: Any) -> tuple[int, Any]:
    answer = await daemon.request("POST", "/api/settings", data)
    return answer.status, body(answer)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chosen_game_reaches_the_referee_for_the_next_match(
        tmp_path: Path, variant: str) -> None:
    daemon, referee = daemon_playing_variants(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": variant}))
    assert status == 200
    assert answer["variant"] == variant == referee.next_variant
    assert answer["applied"] == ("now" if variant == "portes" else "next_match")
    assert referee.calls == ([] if variant == "portes" else [(variant, 0)])


def test_the_game_is_kept_when_only_the_opponent_changes(tmp_path: Path) -> None:
    daemon, referee = daemon_playing_variants(tmp_path)
    asyncio.run(post(daemon, {"variant": "tavli"}))
    status, answer = asyncio.run(post(daemon, {"coach": False}))
    assert (status, answer["variant"], referee.calls) == (200, "tavli", [("tavli", 0)])


@pytest.mark.parametrize("value", ["narde", "Plakoto", 3, None, ["fevga"]])
def test_an_unknown_game_is_a_400_naming_the_key_and_the_choices(
        tmp_path: Path, value: object) -> None:
    daemon, referee = daemon_playing_variants(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": value}))
    assert status == 400
    assert answer["error"].startswith("request body: variant: expected one of "
                                      '"portes", "plakoto", "fevga", "tavli"')
    assert referee.next_variant == "portes" and referee.calls == []


def test_the_computer_plays_portes_only(tmp_path: Path) -> None:
    daemon, referee = daemon_playing_variants(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": "plakoto", "color": "black"}))
    assert status == 400
    assert "the computer plays Portes only" in answer["error"]
    assert referee.next_opponent.color is None and referee.calls == []


def test_a_referee_that_plays_portes_only_refuses_the_others_by_name(
        tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    status, answer = asyncio.run(post(daemon, {"variant": "fevga"}))
    assert status == 400
    assert answer["error"] == ("request body: variant: this board plays Portes only so "
                               "far, not 'fevga'")
    status, answer = asyncio.run(post(daemon, {"variant": "portes"}))
    assert (status, answer["variant"], answer["applied"]) == (200, "portes", "now")
