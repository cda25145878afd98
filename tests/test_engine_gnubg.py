"""The engine on the real GNU Backgammon (skipped where /usr/games/gnubg is absent; CI has it).

* Plays: at level expert the engine's play for positions of
  tests/fixtures/movegen.jsonl must be the best play of gnubg's own ``hint``
  at 0-ply, asked by a separate gnubg run that sets the board and dice by
  hand (not through the bridge).  The dice are set larger first, as gnubg
  records a roll (and as a Match ID holds it): gnubg breaks an exact tie
  between plays by the order it generated them in, which follows the dice.
* Cube, take and resignation answers, and the computer's own resignations,
  in positions where the right answer is not in doubt, and where the rules
  told to gnubg change it: Jacoby on and off, beavers on and off, a
  post-Crawford score.
* gnubg killed with SIGKILL in the middle of a decision: restarted, asked
  again, and the same answer.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from programs import needs

from tavla_pi.clock import VirtualClock
from tavla_pi.engine import (
    BackgroundEngine,
    CubeAction,
    EngineRequest,
    GnubgEngine,
    Level,
    ResignAnswer,
    TakeDecision,
    find_gnubg,
    wire,
)
from tavla_pi.rules import Color, MatchRules, MatchState, Position, Resignation

GNUBG = find_gnubg()
FIXTURE = Path(__file__).parent / "fixtures" / "movegen.jsonl"
SAMPLE_EVERY = 4  # every fourth case of the fixture, those with a legal play

pytestmark = needs("gnubg")

ORACLE = """
import json, os
import gnubg

for command in ("set player 0 human", "set player 1 human", "set display off",
                "set jacoby off", "new session",
                "set evaluation chequerplay evaluation plies 0",
                "set evaluation chequerplay evaluation cubeful on",
                "set evaluation chequerplay evaluation prune off",
                "set evaluation chequerplay evaluation noise 0"):
    gnubg.command(command)
best = []
for case in json.load(open(os.environ["JOBS"])):
    gnubg.command("set board " + case["position_id"])
    gnubg.command("set dice %d %d" % (max(case["dice"]), min(case["dice"])))
    move = gnubg.hint(1)["hint"][0]["move"]
    opp, me = [list(side) for side in gnubg.board()]
    for src, dst in gnubg.parsemove(move):
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    best.append(gnubg.positionid((me, opp)))
json.dump(best, open(os.environ["OUT"], "w"))
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One gnubg for the module, its preferences in a temporary folder."""
    gnubg = GnubgEngine.launch(tmp_path_factory.mktemp("gnubg-prefs"))
    gnubg.start()
    assert gnubg.supervisor.banner.startswith("GNU Backgammon")
    yield gnubg
    gnubg.close()


def side(points: dict[int, int]) -> list[int]:
    """25 counts from {point: checkers} (25 is the bar)."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return counts


def position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from the points of the player on roll and of the opponent."""
    return Position(side(mine), side(theirs))


def oracle_best(cases: list[dict[str, Any]], tmp_path: Path) -> list[str]:
    """gnubg's 0-ply best play (its result Position ID) for each case, by a separate run."""
    assert GNUBG is not None
    script, jobs, out = tmp_path / "oracle.py", tmp_path / "jobs.json", tmp_path / "out.json"
    script.write_text(ORACLE)
    jobs.write_text(json.dumps(cases))
    env = {**os.environ, "JOBS": str(jobs), "OUT": str(out), "HOME": str(tmp_path)}
    cmd = [str(GNUBG), "-t", "-q", "-r", "-s", str(tmp_path), "-p", str(script)]
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    best: list[str] = json.loads(out.read_text())
    return best


def playable_cases() -> list[dict[str, Any]]:
    """A sample of the fixture's cases that have a legal play."""
    with FIXTURE.open(encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    return [case for case in cases[::SAMPLE_EVERY] if case["results"]]


# -- chequer play --------------------------------------------------------------------------


@pytest.mark.slow
def test_expert_plays_gnubgs_own_best_hint_at_0_ply(engine: GnubgEngine, tmp_path: Path) -> None:
    cases = playable_cases()
    expected = oracle_best(cases, tmp_path)
    wrong = []
    for case, best in zip(cases, expected, strict=True):
        dice = (case["dice"][0], case["dice"][1])
        request = EngineRequest(
            Position.from_position_id(case["position_id"]), MatchState(dice=dice)
        )
        play = engine.play(request).play
        assert play is not None
        if play.result.position_id() != best:
            wrong.append(f"{case['position_id']} {dice}: engine {play.notation}, gnubg {best}")
    assert not wrong, f"{len(wrong)} of {len(cases)} differ: " + "; ".join(wrong[:5])
    assert len(cases) >= 400


def test_every_level_answers_a_legal_play_with_its_own_settings(engine: GnubgEngine) -> None:
    start = Position.initial()
    for level in Level:
        request = EngineRequest(start, MatchState(dice=(6, 4)), level=level, seed=7)
        answer = engine.play(request)
        assert answer.play in start.legal_plays((6, 4))
        assert engine.play(request) == answer  # noise is gnubg's deterministic kind
    hints = engine.hint(EngineRequest(start, MatchState(dice=(6, 4))), 5)
    assert len(hints) == 5
    assert [h.equity for h in hints] == sorted((h.equity for h in hints), reverse=True)


def test_a_roll_that_cannot_be_played_is_answered_without_gnubg(engine: GnubgEngine) -> None:
    dance = Position(side({25: 1, 13: 14}), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}))
    assert engine.play(EngineRequest(dance, MatchState(dice=(6, 6)))).play is None


# -- cube, take, resignation ----------------------------------------------------------------

# The player on roll has borne in and the opponent still has all fifteen at home
# points far back: a gammon is likely, so with the Jacoby rule off gnubg plays on
# ("too good to double"); with Jacoby on, gammons do not count before a double.
RACE = position({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {24: 2, 13: 5, 8: 3, 6: 5})
# The player on roll is hopeless: the opponent bears off its last checker next roll.
HOPELESS = position({6: 5, 8: 3, 13: 5, 12: 2}, {1: 1})


def money(*, jacoby: bool = False, **fields: Any) -> MatchState:
    """A money game state (the Match ID carries the Jacoby flag)."""
    return MatchState(jacoby=jacoby, **fields)


def test_jacoby_is_told_to_gnubg(engine: GnubgEngine) -> None:
    off = EngineRequest(RACE, money(jacoby=False), MatchRules(jacoby=False))
    on = EngineRequest(RACE, money(jacoby=True), MatchRules(jacoby=True))
    assert engine.cube_action(off) is CubeAction.NO_DOUBLE
    assert engine.cube_action(on) is CubeAction.DOUBLE
    assert engine.evaluate(off).advice == "Too good to double, pass"
    assert engine.evaluate(on).advice == "Double, pass"
    assert engine.evaluate(on).no_double < engine.evaluate(off).no_double


def test_no_double_at_the_start_and_a_drop_when_doubled_in_a_lost_race(engine: GnubgEngine) -> None:
    assert engine.cube_action(EngineRequest(Position.initial(), money())) is CubeAction.NO_DOUBLE
    doubled = money(jacoby=True, double_offered=True, to_act=Color.BLACK)
    assert engine.take_decision(EngineRequest(RACE, doubled)) is TakeDecision.DROP


def test_beavers_are_told_to_gnubg(engine: GnubgEngine) -> None:
    # White doubles at the start: a mistake Black takes, or beavers when it may.
    doubled = money(double_offered=True, to_act=Color.BLACK)
    plain = EngineRequest(Position.initial(), doubled, MatchRules(beavers=False))
    beavers = EngineRequest(Position.initial(), doubled, MatchRules(beavers=True))
    assert engine.take_decision(plain) is TakeDecision.TAKE
    assert engine.take_decision(beavers) is TakeDecision.BEAVER
    # The computer (White) doubled, the human beavered: White takes the beaver.
    beavered = money(cube=2, cube_owner=Color.BLACK, double_offered=True)
    answer = engine.take_decision(
        EngineRequest(Position.initial(), beavered, MatchRules(beavers=True))
    )
    assert answer is TakeDecision.TAKE


def test_the_score_is_told_to_gnubg(engine: GnubgEngine) -> None:
    # Post-Crawford, the trailer doubles at once; at 0-0 nobody doubles the start.
    trailing = MatchState(match_length=5, score=(2, 4))
    level = MatchState(match_length=5, score=(0, 0))
    assert engine.cube_action(EngineRequest(Position.initial(), trailing)) is CubeAction.DOUBLE
    assert engine.cube_action(EngineRequest(Position.initial(), level)) is CubeAction.NO_DOUBLE


def test_a_hopeless_computer_does_not_double_after_gnubg_offers_to_resign(
    engine: GnubgEngine,
) -> None:
    answer = engine.supervisor.call(
        {"op": "double", **_context(EngineRequest(HOPELESS, money()))}, engine.timeout_s
    )
    assert (answer["double"], answer["resign"]) == (False, 2)  # it would resign a gammon


def test_resignation_answers(engine: GnubgEngine) -> None:
    # White is hopeless and resigns to Black (the computer): a single is declined
    # (Black wins a gammon), a gammon accepted.
    for points, expected in (
        (Resignation.SINGLE, ResignAnswer.DECLINE),
        (Resignation.GAMMON, ResignAnswer.ACCEPT),
        (Resignation.BACKGAMMON, ResignAnswer.ACCEPT),
    ):
        offered = money(resignation=points, to_act=Color.BLACK)
        assert engine.resign_answer(EngineRequest(HOPELESS, offered)) is expected, points
        rolled = offered.replace(dice=(6, 6))  # resigning after the roll: the same
        assert engine.resign_answer(EngineRequest(HOPELESS, rolled)) is expected, points
    # A single resignation at the start is a free point for Black.
    offered = money(resignation=Resignation.SINGLE, to_act=Color.BLACK)
    assert engine.resign_answer(EngineRequest(Position.initial(), offered)) is ResignAnswer.ACCEPT


# The computer's own resignation (the bridge's ``offer``: gnubg's computer player acts
# before its roll).  ComputerTurn considers it out of contact only, decided by
# getResignation at 0 plies whatever the level, and offers the most it is sure to lose;
# under the Jacoby rule with a centred money cube getResignation offers a single instead.
# In each position the player on roll cannot win: the opponent bears off its last checker.
LOST_SINGLE = position({20: 1, 21: 1}, {1: 1})               # 13 off: a single
LOST_BACKGAMMON = position({23: 5, 13: 10}, {1: 1})          # five stuck in its home board
WINNING = position({1: 2, 2: 2}, {6: 5, 8: 3, 10: 5, 12: 2})


@pytest.mark.parametrize(("where", "state", "expected"), [
    (LOST_SINGLE, money(), Resignation.SINGLE),
    (HOPELESS, money(), Resignation.GAMMON),
    (LOST_BACKGAMMON, money(), Resignation.BACKGAMMON),
    (LOST_BACKGAMMON, money(on_roll=Color.BLACK, to_act=Color.BLACK), Resignation.BACKGAMMON),
    (LOST_BACKGAMMON, money(jacoby=True), Resignation.SINGLE),
    (HOPELESS, money(jacoby=True, cube=2, cube_owner=Color.BLACK), Resignation.GAMMON),
    (HOPELESS, MatchState(match_length=5, score=(3, 4), cube=2, cube_owner=Color.WHITE),
     Resignation.GAMMON),
    (WINNING, money(), Resignation.NONE),
    (Position.initial(), money(), Resignation.NONE),  # contact: gnubg is not asked
])
def test_the_computer_resigns_as_gnubgs_computer_player(
        engine: GnubgEngine, where: Position, state: MatchState, expected: Resignation) -> None:
    rules = MatchRules(jacoby=state.jacoby)
    assert engine.resign_offer(EngineRequest(where, state, rules)) is expected
    if expected:  # the level does not change it
        for level in (Level.BEGINNER, Level.WORLD_CLASS):
            assert engine.resign_offer(EngineRequest(where, state, rules, level)) is expected


def _context(request: EngineRequest) -> dict[str, Any]:
    return wire.context(request, request.state, request.state.on_roll)


# -- killed in the middle of a decision ----------------------------------------------------


@pytest.mark.slow
def test_gnubg_killed_mid_decision_is_restarted_and_gives_the_same_play(
    tmp_path: Path,
) -> None:
    engine = GnubgEngine.launch(tmp_path / "prefs")
    background = BackgroundEngine(engine, VirtualClock())
    request = EngineRequest(Position.initial(), MatchState(dice=(5, 5)), level=Level.WORLD_CLASS)
    try:
        assert background.start().wait(60)
        first_pid = engine.supervisor.pid
        assert first_pid is not None
        job = background.play(request)
        assert engine.supervisor.thinking.wait(30), "the request never went out"
        os.kill(first_pid, signal.SIGKILL)
        assert background.poll(job) is None or engine.supervisor.restarts == 1
        assert job.wait(60)
        answer = background.poll(job)
        assert answer is not None and answer.play is not None
        assert engine.supervisor.restarts == 1
        assert engine.supervisor.pid != first_pid
        assert engine.play(request) == answer
    finally:
        background.close()
