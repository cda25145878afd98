"""Which match the server's events are about: the match this board joined, and no other.

The server names a match only when a player joins it; every event after is about that
match until the board's player leaves.  :class:`MatchScope` follows that and refuses an
event that cannot be about it: a join of another match while in one, a board, roll,
move or chat while in none.
"""

from __future__ import annotations

from tavla_pi.online.model import (
    GameBoard,
    GameWon,
    Joined,
    Left,
    Moved,
    Rolled,
    Said,
    ServerEvent,
    Welcome,
)

_IN_MATCH = (GameBoard, Rolled, Moved, Said, GameWon)
_NAMES = {GameBoard: "board", Rolled: "rolled", Moved: "moved", Said: "say", GameWon: "win"}


class MatchScope:
    """The board's name on the server and the match it is in (None: none)."""

    def __init__(self) -> None:
        self.user: str | None = None
        self.match_id: int | None = None

    def admit(self, event: ServerEvent) -> str | None:
        """Follow ``event``; the reason it cannot be about this board's match, or None."""
        if isinstance(event, Welcome):
            self.user, self.match_id = event.name, None
        elif isinstance(event, Joined):
            return self._joined(event)
        elif isinstance(event, Left):
            if event.player == self.user:
                self.match_id = None
        elif isinstance(event, _IN_MATCH) and self.match_id is None:
            return f"{_NAMES[type(event)]}: an event of a match, but this board is in none"
        return None

    def _joined(self, event: Joined) -> str | None:
        mine = event.player == self.user
        if self.match_id is None and mine:
            self.match_id = event.match_id
            return None
        if self.match_id is None:
            return (f"joined: {event.player} joined match {event.match_id}, but this board "
                    "is in none")
        if event.match_id != self.match_id:
            return (f"joined: an event of match {event.match_id}, but this board is in "
                    f"match {self.match_id}")
        return None
