"""A state directory in a bad way.

Each fault of the state directory is one clear line at start-up and exit
status 1, as docs/OPERATING.md says (a journal that fails at run time is status 1
too: tests/test_daemon_core.py); no symbolic link is followed out of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from journal_support import direct_match

from tavla_pi.cli import main
from tavla_pi.config import Config
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.startup import open_daemon
from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.events.event import Event
from tavla_pi.events.journal import ARCHIVE_DIR, JOURNAL_NAME, LOCK_NAME, Journal, encode
from tavla_pi.events.types import EventType
from tavla_pi.testing.daemon import reset_logging

START = Event(EventType.GAME_STARTED, 0,
              {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"})


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield
    reset_logging()


def start(state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``tavla-pi run --backend sim`` on ``state``: its status and stderr (it fails to start)."""
    config = state.parent / "config.toml"
    config.write_text("")
    status = main(["run", "--backend", "sim", "--config", str(config), "--state-dir",
                   str(state), "--http", "127.0.0.1:0"])
    return status, capsys.readouterr().err


def matches_a_file(state: Path, outside: Path) -> str:
    (state / ARCHIVE_DIR).write_text("")
    return f"{state / ARCHIVE_DIR}: is not a directory (it holds the finished matches)"


def dangling_journal_link(state: Path, outside: Path) -> str:
    (state / JOURNAL_NAME).symlink_to(outside / "journal.jsonl")
    return f"{state / JOURNAL_NAME}: is a symbolic link, which is not followed"


def journal_link_to_a_file(state: Path, outside: Path) -> str:
    (outside / "elsewhere.jsonl").write_bytes(encode(START))
    (state / JOURNAL_NAME).symlink_to(outside / "elsewhere.jsonl")
    return f"{state / JOURNAL_NAME}: is a symbolic link, which is not followed"


def lock_link(state: Path, outside: Path) -> str:
    (state / LOCK_NAME).symlink_to(outside / "journal.lock")
    return f"{state / LOCK_NAME}: is a symbolic link, which is not followed"


def matches_link(state: Path, outside: Path) -> str:
    (state / ARCHIVE_DIR).symlink_to(outside)
    return f"{state / ARCHIVE_DIR}: is a symbolic link, which is not followed"


def journal_a_directory(state: Path, outside: Path) -> str:
    (state / JOURNAL_NAME).mkdir()
    return f"{state / JOURNAL_NAME}: is a directory, not a journal file"


FAULTS: list[Callable[[Path, Path], str]] = [
    matches_a_file, dangling_journal_link, journal_link_to_a_file, lock_link, matches_link,
    journal_a_directory,
]


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.__name__)
def test_a_state_directory_fault_is_one_line_and_status_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        fault: Callable[[Path, Path], str]) -> None:
    state, outside = tmp_path / "state", tmp_path / "outside"
    state.mkdir()
    outside.mkdir()
    said = fault(state, outside)
    before = sorted(p.name for p in outside.iterdir())
    for _ in range(2):  # a failed start leaves nothing behind to fail on next time
        status, err = start(state, capsys)
        assert (status, err.count("\n")) == (1, 1), err
        assert err.startswith(f"tavla-pi: {said}"), err
    assert sorted(p.name for p in outside.iterdir()) == before  # nothing made outside
    assert not list(state.glob("journal.corrupt-*")) and not list(state.glob("*.tmp"))


def test_a_deleted_journal_is_said_and_a_new_match_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, "tavla_pi"):
        open_daemon(Config(backend="sim"), tmp_path, Notifier(None), gnubg=None).close()
    assert journal_lines(caplog) == [
        ("INFO", f"journal: {tmp_path / JOURNAL_NAME} holds no events: a new match starts")]
    (tmp_path / JOURNAL_NAME).write_bytes(encode(START))
    (tmp_path / JOURNAL_NAME).unlink()
    caplog.clear()
    with caplog.at_level(logging.INFO, "tavla_pi"):
        open_daemon(Config(backend="sim"), tmp_path, Notifier(None), gnubg=None).close()
    assert journal_lines(caplog) == [
        ("WARNING", f"journal: {tmp_path / JOURNAL_NAME}: missing, though this state "
                    "directory has been used (deleted?): a new match starts"),
        ("INFO", f"journal: {tmp_path / JOURNAL_NAME} holds no events: a new match starts")]


def journal_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """What the log said besides its one line that gnubg is not installed (gnubg=None)."""
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    gnubg = ("INFO", f"no computer opponent, no hints and no reviews: {NOT_INSTALLED}")
    assert said.count(gnubg) == 1
    return [line for line in said if line != gnubg]


def test_export_lists_the_finished_matches_when_the_journal_is_a_directory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = direct_match(1, 1, games=1)
    with Journal.open(tmp_path) as journal:
        journal.append([Event(EventType.NEW_MATCH, 0, {"match_length": 1}), *match.events,
                        Event(EventType.NEW_MATCH, match.events[-1].t, {"match_length": 1})])
    (tmp_path / JOURNAL_NAME).unlink()
    (tmp_path / JOURNAL_NAME).mkdir()
    assert main(["export", "--list", "--state-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1].split()[:4] == ["1", "1", "pt", "1"]
    assert err == (f"tavla-pi: warning: {tmp_path / JOURNAL_NAME}: is a directory, "
                   "not a journal file (left out)\n")


