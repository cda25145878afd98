"""The boards a club page trusts: ``tavla-pi club --boards FILE``, and what their keys say.

The file holds a board's name and its public key (the line ``tavla-pi key`` prints) on
each line; ``#`` starts a comment, blank lines are skipped.  Every payload on the topic of
a board named there must carry that key's signature over the topic and the payload
(:meth:`~tavla_pi.remote.keys.PublicKey.opened`), or it is refused.  A board not named
there (every board, without ``--boards``) is *unverified*: its payloads are read without
a signature, and the page shows it apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tavla_pi.bounded import read_text
from tavla_pi.errors import ConfigError
from tavla_pi.remote.keys import SIGNATURE, PublicKey
from tavla_pi.remote.messages import BOARD_NAME

BOARDS_FILE_LIMIT = 64 * 1024
"""The largest ``--boards`` file read."""
MAX_KNOWN_BOARDS = 256
"""The boards one ``--boards`` file may name."""


def read_boards(path: Path) -> dict[str, PublicKey]:
    """Each board's name and key in the file ``path``; ConfigError naming ``path:line``."""
    text = read_text(path, BOARDS_FILE_LIMIT, "a boards file", ConfigError)
    keys: dict[str, PublicKey] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].split(None, 1)
        if not body:
            continue
        where = f"{path}:{number}"
        name, key = _entry(body, where)
        if name in lines:
            raise ConfigError(where, f"{name} is named twice (line {lines[name]} too)")
        twin = next((other for other, known in keys.items() if known == key), None)
        if twin is not None:
            raise ConfigError(where, f"the same key as {twin}'s (line {lines[twin]}): each "
                                     "board has its own")
        if len(keys) == MAX_KNOWN_BOARDS:
            raise ConfigError(where, f"more than {MAX_KNOWN_BOARDS} boards")
        keys[name], lines[name] = key, number
    if not keys:
        raise ConfigError(str(path), "names no board (a board's name and its key on each line)")
    return keys


def _entry(body: list[str], where: str) -> tuple[str, PublicKey]:
    """A line's board name and key."""
    if len(body) < 2:
        raise ConfigError(where, "expected a board's name and its key "
                                 "(the line 'tavla-pi key' prints on that board)")
    name, text = body
    if BOARD_NAME.fullmatch(name) is None:
        raise ConfigError(where, f"{name[:40]!r} is not a board's name ([a-z0-9-]{{1,32}})")
    return name, PublicKey.parse(text, where)


def open_payload(keys: Mapping[str, PublicKey] | None, board: str, topic: str,
           data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """``data`` without its signature, and whether it was checked (``board``'s key known).

    :class:`~tavla_pi.remote.keys.SignatureError` naming ``topic`` when ``board`` is known
    and ``data`` is not signed by its key for ``topic``.
    """
    key = None if keys is None else keys.get(board)
    if key is None:
        return {name: value for name, value in data.items() if name != SIGNATURE}, False
    return key.opened(topic, data, topic), True
