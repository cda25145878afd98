"""The board on the network in the daemon: the broker's connection, the friend's board's
side and the broadcast, opened.

With ``[network] broker`` the board has one connection
(:class:`~tavla_pi.remote.link.Link`, started in the background; a broker that is
away is one log line and a retry with backoff) when it has a friend's board or
broadcasts (``[network] publish``, on by default).  Only with ``[opponent] remote``
(which the config checks needs the broker) is there a remote side, going on from the
journal's record of the match (:mod:`tavla_pi.remote.record`); the broadcast
(:class:`~tavla_pi.remote.broadcast.Broadcast`) shares the connection.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from tavla_pi.config import Config
from tavla_pi.events.event import Event
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.remote.audit import verify_rolls
from tavla_pi.remote.broadcast import Broadcast
from tavla_pi.remote.link import Link
from tavla_pi.remote.session import RemoteGame

log = logging.getLogger("tavla_pi.daemon")


def friends_of(config: Config) -> tuple[OpponentSettings, ...]:
    """The seats beyond the computer the MENU and the page offer: the friend's board, or
    the online opponent, the config names."""
    opponent = config.opponent
    seat = seating(opponent)
    return (opponent,) if seat.friend is not None or seat.online else ()


@dataclass(frozen=True, slots=True)
class Network:
    """What the board does on the network: its friend's board's side, its broadcast
    (each None when it does not)."""

    remote: RemoteGame | None = None
    broadcast: Broadcast | None = None


def open_network(config: Config, events: Sequence[Event], stack: ExitStack) -> Network:
    """The board's connection, started, with the remote side of ``config``'s friend's board
    and the broadcast, each if configured (all closed by ``stack``, the broadcast first)."""
    opponent, network = config.opponent, config.network
    if network.broker is None or network.board is None:
        return Network()
    seat = seating(opponent)
    friend = seat.friend
    if friend is None and not network.publish:
        return Network()
    link = Link(network, friend)
    stack.callback(link.close)
    remote = None
    if friend is not None and seat.color is not None:
        for problem in verify_rolls(events, network.board):
            log.warning("journal: the dice: %s", problem)
        remote = RemoteGame(network.board, network.club, friend, seat.color, link)
        remote.load(events)
        log.info("the board %s plays %s through %s as %s/%s", friend, seat.color.value,
                 network.broker, network.club, network.board)
    broadcast = Broadcast(network.board, link) if network.publish else None
    if broadcast is not None:
        stack.callback(broadcast.close)
        log.info("broadcasting the game through %s under tavla/%s/%s/", network.broker,
                 network.club, network.board)
    link.start()
    if broadcast is not None:
        broadcast.start()
    return Network(remote, broadcast)
