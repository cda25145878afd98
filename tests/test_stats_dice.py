"""dice-stats: distributions and chi-square tests of the recorded rolls."""

import json
import random
from pathlib import Path

import pytest

from tavla_pi.cli import main
from tavla_pi.events.event import Event
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


def test_cli_reads_the_journal_in_the_state_dir(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _write_events(tmp_path / "journal.jsonl", [(1, 2)] * 10)
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 0
    assert "fewer than 100 rolls" in capsys.readouterr().out


def test_cli_without_rolls_is_a_clear_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "in_sync"}\n', encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == f"tavla-pi: {tmp_path / 'e.jsonl'}: no recorded rolls"


def test_cli_bad_line_names_file_and_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "rolled", "dice": [1, 2]}\nnot json\n',
                                      encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 2
    assert f"{tmp_path / 'e.jsonl'}:2: not valid JSON" in capsys.readouterr().err


def test_torn_last_line_is_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.jsonl").write_text('{"t": 0, "type": "rolled", "dice": [1, 2]}\n{"t": 1, "ty',
                                      encoding="utf-8")
    assert main(["dice-stats", str(tmp_path / "e.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("1 rolls")
