"""``tavla-pi club``: the club page, every board of a club live, on any board or a laptop.

Subscribes to the broker's ``tavla/<club>/+/(status|state|event)`` (the boards'
broadcast, docs/CLUB.md) and serves the page at ``http://HOST:PORT/``: a small board
per table, one full size with its log after a click, the boards gone marked so, and
the night's finished matches as ``.mat`` files (``--out DIR`` writes each there too).
The broker and its login come from ``--broker`` and ``--club`` or from the config's
``[network]`` (``broker``, ``club``, ``username``, ``password_file``, ``ca_file``).
``--boards FILE`` names the boards the page trusts, each with its key: their messages
must be signed by it; any other board is shown apart as unverified (every board, without
``--boards``).  Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla_pi.clock import MonotonicClock
from tavla_pi.club.listener import ClubListener, Handoff
from tavla_pi.club.model import ClubModel
from tavla_pi.club.site import ClubSite, write_match
from tavla_pi.club.trust import read_boards
from tavla_pi.config import load_config
from tavla_pi.config.fields import Listen, parse_broker, parse_listen
from tavla_pi.daemon.logs import setup_logging
from tavla_pi.errors import BadInputError
from tavla_pi.ratelog import RefusalLog
from tavla_pi.remote.keys import PublicKey
from tavla_pi.remote.messages import topic
from tavla_pi.remote.settings import NetworkSettings
from tavla_pi.web.server import HttpServer

CLUB_LISTEN = "127.0.0.1:8080"
FLUSH_S = 1.0
"""How often the counts of refused messages are looked at (and written once due)."""


def add_parser(subparsers: Any) -> None:
    """Register ``club``."""
    parser = subparsers.add_parser(
        "club", help="the club page: every board of the club live, from the broker",
        description="Serves a page showing every board of the club live (read from the MQTT "
                    "broker the boards broadcast to); click a board to follow it full size. "
                    "The night's finished matches download as GNU Backgammon .mat files.")
    parser.add_argument("--broker", default=None, metavar="URL",
                        help="mqtt://HOST:PORT or mqtts://HOST:PORT (default: the config's "
                             "[network] broker)")
    parser.add_argument("--club", default=None,
                        help="the club's name, the topic prefix (default: the config's, else home)")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="a config file whose [network] gives broker, club and login")
    parser.add_argument("--http", default=CLUB_LISTEN, metavar="HOST:PORT",
                        help=f"where the page listens (default {CLUB_LISTEN}; port 0: a "
                             "free one; 0.0.0.0:PORT shows it to the club's network)")
    parser.add_argument("--boards", type=Path, default=None, metavar="FILE",
                        help="the boards the page trusts: a board's name and its key (as "
                             "'tavla-pi key' prints it) on each line; their messages must be "
                             "signed by it. Other boards are shown apart as unverified (all "
                             "of them without --boards)")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="also write each finished match into DIR as a .mat file")
    parser.add_argument("--log-level", default="info",
                        choices=("debug", "info", "warning", "error"))
    parser.set_defaults(run=run)


def network_of(args: argparse.Namespace) -> NetworkSettings:
    """The broker, login and club: the config's ``[network]`` with the options over it."""
    network = NetworkSettings()
    if args.config is not None or args.broker is None:
        network = load_config(args.config).network
    if args.broker is not None:
        network = replace(network, broker=parse_broker(args.broker, "--broker"))
    if args.club is not None:
        network = replace(network, club=args.club)
    if network.broker is None:
        raise BadInputError("--broker", "no broker: give --broker mqtt://HOST:PORT or "
                                        "--config with [network] broker")
    topic(network.club, "club", "status")  # a club name the topics allow (MessageError)
    if args.out is not None and not args.out.is_dir():
        raise BadInputError("--out", f"{args.out} is not a folder")
    return network


def run(args: argparse.Namespace) -> int:
    """Serve the club page until Ctrl-C."""
    network = network_of(args)
    listen = parse_listen(args.http, "--http")
    keys = read_boards(args.boards) if args.boards is not None else None
    setup_logging(args.log_level)
    try:
        asyncio.run(serve_club(network, listen, args.out, keys))
    except OSError as exc:
        raise BadInputError(f"--http {listen}", f"cannot listen ({exc.strerror})") from None
    return 0


async def serve_club(network: NetworkSettings, listen: Listen, out: Path | None,
                     keys: Mapping[str, PublicKey] | None = None) -> None:
    """The page's server and the broker's listener, until SIGINT or SIGTERM; ``keys``:
    the boards the page trusts (None: none)."""
    loop = asyncio.get_running_loop()
    refusals = RefusalLog(logging.getLogger("tavla_pi.club"), MonotonicClock())
    model = ClubModel(network.club, write_match(out) if out is not None else None,
                      keys=keys, refusals=refusals)
    site = ClubSite(model)
    server = HttpServer(site.handle, listen.host, listen.port)
    await server.start()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)

    shown = Listen(listen.host, server.port)
    trusted = f"{len(keys)} boards verified" if keys else "no boards verified"
    print(f"tavla-pi club: the club {network.club!r} of {network.broker} is at "
          f"http://{shown}/  ({trusted}; Ctrl-C stops it)", flush=True)
    deliver = Handoff(loop, site.arrive, refusals)
    with ClubListener(network, deliver, refusals=refusals):
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FLUSH_S)
            refusals.flush()
    await server.close()
    refusals.write_held()  # what the last messages left held, said as the page stops
