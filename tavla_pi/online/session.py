"""The online side of a match: the server's events as the seat's facts, the board's
decisions as the server's commands (docs/ONLINE.md).

The daemon calls :meth:`OnlineGame.before` at each scan, before the referee decides:
what the connection read is taken in order.  Each server board is read against the
last one (:mod:`tavla_pi.online.follow`) and what happened between them is told to the
online seat (:class:`~tavla_pi.game.online.OnlineSeat`), which fits it to the game
here.  It calls :meth:`OnlineGame.after` with every batch of events: this board's own
decisions become commands (a play committed: its moves and ``ok``; a double, a take, a
drop, a resignation), sent once the batch is journaled (:meth:`OnlineGame.publish`).

Finding an opponent with buttons only: once the board is set up for a new match's
first game (its opening to throw) and no server match is bound, the session asks for
the list of matches, joins the oldest open public one of the match's length (1 point
for money play, which the server does not have), else creates one named after the
board and waits (``seeking``); MENU pressed meanwhile cancels.  The page may join a
chosen match or a player's (:meth:`OnlineGame.join`).

The link lost, or the board restarted: the connection logs in again with the same
name and the server puts the board back in its match; its first board is then read
against the game here (a play of this board's the server never got is sent again).  A
server that no longer knows the match (restarted: it keeps matches in memory only)
ends it here: a new match begins, and the trouble says why.  Where the game here and
the server's disagree, the disagreement is logged with both positions and the board
follows the server (:func:`~tavla_pi.online.follow.followed`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tavla_pi.errors import TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.online import OnlineSeat, ServerRefusal
from tavla_pi.game.referee import Referee
from tavla_pi.game.view import Phase
from tavla_pi.online.follow import ServerView, facts, followed, settle, view_here, view_of
from tavla_pi.online.model import (
    CommandRefused,
    Dialect,
    GameBoard,
    GameWon,
    Joined,
    Left,
    MatchList,
    MatchListing,
    Notice,
    Said,
    Welcome,
)
from tavla_pi.online.protocol import VARIANT_BACKGAMMON
from tavla_pi.online.seeking import Seeker
from tavla_pi.online.sending import Outgoing
from tavla_pi.rules.color import Color

log = logging.getLogger("tavla_pi.online")

CHAT_KEPT = 50
"""The chat messages the page is shown (the newest)."""
LOGGED_CHARS = 200
"""How much of a server's words a log line repeats."""


class ServerLink(Protocol):
    """What the session needs of the server's connection
    (:class:`~tavla_pi.online.connection.Connection`)."""

    @property
    def connected(self) -> bool:
        """Whether the board is logged in on the server now."""
        ...

    def poll(self) -> Sequence[object]:
        """What the server said since the last call, in order (its events, and the link's
        own changes, which the session reads from :attr:`connected`)."""
        ...

    def send(self, command: str) -> bool:
        """Send one command (a line the dialect formatted); False when it cannot go now."""
        ...


@dataclass(frozen=True, slots=True)
class BoundMatch:
    """The server's match this board plays: its id, the opponent's name (None until one
    joined) and its length in points."""

    match_id: int
    opponent: str | None
    points: int

    def to_json(self) -> dict[str, Any]:
        """As ``/api/state`` and ``online_status`` show it."""
        return {"id": self.match_id, "opponent": self.opponent, "points": self.points}


class Chat:
    """The chat with the opponent: the newest messages (the page shows them), each of the
    opponent's told to ``heard`` (the board says it, with speech on)."""

    def __init__(self) -> None:
        self.lines: deque[tuple[str, str]] = deque(maxlen=CHAT_KEPT)
        self.heard: Callable[[str, str], None] | None = None

    def said(self, player: str, message: str) -> None:
        """The opponent's ``message``: kept, logged and told."""
        self.lines.append((player, message))
        log.info("%s says: %s", player, message[:LOGGED_CHARS])
        if self.heard is not None:
            self.heard(player, message)


class OnlineGame:
    """The online side of the daemon: the server's events in, this board's commands out."""

    def __init__(self, server: str, color: Color, link: ServerLink, dialect: Dialect,
                 name: str) -> None:
        self.server, self.color, self.link, self.dialect = server, color, link, dialect
        self.hand = color.opponent
        self.user: str | None = None
        self.match: BoundMatch | None = None
        self.trouble: str | None = None
        self.matches: tuple[MatchListing, ...] = ()
        """The server's open matches, as last listed (the page offers them)."""
        self.chat = Chat()
        self.seeker = Seeker(dialect, name)
        self.outgoing = Outgoing(dialect, color.opponent)
        self._ending = False
        self._rejoining = False
        self._last: ServerView | None = None
        self._won: GameWon | None = None
        self._roll_sent = False
        self._server: GameBoard | None = None  # the server's board last read
        self._outbox: list[str] = []
        self._reported: tuple[bool, str | None, BoundMatch | None] = (False, None, None)
        self._out: list[Event] = []
        self._now = 0

    # -- the journal -------------------------------------------------------------------

    def load(self, events: Sequence[Event]) -> None:
        """Go on from the journal: the match bound last, and as whom."""
        last = next((e for e in reversed(events) if e.type is EventType.ONLINE_STATUS), None)
        if last is None:
            return
        match = last["match"]
        self.user = last["user"]
        self.match = None if match is None else BoundMatch(
            match["id"], match["opponent"], match["points"])
        self._reported = (False, self.user, self.match)

    # -- the daemon's hooks --------------------------------------------------------------

    def before(self, referee: Referee, now: int) -> list[Event]:
        """Take in what the server said; hand it on; look for an opponent if due."""
        self._now = now
        seat = online_seat(referee.seat)
        for event in self.link.poll():
            try:
                self._arrived(event, referee, seat)
            except (TavlaError, ValueError) as exc:  # what the reader let through, at odds
                log.warning("the server's %s: %s; dropped", type(event).__name__, exc)
        if seat is not None:
            if seat.disagreed is not None:
                settle(referee, seat, self._last)
            self._seek(referee, now)
            seat.seeking = self.seeker.seeking
            status = self.status(referee)
            seat.trouble = None if status is None else status["trouble"]
            self.outgoing.remember(referee)
        self._report()
        return self._flush()

    def after(self, referee: Referee, events: Sequence[Event]) -> list[Event]:
        """This batch's own decisions as commands (sent by :meth:`publish`)."""
        seat = online_seat(referee.seat)
        for event in events:
            self._follow_event(event)
        if seat is not None and seat.roll_asked and not self._roll_sent \
                and self.match is not None and self._may_roll():
            self._send(self.dialect.roll())
            self._roll_sent = True
        self._report()
        return self._flush()

    def publish(self) -> None:
        """Send what the journal now holds (after :meth:`after`'s batch is on disk)."""
        for command in self._outbox:
            if not self.link.send(command):
                log.warning("not sent (the server not reached): %s", command.split(" ")[0])
        self._outbox.clear()

    def status(self, referee: Referee) -> dict[str, Any] | None:
        """``/api/state`` ``online`` (None: this match is not played online)."""
        if online_seat(referee.seat) is None:
            return None
        connected = self.link.connected
        trouble = self.trouble or (None if connected else
                                   f"the server {self.server} is not reached")
        return {"server": self.server, "connected": connected, "user": self.user,
                "match": None if self.match is None else self.match.to_json(),
                "seeking": self.seeker.seeking, "trouble": trouble}

    # -- the page ------------------------------------------------------------------------

    def join(self, match_id: int | None = None, player: str | None = None) -> None:
        """Join match ``match_id``, or the match ``player`` is in (the page's choice); the
        match bound so far is left.  ValueError for a name the server cannot take."""
        command = self.dialect.join_player(player) if player is not None else \
            self.dialect.join_match(int(match_id or 0))
        self._leave()
        self.seeker.joining()
        self._send(command)

    def list_matches(self) -> None:
        """Ask the server for its matches again (the page's list)."""
        self._send(self.dialect.list_matches())

    def say(self, text: str) -> None:
        """Send the opponent a chat message; ValueError for one the server cannot take."""
        self._send(self.dialect.say(text))
        self.chat.lines.append((self.user or "", text))

    # -- what the server said ------------------------------------------------------------

    def _arrived(self, event: object, referee: Referee, seat: OnlineSeat | None) -> None:
        if isinstance(event, Welcome):
            self._welcome(event)
        elif isinstance(event, MatchList):
            self._listed(event, referee)
        elif isinstance(event, Joined):
            self._joined(event)
        elif isinstance(event, GameBoard):
            self._board(event, referee, seat)
        elif isinstance(event, GameWon):
            self._won = event
        elif isinstance(event, CommandRefused):
            self._refused(event, seat)
        elif isinstance(event, Said):
            self.chat.said(event.player, event.message)
        elif isinstance(event, Left):
            self._left(event)
        elif isinstance(event, Notice):
            log.info("the server: %s", event.message[:LOGGED_CHARS])

    def _welcome(self, event: Welcome) -> None:
        if self.user is not None and event.name != self.user:
            log.warning("logged in as %s, not %s: the server may not give this board its "
                        "match back", event.name, self.user)
        self.user = event.name
        self._rejoining = self.match is not None
        self._last = None
        self.seeker.relisted(self._now)

    def _listed(self, event: MatchList, referee: Referee) -> None:
        self.matches = tuple(m for m in event.matches if m.players < 2 and not m.password)
        if self._rejoining and self.match is not None:
            self._rejoining = False
            if all(m.match_id != self.match.match_id for m in event.matches):
                self._gone(referee)
                return
        for command in self.seeker.listed(self.matches, max(referee.match.match_length, 1)):
            self._send(command)

    def _joined(self, event: Joined) -> None:
        if event.player == self.user:
            if self.match is None or self.match.match_id != event.match_id:
                self.match = BoundMatch(event.match_id, None, 0)
                self._last = None
            self._rejoining = False
        elif self.match is not None and event.match_id == self.match.match_id:
            self.match = BoundMatch(self.match.match_id, event.player, self.match.points)
            self.seeker.stop()
            self.trouble = None
            log.info("%s joined match %d", event.player, self.match.match_id)

    def _left(self, event: Left) -> None:
        if self.match is not None and event.player == self.match.opponent:
            self.trouble = f"{event.player} left the match: waiting for them to come back"
            log.warning("%s", self.trouble)

    def _refused(self, event: CommandRefused, seat: OnlineSeat | None) -> None:
        log.warning("the server refused %s: %s", event.command, event.reason[:LOGGED_CHARS])
        if event.command in ("join", "create"):
            self.seeker.refused(self._now)
        elif event.command in ("move", "ok") and self.outgoing.sender.refused():
            self._refuse_play(event.reason[:LOGGED_CHARS], seat)
        elif event.command == "roll":
            self._roll_sent = False

    def _refuse_play(self, reason: str, seat: OnlineSeat | None) -> None:
        """The server did not take this board's play: its moves undone there, and the
        turn open again here."""
        self._send(self.dialect.undo())
        if seat is not None:
            seat.tell(ServerRefusal(reason))

    def _board(self, event: GameBoard, referee: Referee, seat: OnlineSeat | None) -> None:
        self._server = event
        match = self.match
        if match is None or event.spectating or event.variant != VARIANT_BACKGAMMON:
            return
        opponent = event.opponent.name or match.opponent
        self.match = BoundMatch(match.match_id, opponent, event.points)
        if event.opponent.name:
            self.seeker.stop()
        view = view_of(event, self.hand)
        if seat is None:
            self._last = view
            return
        last = self._last
        if last is None:
            last = self._caught_up(view, referee, seat)
        won = self._won
        resigned = None if won is None or not won.resigned else (
            self.hand if won.resigned == self.user else self.color)
        for fact in facts(last, view, resigned, 0 if won is None else won.points):
            seat.tell(fact)
        self._last, self._won = view, None
        if view.on_roll is not self.hand or view.dice is None:
            self._roll_sent = False
        commands, refusal = self.outgoing.sender.shown(event)
        for command in commands:
            self._send(command)
        if refusal is not None:
            log.warning("the server did not take this board's play: %s", refusal)
            self._refuse_play(refusal, seat)

    def _caught_up(self, view: ServerView, referee: Referee, seat: OnlineSeat) -> ServerView:
        """The first board of a match (joined, or rejoined): the game here as the last
        board known, and what the server never got of this board's sent again."""
        here = view_here(referee, referee.position().to_board(referee.match.on_roll))
        if here.points != view.points:
            game = followed(view, f"the server's match is of {view.points} points")
            if game is not None:
                seat.tell(game)
            return view
        again = self.outgoing.unsent(view, referee, self._server)
        for command in again:
            self._send(command)
        return view if again else here

    # -- this board's decisions ----------------------------------------------------------

    def _follow_event(self, event: Event) -> None:
        """Keep up with one of the referee's events; send what is this board's own."""
        if event.type is EventType.NEW_MATCH:
            self._leave()
            if not self._ending:  # a new match of the player's: look for an opponent
                self.seeker.new_match()
                self.trouble = None
            self._ending = False
        elif self.match is not None:
            for command in self.outgoing.of_event(event, self._server):
                self._send(command)

    def _may_roll(self) -> bool:
        """Whether the server waits for this board's ``roll`` (not rolled for it)."""
        last = self._last
        return last is not None and last.winner is None and (
            last.on_roll is None or (last.on_roll is self.hand and last.dice is None))

    # -- finding an opponent --------------------------------------------------------------

    def _seek(self, referee: Referee, now: int) -> None:
        """The search for an opponent, while one is due; MENU cancels it."""
        if self.seeker.seeking and referee.menu.armed(now):
            log.info("MENU: looking for an online opponent cancelled")
            self._leave()
            self.seeker.stop(cancel=True)
            return
        due = self.match is None and _new_match_set_up(referee)
        for command in self.seeker.step(due=due, connected=self.link.connected, now=now):
            self._send(command)

    def _leave(self) -> None:
        """Leave the match bound (and stop looking)."""
        if self.match is not None:
            self._send(self.dialect.leave())
        self.match, self._last, self._won = None, None, None
        self.seeker.stop()

    def _gone(self, referee: Referee) -> None:
        """The server no longer has the match (restarted): it ends here too."""
        match = self.match
        assert match is not None
        self.trouble = f"the server no longer has match {match.match_id} (it restarted): " \
                       "the match is over; a new one begins"
        log.warning("%s", self.trouble)
        self.match, self._last = None, None
        self.seeker.stop(cancel=True)  # MENU starts the next one
        self._ending = True
        self._out += referee.new_match(referee.match.match_length, self._now)

    # -- sending and reporting -----------------------------------------------------------

    def _send(self, command: str) -> None:
        self._outbox.append(command)

    def _report(self) -> None:
        now = (self.link.connected, self.user, self.match)
        if now != self._reported:
            self._reported = now
            self._emit(EventType.ONLINE_STATUS, connected=now[0], user=now[1],
                       match=None if now[2] is None else now[2].to_json())

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        self._out.append(Event(kind, self._now, fields))

    def _flush(self) -> list[Event]:
        out, self._out = self._out, []
        return out


def online_seat(seat: object) -> OnlineSeat | None:
    """``seat`` when it is the online opponent's (the session tells it the server's facts);
    None otherwise."""
    return seat if isinstance(seat, OnlineSeat) else None


def _new_match_set_up(referee: Referee) -> bool:
    """Whether the board is set up for a new match's first game: its opening to throw."""
    return referee.phase is Phase.OPENING and tuple(referee.match.score) == (0, 0)
