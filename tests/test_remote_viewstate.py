"""The viewer's state a board broadcasts, checked as the board writes it (SPEC:
docs/CLUB.md, "What the page checks"): every state a real board wrote passes, and a
state no board could write is one error naming the field."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from club_support import a_state

from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.players import PlayerNames
from tavla_pi.game.settings import GameSettings
from tavla_pi.remote.broadcast import STATE_KEYS, Broadcast
from tavla_pi.remote.messages import MessageError
from tavla_pi.remote.session import RemoteStatus
from tavla_pi.remote.viewstate import CHECKED, MAX_STATE_BYTES, check_viewer_state
from tavla_pi.rules import variant
from tavla_pi.testing.broadcast import FakeOutlet, VirtualTable, play_turn, set_up
from tavla_pi.testing.daemon import VirtualDaemon

WHERE = "tavla/home/athens/state"


def written_states(folder: Path, turns: int) -> list[dict[str, Any]]:
    """The state payloads a board broadcast while ``turns`` turns of a 3-point match on
    the tournament clock were played on it, its players named."""
    folder.mkdir()
    daemon = VirtualDaemon(folder, settings=GameSettings(match_length=3,
                                                         clock=ClockRules(delay_s=2)))
    daemon.core.players = PlayerNames("Ayşe", "Νίκος")
    outlet = FakeOutlet()
    broadcast = Broadcast("athens", outlet)
    daemon.core.broadcast = broadcast
    table, rng = SentTable(daemon, broadcast, outlet), random.Random(5)

    async def play() -> None:
        await set_up(table)
        for _ in range(turns):
            await play_turn(table, rng)
    asyncio.run(play())
    return outlet.of("state")


class SentTable(VirtualTable):
    """A virtual board whose broadcast hands over what it has at every look (each scan)."""

    def __init__(self, daemon: VirtualDaemon, broadcast: Broadcast, outlet: FakeOutlet) -> None:
        super().__init__(daemon)
        self.broadcast, self.outlet = broadcast, outlet

    async def look(self) -> dict[str, Any]:
        state = await super().look()
        self.broadcast.pump()
        self.outlet.ack()
        return state


def test_every_state_a_board_wrote_passes(tmp_path: Path) -> None:
    states = written_states(tmp_path / "board", turns=12)
    assert len(states) > 12
    phases = set()
    for payload in states:
        assert len(json.dumps(payload).encode()) < MAX_STATE_BYTES // 4
        state = payload["state"]
        assert check_viewer_state(state, WHERE) is state
        phases.add(state["phase"])
    assert {"moving", "await_roll"} <= phases
    clocked = states[-1]["state"]
    assert clocked["clock"] is not None and clocked["players"]["black"] == "Νίκος"


def test_every_key_a_board_writes_is_checked() -> None:
    assert sorted(CHECKED) == sorted(STATE_KEYS)
    assert check_viewer_state(a_state(), WHERE) == a_state()


@pytest.mark.parametrize("name", ["plakoto", "fevga"])
def test_each_games_board_passes(name: str) -> None:
    start = variant(name).initial()
    state = a_state(variant=name, board=start.board(), cube={"value": 1, "owner": None,
                                                               "offered": False})
    check_viewer_state(state, WHERE)


def test_a_pinned_board_and_a_friends_board_pass() -> None:
    pinned = {"white": {"24": 13, "20": 1, "6": 1}, "black": {"20": 1, "1": 14},
              "pinned": {"20": "black"}}
    variant("plakoto").from_board(pinned, "white")  # the rules' own board
    remote = RemoteStatus("izmir", connected=True, waiting_for="izmir",
                          trouble="out of sync with izmir: a play that is not legal")
    check_viewer_state(a_state(variant="plakoto", board=pinned, remote=remote.to_json()),
                       WHERE)


def _with(path: str, value: Any) -> dict[str, Any]:
    """The good state with the field at ``path`` ("cube.value") set to ``value``."""
    state = copy.deepcopy(a_state())
    *parents, last = path.split(".")
    place = state
    for key in parents:
        place = place[key]
    place[last] = value
    return state


def _clocked(**changes: Any) -> dict[str, Any]:
    clock = {"delay_s": 12, "reserve_s_per_point": 120, "reserve_s": {"white": 360.0,
             "black": 351.5}, "delay_left_s": 4.2, "running": "black", "flag": None,
             "timed": ["white", "black"]}
    return a_state(clock={**clock, **changes})


BAD: list[tuple[Any, str]] = [
    (_with("dice", "ab"), "state.dice"),
    (_with("dice", [7, 1]), "state.dice"),
    (_with("dice", [1, 2, 3]), "state.dice"),
    (_with("dice", [True, 2]), "state.dice"),
    (_with("dice_used", ["yes"]), "state.dice_used"),
    (_with("board.white.off", 200000), "state.board"),
    (_with("board.white.6", 4), "state.board"),  # 14 checkers
    (_with("board.white.1", 1), "state.board"),  # 16, and on Black's point
    (_with("board.black.bar", -1), "state.board"),
    (_with("board.white.25", 1), "state.board"),
    (_with("board", "start"), "state.board"),
    (a_state(variant="plakoto", board={"white": {"bar": 2, "6": 5, "8": 3, "13": 5},
                                       "black": {"1": 2, "12": 5, "17": 3, "19": 5}}),
     "state.board"),  # no bar in Plakoto
    (_with("cube.value", 3), "state.cube"),
    (_with("cube.value", 128), "state.cube"),
    (_with("cube.owner", "red"), "state.cube"),
    (_with("cube.extra", 1), "state.cube"),
    (_with("score", [-1, 0]), "state.score"),
    (_with("score", [0]), "state.score"),
    (_with("match_length", 65), "state.match_length"),
    (_with("points_won", value=True), "state.points_won"),
    (_with("events", -1), "state.events"),
    (_with("phase", "dancing"), "state.phase"),
    (_with("on_roll", "red"), "state.on_roll"),
    (_with("winner", 1), "state.winner"),
    (_with("position_id", "<svg onload=x>"), "state.position_id"),
    (_with("match_id", "cAkgAAAAAAA"), "state.match_id"),
    (_with("variant", "chess"), "state.variant"),
    (_with("players.white", "x" * 33), "state.players"),
    (_with("players.white", "\n"), "state.players"),
    (_with("players", {"white": "A"}), "state.players"),
    (_with("remote", {"peer": "Izmir", "connected": True, "waiting_for": None,
                      "trouble": None}), "state.remote"),
    (_with("remote", {"peer": "izmir", "connected": True, "waiting_for": None,
                      "trouble": "x" * 1001}), "state.remote"),
    (_clocked(reserve_s={"white": -1, "black": 1}), "state.clock"),
    (_clocked(reserve_s={"white": float("nan"), "black": 1}), "state.clock"),
    (_clocked(delay_s=601), "state.clock"),
    (_clocked(timed=["white", "white"]), "state.clock"),
    (_clocked(timed=[["white"]]), "state.clock"),
    (_clocked(running="both"), "state.clock"),
    ({k: v for k, v in a_state().items() if k != "dice"}, "state.dice: missing"),
    (a_state(sensed={}), "state.sensed"),
    ([], "state: expected a JSON object"),
]


@pytest.mark.parametrize(("state", "field"), BAD, ids=[f"{n}-{f}" for n, (_, f) in enumerate(BAD)])
def test_a_state_no_board_writes_names_the_field(state: Any, field: str) -> None:
    with pytest.raises(MessageError, match=field.replace(".", r"\.")) as refused:
        check_viewer_state(state, WHERE)
    assert str(refused.value).startswith(WHERE)


def test_a_clocked_state_passes() -> None:
    check_viewer_state(_clocked(), WHERE)
    check_viewer_state(_clocked(delay_left_s=None, running=None, flag="white",
                                timed=["white"]), WHERE)
