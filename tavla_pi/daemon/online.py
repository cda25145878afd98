"""The online server in the daemon: its connection and the online side of the match, opened.

With ``[opponent] online`` (which the config checks plays a colour at Portes) the board
has one connection to ``[online] server``
(:class:`~tavla_pi.online.connection.OnlineConnection`, on its own threads, started in
the background: a server that is away is one log line and a retry with a growing
pause), logged in under the name it had (a guest's kept in the state directory), and
an online side (:class:`~tavla_pi.online.session.OnlineGame`) going on from the
journal's record of the match (its last ``online_status``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from tavla_pi import __version__
from tavla_pi.clock import Clock
from tavla_pi.config import Config
from tavla_pi.events.event import Event
from tavla_pi.game.seating import seating
from tavla_pi.online.connection import OnlineConnection
from tavla_pi.online.names import NameStore
from tavla_pi.online.protocol import Bgammon, client_name
from tavla_pi.online.session import OnlineGame

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
