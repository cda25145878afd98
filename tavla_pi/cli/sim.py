"""``tavla-pi sim``: the whole product on a desktop, on the simulated board.

The daemon of ``tavla-pi run`` on the ``sim`` backend, with a fresh state
directory that is removed afterwards.  It prints the page's address;
``--open`` opens it in the browser.  Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import webbrowser
from dataclasses import replace
from pathlib import Path
from typing import Any

from tavla_pi.cli.run import add_common, serve, settings
from tavla_pi.daemon.logs import setup_logging
from tavla_pi.daemon.service import ListenError


def add_parser(subparsers: Any) -> None:
    """Register ``sim``."""
    parser = subparsers.add_parser(
        "sim", help="the whole product on the simulated board, in the browser",
        description="Runs the daemon on the simulated board with a temporary state directory "
                    "and prints the web address. POST /api/sim drives the board (scenario "
                    "actions, docs/CONTRACTS.md section 4).")
    add_common(parser)
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulated board until Ctrl-C."""
    config = replace(settings(args), backend="sim")
    setup_logging(config.log_level)

    def ready(url: str) -> None:
        print(f"tavla-pi sim: the simulated board is at {url}  (Ctrl-C stops it)", flush=True)
        if args.open:
            webbrowser.open(url)

    with tempfile.TemporaryDirectory(prefix="tavla-pi-sim-") as state:
        try:
            return serve(config, Path(state), ready)
        except ListenError as exc:
            if args.http is not None or config.listen.port == 0:
                raise
            print(f"tavla-pi sim: {exc}; using a free port instead", file=sys.stderr)
            return serve(replace(config, listen=replace(config.listen, port=0)), Path(state),
                         ready)
