"""``tavla-pi run`` and ``sim`` with a bad config or bad options: exit 2, one line, no traceback;
with a state directory that cannot be used: exit 1 (as docs/OPERATING.md says), one line."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla_pi.cli import main
from tavla_pi.testing.daemon import reset_logging


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield
    reset_logging()


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(args)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(("text", "expected"), [
    ("[board]\nbrightness = 7\n", "[board] brightness: expected a number 0..1, got 7"),
    ("[game\n", "line 1, column 6: not valid TOML"),
    ("[http]\nlisten = \"0.0.0.0:8750\"\n", "[http] listen: listening on 0.0.0.0:8750 "
                                           "(not loopback) needs a [http] token"),
    ("[board]\npinout = \"nowhere.toml\"\n", "nowhere.toml"),
])
def test_run_refuses_a_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  text: str, expected: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    status, err = run_main(["run", "--config", str(config), "--state-dir", str(tmp_path / "s"),
                            "--http", "127.0.0.1:0"] if "listen" not in text else
                           ["run", "--config", str(config), "--state-dir", str(tmp_path / "s")],
                           capsys)
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith("tavla-pi: ")
    assert expected in err
    assert str(config) in err or "nowhere.toml" in err


def test_http_override_beyond_loopback_needs_a_token(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_main(["sim", "--config", str(tmp_path / "none.toml")], capsys)
    assert status == 2
    assert "none.toml: cannot read" in err
    (tmp_path / "c.toml").write_text("")
    status, err = run_main(["run", "--config", str(tmp_path / "c.toml"), "--http",
                            "0.0.0.0:1", "--state-dir", str(tmp_path)], capsys)
    assert status == 2
    assert err.startswith("tavla-pi: --http: listening on 0.0.0.0:1 (not loopback) needs")
    status, err = run_main(["run", "--config", str(tmp_path / "c.toml"), "--http", "nope",
                            "--state-dir", str(tmp_path)], capsys)
    assert (status, err.count("\n")) == (2, 1)
    assert "--http: expected an address" in err


def test_an_unusable_state_directory_is_named(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, err = run_main(["run", "--config", str(blocker), "--http", "127.0.0.1:0",
                            "--state-dir", str(blocker / "state")], capsys)
    assert (status, err.count("\n")) == (1, 1)
    assert f"{blocker / 'state'}: cannot create the state directory" in err


def test_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"[board]\nbackend = \"pi\"\nscan_hz = \"fast\"\n\xff")
    done = subprocess.run([sys.executable, "-m", "tavla_pi", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"tavla-pi: {config}: line 4: not UTF-8 text\n"


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["run", "--backend", "gpio"])
    assert info.value.code == 2
    assert "invalid choice: 'gpio'" in capsys.readouterr().err


def test_a_damaged_saved_board_or_a_busy_journal_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tavla_pi.events.journal import Journal

    config = tmp_path / "config.toml"
    config.write_text("")
    state = tmp_path / "state"
    state.mkdir()
    (state / "sim-board.json").write_text('{"format": "tavla-pi sim board"')
    args = ["run", "--backend", "sim", "--config", str(config), "--state-dir", str(state),
            "--http", "127.0.0.1:0"]
    status, err = run_main(args, capsys)
    said = not_logged(err)
    assert status == 1 and len(said) == 1
    assert said[0].startswith(f"tavla-pi: {state / 'sim-board.json'}: cannot read the saved board")
    (state / "sim-board.json").unlink()
    with Journal.open(state):  # another daemon holds this state directory
        status, err = run_main(args, capsys)
    said = not_logged(err)
    assert status == 1 and len(said) == 1
    assert str(state) in said[0]


def not_logged(err: str) -> list[str]:
    """The lines of ``err`` that are not the daemon's log lines ("09:05:38 INFO ..."; where
    gnubg is missing, the daemon logs a line saying so before it fails)."""
    return [line for line in err.splitlines()
            if not re.match(r"\d\d:\d\d:\d\d (DEBUG|INFO) ", line)]
