"""Keys and signed payloads for the remote board's tests: what a board, or someone else
on the broker, publishes (docs/REMOTE.md, "Topics and payloads")."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tavla_pi.remote.keys import BoardKey

NONCE = "0f" * 16
"""A connection's nonce."""


def new_key(name: str) -> BoardKey:
    """The key of a board (or anyone) called ``name``, kept in memory only: the same in
    every test process, so that tests named after it are named alike."""
    seed = hashlib.sha256(b"tavla-pi test key\n" + name.encode()).digest()
    return BoardKey(Ed25519PrivateKey.from_private_bytes(seed))


KEY = new_key("b")
"""The key of the board whose payloads the tests read."""


def signed(topic: str, data: dict[str, Any], key: BoardKey = KEY) -> bytes:
    """``data`` as a board with ``key`` publishes it on ``topic``: signed, compact JSON."""
    return json.dumps(key.signed(topic, data), separators=(",", ":")).encode()
