"""``tavla-pi club --boards FILE`` (SPEC: docs/CLUB.md, "The boards a page trusts"): each
board's name and key read, a bad line one error naming the file and the line; a known
board's payloads must carry its signature, an unknown board's are read unverified."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from club_support import a_state, boards_file, signed, state_payload
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tavla_pi.cli import main
from tavla_pi.club.trust import MAX_KNOWN_BOARDS, open_payload, read_boards
from tavla_pi.errors import ConfigError
from tavla_pi.remote.keys import BoardKey, SignatureError

TOPIC = "tavla/home/athens/state"


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BoardKey]:
    """Two boards' keys."""
    folder = tmp_path_factory.mktemp("keys")
    return {name: BoardKey.load_or_make(folder / name) for name in ("athens", "izmir")}


def test_each_boards_name_and_key_are_read(tmp_path: Path, keys: dict[str, BoardKey]) -> None:
    path = boards_file(tmp_path / "boards", keys)
    path.write_text(path.read_text() + "\n   # a comment, then a blank line\n\n")
    read = read_boards(path)
    assert read == {name: key.public for name, key in keys.items()}


@pytest.mark.parametrize(("line", "problem"), [
    ("athens", "expected a board's name and its key"),
    ("Athens {key}", "'Athens' is not a board's name"),
    ("athens tavla-ed25519:abcde", "mistyped"),
    ("athens ssh-ed25519 AAAAC3Nza", "starts with 'tavla-ed25519:'"),
    ("izmir {key}", "the same key as athens's (line 2)"),
    ("athens {other}", "athens is named twice (line 2 too)"),
])
def test_a_bad_line_is_one_error_naming_the_file_and_line(
        tmp_path: Path, keys: dict[str, BoardKey], line: str, problem: str) -> None:
    text = line.format(key=keys["athens"].public.text, other=keys["izmir"].public.text)
    path = tmp_path / "boards"
    path.write_text(f"# boards\nathens {keys['athens'].public.text}\n{text}\n")
    with pytest.raises(ConfigError, match=re.escape(problem)) as error:
        read_boards(path)
    assert error.value.where == f"{path}:3"


def test_an_empty_a_missing_or_a_too_long_file_is_refused(tmp_path: Path,
                                                          keys: dict[str, BoardKey]) -> None:
    empty = tmp_path / "empty"
    empty.write_text("# nobody yet\n")
    with pytest.raises(ConfigError, match="names no board"):
        read_boards(empty)
    with pytest.raises(ConfigError, match="cannot read"):
        read_boards(tmp_path / "missing")
    many = tmp_path / "many"
    texts = [BoardKey(Ed25519PrivateKey.generate()).public.text
             for _ in range(MAX_KNOWN_BOARDS + 1)]
    many.write_text("".join(f"b{n} {text}\n" for n, text in enumerate(texts)))
    with pytest.raises(ConfigError, match=f"more than {MAX_KNOWN_BOARDS} boards") as error:
        read_boards(many)
    assert error.value.where == f"{many}:{MAX_KNOWN_BOARDS + 1}"


def test_the_command_names_the_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "boards"
    path.write_text("athens not-a-key\n")
    assert main(["club", "--broker", "mqtt://127.0.0.1:1", "--boards", str(path)]) == 2
    assert f"{path}:1: a board's key starts with" in capsys.readouterr().err


def test_a_known_boards_payload_is_opened_only_with_its_signature(
        keys: dict[str, BoardKey]) -> None:
    known = {name: key.public for name, key in keys.items()}
    payload = state_payload("athens", 1, a_state())
    good = signed(keys["athens"], TOPIC, payload)
    data, verified = open_payload(known, "athens", TOPIC, json.loads(good))
    assert verified and data == json.loads(payload)
    for bad in (payload, signed(keys["izmir"], TOPIC, payload),
                signed(keys["athens"], "tavla/home/izmir/state", payload)):
        with pytest.raises(SignatureError):
            open_payload(known, "athens", TOPIC, json.loads(bad))


def test_an_unknown_boards_payload_is_read_unverified(keys: dict[str, BoardKey]) -> None:
    topic = "tavla/home/smyrna/state"
    payload = signed(keys["athens"], topic, state_payload("smyrna", 1, a_state()))
    for known in (None, {"athens": keys["athens"].public}):
        data, verified = open_payload(known, "smyrna", topic, json.loads(payload))
        assert not verified and "sig" not in data and data["board"] == "smyrna"
