"""``tavla-pi key``: the board's public key as one line, from the state directory the
daemon uses, made there if there is none yet (docs/REMOTE.md, "Keys")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavla_pi.cli import main
from tavla_pi.remote.keys import KEY_FILE, BoardKey, PublicKey


def key_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """What ``tavla-pi key ARGS`` prints: its line, and what it says on stderr."""
    assert main(["key", *args]) == 0
    out = capsys.readouterr()
    return out.out, out.err


def test_the_line_is_made_once_and_is_the_daemons_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    first, said = key_of(["--state-dir", str(state)], capsys)
    assert said == f"tavla-pi: {state / KEY_FILE}: a new key, made now\n"
    assert first.count("\n") == 1 and len(first.strip()) < 80  # one short line
    again, said = key_of(["--state-dir", str(state)], capsys)
    assert (again, said) == (first, "")
    assert PublicKey.parse(first, "stdout") == BoardKey.load_or_make(state).public


def test_without_a_state_dir_it_is_the_daemons(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``tavla-pi run``: the config's ``[daemon] state_dir``, else systemd's
    ``$STATE_DIRECTORY``."""
    config = tmp_path / "config.toml"
    config.write_text(f'[daemon]\nstate_dir = "{tmp_path / "configured"}"\n')
    line, _ = key_of(["--config", str(config)], capsys)
    assert PublicKey.parse(line, "stdout") == BoardKey.load_or_make(
        tmp_path / "configured").public
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "service"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nothing"))  # no config file
    monkeypatch.delenv("CONFIGURATION_DIRECTORY", raising=False)
    line, _ = key_of([], capsys)
    assert PublicKey.parse(line, "stdout") == BoardKey.load_or_make(tmp_path / "service").public


def test_a_damaged_key_file_is_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / KEY_FILE).write_text("-----BEGIN PRIVATE KEY-----\nxx\n")
    assert main(["key", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"tavla-pi: {tmp_path / KEY_FILE}: not a private key this program made\n"
