"""``tavla-pi export``: finished games as GNU Backgammon match files (``.mat``).

Reads every match the state directory remembers (``journal.jsonl`` and
``matches/``, never changing them), numbered from 1, oldest first, as
``--list`` shows them; damaged lines, and events that do not follow the
rules with the rest of their match, are left out with a warning
(:mod:`tavla_pi.cli.trusted`).  By default the latest match with a finished game is
written; ``--match N`` picks one, ``--all`` writes each to its own file.
GNU Backgammon reads the result with ``import mat FILE``.

GNU Backgammon plays Portes only.  A match that is not Portes alone (a tavli
match, or Plakoto or Fevga alone) is still one file gnubg imports: its
Portes games are gnubg's games, each at the score it started from, and the
Plakoto and Fevga games are comments in the same rows, in the file's header
(:mod:`tavla_pi.export.mat` says why there), so a person reads every game
and gnubg analyses the Portes ones.  A match with no Portes game gives gnubg
no game to import: ``--list`` says so, and writing one warns.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tavla_pi.cli.trusted import trusted_history
from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.errors import BadInputError
from tavla_pi.events.history import MatchLog
from tavla_pi.export import MatchRecord, format_match, record_match
from tavla_pi.export.games import gnubg_game
from tavla_pi.export.mat import game_list


def add_parser(subparsers: Any) -> None:
    """Register ``export``."""
    parser = subparsers.add_parser(
        "export", help="write finished games as GNU Backgammon match files (.mat)",
        description="Writes the finished games of a match in GNU Backgammon's match format "
                    "(import it in gnubg with: import mat FILE). White is gnubg's player 0, "
                    "Black player 1; a money session is a 0 point match. gnubg plays Portes "
                    "only: in a tavli match (or Plakoto or Fevga alone) the Portes games are "
                    "gnubg's games and the Plakoto and Fevga games are written as comments "
                    "in the file's header, in the same rows; a match with no Portes game "
                    "gives gnubg no game to import (--list says so). With no cube in the "
                    "match, give gnubg 1.07 'set cube use off' before 'import mat'.")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="state directory holding journal.jsonl and matches/")
    parser.add_argument("--out", type=Path, default=None, metavar="PATH",
                        help="file to write (default: standard output); with --all, a "
                             "directory (default: the current one)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--match", type=int, default=None, metavar="N",
                       help="the match numbered N by --list (default: the latest finished)")
    which.add_argument("--all", action="store_true",
                       help="every match with a finished game, one file each")
    which.add_argument("--list", action="store_true", help="list the matches and stop")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Export (or list) and say what could not be exported."""
    state_dir = args.state_dir or default_state_dir()
    history = trusted_history(state_dir)
    _warn(history.warnings)
    records = [(log, record(log)) for log in history.matches]
    if args.list:
        print(listing(records))
        return 0
    chosen = _chosen(args, records, state_dir)
    for log, rec in chosen:
        _warn(rec.skipped)
        if not any(gnubg_game(game.variant) for game in rec.games):
            _warn([f"match {log.number} has no game of Portes: gnubg finds no game to "
                   "import in its file"])
    if args.all:
        folder = args.out or Path()
        for log, rec in chosen:
            path = folder / f"tavla-match-{log.number}.mat"
            _write(path, format_match(rec))
            print(path)
    else:
        text = format_match(chosen[0][1])
        if args.out is None:
            sys.stdout.write(text)
        else:
            _write(args.out, text)
    return 0


def record(log: MatchLog) -> MatchRecord:
    """The game record of one match of the history."""
    return record_match(log.events, log.where, log.match_length)


def listing(records: list[tuple[MatchLog, MatchRecord]]) -> str:
    """One line per match: number, length, finished games, score, file; and for a match
    that is not Portes alone, its variant and the games gnubg imports."""
    if not records:
        return "no match recorded yet"
    lines = ["  N  length  games  score  file"]
    for log, rec in records:
        length = f"{rec.match_length} pt" if rec.match_length else "money"
        score = "-".join(map(str, rec.games[-1].final_score)) if rec.games else "0-0"
        line = f"{log.number:>3}  {length:>6}  {len(rec.games):>5}  {score:>5}  {log.path}"
        lines.append(line if rec.portes_only else f"{line}  ({_for_gnubg(rec)})")
    return "\n".join(lines)


def _for_gnubg(record: MatchRecord) -> str:
    """What gnubg takes of a match that is not Portes alone."""
    portes = [game.number for game in record.games if gnubg_game(game.variant)]
    taken = f"gnubg imports {game_list(portes)}" if portes else "no game for gnubg"
    return f"{record.variant}: {taken}"


def _chosen(args: argparse.Namespace, records: list[tuple[MatchLog, MatchRecord]],
            state_dir: Path) -> list[tuple[MatchLog, MatchRecord]]:
    finished = [(log, rec) for log, rec in records if rec.games]
    if args.match is not None:
        if not 1 <= args.match <= len(records):
            span = f"1..{len(records)}" if records else "none recorded"
            raise BadInputError("--match", f"no match {args.match} ({span})")
        log, rec = records[args.match - 1]
        if not rec.games:
            raise BadInputError(f"match {args.match} ({log.path})", "has no finished game yet")
        return [(log, rec)]
    if not finished:
        raise BadInputError(str(state_dir), "no finished game to export")
    return finished if args.all else finished[-1:]


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="ascii")
    except OSError as exc:
        raise BadInputError(str(path), f"cannot write ({exc.strerror})") from None


def _warn(warnings: Any) -> None:
    for warning in warnings:
        print(f"tavla-pi: warning: {warning}", file=sys.stderr)
