"""dice-stats: distributions and chi-square tests of the recorded rolls."""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from journal_support import direct_match

from tavla_pi.cli import main
from tavla_pi.errors import BadInputError
from tavla_pi.events.event import Event
from tavla_pi.events.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal
from tavla_pi.events.types import EventType
from tavla_pi.stats.dice import chi_square_sf, dice_from_events, face_test, roll_test


@pytest.mark.parametrize(("x", "dof", "p"), [
    (11.0705, 5, 0.05), (15.0863, 5, 0.01), (31.4104, 20, 0.05), (37.5662, 20, 0.01),
    (1.0, 1, 0.3173), (0.0, 5, 1.0), (200.0, 5, 0.0),
])
def test_chi_square_survival_matches_tables(x: float, dof: int, p: float) -> None:
    assert chi_square_sf(x, dof) == pytest.approx(p, abs=2e-4)


def test_rolls_come_from_rolled_and_opening_events() -> None:
    events = [
        Event(EventType.OPENING_ROLL, 0, {"white": 3, "black": 1, "starter": "white"}),
        Event(EventType.PLAYED, 10, {"player": "white", "dice": [3, 1]}),
        Event(EventType.ROLLED, 20, {"player": "black", "dice": [6, 6]}),
    ]
    assert dice_from_events(events) == [(3, 1), (6, 6)]


def test_fair_dice_pass_and_loaded_dice_fail() -> None:
    rng = random.Random(7)
    fair = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(3000)]
    assert face_test(fair).p_value > 0.01
    assert roll_test(fair).p_value > 0.01
    loaded = [(6 if rng.random() < 0.25 else rng.randint(1, 6), rng.randint(1, 6))
              for _ in range(3000)]
    assert face_test(loaded).p_value < 0.001


def _write_events(path: Path, rolls: list[tuple[int, int]]) -> None:
    lines = [json.dumps({"t": i, "type": "rolled", "player": "white", "dice": list(r)})
             for i, r in enumerate(rolls)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_cli_prints_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(1)
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(500)]
    _write_events(tmp_path / "e.jsonl", rolls)
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("500 rolls (1000 dice)")
    assert "chi-square faces" in out and "chi-square rolls" in out
    assert "6-6" in out and "2-1" in out


def _rolls(events: list[Event]) -> int:
    return sum(e.type in ("rolled", "opening_roll") for e in events)


def test_cli_reads_the_journal_in_the_state_dir(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    match = direct_match(3, 1, games=1)
    with Journal.open(tmp_path) as journal:
        journal.append(match.events)
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{_rolls(match.events)} rolls")
    assert "fewer than 100 rolls" in out and err == ""


def archived(state: Path, *matches: list[Event]) -> list[Path]:
    """The matches written by the journal (one after the other in time), each archived by
    the next new_match."""
    now = 0
    with Journal.open(state) as journal:
        for events in matches:
            journal.append([replace(e, t=now + e.t) for e in events])
            now += events[-1].t
            journal.append([Event(EventType.NEW_MATCH, now, {"match_length": 1})])
    return sorted((state / ARCHIVE_DIR).iterdir())


def test_a_bad_line_in_an_archived_match_is_named_and_the_rest_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: one bad line gave no statistics at all."""
    first, second = direct_match(1, 1, games=1).events, direct_match(2, 1, games=1).events
    path = archived(tmp_path, first, second)[0]
    lines = path.read_bytes().splitlines(keepends=True)
    lines.insert(3, b"not json\n")
    path.write_bytes(b"".join(lines))
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{_rolls(first) + _rolls(second)} rolls")
    assert err == (f"tavla-pi: warning: {path}:4: not valid JSON (Expecting value) "
                   "(left out)\n")


def test_an_archived_match_is_counted_as_far_as_it_follows_the_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = direct_match(4, 1, games=1).events
    path = archived(tmp_path, events)[0]
    roll = next(i for i, e in enumerate(events) if e.type == "rolled")
    lines = path.read_bytes().splitlines(keepends=True)
    del lines[roll]  # a deleted roll: the play after it does not follow
    path.write_bytes(b"".join(lines))
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{_rolls(events[:roll])} rolls")
    assert err.startswith(f"tavla-pi: warning: {path}:")
    assert "(left out, with the " in err and err.count("\n") == 1


@pytest.mark.parametrize(("line", "problem"), [
    ({"type": "rolled", "player": "white", "dice": [0, 9]}, 'field "dice" has a wrong value'),
    ({"type": "opening_roll", "white": 7, "black": 2}, 'field "white" has a wrong value: 7'),
    ({"type": "rolled", "player": "white", "dice": [3, True]}, 'field "dice" has a wrong'),
    ({"type": "rolled", "player": "white", "dice": [3, 1, 2]}, 'field "dice" has a wrong'),
])
def test_impossible_dice_are_named_and_not_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: dict[str, object],
        problem: str) -> None:
    path = tmp_path / "e.jsonl"
    good = json.dumps({"t": 0, "type": "rolled", "player": "white", "dice": [1, 2]})
    path.write_text(f"{good}\n{json.dumps({'t': 1, **line})}\n{good}\n", encoding="utf-8")
    assert main(["dice-stats", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("2 rolls")
    assert err.startswith(f"tavla-pi: warning: {path}:2: ") and problem in err


def test_impossible_dice_in_events_are_refused() -> None:
    with pytest.raises(BadInputError, match=r"opening_roll at 5 ms: impossible dice 7, 2"):
        dice_from_events([Event(EventType.OPENING_ROLL, 5, {"white": 7, "black": 2})])
    with pytest.raises(BadInputError, match=r"impossible dice 0, 9"):
        dice_from_events([Event(EventType.ROLLED, 5, {"dice": [0, 9]})])


def test_a_state_directory_without_a_journal_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"tavla-pi: {tmp_path / JOURNAL_NAME}: no journal here "
                                       "(nothing recorded)\n")


def test_cli_without_rolls_is_a_clear_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "in_sync"}\n', encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == f"tavla-pi: {tmp_path / 'e.jsonl'}: no recorded rolls"


def test_cli_bad_line_names_file_and_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "rolled", "player": "white", '
                                      '"dice": [1, 2]}\nnot json\n', encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("1 rolls")
    assert err == (f"tavla-pi: warning: {tmp_path / 'e.jsonl'}:2: not valid JSON "
                   "(Expecting value) (left out)\n")


def test_torn_last_line_is_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "rolled", "player": "white", '
                                      '"dice": [1, 2]}\n{"t": 1, "ty', encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("1 rolls")
