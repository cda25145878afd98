"""``tavla-pi review``: GNU Backgammon's review of a match, or of one of its games.

MATCH is a match journal (the state directory's ``journal.jsonl``, the
default, or an archived ``matches/*.jsonl``: its last match) or a match file
(``.mat``, by its name).  A journal is read as ``export`` reads it
(:mod:`tavla_pi.cli.trusted`), and its games are numbered as the daemon's
``review`` events number them (every ``game_started`` counts); games that
started from a loaded position cannot be reviewed.  gnubg analyses them
(``analyse match``) in a process of its own, its preferences in the state
directory; the report gives each player's figures, then the most costly
decisions (:mod:`tavla_pi.engine.review`).  ``--json`` prints the fields of
a ``review`` event instead (``game`` null for the whole match).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavla_pi.bounded import read_text
from tavla_pi.cli.trusted import trusted
from tavla_pi.daemon.opponent import PREFS_DIR
from tavla_pi.daemon.reviews import renumbered
from tavla_pi.decode.calibration import default_state_dir
from tavla_pi.engine import NOT_INSTALLED, GnubgReviewer, Level, ReviewRequest, find_gnubg
from tavla_pi.errors import BadInputError
from tavla_pi.events.history import History, read_matches
from tavla_pi.events.journal import JOURNAL_NAME
from tavla_pi.export import GameBook, format_match

MAX_MAT_BYTES = 4 * 1024 * 1024
"""The largest match file read (a long match is some tens of kB)."""


def add_parser(subparsers: Any) -> None:
    """Register ``review``."""
    parser = subparsers.add_parser(
        "review", help="GNU Backgammon's review of a match: errors, luck, costly decisions",
        description="Has GNU Backgammon analyse a match (analyse match) and prints each "
                    "player's error rate, chequer and cube errors, luck and rating, then the "
                    "most costly decisions with the better play. Needs gnubg "
                    f"({NOT_INSTALLED}).")
    parser.add_argument("match", nargs="?", type=Path, metavar="MATCH",
                        help="a match journal (journal.jsonl, matches/*.jsonl) or a .mat file "
                             "(default: the current match of --state-dir)")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="state directory holding journal.jsonl (and gnubg's preferences)")
    parser.add_argument("--game", type=int, default=None, metavar="N",
                        help="review game N of the match only (default: the whole match)")
    parser.add_argument("--level", default=Level.EXPERT.value, metavar="LEVEL",
                        help="gnubg's analysis level: " + ", ".join(v.value for v in Level)
                             + " (default: expert, 0-ply)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Review and print."""
    state_dir = args.state_dir or default_state_dir()
    path = args.match or state_dir / JOURNAL_NAME
    level = Level.named(args.level, "--level")
    request, order = match_request(path, args.game, level)
    program = find_gnubg()
    if program is None:
        raise BadInputError("review", f"GNU Backgammon is not installed: {NOT_INSTALLED}")
    review = GnubgReviewer.launch(state_dir / PREFS_DIR, program).review(request)
    fields = renumbered(review, order)
    print(json.dumps(fields, indent=2) if args.json else review_report(fields, path, level))
    return 0


def match_request(path: Path, game: int | None,
                  level: Level) -> tuple[ReviewRequest, list[int]]:
    """What to ask gnubg for ``path``, and the number of each game of its match file."""
    if not path.is_file():
        raise BadInputError(str(path), "no such file")
    if path.suffix.lower() == ".mat":
        request = ReviewRequest(read_text(path, MAX_MAT_BYTES, "a match file"), game, level)
        if not request.games:
            raise BadInputError(str(path), "holds no game (not a match file?)")
        order = list(range(1, request.games + 1))
    else:
        book = journal_games(path)
        if game is not None and game not in book.records:
            why = book.skipped.get(game, "the match has no such finished game")
            raise BadInputError("--game", f"game {game} cannot be reviewed: {why}")
        record, order = book.match_file(game)
        request = ReviewRequest(format_match(record), game and len(order), level)
    if game is not None and game not in order:
        raise BadInputError("--game", f"no game {game} in {path} (1..{len(order)})")
    return request, order


def journal_games(path: Path) -> GameBook:
    """The finished games of the last match of a journal file."""
    history = History()
    read_matches(path, history)
    if not history.matches:
        raise BadInputError(str(path), "holds no game")
    log, warning = trusted(history.matches[-1])
    for problem in [*history.warnings, warning]:
        if problem:
            print(f"tavla-pi: warning: {problem}", file=sys.stderr)
    book = GameBook()
    for event in log.events:
        book.follow(event)
    if not book.records:
        raise BadInputError(str(path), "holds no finished game to review")
    return book


# -- the report ------------------------------------------------------------------------------

Figure = Callable[[dict[str, Any]], str]
ROWS: tuple[tuple[str, Figure, str], ...] = (
    ("error rate", lambda p: f"{p['error_rate']:.1f}", "mEMG per decision"),
    ("rating", lambda p: p["rating"] or "n/a", ""),
    ("chequer errors", lambda p: f"{p['chequer']['count']} of {p['chequer']['decisions']}",
     "moves"),
    ("  equity lost", lambda p: f"{p['chequer']['errors']:.3f}", "EMG"),
    ("cube errors", lambda p: f"{p['cube']['count']} of {p['cube']['decisions']}", "decisions"),
    ("  equity lost", lambda p: f"{p['cube']['errors']:.3f}", "EMG"),
    ("luck", lambda p: f"{p['luck']:+.3f}", "EMG"),
    ("luck rate", lambda p: f"{p['luck_rate']:+.1f}", "mEMG per roll"),
)
"""The report's rows: name, the figure of one player, the unit."""


def review_report(fields: dict[str, Any], path: Path, level: Level) -> str:
    """The review in words: a table of both players, then the costly decisions."""
    what = "the match" if fields["game"] is None else f"game {fields['game']}"
    lines = [f"GNU Backgammon's review of {what} of {path} (level {level.value})", "",
             f"{'':<16}{'White':<14}Black"]
    for name, figure, unit in ROWS:
        cells = (figure(fields[color]) for color in ("white", "black"))
        lines.append((f"{name:<16}" + "".join(f"{c:<14}" for c in cells) + unit).rstrip())
    costly = fields["costly"]
    lines += ["", f"The {len(costly)} most costly decisions:" if costly else
              "No decision lost any equity."]
    for n, decision in enumerate(costly, start=1):
        lines += decision_lines(n, decision)
    return "\n".join(lines)


def decision_lines(n: int, d: dict[str, Any]) -> list[str]:
    """One costly decision: where, what was done, what was better, what it cost."""
    roll = "cube" if d["dice"] is None else f"{d['dice'][0]}-{d['dice'][1]}"
    return [f"{n:>2}. game {d['game']}, {d['player'].capitalize()}, {roll}: "
            f"{d['played']}; better {d['best']} (-{d['loss']:.3f})",
            f"    position {d['position_id']}, match {d['match_id']}"]
