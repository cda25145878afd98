"""gnubg's review of finished games: on the real gnubg (skipped where it is absent), and
every way it can fail on the fake (tests/fake_gnubg.py).

* The short game of tests/review_support.py (24/20 for 8/5 6/5, a double at the
  start, dropped): exactly its three costly decisions, the better play and
  action each, and the figures of gnubg's statistics.
* Matches of random play: each player's chequer and cube errors as gnubg
  totals them are the sums of the losses of that player's decisions as the
  review lists them (all of them), so the costly five are the right five;
  the review of one game holds that game's decisions only.
* The fake dying, hanging, refusing, answering nonsense, stopped mid-review:
  one EngineError each, naming what failed.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from journal_support import direct_match
from programs import needs
from review_support import short_game_events

from tavla_pi.engine import GnubgReviewer, Level, Review, ReviewRequest, find_gnubg
from tavla_pi.engine.review import RATINGS
from tavla_pi.errors import EngineError
from tavla_pi.export import format_match, record_match
from tavla_pi.rules import Color, MatchState, Position

GNUBG = find_gnubg()
FAKE = Path(__file__).with_name("fake_gnubg.py")
NO_GNUBG = needs("gnubg")


def live(test: Callable[..., None]) -> Callable[..., None]:
    """A test on the real gnubg: skipped without it, and slow (gnubg starts each time)."""
    marked: Callable[..., None] = pytest.mark.slow(NO_GNUBG(test))
    return marked


def mat_of(events: Any) -> str:
    return format_match(record_match(list(events), str))


@pytest.fixture(scope="module")
def gnubg_reviewer(tmp_path_factory: pytest.TempPathFactory) -> GnubgReviewer:
    assert GNUBG is not None
    return GnubgReviewer.launch(tmp_path_factory.mktemp("prefs"), GNUBG)


def fake_reviewer(state: Path, timeout_s: float = 10.0, **config: Any) -> GnubgReviewer:
    """A reviewer whose gnubg is the fake, told to behave as ``config`` says."""
    argv = [sys.executable, str(FAKE), json.dumps({"state": str(state), **config})]
    return GnubgReviewer(argv, timeout_s=timeout_s, start_timeout_s=10.0)


# -- the real gnubg ----------------------------------------------------------------------------


@live
def test_the_short_game_has_its_three_costly_decisions(gnubg_reviewer: GnubgReviewer) -> None:
    review = gnubg_reviewer.review(ReviewRequest(mat_of(short_game_events()), game=1))
    found = [(d.player, d.kind, d.played, d.best) for d in review.costly]
    assert found == [(Color.WHITE, "cube", "drop", "take"),
                     (Color.BLACK, "cube", "double", "no double"),
                     (Color.WHITE, "move", "24/20", "8/5 6/5")]
    drop, double, play = review.costly
    assert drop.loss > double.loss > play.loss > 0.05
    assert play.dice == (3, 1) and drop.dice is None
    assert Position.from_position_id(play.position_id) == Position.initial()
    assert MatchState.from_match_id(play.match_id) == MatchState(dice=(3, 1))
    assert MatchState.from_match_id(drop.match_id).double_offered
    assert drop.board.as_dict()["white"] == {"6": 5, "8": 3, "13": 5, "20": 1, "24": 1}
    white, black = review.white, review.black
    assert (white.chequer.count, white.chequer.decisions) == (1, 1)
    assert white.chequer.total == pytest.approx(play.loss)
    assert (white.cube.count, white.cube.decisions) == (1, 1)
    assert white.cube.total == pytest.approx(drop.loss)
    assert (black.chequer.decisions, black.cube.count) == (0, 1)
    assert white.error_rate == pytest.approx(1000 * (play.loss + drop.loss) / 2)
    assert white.rating == black.rating == RATINGS[0]  # gnubg's "Awful!"
    assert review.to_json()["costly"][2]["played"] == "24/20"


def random_match_file() -> str:
    match = direct_match(7, 5, games=4, doubles=0.1, takes=0.6)
    return mat_of(match.events)


@live
def test_each_players_errors_are_the_sum_of_the_listed_losses(
        gnubg_reviewer: GnubgReviewer) -> None:
    mat = random_match_file()
    everything = gnubg_reviewer.review(ReviewRequest(mat, costly=10_000))
    for color, player in ((Color.WHITE, everything.white), (Color.BLACK, everything.black)):
        mine = [d for d in everything.costly if d.player is color]
        moves = sum(d.loss for d in mine if d.kind == "move")
        cube = sum(d.loss for d in mine if d.kind == "cube")
        assert moves == pytest.approx(player.chequer.total, abs=1e-4)
        assert cube == pytest.approx(player.cube.total, abs=1e-4)
    losses = [d.loss for d in everything.costly]
    assert losses == sorted(losses, reverse=True) and min(losses) > 0
    five = gnubg_reviewer.review(ReviewRequest(mat))
    assert five.costly == everything.costly[:5] and five.game is None
    assert {d.game for d in everything.costly} == set(range(1, ReviewRequest(mat).games + 1))


@live
def test_the_review_of_one_game_is_that_games(gnubg_reviewer: GnubgReviewer) -> None:
    mat = random_match_file()
    everything = gnubg_reviewer.review(ReviewRequest(mat, costly=10_000))
    first = gnubg_reviewer.review(ReviewRequest(mat, game=1, costly=10_000))
    assert first.game == 1
    assert first.costly == tuple(d for d in everything.costly if d.game == 1)
    assert first.white.chequer.total < everything.white.chequer.total


@live
def test_a_stronger_level_is_asked_for_by_name(gnubg_reviewer: GnubgReviewer) -> None:
    mat = mat_of(short_game_events())
    expert = gnubg_reviewer.review(ReviewRequest(mat, 1, Level.EXPERT))
    world = gnubg_reviewer.review(ReviewRequest(mat, 1, Level.WORLD_CLASS))
    assert [d.best for d in world.costly] == [d.best for d in expert.costly]
    assert world.white.cube.total != expert.white.cube.total  # 2-ply judges otherwise


UNFINISHED = " 3 point match\n\n Game 1\n White : 0          Black : 0\n  1) 31: 8/5 6/5\n"


@live
@pytest.mark.parametrize(("text", "error"), [
    (UNFINISHED, "could not read game 1 of the match file to its end"),
    (UNFINISHED.replace("point match", "points, maybe"), "read 0 of the 1 games"),
])
def test_a_file_gnubg_cannot_read_is_an_error(gnubg_reviewer: GnubgReviewer, text: str,
                                              error: str) -> None:
    with pytest.raises(EngineError, match=f"gnubg could not review game 1: ValueError: .*{error}"):
        gnubg_reviewer.review(ReviewRequest(text, game=1))


# -- the fake: every failure ------------------------------------------------------------------


def test_the_fakes_review_is_read_into_values(tmp_path: Path) -> None:
    review = fake_reviewer(tmp_path).review(ReviewRequest(mat_of(short_game_events()), 1))
    assert isinstance(review, Review) and review.game == 1
    assert review.white.rating == "Beginner" and review.white.error_rate == 125.0
    (double,) = review.costly
    assert (double.player, double.played, double.best, double.loss) == (
        Color.BLACK, "double", "no double", 0.5)
    sent = json.loads((tmp_path / "requests.jsonl").read_text().splitlines()[0])
    assert (sent["op"], sent["game"], sent["games"], sent["n"]) == ("review", 1, 1, 5)
    assert sent["eval"]["plies"] == 0 and sent["jacoby"] is False


@pytest.mark.parametrize(("config", "error"), [
    ({"die": {"review": 1}}, r"the review of game 1 failed: .*killed by signal 9"),
    ({"hang": {"review": 1}}, r"the review of game 1 failed: .*no answer within 0.5 s"),
    ({"no_hello": True}, r"the review of game 1 failed: .*no answer within 0.5 s while starting"),
    ({"refuse": ["review"]}, r"gnubg could not review game 1: ValueError: refusing review"),
    ({"wrong_id": True}, r"the review of game 1 failed: .*sent answer 2"),
    ({"answers": {"review": {"players": [{}]}}}, r"gnubg's review has 1 players"),
    ({"answers": {"review": {"costly": [{"kind": "move", "player": 0}]}}}, r"no usable"),
    ({"answers": {"review": {"costly": [{
        "game": 1, "player": 0, "kind": "move", "position_id": "4HPwATDgc/ABMA",
        "match_id": "cAkAAAAAAAAE", "dice": [3, 1], "played": "4HPwATDgc/ABMA",
        "best": "4HPwATDgc/ABMA", "loss": 0.1}]}}}, r"not a legal play of 3-1"),
])
def test_a_review_that_fails_is_one_error_naming_what_failed(
        tmp_path: Path, config: dict[str, Any], error: str) -> None:
    reviewer = fake_reviewer(tmp_path, timeout_s=0.5, **config)
    reviewer.start_timeout_s = 0.5
    with pytest.raises(EngineError, match=error):
        reviewer.review(ReviewRequest(mat_of(short_game_events()), 1))


def test_a_review_is_stopped_from_another_thread(tmp_path: Path) -> None:
    reviewer = fake_reviewer(tmp_path, timeout_s=30.0, hang={"review": 1})
    failed: list[Exception] = []

    def review() -> None:
        try:
            reviewer.review(ReviewRequest(mat_of(short_game_events()), 1))
        except EngineError as exc:
            failed.append(exc)

    worker = threading.Thread(target=review)
    worker.start()
    assert reviewer.thinking.wait(10)
    reviewer.stop()
    worker.join(10)
    assert not worker.is_alive()
    assert failed and "killed by signal 9" in str(failed[0])


def test_a_game_the_file_does_not_hold_is_refused_before_gnubg_runs(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match=r"no game 2 \(1\.\.1\)"):
        fake_reviewer(tmp_path).review(ReviewRequest(mat_of(short_game_events()), 2))
    assert not (tmp_path / "starts").exists()


def test_without_gnubg_the_reviewer_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match=r"install gnubg \(apt install gnubg\)"):
        GnubgReviewer.launch(tmp_path, program=None, search_path=str(tmp_path))
