"""The running product in one object: pipeline, referee, journal and event hub.

``commit()`` is the one way events leave the game: into the journal first
(written and synced), then to the hub (web clients), the log and systemd's
status line.  An event a client has seen is therefore always on disk.  When
the journal cannot take events the game is ahead of it: ``failure`` keeps
why (a simulator request under way answers with it), ``on_fatal`` stops the
daemon, and systemd's restart brings the game back from the journal.

With a friend's board (``remote``, :class:`~tavla_pi.remote.session.RemoteGame`),
each step first reads what the peer sent, and each batch of events carries the
messages it sends, journaled with it and published once it is on disk.

With an online opponent (``online``, :class:`~tavla_pi.online.session.OnlineGame`), each
step first takes in what the server said, and each batch's own decisions become the
server's commands, sent once the batch is journaled.

With the broadcast on (``broadcast``, :class:`~tavla_pi.remote.broadcast.Broadcast`),
each batch, once journaled, is offered to it with the viewer's state after it; the
offer never waits for the broker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tavla_pi.daemon import simstore
from tavla_pi.daemon.logs import describe
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.reviews import Reviews
from tavla_pi.events.event import Event
from tavla_pi.events.hub import EventHub
from tavla_pi.game.players import PlayerNames
from tavla_pi.game.referee import Referee
from tavla_pi.game.view import Phase
from tavla_pi.online.session import OnlineGame
from tavla_pi.pipeline.snapshot import snapshot
from tavla_pi.pipeline.step import Pipeline
from tavla_pi.remote.broadcast import Broadcast, viewer_state
from tavla_pi.remote.session import RemoteGame

log = logging.getLogger("tavla_pi.daemon")


class EventJournal(Protocol):
    """Where events go before anyone sees them (``tavla_pi.events.journal.Journal``)."""

    def append(self, events: Sequence[Event]) -> None:
        """Write, flush and sync ``events``."""
        ...

    def close(self) -> None:
        """Release the file; safe twice."""
        ...


class Core:
    """The pipeline and the referee it feeds, with the journal and the hub behind them."""

    def __init__(self, pipeline: Pipeline, journal: EventJournal, hub: EventHub,
                 notifier: Notifier, *, rolls: simstore.RollCount | None = None,
                 reviews: Reviews | None = None, remote: RemoteGame | None = None,
                 broadcast: Broadcast | None = None, players: PlayerNames | None = None,
                 online: OnlineGame | None = None) -> None:
        self.pipeline = pipeline
        self.referee: Referee = pipeline.referee
        self.journal = journal
        self.hub = hub
        self.notifier = notifier
        self.rolls = rolls or simstore.RollCount()
        self.reviews = reviews
        """The games' reviews by gnubg, made in the background (None: none are made)."""
        self.remote = remote
        """The friend's board's side of the match (None: no remote board is configured)."""
        self.broadcast = broadcast
        """Where the game goes for the club's viewers (None: not broadcast)."""
        self.online = online
        """The online server's side of the match (None: no online opponent is configured)."""
        self.players = players or PlayerNames()
        self.on_fatal: Callable[[BaseException], None] | None = None
        self.failure: BaseException | None = None
        self._status = ""

    def step(self) -> None:
        """One scan of the board: its events committed, then the LEDs show the result;
        then a review finished in the background, if any, is committed."""
        now = self.pipeline.clock.now_ms()
        early = [] if self.remote is None else self.remote.before(self.referee, now)
        if self.online is not None:
            early += self.online.before(self.referee, now)
        self.commit(early + self.pipeline.decide())
        self.pipeline.show(self.pipeline.decided_at)
        if self.reviews is not None:
            self.commit(self.reviews.poll(self.pipeline.decided_at))

    def commit(self, events: list[Event]) -> None:
        """Journal ``events`` (with the messages they send the remote board), then publish
        them, log them and update the status line."""
        if self.remote is not None:
            events = events + self.remote.after(self.referee, events)
        if self.online is not None:
            events = events + self.online.after(self.referee, events)
        if events:
            self._journal(events)
        if self.remote is not None:  # what the journal holds (and what is sent again)
            self.remote.publish()
        if self.online is not None:
            self.online.publish()
        if not events:
            return
        self.rolls = self.rolls.add(events)
        if self.reviews is not None:
            self.reviews.note(events)
        self.hub.publish(events)
        self.cast(events)
        for event in events:
            level, line = describe(event)
            log.log(level, line)
        self.update_status()

    def cast(self, events: list[Event]) -> None:
        """Offer ``events`` (journaled) and the viewer's state after them to the broadcast."""
        if self.broadcast is not None:
            self.broadcast.offer(events, viewer_state(self.state()))

    def _journal(self, events: list[Event]) -> None:
        try:
            self.journal.append(events)
        except Exception as exc:  # the game is now ahead of its journal: stop, restart from it
            self.failure = exc
            if self.on_fatal is not None:
                self.on_fatal(exc)
            raise

    def update_status(self) -> None:
        """Tell systemd what the board is doing, when it changed."""
        text = status_line(self.referee)
        if text != self._status:
            self._status = text
            self.notifier.status(text)

    def state(self) -> dict[str, Any]:
        """``GET /api/state``; ``events`` counts the current game's events (as /api/events
        sends them first)."""
        state = snapshot(self.referee, self.pipeline, self.pipeline.backend.name,
                         self.players)
        state["events"] = len(self.hub.game)
        status = None if self.remote is None else self.remote.status(self.referee)
        state["remote"] = None if status is None else status.to_json()
        state["online"] = None if self.online is None else self.online.status(self.referee)
        return state


def status_line(referee: Referee) -> str:
    """One line for ``systemctl status``: the phase, whose turn, the score."""
    match = referee.match
    score = f"score {match.score[0]}-{match.score[1]}"
    if match.match_length:
        score += f" of {match.match_length}"
    phase = referee.phase
    if phase in (Phase.AWAIT_ROLL, Phase.MOVING, Phase.NO_MOVE, Phase.DOUBLE_OFFERED,
                 Phase.RESIGN_OFFERED):
        who = match.on_roll.value
        doing = {Phase.AWAIT_ROLL: f"{who} to roll", Phase.MOVING: f"{who} moving",
                 Phase.NO_MOVE: f"{who} cannot move",
                 Phase.DOUBLE_OFFERED: f"{who} doubled",
                 Phase.RESIGN_OFFERED: f"{who} offers to resign"}[phase]
        return f"{doing}, cube {match.cube}, {score}"
    names = {Phase.SETUP: "waiting for the starting position", Phase.OPENING: "opening roll",
             Phase.GAME_OVER: "game over", Phase.MATCH_OVER: "match over"}
    return f"{names[phase]}, {score}"
