"""``tavla-pi review``: a journal or a match file reviewed by gnubg, as a report or JSON; every
refusal (exit 2), gnubg missing (exit 2) or failing (exit 1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from programs import needs
from review_support import LAST_CHECKER, SHORT_GAME, short_game_events

from tavla_pi.cli import main
from tavla_pi.cli import review as review_cli
from tavla_pi.engine import find_gnubg
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, Journal
from tavla_pi.export import format_match, record_match

GNUBG = find_gnubg()
NO_GNUBG = needs("gnubg")


def live(test: Callable[..., None]) -> Callable[..., None]:
    """A test on the real gnubg: skipped without it, and slow (gnubg starts each time)."""
    marked: Callable[..., None] = pytest.mark.slow(NO_GNUBG(test))
    return marked


def journal_of(state: Path, events: list[Event]) -> Path:
    with Journal.open(state) as journal:
        journal.append(events)
    return state / JOURNAL_NAME


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """A state directory whose match has two games: the short game twice."""
    journal_of(tmp_path, short_game_events(*SHORT_GAME))
    return tmp_path


@live
def test_the_current_match_is_reported(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("GNU Backgammon's review of the match of ")
    assert "rating          Awful!        Awful!" in out
    assert "The 5 most costly decisions:" in out
    assert " 1. game 1, White, cube: drop; better take (-1.307)" in out
    assert "White, 3-1: 24/20; better 8/5 6/5" in out


@live
def test_one_game_as_json(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--state-dir", str(state), "--game", "2", "--json"]) == 0
    fields = json.loads(capsys.readouterr().out)
    assert fields["game"] == 2 and set(fields) == {"game", "white", "black", "costly"}
    assert [d["game"] for d in fields["costly"]] == [2, 2, 2]
    assert fields["white"]["chequer"]["decisions"] == 1


@live
def test_a_match_file_and_an_archived_journal(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    mat = tmp_path / "short.MAT"
    mat.write_text(format_match(record_match(short_game_events(), str)))
    assert main(["review", str(mat), "--state-dir", str(tmp_path), "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    archived = journal_of(tmp_path / "other", short_game_events())
    assert main(["review", str(archived), "--state-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_file
    assert from_file["game"] is None and len(from_file["costly"]) == 3


@pytest.mark.parametrize(("args", "error"), [
    (["nowhere.jsonl"], "nowhere.jsonl: no such file"),
    (["--game", "3"], "--game: game 3 cannot be reviewed: the match has no such finished game"),
    (["--level", "grandmaster"], "--level: unknown level 'grandmaster'"),
])
def test_bad_input_exits_2(state: Path, args: list[str], error: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--state-dir", str(state), *args]) == 2
    assert error in capsys.readouterr().err


def test_games_that_cannot_be_reviewed_exit_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    loaded = journal_of(tmp_path / "loaded", short_game_events(*LAST_CHECKER))
    assert main(["review", str(loaded), "--game", "2"]) == 2
    assert "game 2 cannot be reviewed: its event 1: game_started: the game starts from a" in (
        capsys.readouterr().err)
    unfinished = journal_of(tmp_path / "unfinished", short_game_events()[:3])
    assert main(["review", str(unfinished)]) == 2
    assert "holds no finished game to review" in capsys.readouterr().err
    empty = tmp_path / "empty.mat"
    empty.write_text("; nothing\n")
    assert main(["review", str(empty)]) == 2
    assert "holds no game (not a match file?)" in capsys.readouterr().err


def test_without_gnubg_it_says_how_to_install_it(state: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(review_cli, "find_gnubg", lambda: None)
    assert main(["review", "--state-dir", str(state)]) == 2
    assert capsys.readouterr().err == (
        "tavla-pi: review: GNU Backgammon is not installed: install gnubg (apt install gnubg)\n")


def test_a_gnubg_that_fails_exits_1(state: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(review_cli, "find_gnubg", lambda: Path("/bin/false"))
    assert main(["review", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tavla-pi: the review of the match failed: ") and "exit status 1" in err
