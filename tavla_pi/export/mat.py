"""GNU Backgammon's match file (``.mat``, the Jellyfish text format) from a game record.

The layout is the one GNU Backgammon writes with ``export match mat`` and
reads with ``import mat``::

     3 point match

     Game 1
     White : 0                      Black : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 13/9              Doubles => 2
      3)  Takes                      ...
                                      Wins 1 point

White is GNU Backgammon's player 0 (the left column), Black player 1.  Each
row holds one action of White, then one of Black: a roll and its play in
the mover's own numbering, or a cube action.  gnubg splits a row at the
colon of the second roll, or else at the first double space after column
15, so the columns are padded to keep both true.  A money session is a
"0 point match".
"""

from __future__ import annotations

from tavla_pi.export.games import Entry, GameRecord, MatchRecord
from tavla_pi.rules.color import Color

PLAYER_NAMES = ("White", "Black")
"""GNU Backgammon's players 0 and 1."""

_LEFT_WIDTH = 27
_RIGHT_COLUMN = 34


def format_match(record: MatchRecord) -> str:
    """The whole match file, ending with a newline."""
    lines = ['; [Transcriber "tavla-pi"]', "", f" {record.match_length} point match", ""]
    for number, game in enumerate(record.games, start=1):
        lines += format_game(number, game)
        lines.append("")
    return "\n".join(lines) + "\n"


def format_game(number: int, game: GameRecord) -> list[str]:
    """The lines of one game: its number, the score line, the rows, the win."""
    white, black = PLAYER_NAMES
    head = f"{white} : {game.score[0]}"
    lines = [f" Game {number}", f" {head:<31}{black} : {game.score[1]}"]
    slots = _slots(game.entries)
    wins = f"Wins {game.points} point{'s' if game.points != 1 else ''}"
    white_dropped = len(slots) % 2 == 1 and slots[-1] == "Drops"
    if white_dropped:  # gnubg reads the win on the drop's row, as it writes it
        slots.append(wins)
    for row in range(0, len(slots), 2):
        right = slots[row + 1] if row + 1 < len(slots) else ""
        lines.append(_row(row // 2 + 1, slots[row], right))
    if not white_dropped:
        indent = 6 if game.winner is Color.WHITE else _RIGHT_COLUMN
        lines.append(" " * indent + wins)
    return lines


def _slots(entries: tuple[Entry, ...]) -> list[str]:
    """The entries laid out alternately White, Black; a gap where a player did nothing."""
    slots: list[str] = []
    for entry in entries:
        column = 0 if entry.player is Color.WHITE else 1
        if len(slots) % 2 != column:
            slots.append("")
        slots.append(entry.text)
    return slots


def _row(number: int, left: str, right: str) -> str:
    left = _cell(left)
    gap = " " if len(left) < _LEFT_WIDTH else "  "
    return f"{number:3d}) {left:<{_LEFT_WIDTH}}{gap}{_cell(right)}".rstrip()


def _cell(text: str) -> str:
    """Cube actions are written with a leading space, as gnubg does."""
    return f" {text}" if text[:1].isalpha() and not text.startswith("Wins") else text
