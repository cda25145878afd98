"""A board's key: made once, printed as one line, and signatures bound to topic and fields."""

from __future__ import annotations

import contextlib
import stat
from pathlib import Path

import pytest

from tavla_pi.errors import ConfigError
from tavla_pi.remote.keys import KEY_FILE, BoardKey, KeyTextError, PublicKey, SignatureError

TOPIC = "tavla/home/kitchen/game"


def test_the_key_is_made_once_private_to_the_user_and_kept(tmp_path: Path) -> None:
    first = BoardKey.load_or_make(tmp_path / "state")
    again = BoardKey.load_or_make(tmp_path / "state")
    assert first.public == again.public
    assert stat.S_IMODE((tmp_path / "state" / KEY_FILE).stat().st_mode) == 0o600
    assert BoardKey.load_or_make(tmp_path / "other").public != first.public


def test_the_public_line_reads_back_however_it_is_typed(tmp_path: Path) -> None:
    key = BoardKey.load_or_make(tmp_path).public
    line = key.text
    assert "\n" not in line and len(line) < 80
    assert PublicKey.parse(line, "x") == key
    assert PublicKey.parse(" " + line.upper().replace("-", " ") + "\n", "x") == key


@pytest.mark.parametrize("change", [
    lambda t: t[:-1] + ("b" if t[-1] == "a" else "a"),
    lambda t: t[:-1] + ("q" if t[-1] == "a" else "a"),
    lambda t: t[:-2] + ("b" if t[-2] == "a" else "a") + t[-1],
    lambda t: t.replace("tavla-ed25519:", ""),
    lambda t: t + "!",
    lambda t: t[:-6],
])
def test_a_mistyped_key_is_refused_naming_the_place(tmp_path: Path, change: object) -> None:
    line = BoardKey.load_or_make(tmp_path).public.text
    assert callable(change)
    with pytest.raises(KeyTextError, match=r"^\[opponent\] remote_key: "):
        PublicKey.parse(change(line), "[opponent] remote_key")


def test_a_signed_payload_opens_only_for_its_key_topic_and_fields(tmp_path: Path) -> None:
    key = BoardKey.load_or_make(tmp_path / "a")
    stranger = BoardKey.load_or_make(tmp_path / "b")
    payload = key.signed(TOPIC, {"v": 1, "seq": 3, "kind": "play"})
    assert key.public.opened(TOPIC, payload, "w") == {"v": 1, "seq": 3, "kind": "play"}
    forged = [
        (TOPIC, stranger.signed(TOPIC, {"v": 1, "seq": 3, "kind": "play"})),
        ("tavla/home/other/game", payload),
        (TOPIC, {**payload, "seq": 4}),
        (TOPIC, {**payload, "extra": 1}),
        (TOPIC, {"v": 1, "seq": 3, "kind": "play"}),
        (TOPIC, {**payload, "sig": 5}),
        (TOPIC, {**payload, "sig": "*" * 86}),
    ]
    for topic, data in forged:
        with pytest.raises(SignatureError, match=r"^w: "):
            key.public.opened(topic, data, "w")


def test_a_damaged_key_file_is_one_config_error(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("not a key")
    with pytest.raises(ConfigError, match=KEY_FILE):
        BoardKey.load_or_make(tmp_path)


def test_a_key_reads_back_from_one_spelling_only(tmp_path: Path) -> None:
    """The last base32 letter carries unused bits: a typo there that changes only them
    is refused too, not read as the same key."""
    line = BoardKey.load_or_make(tmp_path).public.text
    read = []
    for letter in "abcdefghijklmnopqrstuvwxyz234567":
        with contextlib.suppress(KeyTextError):
            read.append(PublicKey.parse(line[:-1] + letter, "x"))
    assert read == [PublicKey.parse(line, "x")]


def test_a_last_character_that_decodes_the_same_is_still_a_typo() -> None:
    line = PublicKey(bytes(range(32))).text
    twins = [line[:-1] + c for c in "abcdefghijklmnopqrstuvwxyz234567" if c != line[-1]]
    assert any(twin.endswith(("a", "b")) for twin in twins)
    for twin in twins:
        with pytest.raises(KeyTextError):
            PublicKey.parse(twin, "x")
