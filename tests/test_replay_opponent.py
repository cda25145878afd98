"""``tavla-pi replay`` with a computer opponent: gnubg found on the PATH, or one clear line.

The scripted fake gnubg (tests/fake_gnubg.py, its play the first legal one)
stands in for gnubg on the PATH, so this runs anywhere.  The replay's output
is the same however fast the engine answers: each answer is taken at the
first scan after its question.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gnubg_support import fake_gnubg

from tavla_pi.cli import main
from tavla_pi.engine import NOT_INSTALLED
from tavla_pi.replay import runner as runner_module

ROOT = Path(__file__).resolve().parent.parent
GAME = [
    {"setup": "start", "opponent": {"color": "black", "level": "expert"}},
    {"wait": 400}, {"dice": [3, 1]}, {"press": "white.roll"},
    {"move": "8/5", "color": "white"}, {"move": "6/5", "color": "white"},
    {"dice": [6, 5]}, {"press": "white.roll"},
]


def scenario(tmp_path: Path, *extra: dict[str, object]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(a) for a in (*GAME, *extra)) + "\n")
    return path


def replay(path: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "tavla_pi", "replay", str(path)], env=env,
                          capture_output=True, text=True, check=False, cwd=ROOT)


def test_the_fake_gnubg_plays_black_and_the_hand_carries_it_out(tmp_path: Path) -> None:
    fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    # the fake's play is the rules' first legal one: 24/13 with 6-5
    first = replay(scenario(tmp_path, {"move": "1/12", "color": "black"}), tmp_path / "bin")
    assert first.returncode == 0, first.stderr
    events = [json.loads(line) for line in first.stdout.splitlines()]
    chose = [e for e in events if e["type"] == "engine_play"]
    played = [e for e in events if e["type"] == "played"]
    assert [e["play"] for e in chose] == ["24/13"]
    assert [(e["player"], e["play"]) for e in played] == [("white", "8/5 6/5"), ("black", "24/13")]


@pytest.mark.slow
def test_a_slow_gnubg_gives_the_same_replay(tmp_path: Path) -> None:
    path = scenario(tmp_path, {"move": "1/12", "color": "black"})
    fake_gnubg(tmp_path / "quick", tmp_path / "quick-state")
    fake_gnubg(tmp_path / "dying", tmp_path / "dying-state", die={"hint": 1, "double": 1})
    quick, restarted = replay(path, tmp_path / "quick"), replay(path, tmp_path / "dying")
    assert quick.returncode == restarted.returncode == 0, restarted.stderr
    assert restarted.stdout == quick.stdout  # each answer taken at the first scan after it


def test_an_opponent_without_gnubg_stops_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner_module, "find_gnubg", lambda: None)
    path = scenario(tmp_path)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"tavla-pi: {path}:1: the opponent needs GNU Backgammon: "
                   f"{NOT_INSTALLED}\n")


def test_the_computers_time_never_runs_on_the_clock(tmp_path: Path) -> None:
    fake_gnubg(tmp_path / "bin", tmp_path / "fake")
    path = tmp_path / "clocked.jsonl"
    setup = {"setup": "start", "opponent": {"color": "black", "level": "expert"},
             "match_length": 3, "clock": {"delay_s": 0}}
    clocked = [setup, *GAME[1:], {"move": "1/12", "color": "black"}, {"wait": 1000}]
    path.write_text("\n".join(json.dumps(a) for a in clocked) + "\n")
    done = replay(path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    clock = [e for e in events if e["type"] == "clock"]
    assert [e["running"] for e in clock] == ["white", None, "white"]
    assert clock[1]["reserve_ms"] == clock[2]["reserve_ms"]  # Black thought for free
    assert clock[2]["reserve_ms"]["black"] == 360_000
    black = next(e for e in events if e["type"] == "played" and e["player"] == "black")
    assert clock[1]["t"] < black["t"] <= clock[2]["t"]
