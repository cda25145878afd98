"""This board's decisions going to the server (:class:`Outgoing`); its play's moves in as
few commands as the server takes, then ``ok`` (:class:`PlaySender`).

bgammon checks every move of one ``move`` command against the turn as it stood before
the command (a checker moved twice, ``bar/21 21/18``, is refused whole), then makes them
one by one.  So :class:`PlaySender` sends together the moves of the play that the
server's board allows as they are (its ``available`` moves), waits for the board that
shows them made, and goes on from there; the last board shows the whole play, and
``ok`` ends the turn (not after a play that won the game: the server ends it).  A board
that still shows only the moves made before the last command was sent before the server
read it (the board a rejoin sends, say), and is passed over; one that shows another
count is a refusal, as the server's ``failedmove`` and ``failedok`` are.
"""

from __future__ import annotations

import logging

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.deciding import Table
from tavla_pi.game.view import Phase
from tavla_pi.online.board import server_moves
from tavla_pi.online.follow import ServerView
from tavla_pi.online.model import ME, Dialect, GameBoard, ServerMove
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position

log = logging.getLogger("tavla_pi.online")


class PlaySender:
    """The play on its way (see the module): the commands to send next, as the server's
    boards show the moves made so far."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._moves: tuple[ServerMove, ...] = ()
        self._sent = 0
        self._before = 0
        self._echo = False
        self._ok_sent = False
        self.open = False
        """True from the play's first command until the turn passed or it was refused."""

    def start(self, play: Play, server: GameBoard | None) -> list[str]:
        """Send ``play``; ``server`` is the server's board now (its moves allowed)."""
        self._moves, self._sent, self.open, self._ok_sent = server_moves(play), 0, True, False
        self._echo = False
        shown = server if server is not None and server.turn == ME \
            and not server.pending else None
        return self._next(shown)

    def shown(self, board: GameBoard) -> tuple[list[str], str | None]:
        """What to send now that the server shows ``board``; and why the play was not
        taken, when the server made fewer moves than were sent (the play is then over)."""
        if not self.open:
            return [], None
        if board.turn != ME or board.winner != 0:
            self.open = False  # the turn passed, or the play won the game
            return [], None
        if not self._echo:
            return [], None
        made = len(board.pending)
        if made == self._before:
            return [], None  # a board from before the last command reached the server
        if made != self._sent:
            self.open = False
            return [], f"the server made {made} of the {self._sent} moves sent"
        self._echo = False
        return self._next(board), None

    def refused(self) -> bool:
        """The server refused a ``move`` or the ``ok``: whether it was this play's (the
        play is then over)."""
        was, self.open = self.open, False
        return was

    def _next(self, shown: GameBoard | None) -> list[str]:
        """The next command: the moves the server allows as they are, else one move;
        ``ok`` once all are made."""
        rest = self._moves[self._sent:]
        if not rest:
            if self._ok_sent:
                return []
            self._ok_sent = True
            return [self.dialect.ok()]
        allowed = set(shown.available) if shown is not None else set()
        count = next((n for n, move in enumerate(rest) if move not in allowed), len(rest))
        chunk = rest[:max(count, 1)]
        self._before = self._sent
        self._sent += len(chunk)
        self._echo = True
        return [self.dialect.move(chunk)]


class Outgoing:
    """This board's decisions as the server's commands (``hand``: the colour its player
    plays): its play (:class:`PlaySender`), ``ok`` for a turn with no move, the cube's
    actions, a resignation; and the play the server never got, sent again."""

    def __init__(self, dialect: Dialect, hand: Color) -> None:
        self.dialect, self.hand = dialect, hand
        self.sender = PlaySender(dialect)
        self._turn: tuple[Position, tuple[int, int]] | None = None

    def remember(self, table: Table) -> None:
        """The start of the hand's turn being moved (its play is found from it)."""
        match = table.match
        if table.phase is Phase.MOVING and match.on_roll is self.hand \
                and match.dice is not None:
            self._turn = (table.position(), match.dice)

    def of_event(self, event: Event, server: GameBoard | None) -> list[str]:
        """The commands one of the referee's events makes (none: not this board's own);
        ``server`` is the server's board last read."""
        kind, player = event.type, event.fields.get("player")
        if kind is EventType.RESIGN_ACCEPTED and player == self.hand.opponent.value:
            return [self.dialect.resign()]  # this board's player resigned
        if player != self.hand.value:
            return []
        if kind is EventType.PLAYED:
            play = self._own_play(event)
            return [] if play is None else self.sender.start(play, server)
        commands = {EventType.NO_LEGAL_MOVE: self.dialect.ok,
                    EventType.DOUBLE_OFFERED: self.dialect.double,
                    EventType.DOUBLE_TAKEN: self.dialect.ok,
                    EventType.DOUBLE_DROPPED: self.dialect.resign}
        command = commands.get(kind) if isinstance(kind, EventType) else None
        return [] if command is None else [command()]

    def _own_play(self, event: Event) -> Play | None:
        """The play the hand committed (its moves), from the turn it began at."""
        if self._turn is None:
            log.warning("this board's play %s: its turn was not seen; the server's board "
                        "will be followed", event["play"])
            return None
        position, dice = self._turn
        return next((p for p in position.legal_plays(dice)
                     if p.result.position_id() == event["position_id"]), None)

    def unsent(self, view: ServerView, table: Table, server: GameBoard | None) -> list[str]:
        """This board's last play sent again, when the server still shows the turn it
        began at (it never got it: the board stopped first); else nothing."""
        undo = table.undo
        if undo is None or undo.player is not self.hand or view.on_roll is not self.hand \
                or view.pending or view.dice != (max(undo.dice), min(undo.dice)):
            return []
        start = Position.from_position_id(undo.start.position_id())
        if start.to_board(self.hand) != view.board:
            return []
        after = undo.result.position_id()
        play = next((p for p in start.legal_plays(undo.dice)
                     if p.result.position_id() == after), None)
        if play is None:
            return []
        log.info("the server never got this board's play %s: sent again", play.notation)
        return self.sender.start(play, server)
