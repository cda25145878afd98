"""The online server in the daemon: its connection and the online side of the match, opened.

With ``[opponent] online`` (which the config checks plays a colour at Portes) the board
has one connection to ``[online] server``
(:class:`~tavla_pi.online.connection.OnlineConnection`, on its own threads, started in
the background: a server that is away is one log line and a retry with a growing
pause), logged in under the name it had (a guest's kept in the state directory), and
an online side (:class:`~tavla_pi.online.session.OnlineGame`) going on from the
journal's record of the match (its last ``online_status``).  :class:`OnlineDesk` is
``/api/online``: the open matches and the chat for the page, a match it chose joined.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla_pi import __version__
from tavla_pi.clock import Clock
from tavla_pi.config import Config
from tavla_pi.daemon.core import Core
from tavla_pi.daemon.settings import WHERE, request_object
from tavla_pi.errors import BadInputError
from tavla_pi.events.event import Event
from tavla_pi.game.seating import seating
from tavla_pi.online.connection import OnlineConnection
from tavla_pi.online.names import NameStore
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.session import OnlineGame
from tavla_pi.rules.color import Color

log = logging.getLogger("tavla_pi.daemon")

MATCH_NAME = "tavla-pi"
"""A match this board creates is named after the board ([network] board), else this."""


def open_online(config: Config, events: Sequence[Event], state_dir: Path, clock: Clock,
                stack: ExitStack) -> OnlineGame | None:
    """The online side of ``config``'s online opponent, its connection started (closed by
    ``stack``); None when the config sets no online opponent."""
    seat = seating(config.opponent)
    if not seat.online or seat.color is None:
        return None
    dialect = Bgammon(client_name(__version__, "en"))
    link = OnlineConnection(config.online, dialect, clock,
                            names=NameStore.in_state_dir(state_dir))
    stack.callback(link.close)
    game = OnlineGame(str(config.online.server), seat.color, link, dialect,
                      config.network.board or MATCH_NAME)
    game.load(events)
    link.start()
    log.info("an online opponent plays %s on %s", seat.color.value, config.online.server)
    return game


class OnlineDesk:
    """``/api/online`` of the running daemon (:class:`~tavla_pi.web.api.OnlineControl`):
    the server's open matches and the chat; a chosen match joined (a new match on the
    board, against the online opponent), a chat message sent."""

    def __init__(self, core: Core, game: OnlineGame, color: Color) -> None:
        self.core, self.game, self.color = core, game, color

    def listing(self) -> dict[str, Any]:
        """``{"matches": [{"id", "name", "points"}], "chat": [{"player", "message"}]}``."""
        bound = None if self.game.match is None else self.game.match.match_id
        return {"matches": [{"id": m.match_id, "name": m.name, "points": m.points}
                            for m in self.game.matches if m.match_id != bound],
                "chat": [{"player": p, "message": m} for p, m in self.game.chat.lines]}

    def act(self, body: bytes) -> dict[str, Any]:
        """One of ``{"join": ID}``, ``{"player": NAME}``, ``{"say": TEXT}``,
        ``{"list": true}``; the listing after it.  BadInputError naming the key."""
        asked = request_object(body, 'of one request, e.g. {"join": 12} or {"say": "gg"}')
        if len(asked) != 1 or next(iter(asked)) not in ACTS:
            raise BadInputError(WHERE, "expected one of " + ", ".join(
                f'"{key}"' for key in ACTS))
        key, value = next(iter(asked.items()))
        try:
            ACTS[key](self, value)
        except ValueError as exc:
            raise BadInputError(f"{WHERE}: {key}", str(exc)) from None
        return self.listing()

    def _join(self, match_id: object) -> None:
        if isinstance(match_id, bool) or not isinstance(match_id, int) or match_id < 1:
            raise ValueError(f"expected a match's id, a whole number from 1, got {match_id!r}")
        self._new_match()
        self.game.join(match_id=match_id)

    def _join_player(self, player: object) -> None:
        if not isinstance(player, str):
            raise ValueError(f"expected a player's name, got {player!r}")
        self.game.dialect.join_player(player)  # a name the server cannot take: ValueError
        self._new_match()
        self.game.join(player=player)

    def _say(self, text: object) -> None:
        if not isinstance(text, str):
            raise ValueError(f"expected a text, got {text!r}")
        self.game.say(text)

    def _list(self, value: object) -> None:
        if value is not True:
            raise ValueError(f"expected true, got {value!r}")
        self.game.list_matches()

    def _new_match(self) -> None:
        """A new match on the board against the online opponent (the joined match's
        length follows as the server says it)."""
        referee = self.core.referee
        now = self.core.pipeline.clock.now_ms()
        online = replace(referee.next_opponent, color=self.color, online=True, remote=None)
        self.core.commit(referee.choose_opponent(online, now))
        self.core.commit(referee.new_match(referee.match.match_length, now))


ACTS: dict[str, Callable[[OnlineDesk, object], None]] = {
    "join": OnlineDesk._join, "player": OnlineDesk._join_player, "say": OnlineDesk._say,
    "list": OnlineDesk._list}
"""What ``POST /api/online`` does, by its one key."""
