"""``tavla-pi run``: the daemon (what the systemd unit starts).

Board -> decode -> reconcile -> game -> journal, the LEDs and the HTTP
interface, in one asyncio process.  Exit status 0 after SIGTERM or SIGINT,
2 for a bad config or usage (one line on stderr naming file and key), 1 when
the board, the state directory (journal, saved simulated board) or the HTTP
address fails, at start-up and at run time alike.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla_pi.config import Config, default_config_path, load_config
from tavla_pi.daemon.logs import setup_logging
from tavla_pi.daemon.notify import Notifier
from tavla_pi.daemon.service import Service
from tavla_pi.daemon.startup import open_daemon, prepare_state_dir
from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.engine import find_gnubg

log = logging.getLogger("tavla_pi.daemon")


def add_parser(subparsers: Any) -> None:
    """Register ``run``."""
    parser = subparsers.add_parser(
        "run", help="the daemon: board, game, LEDs and the web interface",
        description="Runs the board: scans the sensors, referees the game, lights the LEDs, "
                    "keeps the journal and serves the web interface (docs/CONTRACTS.md section 5). "
                    "This is what the systemd unit starts.")
    add_common(parser)
    parser.add_argument("--backend", choices=("pi", "sim"),
                        help="the real board or the simulated one (default: the config's "
                             "[board] backend; 'auto' uses the real board when found)")
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help="where the journal and calibration live (default: the config's "
                             "[daemon] state_dir, $STATE_DIRECTORY, or "
                             f"{default_state_dir()})")
    parser.set_defaults(run=run)


def add_common(parser: argparse.ArgumentParser) -> None:
    """``--config`` and ``--http``, shared with ``tavla-pi sim``."""
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=f"settings file (default: {default_config_path()}, "
                             "if it exists; see config.example.toml)")
    parser.add_argument("--http", metavar="HOST:PORT",
                        help="where the web interface listens (default: the config's "
                             "[http] listen, 127.0.0.1:8750; port 0 picks a free one)")


def settings(args: argparse.Namespace) -> Config:
    """The config file with the command line's overrides, checked."""
    config = load_config(args.config)
    if args.http is not None:
        config = config.with_listen(args.http)
    if getattr(args, "backend", None) is not None:
        config = replace(config, backend=args.backend)
    config.check_exposure("--http" if args.http is not None else f"{config.source}: [http] listen")
    return config


def state_dir_of(args: argparse.Namespace, config: Config) -> Path:
    """``--state-dir``, the config's, systemd's ``$STATE_DIRECTORY`` or the user's."""
    if args.state_dir is not None:
        return Path(args.state_dir)
    if config.state_dir is not None:
        return config.state_dir
    service = os.environ.get("STATE_DIRECTORY")
    return Path(service.split(":")[0]) if service else default_state_dir()


def run(args: argparse.Namespace) -> int:
    """Run the daemon until SIGTERM."""
    config = settings(args)
    state_dir = prepare_state_dir(state_dir_of(args, config))
    setup_logging(config.log_level)
    warn_exposed_token(config)
    return serve(config, state_dir)


def serve(config: Config, state_dir: Path,
          on_ready: Callable[[str], None] | None = None) -> int:
    """Open the daemon's parts, run it, close everything (journal synced, LEDs blank)."""
    notifier = Notifier.from_environment()
    try:
        opened = open_daemon(config, state_dir, notifier, gnubg=find_gnubg())
        try:
            service = Service(opened.core, opened.sim, config.listen, token=config.token,
                              scan_hz=config.scan_hz, state_dir=state_dir,
                              speech=opened.speech, on_ready=on_ready)
            status = asyncio.run(service.run())
        finally:
            opened.close()
        log.info("stopped")
        return status
    finally:
        notifier.close()


def warn_exposed_token(config: Config) -> None:
    """A token in a file anyone may read is no secret: say so."""
    if config.token is None or not config.source:
        return
    try:
        mode = Path(config.source).stat().st_mode
    except OSError:
        return
    if mode & 0o004:
        log.warning("%s holds the HTTP token but is readable by every user: "
                    "chmod o-r %s", config.source, config.source)
