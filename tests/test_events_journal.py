"""The journal: durable appends, recovery from torn and damaged files, the match archive."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal_support import direct_match

from tavla_pi.errors import BadInputError, JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.history import journal_files, read_history
from tavla_pi.events.journal import JOURNAL_NAME, Journal, archive_files, encode
from tavla_pi.events.scan import MAX_LINE_BYTES, scan_file
from tavla_pi.events.types import EventType, UnknownType
from tavla_pi.game.restore import restore

ROLL = Event(EventType.ROLLED, 10, {"player": "white", "dice": [3, 1]})
START = Event(EventType.GAME_STARTED, 0, {"position_id": "4HPwATDgc/ABMA",
                                          "match_id": "cAkAAAAAAAAA"})


def write(state: Path, *events: Event) -> Path:
    """A journal holding ``events``, written by the journal itself."""
    with Journal.open(state) as journal:
        journal.append(events)
    return state / JOURNAL_NAME


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_open_creates_the_directory_and_an_empty_journal(tmp_path: Path) -> None:
    state = tmp_path / "deep" / "state"
    with Journal.open(state) as journal:
        assert journal.events == []
        assert journal.warnings == []
    assert (state / JOURNAL_NAME).read_bytes() == b""


def test_appended_events_are_on_disk_before_append_returns(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append([START, ROLL])
        on_disk = (tmp_path / JOURNAL_NAME).read_bytes()  # another reader, journal still open
    assert on_disk == encode(START) + encode(ROLL)
    assert [json.loads(line)["type"] for line in on_disk.splitlines()] == ["game_started",
                                                                            "rolled"]


def test_events_read_back_equal_the_events_written(tmp_path: Path) -> None:
    match = direct_match(5, 3, games=2, doubles=0.2)
    write(tmp_path, *match.events)
    with Journal.open(tmp_path) as journal:
        assert journal.events == match.events
        assert journal.where(1) == f"{tmp_path / JOURNAL_NAME}:2"


def test_lines_are_ascii_json_whatever_the_fields_hold(tmp_path: Path) -> None:
    odd = Event(EventType.REJECTED, 3, {"player": "white", "reason": "zar \u00e7ift \ud800 \u2603"})
    path = write(tmp_path, odd)
    assert path.read_bytes().isascii()
    with Journal.open(tmp_path) as journal:
        assert journal.events == [odd]


@pytest.mark.parametrize("tail", [b'{"t": 12, "type": "rol', b"{", b"   ", b"\xff\xfe"])
def test_a_half_written_last_line_is_dropped_and_cut_off(tmp_path: Path, tail: bytes) -> None:
    path = write(tmp_path, START, ROLL)
    with path.open("ab") as out:
        out.write(tail)
    with Journal.open(tmp_path) as journal:
        assert journal.events == [START, ROLL]
        if tail.strip():
            assert journal.warnings == [
                f"{path}:3: a half-written last line was dropped "
                "(the power went off while writing?)"]
        journal.append([ROLL])
    assert path.read_bytes() == encode(START) + encode(ROLL) + encode(ROLL)
    assert not list(tmp_path.glob("journal.corrupt-*"))


def test_a_whole_last_event_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path, START)
    with path.open("ab") as out:
        out.write(encode(ROLL).rstrip(b"\n"))
    with Journal.open(tmp_path) as journal:
        assert journal.events == [START, ROLL]
        assert journal.warnings == []
        journal.append([ROLL])
    assert path.read_bytes() == encode(START) + encode(ROLL) + encode(ROLL)


DAMAGE = [
    (b"this is not json", "not valid JSON"),
    (b"\xc3\x28 not utf-8", "not UTF-8 text"),
    (b"[1, 2, 3]", "expected a JSON object"),
    (b'{"t": 5}', 'with a "type"'),
    (b'{"t": "soon", "type": "rolled"}', '"t": expected whole milliseconds'),
    (b'{"t": true, "type": "rolled"}', '"t": expected whole milliseconds'),
    (b'{"t": 5, "type": "rolled", "player": "white", "dice": [7, 1]}',
     'rolled: field "dice" has a wrong value: [7, 1]'),
    (b'{"t": 5, "type": "played", "player": "white", "dice": [3, 1]}',
     'played: field "play" is missing'),
    (b'{"t": 5, "type": "game_over", "winner": "white", "kind": "huge", "cube": 1, '
     b'"points": 1, "score": [1, 0]}', 'game_over: field "kind" has a wrong value'),
    (b"[" * 100_000 + b"]" * 100_000, f"line longer than {MAX_LINE_BYTES} bytes"),
    (b"[" * 30_000, "nested deeper than 32 levels"),
]


@pytest.mark.parametrize(("bad", "problem"), DAMAGE)
def test_a_damaged_line_is_left_out_and_the_file_kept_aside(tmp_path: Path, bad: bytes,
                                                          problem: str) -> None:
    path = write(tmp_path, START)
    with path.open("ab") as out:
        out.write(bad + b"\n" + encode(ROLL))
    damaged = path.read_bytes()
    with Journal.open(tmp_path) as journal:
        assert journal.events == [START, ROLL]
        first, summary = journal.warnings
        assert first.startswith(f"{path}:2: ")
        assert problem in first
        assert "\n" not in first
        kept = next(tmp_path.glob("journal.corrupt-*.jsonl"))
        assert summary == (f"{path}: 1 damaged line(s) left out; the file as found is kept "
                           f"as {kept.name}")
        assert journal.where(1) == f"{path}:2"
        journal.append([ROLL])
    assert kept.read_bytes() == damaged
    assert path.read_bytes() == encode(START) + encode(ROLL) + encode(ROLL)
    with Journal.open(tmp_path) as again:
        assert again.warnings == []


def test_every_good_line_survives_many_damaged_ones(tmp_path: Path) -> None:
    match = direct_match(9, 3, games=1)
    path = tmp_path / JOURNAL_NAME
    mixed = b"".join(encode(e) + (b"garbage\n" if i % 7 == 3 else b"")
                     for i, e in enumerate(match.events))
    path.write_bytes(mixed + b'{"t": 99, "ty')
    with Journal.open(tmp_path) as journal:
        assert journal.events == match.events
        assert sum("not valid JSON" in w for w in journal.warnings) == mixed.count(b"garbage")
        assert "half-written last line" in journal.warnings[-2]
        state = restore(journal.events, match.settings)
    assert state.match == match.referee.match


def test_unknown_event_types_are_kept(tmp_path: Path) -> None:
    future = Event(UnknownType("sparkle"), 4, {"colour": "gold", "n": [1, {"a": None}]})
    write(tmp_path, START, future)
    with Journal.open(tmp_path) as journal:
        assert journal.events == [START, future]
        assert journal.warnings == []


def test_a_directory_in_place_of_the_journal_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).mkdir()
    with pytest.raises(JournalError) as caught:
        Journal.open(tmp_path)
    assert str(caught.value) == f"{tmp_path / JOURNAL_NAME}: is a directory, not a journal file"
    assert isinstance(caught.value, BadInputError)


def test_a_file_in_place_of_the_state_directory_is_a_clear_error(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.write_text("oops")
    with pytest.raises(JournalError, match="is not a directory"):
        Journal.open(state)


def test_a_pipe_in_place_of_the_journal_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / JOURNAL_NAME)
    with pytest.raises(JournalError, match="is not a regular file"):
        Journal.open(tmp_path)


OPEN_AS_NOBODY = """
import os, sys
from pathlib import Path
from tavla_pi.errors import JournalError
from tavla_pi.events.journal import Journal
if os.geteuid() == 0:  # everything is imported: now become nobody
    os.setgid(65534)
    os.setuid(65534)
try:
    Journal.open(Path(sys.argv[1]))
except JournalError as exc:
    print(exc)
"""


def open_without_permission(state: Path) -> str:
    """Open the journal as a user who may not (nobody, when the tests run as root)."""
    done = subprocess.run([sys.executable, "-c", OPEN_AS_NOBODY, str(state)],
                          capture_output=True, text=True, timeout=60, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    return done.stdout.strip()


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory anyone may enter (pytest's own tmp_path is private to its user)."""
    folder = Path(tempfile.mkdtemp(prefix="tavla-journal-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def test_a_journal_without_read_permission_is_a_clear_error(shared_dir: Path) -> None:
    path = write(shared_dir, START)
    path.chmod(0o600)
    (shared_dir / "journal.lock").chmod(0o666)
    assert open_without_permission(shared_dir) == (
        f"{path}: cannot read the journal (Permission denied)")


def test_a_state_directory_without_write_permission_is_a_clear_error(shared_dir: Path) -> None:
    assert open_without_permission(shared_dir) == (
        f"{shared_dir / 'journal.lock'}: cannot open the lock file (Permission denied)")


def test_a_second_writer_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    first = Journal.open(tmp_path)
    with pytest.raises(JournalError, match="another tavla-pi is writing this journal"):
        Journal.open(tmp_path)
    first.close()
    first.close()  # safe twice
    with Journal.open(tmp_path) as second:
        second.append([START])


def test_appending_to_a_closed_journal_is_an_error(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.append([START])


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from tavla_pi.errors import JournalError
from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
journal = Journal.open(Path(sys.argv[1]))
limit = journal._size + 100
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    journal.append([Event(EventType.REJECTED, 1, {"player": "white", "reason": "x" * 300})])
except JournalError as exc:
    print(exc)
"""


def test_a_failed_write_is_a_clear_error_and_leaves_no_half_line(tmp_path: Path) -> None:
    path = write(tmp_path, START)
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path)], capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == f"{path}: cannot write (File too large)"
    assert path.read_bytes() == encode(START)


def test_a_new_match_after_a_game_archives_the_finished_match(tmp_path: Path) -> None:
    first = direct_match(1, 3, games=1)
    second = direct_match(2, 5, games=1)
    with Journal.open(tmp_path) as journal:
        journal.append(first.events)
        journal.append([Event(EventType.NEW_MATCH, 1, {"match_length": 5}), *second.events])
        assert journal.events[0].type == "new_match"
        assert journal.where(0) == f"{tmp_path / JOURNAL_NAME}:1"
    archived = archive_files(tmp_path)
    assert [p.name[:7] for p in archived] == ["000001-"]
    assert scan_file(archived[0]).events == first.events
    assert journal_files(tmp_path) == [*archived, tmp_path / JOURNAL_NAME]
    with Journal.open(tmp_path) as journal:
        assert journal.events[1:] == second.events
        assert restore(journal.events, second.settings).match == second.referee.match


def test_a_new_match_without_a_game_keeps_the_same_file(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append([Event(EventType.NEW_MATCH, 1, {"match_length": 3}), START])
        journal.append([Event(EventType.NEW_MATCH, 2, {"match_length": 5})])  # START counts
        journal.append([Event(EventType.NEW_MATCH, 3, {"match_length": 7})])  # nothing to archive
    assert len(archive_files(tmp_path)) == 1
    assert [json.loads(line)["t"] for line in lines(tmp_path / JOURNAL_NAME)] == [2, 3]


def test_archives_are_numbered_in_order(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        for n in range(12):
            journal.append([START, Event(EventType.NEW_MATCH, n, {"match_length": n})])
    names = [p.name for p in archive_files(tmp_path)]
    assert [int(name[:6]) for name in names] == list(range(1, 13))


def test_history_numbers_every_match_with_a_game_oldest_first(tmp_path: Path) -> None:
    matches = [direct_match(seed, length, games=1) for seed, length in ((1, 3), (2, 0), (3, 5))]
    with Journal.open(tmp_path) as journal:
        for match in matches:
            journal.append([Event(EventType.NEW_MATCH, 0,
                                  {"match_length": match.settings.match_length}),
                            *match.events])
    (tmp_path / JOURNAL_NAME).open("ab").write(b'not json\n{"t": 9, "ty')  # and a write going on
    before = (tmp_path / JOURNAL_NAME).read_bytes()
    history = read_history(tmp_path)
    assert [m.number for m in history.matches] == [1, 2, 3]
    assert [list(m.events[1:]) for m in history.matches] == [m.events for m in matches]
    assert [m.match_length for m in history.matches] == [3, 0, 5]
    assert history.warnings == [f"{tmp_path / JOURNAL_NAME}:{len(matches[2].events) + 2}: "
                                "not valid JSON (Expecting value) (left out)"]
    assert (tmp_path / JOURNAL_NAME).read_bytes() == before  # reading never repairs


def test_history_of_an_empty_state_directory_is_empty(tmp_path: Path) -> None:
    assert read_history(tmp_path / "nothing").matches == []
    assert journal_files(tmp_path) == []
