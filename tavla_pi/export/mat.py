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

A match that is not Portes alone (a tavli match: Portes, Plakoto and Fevga
in turn; or Plakoto or Fevga alone) is still one file that gnubg imports.
GNU Backgammon plays Portes only, so its Portes games are real games below
the "point match" line, each with the score it started from (gnubg reads
every game's own score line, so it analyses each at the right score) and
its number in the match.  The Plakoto and Fevga games are comments in the
same row layout ("; Game 2: Plakoto", the score line, the rows of rolls and
plays in the mover's numbering, "Wins 2 points (mother)" or "Draw"), in the
header above the "point match" line, in the order of the match, with a
line for each Portes game saying it follows below::

     ; Game 1: Portes: White wins 1 point (below)
     ;
     ; Game 2: Plakoto
     ; White : 1                      Black : 0
     ;   1)                             53: 1/6 1/4
     ...

They are in the header because that is the only place gnubg 1.07 reads a
``;`` line as a comment: between games it takes any line holding "Game " for
the start of a game, and reads a roll ("64:") after a ``)`` or at the second
colon of a line as a move, ``;`` or not.  gnubg keeps the header's comments
as the match's comment.  With no cube action in the match (a tavli match's
Portes games have none unless ``[tavli] cube_in_portes``), the header says
``; [CubeLimit "1"]``, which later gnubg versions read as "no cube"; gnubg
1.07 ignores it, so the header also says to ``set cube use off`` before
``import mat``.  A match with no Portes game gives gnubg no game to import.
"""

from __future__ import annotations

from tavla_pi.export.games import Entry, GameRecord, MatchRecord, gnubg_game
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import in_turn

PLAYER_NAMES = ("White", "Black")
"""GNU Backgammon's players 0 and 1."""

_LEFT_WIDTH = 27
_RIGHT_COLUMN = 34


def format_match(record: MatchRecord) -> str:
    """The whole match file, ending with a newline."""
    if not record.portes_only:
        return format_tavli_match(record)
    games = [(number, game) for number, game in enumerate(record.games, start=1)]
    return _match_file(['; [Transcriber "tavla-pi"]'], record.match_length, games)


def format_tavli_match(record: MatchRecord) -> str:
    """The file of a match that is not Portes alone: Plakoto and Fevga as comments in
    the header, the Portes games as gnubg's games (see the module doc)."""
    portes = [(g.number, g) for g in record.games if gnubg_game(g.variant)]
    header = ['; [Transcriber "tavla-pi"]']
    if not record.cube_used:
        header.append('; [CubeLimit "1"]')
    header += [";", *(f"; {line}" for line in about(record, [n for n, _ in portes])), ";"]
    for game in record.games:
        if gnubg_game(game.variant):
            header.append(f"; Game {game.number}: Portes: {PLAYER_NAMES[_side(game)]} "
                          f"{_result(game).lower()} (below)")
        else:
            header += [";" + line for line in format_game(game.number, game)]
        header.append(";")
    return _match_file(header, record.match_length, portes)


def about(record: MatchRecord, portes: list[int]) -> list[str]:
    """The header's account of a match that is not Portes alone: what gnubg imports."""
    length = f"to {record.match_length} points" if record.match_length else "(money play)"
    lines = [f"A tavli match {length}: Portes, Plakoto and Fevga in turn."
             if in_turn(record.variant) else
             f"A match of {record.variant.capitalize()} {length}."]
    if not portes:
        return [*lines, "GNU Backgammon plays Portes only, and no game of Portes was",
                "finished in this match: gnubg finds no game to import in this file.",
                *_variant_rows()]
    lines += [f"GNU Backgammon plays Portes only: it imports {game_list(portes)} (Portes) below,",
              "each at the score it started from.", *_variant_rows()]
    if not record.cube_used:
        lines += ["No cube was used: in gnubg 1.07, 'set cube use off' before 'import mat'",
                  "(later versions read the CubeLimit line above)."]
    return lines


def game_list(numbers: list[int]) -> str:
    """"game 1", "games 1 and 4", "games 1, 4 and 7"."""
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return f"games {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _variant_rows() -> list[str]:
    return ["The Plakoto and Fevga games are here, in a match file's rows: each roll and",
            "its play in the mover's own numbering (24 the start, 0 off, * a pin)."]


def _match_file(header: list[str], length: int,
                games: list[tuple[int, GameRecord]]) -> str:
    lines = [*header, "", f" {length} point match", ""]
    for number, game in games:
        lines += format_game(number, game)
        lines.append("")
    return "\n".join(lines) + "\n"


def format_game(number: int, game: GameRecord) -> list[str]:
    """The lines of one game: its number (and name, if not Portes), the score line, the
    rows, the result."""
    white, black = PLAYER_NAMES
    head = f"{white} : {game.score[0]}"
    title = f" Game {number}" if gnubg_game(game.variant) else \
        f" Game {number}: {game.variant.capitalize()}"
    lines = [title, f" {head:<31}{black} : {game.score[1]}"]
    slots = _slots(game.entries)
    result = _result(game)
    white_dropped = len(slots) % 2 == 1 and slots[-1] == "Drops"
    if white_dropped:  # gnubg reads the win on the drop's row, as it writes it
        slots.append(result)
    for row in range(0, len(slots), 2):
        right = slots[row + 1] if row + 1 < len(slots) else ""
        lines.append(_row(row // 2 + 1, slots[row], right))
    if not white_dropped:
        indent = _RIGHT_COLUMN if game.winner is Color.BLACK else 6
        lines.append(" " * indent + result)
    return lines


def _result(game: GameRecord) -> str:
    """"Wins 2 points", and in Plakoto and Fevga how ("(mother)"); or "Draw"."""
    if game.winner is None:
        return "Draw"
    wins = f"Wins {game.points} point{'s' if game.points != 1 else ''}"
    if not gnubg_game(game.variant) and game.kind not in ("", "single"):
        wins += f" ({game.kind})"
    return wins


def _side(game: GameRecord) -> int:
    return 1 if game.winner is Color.BLACK else 0


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
