"""Hints and the blunder warning with the real GNU Backgammon (skipped where it is absent).

The expected plays and equities are the engine's own ranking of every legal
play (tests/test_engine_gnubg.py checks that ranking against gnubg's own
``hint``); the coach must light the best of them and measure a blunder's loss
against it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from coach_support import START, coached, hold, of_type, opponent
from game_support import dice, move, press
from programs import needs

from tavla_pi.engine import EngineRequest, GnubgEngine, RankedPlay
from tavla_pi.game.coach import play_steps
from tavla_pi.rules import MatchState, Position
from tavla_pi.rules.color import Color

pytestmark = needs("gnubg")

OPENING = (*START, dice(3, 1), press("white.roll"))
COACHED = ("hint", "blunder_warning", "played", "rejected")


@pytest.fixture
def gnubg(tmp_path: Path) -> Iterator[GnubgEngine]:
    """A gnubg of its own (the background front closes it at the end of the run)."""
    engine = GnubgEngine.launch(tmp_path / "gnubg")
    yield engine
    engine.close()


def ranking(tmp_path: Path) -> list[RankedPlay]:
    """gnubg's ranking of every play of White's opening 3-1, best first, asked directly."""
    engine = GnubgEngine.launch(tmp_path / "oracle")
    try:
        start = Position.initial()
        request = EngineRequest(start, MatchState(dice=(3, 1)))
        return engine.hint(request, len(start.legal_plays((3, 1))))
    finally:
        engine.close()


def test_a_long_cube_lights_gnubgs_best_play_and_lists_its_five_best(
        gnubg: GnubgEngine, tmp_path: Path) -> None:
    expected = ranking(tmp_path)
    with coached(gnubg, opponent(None)) as run:
        events = run.play(*OPENING, hold("white.cube"))
        hints = of_type(events, *COACHED)
        assert [h["type"] for h in hints] == ["hint"]
        plays = hints[0]["plays"]
        assert [(p["play"], p["equity"]) for p in plays] == [
            (r.play.notation, round(r.equity, 4)) for r in expected[:5]]
        best = expected[0].play
        assert plays[0]["position_id"] == best.result.position_id()
        assert run.runner.referee.view().suggested == play_steps(best, Color.WHITE)
        source, target = play_steps(best, Color.WHITE)[0]
        assert run.lit(f"point.{source}", 100) and run.lit(f"point.{target}", 600)


def test_a_blunder_is_measured_against_gnubgs_best_and_a_second_done_plays_it(
        gnubg: GnubgEngine, tmp_path: Path) -> None:
    expected = {r.play.notation: r.equity for r in ranking(tmp_path)}
    best = next(iter(expected))
    loss = expected[best] - expected["13/9"]
    assert loss > 0.08  # 13/9 is a blunder by gnubg's own figures
    with coached(gnubg, opponent(Color.BLACK)) as run:
        events = run.play(*OPENING, move("13/9", "white"), press("white.roll"))
        assert of_type(events, *COACHED) == [{
            "type": "blunder_warning", "player": "white", "play": "13/9", "best": best,
            "loss": round(loss, 4)}]
        board_best = next(p for p in Position.initial().legal_plays((3, 1))
                          if p.notation == best)
        assert run.runner.referee.view().suggested == play_steps(board_best, Color.WHITE)
        events = run.play(press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", "13/9")]


def test_gnubgs_best_play_commits_at_once(gnubg: GnubgEngine, tmp_path: Path) -> None:
    best = ranking(tmp_path)[0].play
    source_moves = [move(f"{a}/{b}", "white") for a, b in play_steps(best, Color.WHITE)]
    with coached(gnubg, opponent(Color.BLACK)) as run:
        events = run.play(*OPENING, *source_moves, press("white.roll"))
        assert [(e["type"], e.get("play")) for e in of_type(events, *COACHED)] == [
            ("played", best.notation)]
