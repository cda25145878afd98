"""``tavla-pi key``: this board's public key, as one line to read out or paste.

The friend's board puts that line in its config (``[opponent] remote_key``), and a
club's page in its boards file (docs/REMOTE.md).  The key lives in the state
directory the daemon uses (as ``tavla-pi run`` finds it); if there is none yet, it is
made now, as the daemon would on its first start.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tavla_pi.cli.run import state_dir_of
from tavla_pi.config import default_config_path, load_config
from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.remote.keys import KEY_FILE, BoardKey


def add_parser(subparsers: Any) -> None:
    """Register ``key``."""
    parser = subparsers.add_parser(
        "key", help="this board's public key, as one line for the friend's board",
        description="Prints this board's public key as one line (made if there is none "
                    "yet): the friend's board's [opponent] remote_key.")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=f"settings file, for its [daemon] state_dir (default: "
                             f"{default_config_path()}, if it exists)")
    parser.add_argument("--state-dir", type=Path, metavar="DIR",
                        help="where the key lives (default: the config's [daemon] "
                             f"state_dir, $STATE_DIRECTORY, or {default_state_dir()})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the key's line (on stderr too, where a key was made just now)."""
    state_dir = state_dir_of(args, load_config(args.config))
    made = not (state_dir / KEY_FILE).exists()
    key = BoardKey.load_or_make(state_dir)
    if made:
        print(f"tavla-pi: {state_dir / KEY_FILE}: a new key, made now", file=sys.stderr)
    print(key.public.text)
    return 0
