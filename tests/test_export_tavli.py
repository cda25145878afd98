"""A tavli match (or Plakoto or Fevga alone) exported: one .mat file gnubg imports, with
the Portes games as gnubg's games and the Plakoto and Fevga games as header comments."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from journal_support import DirectMatch, Policy, W, direct_match

from tavla_pi.cli.trusted import trusted
from tavla_pi.events.event import Event
from tavla_pi.events.history import MatchLog
from tavla_pi.events.types import EventType, event_type
from tavla_pi.export import Entry, GameBook, GameRecord, MatchRecord, format_match, record_match
from tavla_pi.export.mat import format_game
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.tavlimatch import TavliRules

B = Color.BLACK

PORTES_GAME = GameRecord(score=(0, 0), entries=(Entry(W, "31: 8/5 6/5"), Entry(B, "65: 24/13")),
                         winner=W, points=1, final_score=(1, 0), number=1)
PLAKOTO_GAME = GameRecord(score=(1, 0), entries=(Entry(W, "21: 24/22 24/23"),
                                                 Entry(B, "53: 24/19*/16"), Entry(W, "66:")),
                          winner=B, points=2, final_score=(1, 2), variant="plakoto",
                          kind="mother", number=2)
PLAKOTO_DRAWN = GameRecord(score=(1, 2), entries=(Entry(B, "65: 24/13"),), winner=None, points=0,
                         final_score=(1, 2), variant="plakoto", kind="draw", number=3)
PORTES_LATER = GameRecord(score=(1, 2), entries=(Entry(B, "42: 8/4 6/4"),), winner=B, points=1,
                          final_score=(1, 3), number=4)
TAVLI = MatchRecord(3, (PORTES_GAME, PLAKOTO_GAME, PLAKOTO_DRAWN, PORTES_LATER), variant="tavli")

TAVLI_FILE = """\
; [Transcriber "tavla-pi"]
; [CubeLimit "1"]
;
; A tavli match to 3 points: Portes, Plakoto and Fevga in turn.
; GNU Backgammon plays Portes only: it imports games 1 and 4 (Portes) below,
; each at the score it started from.
; The Plakoto and Fevga games are here, in a match file's rows: each roll and
; its play in the mover's own numbering (24 the start, 0 off, * a pin).
; No cube was used: in gnubg 1.07, 'set cube use off' before 'import mat'
; (later versions read the CubeLimit line above).
;
; Game 1: Portes: White wins 1 point (below)
;
; Game 2: Plakoto
; White : 1                      Black : 0
;  1) 21: 24/22 24/23             53: 24/19*/16
;  2) 66:
;                                  Wins 2 points (mother)
;
; Game 3: Plakoto
; White : 1                      Black : 2
;  1)                             65: 24/13
;      Draw
;
; Game 4: Portes: Black wins 1 point (below)
;

 3 point match

 Game 1
 White : 0                      Black : 0
  1) 31: 8/5 6/5                 65: 24/13
      Wins 1 point

 Game 4
 White : 1                      Black : 2
  1)                             42: 8/4 6/4
                                  Wins 1 point

"""


def test_a_tavli_match_file_holds_the_portes_games_and_the_others_as_header_comments(
) -> None:
    assert format_match(TAVLI) == TAVLI_FILE


def test_the_variants_comment_lines_are_what_gnubg_reads_as_comments() -> None:
    """In the header every line is a ';' comment; none is read as a game's start there."""
    text = format_match(TAVLI)
    header, games = text.split(" 3 point match")
    assert all(line.startswith(";") for line in header.splitlines() if line)
    assert "Plakoto" not in games and "Draw" not in games
    assert [line for line in games.splitlines() if "Game" in line] == [" Game 1", " Game 4"]


def test_a_match_with_a_cube_action_has_no_cube_limit() -> None:
    text = format_match(MatchRecord(3, TAVLI.games, variant="tavli", cube_used=True))
    assert "CubeLimit" not in text and "set cube use off" not in text


def test_a_match_with_no_portes_game_says_gnubg_finds_no_game() -> None:
    text = format_match(MatchRecord(5, (PLAKOTO_GAME,), variant="plakoto"))
    assert "; A match of Plakoto to 5 points." in text
    assert "gnubg finds no game to import in this file" in text
    assert text.endswith("\n 5 point match\n\n")


def test_a_portes_game_is_written_as_before() -> None:
    """A Portes game's lines do not change with its number or the new fields."""
    assert format_game(4, PORTES_LATER)[0] == " Game 4"
    assert MatchRecord(3, (PORTES_GAME,)).portes_only
    assert not TAVLI.portes_only and not MatchRecord(3, (), variant="fevga").portes_only


# -- the game record of a journal's variant games --------------------------------------------


def event(type_name: str, /, **fields: Any) -> Event:
    return Event(event_type(type_name), 0, fields)


def started(variant: str, score: tuple[int, int]) -> Event:
    match = MatchState(match_length=3, score=score)
    return event("game_started", position_id="AACA/z8AAID/Pw", match_id=match.match_id(),
                 variant=variant)


PLAKOTO_EVENTS = [
    event("new_match", match_length=3, variant="plakoto"),
    started("plakoto", (0, 0)),
    event("opening_roll", white=5, black=3, starter="white"),
    event("rolled", player="white", dice=[2, 1]),
    event("played", player="white", dice=[2, 1], play="24/22 24/23", position_id="x",
          match_id="y", board={}),
    event("rolled", player="black", dice=[5, 3]),
    event("played", player="black", dice=[5, 3], play="24/19*/16", position_id="x",
          match_id="y", board={}),
    event("rolled", player="white", dice=[6, 6]),
    event("no_legal_move", player="white", dice=[6, 6]),
    event("game_over", winner="black", kind="mother", cube=1, points=2, score=[0, 2]),
    started("plakoto", (0, 2)),
    event("game_over", winner=None, kind="draw", cube=1, points=0, score=[0, 2]),
]


def test_a_plakoto_game_is_recorded_with_the_journal_s_plays_and_its_ending() -> None:
    record = record_match(PLAKOTO_EVENTS, str)
    assert (record.variant, record.match_length, record.skipped) == ("plakoto", 3, ())
    mother, draw = record.games
    assert mother.entries == (Entry(W, "21: 24/22 24/23"), Entry(B, "53: 24/19*/16"),
                              Entry(W, "66:"))
    assert (mother.variant, mother.kind, mother.winner, mother.points, mother.number) == \
        ("plakoto", "mother", B, 2, 1)
    assert (draw.winner, draw.kind, draw.score, draw.number) == (None, "draw", (0, 2), 2)
    assert "Wins 2 points (mother)" in format_match(record)


def test_without_new_match_the_games_say_the_match_s_variant() -> None:
    assert record_match(PLAKOTO_EVENTS[1:], str).variant == "plakoto"
    portes = direct_match(1, 3, games=1).events
    assert record_match([*portes, *PLAKOTO_EVENTS[1:]], str).variant == "tavli"


def test_a_game_book_leaves_a_plakoto_game_out_and_says_why() -> None:
    book = GameBook()
    assert [book.follow(e) for e in PLAKOTO_EVENTS] == [None] * len(PLAKOTO_EVENTS)
    assert book.skipped[1] == "a game of plakoto, which GNU Backgammon cannot play"
    assert book.records == {}


# -- the journal's check keeps a tavli match played by other house rules ------------------


def tavli_backgammon_counting_three() -> list[Event]:
    """A tavli match's first game (Portes) won by a backgammon counted 3."""
    settings = GameSettings(match_length=5, variant="tavli",
                            tavli=TavliRules(backgammon_points=3))
    for seed in range(100):
        rng = random.Random(seed)
        match = DirectMatch(settings, Policy(random.Random(rng.random()), laggard=W),
                            random.Random(rng.random()))
        match.play(1)
        if any(e.type == "game_over" and e["kind"] == "backgammon" for e in match.events):
            return [event("new_match", match_length=5, variant="tavli"), *match.events]
    raise AssertionError("no seed gives a backgammon")


def test_trusted_keeps_a_tavli_match_whose_backgammon_counted_three() -> None:
    events = tavli_backgammon_counting_three()
    log = MatchLog(1, Path("journal.jsonl"), tuple(events), tuple(range(1, len(events) + 1)))
    kept, warning = trusted(log)
    assert (len(kept.events), warning) == (len(events), "")
    over = next(e for e in kept.events if e.type == EventType.GAME_OVER)
    assert over["points"] == 3
