"""The board on the network in the daemon: its key, the broker's connection, the friend's
board's side and the broadcast, opened.

Every board has a key in its state directory (:mod:`tavla_pi.remote.keys`), made on its
first start (:func:`board_key`): everything it publishes is signed with it.  A board
with ``[opponent] remote`` needs ``[opponent] remote_key``, the friend's board's public
key, and does not start without it.  With ``[network] broker`` the board has one connection
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
from pathlib import Path

from tavla_pi.clock import Clock
from tavla_pi.config import Config
from tavla_pi.errors import ConfigError
from tavla_pi.events.event import Event
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.audit import verify_rolls
from tavla_pi.remote.broadcast import Broadcast
from tavla_pi.remote.keys import KEY_FILE, BoardKey, PublicKey
from tavla_pi.remote.link import Link
from tavla_pi.remote.peer import PeerWord
from tavla_pi.remote.session import RemoteGame

log = logging.getLogger("tavla_pi.daemon")


def friends_of(config: Config) -> tuple[OpponentSettings, ...]:
    """The seats beyond the computer the MENU and the page offer: the friend's board, or
    the online opponent, the config names."""
    opponent = config.opponent
    seat = seating(opponent)
    return (opponent,) if seat.friend is not None or seat.online else ()


def board_key(config: Config, state_dir: Path) -> BoardKey:
    """This board's key (made in ``state_dir`` on the first start); ConfigError, before
    anything is opened, for a friend's board whose key the config lacks or is this
    board's own."""
    key = BoardKey.load_or_make(state_dir)
    friend = seating(config.opponent).friend
    where = f"{config.source or 'the config'}: [opponent] remote_key"
    if friend is not None and config.remote_key is None:
        raise ConfigError(where, f"missing: the key of the board {friend} (run 'tavla-pi "
                                 f"key' on {friend} and add its line here: remote_key = "
                                 '"tavla-ed25519:...")')
    if config.remote_key == key.public:
        raise ConfigError(where, f"is this board's own key ({state_dir / KEY_FILE}): give "
                                 "the friend's board's")
    if friend is not None or config.network.broker is not None:
        log.info("this board's key: %s", key.public.text)
    return key


@dataclass(frozen=True, slots=True)
class Network:
    """What the board does on the network: its friend's board's side, its broadcast
    (each None when it does not)."""

    remote: RemoteGame | None = None
    broadcast: Broadcast | None = None


def open_network(config: Config, events: Sequence[Event], stack: ExitStack, key: BoardKey,
                 clock: Clock) -> Network:
    """The board's connection, started, with the remote side of ``config``'s friend's board
    and the broadcast, each if configured (all closed by ``stack``, the broadcast first);
    ``key`` signs what the board publishes (:func:`board_key`), ``clock`` times the
    refusals' log (it writes the counts it holds when ``stack`` closes)."""
    opponent, network = config.opponent, config.network
    if network.broker is None or network.board is None:
        return Network()
    seat = seating(opponent)
    friend = seat.friend
    if friend is None and not network.publish:
        return Network()
    link = Link(network, friend, key=key)
    stack.callback(link.close)
    remote = None
    if friend is not None and seat.color is not None:
        for problem in verify_rolls(events, network.board):
            log.warning("journal: the dice: %s", problem)
        refusals = RefusalLog(logging.getLogger("tavla_pi.remote"), clock)
        stack.callback(refusals.write_held)  # the counts held, said as the board stops
        word = PeerWord(friend, network.club, _friend_key(config), refusals)
        remote = RemoteGame(network.board, seat.color, link, word)
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


def _friend_key(config: Config) -> PublicKey:
    if config.remote_key is None:  # board_key refused to start without it
        raise ConfigError(f"{config.source}: [opponent] remote_key", "missing")
    return config.remote_key
