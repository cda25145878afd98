"""Fair dice between two boards that need not trust each other: commit, then reveal.

Every roll of a remote match is made from one secret 32-byte contribution of each
board.  A board publishes the SHA-256 commitment to its contribution first and reveals
the contribution only once it holds the peer's commitment for that roll, so neither
board can choose its share after seeing the other's; :class:`RollCheck` holds both
boards to that and gives the roll's dice once both shares are revealed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping

from tavla_pi.errors import DiceError

_DOMAIN = "tavla-dice/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_UNBIASED = 252
"""Bytes at or above this are skipped: 252 = 42 * 6, so ``byte % 6`` is uniform."""


def new_contribution() -> str:
    """A fresh secret contribution: 32 random bytes as 64 lowercase hex digits."""
    return secrets.token_hex(32)


def commitment(match_uid: str, roll: int, board: str, contribution: str) -> str:
    """The commitment ``board`` publishes to its ``contribution`` for ``roll``: SHA-256, hex."""
    text = f"{_DOMAIN}:{match_uid}:{roll}:{board}:{contribution}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def roll_dice(match_uid: str, roll: int, contributions: Mapping[str, str]) -> tuple[int, int]:
    """The dice of ``roll`` from both boards' contributions (board name -> contribution),
    as rolled, not sorted: an opening roll is (white's die, black's die)."""
    if len(contributions) != 2:
        raise DiceError(f"roll {roll}: dice need the contributions of two boards, "
                        f"got {len(contributions)}")
    shares = ":".join(contributions[name] for name in sorted(contributions))
    return _dice_from(hashlib.sha256(f"{_DOMAIN}:{match_uid}:{roll}:{shares}".encode()).digest())


def _dice_from(digest: bytes) -> tuple[int, int]:
    """The first two dice of ``digest``'s bytes (those below 252), rehashing if ever short."""
    dice: list[int] = []
    while True:
        dice.extend(byte % 6 + 1 for byte in digest if byte < _UNBIASED)
        if len(dice) >= 2:
            return dice[0], dice[1]
        digest = hashlib.sha256(digest).digest()


class RollCheck:
    """The commitments and contributions of both boards for every roll of one match, checked."""

    def __init__(self, match_uid: str, boards: tuple[str, str]) -> None:
        if len(boards) != 2 or boards[0] == boards[1]:
            raise DiceError(f"a match is between two different boards, not {boards!r}")
        self.match_uid = match_uid
        self.boards = boards
        self._commits: dict[tuple[str, int], str] = {}
        self._reveals: dict[tuple[str, int], str] = {}

    def commit(self, board: str, roll: int, digest: str) -> None:
        """Record ``board``'s commitment for ``roll``; DiceError if it commits twice
        (differently) or only after the other board revealed that roll."""
        other = self._other(board, roll)
        known = self._commits.get((board, roll))
        if known == digest:
            return
        if known is not None:
            raise DiceError(f"roll {roll}: board {board} committed twice")
        if _HEX64.fullmatch(digest) is None:
            raise DiceError(f"roll {roll}: board {board}'s commitment is not "
                            "64 lowercase hex digits")
        if (other, roll) in self._reveals:
            raise DiceError(f"roll {roll}: board {board} commits after board {other} revealed")
        self._commits[(board, roll)] = digest

    def reveal(self, board: str, roll: int, contribution: str) -> None:
        """Record ``board``'s contribution for ``roll``; DiceError if it made no commitment
        or the contribution is not the one it committed to."""
        self._other(board, roll)
        known = self._commits.get((board, roll))
        if known is None:
            raise DiceError(f"roll {roll}: board {board} reveals without a commitment")
        if commitment(self.match_uid, roll, board, contribution) != known:
            raise DiceError(f"roll {roll}: board {board}'s contribution does not match "
                            "its commitment")
        self._reveals[(board, roll)] = contribution

    def committed(self, board: str, roll: int) -> bool:
        """Whether ``board`` has committed to its contribution for ``roll``."""
        return (board, roll) in self._commits

    def revealed(self, board: str, roll: int) -> bool:
        """Whether ``board`` has revealed its (checked) contribution for ``roll``."""
        return (board, roll) in self._reveals

    def dice(self, roll: int) -> tuple[int, int] | None:
        """The dice of ``roll`` once both boards revealed it; else None."""
        one, two = self.boards
        first, second = self._reveals.get((one, roll)), self._reveals.get((two, roll))
        if first is None or second is None:
            return None
        return roll_dice(self.match_uid, roll, {one: first, two: second})

    def _other(self, board: str, roll: int) -> str:
        """The other board of the match; DiceError if ``board`` is not one of its two."""
        if board not in self.boards:
            raise DiceError(f"roll {roll}: board {board} does not play this match")
        return self.boards[1] if board == self.boards[0] else self.boards[0]
