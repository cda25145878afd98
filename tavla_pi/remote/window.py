"""The friend's game messages that came before their turn, held: only the next few.

The friend's messages are applied in the order of their number (``seq``); one that
comes ahead of a gap is held until the gap is filled.  Only :data:`SEQ_WINDOW` numbers
after the last one applied are held, each number in its own place: so the message the
game waits for always has its place, and nothing held can push it out.  A message further
ahead is refused with a log line (the friend sends it again when this board's sync
says what it took, :mod:`tavla_pi.remote.session`).
"""

from __future__ import annotations

from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.messages import GameMessage

SEQ_WINDOW = 8
"""How many numbers after the last applied message are held (a real game is at most a
few ahead: a play, a reveal, an answer)."""


class Held:
    """The friend's messages held until their turn (see the module)."""

    def __init__(self, refusals: RefusalLog, window: int = SEQ_WINDOW) -> None:
        if window < 1:
            raise ValueError(f"window {window}: must be at least 1")
        self.window = window
        self._refusals = refusals
        self._held: dict[int, GameMessage] = {}

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, seq: int) -> bool:
        return seq in self._held

    def hold(self, message: GameMessage, taken: int) -> bool:
        """Hold ``message`` (its number after ``taken``, the last applied); False, with a
        log line, if it is beyond the window."""
        for old in [seq for seq in self._held if seq <= taken]:
            del self._held[old]
        if message.seq > taken + self.window:
            self._refusals.refuse(f"{message.board} beyond the window",
                                  f"refused: {message.board}'s message {message.seq}: more "
                                  f"than {self.window} ahead of the last applied ({taken}); "
                                  "this board's next sync asks for it again")
            return False
        self._held[message.seq] = message
        return True

    def next(self, taken: int) -> GameMessage | None:
        """The message after ``taken``, no longer held; None if it has not come."""
        return self._held.pop(taken + 1, None)

    def clear(self) -> None:
        """Hold nothing (a new match)."""
        self._held.clear()
