"""The engine's process handling against a fake gnubg (tests/fake_gnubg.py).

The fake speaks the bridge's line protocol and can be told to die, hang,
refuse or answer wrongly; the tests check the restart, the one retry and the
EngineError that names what failed.  Hangs need a real timeout: they use a
short one (a fraction of a second), and only here.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.engine import GnubgEngine, Level, find_gnubg, require_gnubg
from tavla_pi.engine.gnubg import BRIDGE, NOT_INSTALLED, gnubg_argv
from tavla_pi.engine.interface import (
    CubeAction,
    EngineRequest,
    ResignAnswer,
    TakeDecision,
)
from tavla_pi.engine.process import Supervisor, clean_env
from tavla_pi.errors import EngineError
from tavla_pi.rules import Color, MatchRules, MatchState, Position, Resignation

FAKE = Path(__file__).with_name("fake_gnubg.py")
HANG_S = 0.5  # long enough for the fake to answer a good request, short enough to wait for


def fake_engine(state: Path, timeout_s: float = 10.0, **config: Any) -> GnubgEngine:
    """A GnubgEngine whose process is the fake, configured with ``config``."""
    config["state"] = str(state)
    argv = [sys.executable, str(FAKE), json.dumps(config)]
    return GnubgEngine(Supervisor(argv, start_timeout_s=10.0), timeout_s=timeout_s)


def sent(state: Path) -> list[dict[str, Any]]:
    """Every request line the fake received, over all its runs."""
    path = state / "requests.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def starts(state: Path) -> int:
    """How many times the fake was started."""
    path = state / "starts"
    return int(path.read_text()) if path.exists() else 0


def opening(dice: tuple[int, int] = (3, 1), **rules: Any) -> EngineRequest:
    """White on roll in the starting position with ``dice``."""
    return EngineRequest(Position.initial(), MatchState(dice=dice), MatchRules(**rules))


def test_a_play_comes_back_as_a_legal_play_of_the_rules(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path)
    try:
        request = opening()
        answer = engine.play(request)
        assert answer.play in Position.initial().legal_plays((3, 1))
        assert answer.equity == pytest.approx(0.5)
        hint = engine.hint(request, 3)
        assert [h.equity for h in hint] == pytest.approx([0.5, 0.4, 0.3])
        assert engine.supervisor.restarts == 0
        assert starts(tmp_path) == 1
    finally:
        engine.close()


def test_every_request_carries_the_whole_match_context(tmp_path: Path) -> None:
    state = MatchState(
        dice=(6, 5),
        match_length=7,
        score=(3, 5),
        cube=2,
        cube_owner=Color.BLACK,
        on_roll=Color.BLACK,
        to_act=Color.BLACK,
    )
    engine = fake_engine(tmp_path)
    try:
        request = EngineRequest(
            Position.initial(), state, MatchRules(beavers=True), Level.ADVANCED, seed=41
        )
        engine.play(request)
    finally:
        engine.close()
    (line,) = sent(tmp_path)
    assert line["op"] == "hint"
    assert line["match_id"] == state.match_id()
    assert line["position_id"] == Position.initial().position_id()
    assert (line["player"], line["seed"], line["beavers"], line["jacoby"]) == (1, 41, True, False)
    assert line["eval"]["noise"] == pytest.approx(0.015)


def test_cube_take_and_resignation_answers(tmp_path: Path) -> None:
    answers = {"double": {"double": True}, "take": {"take": "drop"}, "resign": {"accept": True}}
    engine = fake_engine(tmp_path, answers=answers)
    try:
        before_roll = EngineRequest(Position.initial(), MatchState())
        assert engine.cube_action(before_roll) is CubeAction.DOUBLE
        doubled = MatchState(double_offered=True, to_act=Color.BLACK)
        assert engine.take_decision(EngineRequest(Position.initial(), doubled)) is TakeDecision.DROP
        offered = MatchState(resignation=Resignation.GAMMON, to_act=Color.BLACK)
        assert (
            engine.resign_answer(EngineRequest(Position.initial(), offered)) is ResignAnswer.ACCEPT
        )
        assert engine.evaluate(before_roll).advice == "No double, take"
    finally:
        engine.close()
    assert [line["op"] for line in sent(tmp_path)] == ["double", "take", "resign", "evaluate"]


def test_the_banner_before_the_hello_is_skipped(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path)
    try:
        engine.start()
        assert engine.supervisor.hello == {"id": 0, "ok": True, "protocol": 1}
        assert engine.supervisor.banner == "GNU Backgammon (fake) 1.07"
    finally:
        engine.close()


def test_a_process_that_dies_mid_decision_is_restarted_and_asked_again(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, die={"hint": 1})
    try:
        first_pid = None
        engine.start()
        first_pid = engine.supervisor.pid
        answer = engine.play(opening())
        assert answer.play is not None
        assert engine.supervisor.restarts == 1
        assert engine.supervisor.pid != first_pid
    finally:
        engine.close()
    lines = sent(tmp_path)
    assert [line["op"] for line in lines] == ["hint", "hint"]
    assert lines[0] | {"id": 0} == lines[1] | {"id": 0}  # the same question, a new id
    assert starts(tmp_path) == 2


@pytest.mark.slow
def test_a_process_that_hangs_is_killed_restarted_and_asked_again(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, timeout_s=HANG_S, hang={"hint": 1})
    try:
        assert engine.play(opening()).play is not None
        assert engine.supervisor.restarts == 1
    finally:
        engine.close()
    assert starts(tmp_path) == 2


def test_failing_twice_is_one_engine_error_naming_the_request(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, die={"hint": 2})
    try:
        with pytest.raises(EngineError, match=r"failed twice on 'hint' \(restarted once\)") as err:
            engine.play(opening())
        assert "killed by signal 9" in str(err.value)
        # the next question starts a new process and is answered
        assert engine.play(opening()).play is not None
    finally:
        engine.close()


def test_a_refused_request_is_not_retried(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, refuse=["take"])
    try:
        doubled = MatchState(double_offered=True, to_act=Color.BLACK)
        with pytest.raises(EngineError, match="could not answer 'take': ValueError: refusing take"):
            engine.take_decision(EngineRequest(Position.initial(), doubled))
        assert engine.supervisor.restarts == 0
    finally:
        engine.close()
    assert len(sent(tmp_path)) == 1


def test_an_illegal_play_from_the_engine_is_an_engine_error(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, illegal=True)
    try:
        with pytest.raises(EngineError, match="which is not a legal play of 3-1"):
            engine.play(opening())
    finally:
        engine.close()


def test_a_play_evaluated_with_other_settings_than_the_levels_is_refused(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, context={"noise": 0.06})
    try:
        with pytest.raises(EngineError, match="not the expert settings"):
            engine.play(opening())
        beginner = EngineRequest(Position.initial(), MatchState(dice=(3, 1)), level=Level.BEGINNER)
        assert engine.play(beginner).play is not None
    finally:
        engine.close()


def test_an_answer_out_of_turn_counts_as_a_failure(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path, wrong_id=True)
    try:
        with pytest.raises(EngineError, match=r"twice.*sent answer 2 while answering 'hint'"):
            engine.play(opening())
        assert starts(tmp_path) == 2
    finally:
        engine.close()


@pytest.mark.slow
def test_a_process_that_never_says_hello_fails_to_start(tmp_path: Path) -> None:
    config = json.dumps({"state": str(tmp_path), "no_hello": True})
    supervisor = Supervisor([sys.executable, str(FAKE), config], start_timeout_s=HANG_S)
    with pytest.raises(EngineError, match=r"no answer within 0\.5 s while starting"):
        supervisor.start()
    engine = GnubgEngine(supervisor, timeout_s=HANG_S)
    with pytest.raises(EngineError, match="failed twice on 'hint'"):
        engine.play(opening())
    assert starts(tmp_path) == 3


def test_a_missing_program_is_an_engine_error(tmp_path: Path) -> None:
    engine = GnubgEngine(Supervisor([str(tmp_path / "no-such-gnubg")]))
    with pytest.raises(EngineError, match=r"cannot start .*no-such-gnubg"):
        engine.start()


def test_no_question_goes_to_gnubg_when_the_answer_is_known(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path)
    try:
        dance = Position([0] * 24 + [1], [2] * 6 + [0] * 19)
        assert engine.play(EngineRequest(dance, MatchState(dice=(6, 6)))).play is None
        crawford = MatchState(match_length=5, score=(4, 2), crawford=True)
        assert (
            engine.cube_action(EngineRequest(Position.initial(), crawford)) is CubeAction.NO_DOUBLE
        )
    finally:
        engine.close()
    assert sent(tmp_path) == []


# -- finding gnubg ------------------------------------------------------------------------


def test_find_gnubg_says_how_to_install_it_when_it_is_missing(tmp_path: Path) -> None:
    assert find_gnubg(str(tmp_path)) is None
    with pytest.raises(EngineError, match=r"not installed: install gnubg \(apt install gnubg\)"):
        require_gnubg(str(tmp_path))
    assert NOT_INSTALLED == "install gnubg (apt install gnubg)"
    program = tmp_path / "gnubg"
    program.write_text("#!/bin/sh\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    assert find_gnubg(str(tmp_path)) == program


def test_gnubg_runs_the_bridge_niced_with_its_prefs_in_the_state_dir(tmp_path: Path) -> None:
    argv = gnubg_argv(Path("/usr/games/gnubg"), tmp_path, nice=10)
    assert argv[-8:] == [
        "/usr/games/gnubg",
        "-t",
        "-q",
        "-r",
        "-s",
        str(tmp_path),
        "-p",
        str(BRIDGE),
    ]
    assert argv[1:3] == ["-n", "10"]
    assert gnubg_argv(Path("/usr/games/gnubg"), tmp_path, nice=0)[0] == "/usr/games/gnubg"
    env = clean_env(str(tmp_path))
    assert env["HOME"] == str(tmp_path)
    assert "DISPLAY" not in env
    assert env["LC_ALL"] == "C.UTF-8"
    assert BRIDGE.is_file()
    assert os.access(BRIDGE, os.R_OK)
