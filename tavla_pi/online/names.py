"""The name a game server gave this board, kept in the state directory, so that a guest
logs in again under the same name after a restart and the server rejoins it to its match.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from tavla_pi.bounded import read_text
from tavla_pi.errors import BadInputError

log = logging.getLogger("tavla_pi.online")

NAME_FILE = "online-name"
"""The file in the state directory that holds the name."""
_NAME = re.compile(r"[A-Za-z0-9_]{1,24}")


class NameStore:
    """One name in one small file: :meth:`load` what :meth:`save` wrote (atomically)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> NameStore:
        """The store in the board's state directory."""
        return cls(state_dir / NAME_FILE)

    def load(self) -> str | None:
        """The name saved, or None if there is none or it cannot be used (logged)."""
        if not self.path.exists():
            return None
        try:
            text = read_text(self.path, 64, "a name file").strip()
        except BadInputError as exc:
            log.warning("%s; logging in as a new guest", exc)
            return None
        if _NAME.fullmatch(text) is None:
            log.warning("%s: not a name (letters, digits, underscores); logging in as a new "
                        "guest", self.path)
            return None
        return text

    def save(self, name: str) -> None:
        """Keep ``name`` (written to a temporary file and renamed over the old one)."""
        if _NAME.fullmatch(name) is None:
            raise ValueError(f"name {name!r}: letters, digits or underscores, at most 24")
        if self.load() == name:
            return
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            with temporary.open("w", encoding="ascii") as stream:
                stream.write(name + "\n")
                stream.flush()
                os.fsync(stream.fileno())
            temporary.replace(self.path)
        except OSError as exc:
            log.warning("%s: cannot keep the name %s (%s)", self.path, name,
                        exc.strerror or exc)
