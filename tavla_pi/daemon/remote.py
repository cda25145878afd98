"""The friend's board in the daemon: the broker's connection and the remote side, opened.

Only with ``[opponent] remote`` (and ``[network] broker``, which the config
checks) is there a remote side: the connection starts in the background
(:class:`~tavla_pi.remote.link.Link`; a broker that is away is one log line
and a retry with backoff), and the remote side goes on from the journal's
record of the match (:mod:`tavla_pi.remote.record`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import ExitStack

from tavla_pi.config import Config
from tavla_pi.events.event import Event
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.remote.audit import verify_rolls
from tavla_pi.remote.link import Link
from tavla_pi.remote.session import RemoteGame

log = logging.getLogger("tavla_pi.daemon")


def friends_of(config: Config) -> tuple[OpponentSettings, ...]:
    """The friends' boards the MENU and the page offer (the one the config names)."""
    opponent = config.opponent
    return (opponent,) if opponent.remote is not None else ()


def open_remote(config: Config, events: Sequence[Event], stack: ExitStack) -> RemoteGame | None:
    """The remote side of ``config``'s friend's board, its connection started (closed by
    ``stack``); None without one."""
    opponent, network = config.opponent, config.network
    if opponent.remote is None or opponent.color is None or network.board is None:
        return None
    for problem in verify_rolls(events, network.board):
        log.warning("journal: the dice: %s", problem)
    link = Link(network, opponent.remote)
    stack.callback(link.close)
    remote = RemoteGame(network.board, network.club, opponent.remote, opponent.color, link)
    remote.load(events)
    link.start()
    log.info("the board %s plays %s through %s as %s/%s", opponent.remote,
             opponent.color.value, network.broker, network.club, network.board)
    return remote
