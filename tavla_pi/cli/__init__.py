"""The ``tavla-pi`` command line (docs/CONTRACTS.md §3).

Each subcommand is a module in this package with ``add_parser(subparsers)``
and ``run(args) -> int``.  Bad usage or bad input exits 2 with one line on
stderr naming the place at fault; no traceback reaches the user.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from tavla_pi import __version__
from tavla_pi.errors import BadInputError, TavlaError

# Subcommand modules, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = ("run", "sim", "replay", "calibrate", "diag", "dice_stats",
                             "export", "review", "club", "broker_config", "key")


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"tavla_pi.cli.{name}")


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="tavla-pi", description="Controller of a sensing backgammon board."
    )
    parser.add_argument("--version", action="version", version=f"tavla-pi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        _load(name).add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BadInputError as exc:
        print(f"tavla-pi: {exc}", file=sys.stderr)
        return 2
    except TavlaError as exc:
        print(f"tavla-pi: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
