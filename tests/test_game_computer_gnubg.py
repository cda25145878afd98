"""Playing the real GNU Backgammon on the modelled board (skipped where gnubg is absent).

The computer plays Black at level expert, through the same ScenarioRunner as
``tavla-pi replay``: its play carried out wrongly is out of sync and then
commits; it doubles and the human answers from the buttons; it answers the
human's doubles; a takeback withdraws its play; gnubg SIGKILLed in the
middle of a decision is restarted and gives the same play, the game intact.
The same kill is also made with the scripted fake gnubg, which runs anywhere.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from computer_support import BLACK_EXPERT, WHITE_OPENS, Table, chosen, load, move
from gnubg_support import FAKE
from programs import needs

from tavla_pi.engine import (
    CubeAction,
    EnginePlay,
    EngineRequest,
    Evaluation,
    GnubgEngine,
    RankedPlay,
    ResignAnswer,
    TakeDecision,
    find_gnubg,
)
from tavla_pi.engine.process import Supervisor
from tavla_pi.rules.color import Color
from tavla_pi.testing.hand import hand_moves

GNUBG = find_gnubg()
needs_gnubg = needs("gnubg")
B, W = Color.BLACK, Color.WHITE
DONE = {"press": "white.roll"}
AHEAD = ({"10": 5, "8": 5, "6": 5}, {"16": 2, "19": 4, "20": 4, "21": 3, "22": 2})
"""Black far ahead in the race, on roll: gnubg doubles (and White should pass)."""
BEHIND = ({"9": 2, "6": 4, "5": 4, "4": 3, "3": 2}, {"15": 5, "17": 5, "19": 5})
"""The same race turned round, White on roll: White doubles and gnubg passes."""


def gnubg(tmp_path: Path) -> GnubgEngine:
    """The real gnubg, its preferences in the test's folder."""
    return GnubgEngine.launch(tmp_path / "prefs", GNUBG)


@needs_gnubg
def test_gnubgs_play_carried_out_wrongly_is_out_of_sync_then_recovers(tmp_path: Path) -> None:
    table = Table(engine=gnubg(tmp_path))
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE)
    play = chosen(table)
    assert table.of("engine_play")[0]["play"] == play.notation
    start = table.runner.referee.position()
    other = next(p for p in start.legal_plays((6, 5)) if p != play and not p.moves[0][2])
    wrong = hand_moves(other, B)
    table.act(*wrong)
    assert table.of("out_of_sync"), f"{other.notation} instead of {play.notation} was accepted"
    assert table.of("played")[-1]["player"] == "white"
    undo = [move("/".join(reversed(m["move"].split("/")))) for m in reversed(wrong)]
    table.act(*undo, *hand_moves(play, B))
    events = table.close()
    assert [e["type"] for e in events if e["type"] in ("out_of_sync", "in_sync")][-1] == "in_sync"
    last = [e for e in events if e["type"] == "played"][-1]
    assert (last["player"], last["play"]) == ("black", play.notation)


@needs_gnubg
@pytest.mark.parametrize("answer", ["white.roll", "white.cube"])
def test_gnubg_doubles_and_the_human_answers_from_the_buttons(tmp_path: Path,
                                                              answer: str) -> None:
    table = Table(engine=gnubg(tmp_path))
    table.act(BLACK_EXPERT, {"wait": 400}, load(*AHEAD, B), {"dice": [6, 5]}, {"wait": 100})
    assert table.of("double_offered") == [{"type": "double_offered", "player": "black",
                                           "cube": 2}]
    table.act({"press": answer})
    if answer == "white.cube":
        assert table.of("double_dropped", "game_over")[-1]["winner"] == "black"
    else:
        assert table.of("double_taken", "rolled")[-2:] == [
            {"type": "double_taken", "player": "white", "cube": 2},
            {"type": "rolled", "player": "black", "dice": [6, 5]}]
        table.act(*hand_moves(chosen(table), B))
        assert table.of("played")[-1]["player"] == "black"
    table.close()


@needs_gnubg
def test_gnubg_takes_a_double_at_the_start_and_passes_a_lost_race(tmp_path: Path) -> None:
    table = Table(engine=gnubg(tmp_path))
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE)
    table.act(*hand_moves(chosen(table), B), {"wait": 400}, {"press": "white.cube"})
    assert table.of("double_taken") == [{"type": "double_taken", "player": "black", "cube": 2}]
    table.act(BLACK_EXPERT, {"wait": 400}, load(*BEHIND, W), {"press": "white.cube"})
    assert table.of("double_dropped") == [{"type": "double_dropped", "player": "black",
                                           "cube": 2}]
    table.close()


@needs_gnubg
def test_a_takeback_withdraws_gnubgs_play(tmp_path: Path) -> None:
    table = Table(engine=gnubg(tmp_path))
    table.act(*WHITE_OPENS, {"dice": [6, 5]}, DONE, move("5/8", "white"))
    assert [e["player"] for e in table.of("takeback")] == ["white"]
    assert table.state()["engine_play"] is None
    table.act(move("5/6", "white"), move("13/10", "white"), move("24/23", "white"),
              {"dice": [4, 2]}, DONE)
    assert [e["dice"] for e in table.of("rolled")] == [[6, 5], [4, 2]]
    table.act(*hand_moves(chosen(table), B))
    assert [e["player"] for e in table.close() if e["type"] == "played"] == [
        "white", "white", "black"]


# -- gnubg killed in the middle of a decision ------------------------------------------------


class KilledMidPlay:
    """An Engine on gnubg whose process is SIGKILLed while it decides its first play."""

    def __init__(self, engine: GnubgEngine) -> None:
        self.engine = engine
        self.killed: list[tuple[int, bool]] = []
        """(pid, whether a request was out when it was killed)."""

    def start(self) -> None:
        self.engine.start()

    def close(self) -> None:
        self.engine.close()

    def play(self, request: EngineRequest) -> EnginePlay:
        if not self.killed:
            threading.Thread(target=self._kill, daemon=True).start()
        return self.engine.play(request)

    def _kill(self) -> None:
        supervisor = self.engine.supervisor
        if supervisor.thinking.wait(30) and supervisor.pid is not None:
            self.killed.append((supervisor.pid, supervisor.thinking.is_set()))
            os.kill(supervisor.pid, signal.SIGKILL)

    def hint(self, request: EngineRequest, n: int = 5) -> list[RankedPlay]:
        return self.engine.hint(request, n)

    def cube_action(self, request: EngineRequest) -> CubeAction:
        return self.engine.cube_action(request)

    def take_decision(self, request: EngineRequest) -> TakeDecision:
        return self.engine.take_decision(request)

    def resign_answer(self, request: EngineRequest) -> ResignAnswer:
        return self.engine.resign_answer(request)

    def evaluate(self, request: EngineRequest) -> Evaluation:
        return self.engine.evaluate(request)


WORLD_CLASS = {"setup": "start", "opponent": {"color": "black", "level": "world class"}}


def game_with(engine: Any) -> list[dict[str, Any]]:
    """White opens, gnubg (world class: it thinks a while) plays 5-5; every event."""
    table = Table(engine=engine)
    table.act(WORLD_CLASS, *WHITE_OPENS[1:], {"dice": [5, 5]}, DONE)
    table.act(*hand_moves(chosen(table), B))
    return table.close()


def untimed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


@needs_gnubg
@pytest.mark.slow
def test_gnubg_killed_mid_decision_restarts_and_the_game_goes_on_with_the_same_play(
    tmp_path: Path,
) -> None:
    calm = game_with(gnubg(tmp_path / "calm"))
    killer = KilledMidPlay(gnubg(tmp_path / "killed"))
    killed = game_with(killer)
    assert len(killer.killed) == 1 and killer.killed[0][1], "not killed while it decided"
    assert killer.engine.supervisor.restarts == 1
    assert killed == calm  # to the millisecond: the replay waited for the restart
    assert [e["player"] for e in killed if e["type"] == "played"] == ["white", "black"]


def fake(tmp_path: Path, **config: Any) -> GnubgEngine:
    """GnubgEngine on the scripted fake, told how to misbehave."""
    settings = json.dumps({"state": str(tmp_path), **config})
    tmp_path.mkdir(parents=True, exist_ok=True)
    return GnubgEngine(Supervisor([sys.executable, str(FAKE), settings], start_timeout_s=30),
                       timeout_s=30)


def test_a_fake_gnubg_killed_mid_decision_restarts_with_the_game_intact(tmp_path: Path) -> None:
    calm = game_with(fake(tmp_path / "calm"))
    dying = fake(tmp_path / "dying", die={"hint": 1})
    assert game_with(dying) == calm  # to the millisecond: the replay waited for the restart
    assert dying.supervisor.restarts == 1


def test_a_fake_gnubg_dying_twice_is_asked_again_after_a_back_off(tmp_path: Path) -> None:
    calm = game_with(fake(tmp_path / "calm"))
    dying = fake(tmp_path / "dying", die={"hint": 2})
    events = game_with(dying)
    assert untimed(events) == untimed(calm)
    assert dying.supervisor.restarts == 2
    times = {e["type"]: e["t"] for e in events if e["type"] in ("rolled", "engine_play")}
    calm_times = {e["type"]: e["t"] for e in calm if e["type"] in ("rolled", "engine_play")}
    assert times["engine_play"] - times["rolled"] > calm_times["engine_play"] - calm_times["rolled"]
