"""Finding an online opponent with buttons only (docs/ONLINE.md).

Once the board is set up for a new match's first game (its opening to throw) and no
server match is bound, :class:`Seeker` asks for the list of matches, joins the oldest
open public one of the match's length (1 point for money play, which the server does
not have), else creates one named after the board and waits for an opponent (the
board's ``seeking``).  MENU pressed meanwhile cancels (until the next new match); a
join or a creation the server refuses is tried again from the list a moment later.
"""

from __future__ import annotations

import logging

from tavla_pi.online.model import Dialect, MatchListing

log = logging.getLogger("tavla_pi.online")

RETRY_MS = 3000
"""How long a refused join or create waits before the matches are listed again."""


class Seeker:
    """The search for an opponent (see the module): the commands it sends, step by step;
    ``name`` is what a match the board creates is called."""

    def __init__(self, dialect: Dialect, name: str) -> None:
        self.dialect, self.name = dialect, name
        self.seeking = False
        """True from the search's start until an opponent joined (or it was cancelled)."""
        self.cancelled = False
        """True once MENU cancelled the search (or the server ended the match): no new
        search before the next new match."""
        self._stage = ""
        self._retry_at = 0

    def step(self, *, due: bool, connected: bool, now: int) -> list[str]:
        """The commands of the search now: it begins when ``due`` (a new match set up, no
        server match bound), and lists the matches once the server is reached."""
        if due and not self.seeking and not self.cancelled and connected:
            self.seeking, self._stage, self._retry_at = True, "list", now
        if self.seeking and self._stage == "list" and now >= self._retry_at and connected:
            self._stage = "listing"
            return [self.dialect.list_matches()]
        return []

    def listed(self, matches: tuple[MatchListing, ...], points: int) -> list[str]:
        """The matches listed (open, public): join the oldest of ``points``, else create
        one (None while no list was asked for)."""
        if not self.seeking or self._stage != "listing":
            return []
        fitting = [m for m in matches if m.points == points and m.players == 1]
        if fitting:
            oldest = min(fitting, key=lambda m: m.match_id)
            log.info("joining %s's match %d (%d points)", oldest.name, oldest.match_id,
                     points)
            self._stage = "join"
            return [self.dialect.join_match(oldest.match_id)]
        log.info("no open %d-point match: creating one, waiting for an opponent", points)
        self._stage = "create"
        return [self.dialect.create_match(points, self.name)]

    def joining(self) -> None:
        """A join the page chose is on its way: an opponent is sought in that match."""
        self.seeking, self._stage, self.cancelled = True, "join", False

    def refused(self, now: int) -> None:
        """The server refused the join or the creation: list again in a moment."""
        if self.seeking:
            self._stage, self._retry_at = "list", now + RETRY_MS

    def relisted(self, now: int) -> None:
        """The board logged in again while searching: list the matches anew."""
        if self.seeking:
            self._stage, self._retry_at = "list", now

    def stop(self, *, cancel: bool = False) -> None:
        """The search is over: an opponent found, the match left, or (``cancel``) MENU
        pressed, or the match ended by the server (no new search before a new match)."""
        self.seeking, self._stage = False, ""
        self.cancelled = self.cancelled or cancel

    def new_match(self) -> None:
        """A new match of the player's: a search may begin again."""
        self.cancelled = False
