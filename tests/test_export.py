"""The match file (.mat) writer and ``tavla-pi export`` (GNU Backgammon's own check is in
test_export_gnubg.py)."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from journal_support import B, DirectMatch, Policy, W, direct_match
from review_support import LAST_CHECKER, SHORT_GAME, short_game_events

from tavla_pi.cli import main
from tavla_pi.events.event import Event
from tavla_pi.events.journal import Journal
from tavla_pi.events.types import EventType
from tavla_pi.export import Entry, GameBook, GameRecord, format_match, record_match
from tavla_pi.export.mat import format_game
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.board import Board
from tavla_pi.rules.match import GameState, MatchState
from tavla_pi.rules.portes import gnubg_position
from tavla_pi.rules.position import Position


def scripted(match_length: int = 3) -> DirectMatch:
    """A bare referee driven by hand (no policy decisions are used)."""
    return DirectMatch(GameSettings(match_length=match_length), Policy(random.Random(0)),
                       random.Random(0))


def play(match: DirectMatch, notation: str) -> None:
    """The player moving makes the play written ``notation`` and presses DONE."""
    turn = match.referee.turn
    start = gnubg_position(turn.start) if turn is not None else None
    assert turn is not None and start is not None
    chosen = next(p for p in start.legal_plays(turn.dice) if p.notation == notation)
    match.feed("obs", chosen.result.to_board(turn.mover.opponent))
    match.press(f"{turn.mover.value}.roll")
    match.feed("tick")


def roll(match: DirectMatch, button: str, dice: tuple[int, int]) -> None:
    match.feed("dice", dice)
    match.press(button)


def short_game() -> DirectMatch:
    """White opens 31, Black doubles at once, White drops."""
    match = scripted()
    match.feed("obs", Board.initial())
    roll(match, "black.roll", (3, 1))
    play(match, "8/5 6/5")
    match.press("black.cube")
    match.press("white.cube")
    return match


def mat(match: DirectMatch) -> str:
    events = match.events
    return format_match(record_match(events, lambda i: f"journal.jsonl:{i + 1}"))


def test_a_dropped_double_is_written_as_gnubg_writes_it() -> None:
    assert mat(short_game()) == (
        '; [Transcriber "tavla-pi"]\n'
        "\n"
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " White : 0                      Black : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
        "\n")


def test_black_moves_in_its_own_numbering_in_the_right_column() -> None:
    match = scripted()
    match.feed("obs", Board.initial())
    roll(match, "white.roll", (1, 6))  # Black starts with 6-1
    play(match, "13/7 8/7")
    roll(match, "white.roll", (6, 4))
    play(match, "24/14")  # 24/18 is blocked: one checker runs 24/20/14
    roll(match, "black.roll", (5, 2))
    play(match, "13/11* 13/8")
    match.press("white.cube")
    match.press("black.roll")  # takes
    match.play(games=1)  # the rest of the game, as the policy plays it
    rows = [line for line in mat(match).splitlines() if re.match(r"\s+\d+\)", line)]
    assert rows[:3] == [
        "  1)                             61: 13/7 8/7",
        "  2) 64: 24/20 20/14             52: 13/8 13/11*",
        "  3)  Doubles => 2                Takes",
    ]


def test_bar_off_and_hits_use_the_mover_s_numbers() -> None:
    match = direct_match(11, 0, games=1, laggard=B)
    text = mat(match)
    moves = " ".join(re.findall(r"\d\d: ([^A-Z]*?)(?=\s{2}|$)", text, re.MULTILINE))
    assert "*" in moves and "25/" in moves and "/0" in moves
    assert "bar" not in text and "off" not in text
    steps = re.findall(r"(\d+)/(\d+)\*?", moves)
    assert all(0 <= int(b) < int(a) <= 25 for a, b in steps)  # always downwards, own numbers


def test_a_roll_without_a_legal_move_is_the_dice_alone() -> None:
    matches = (direct_match(seed, 0) for seed in range(40))
    match = next(m for m in matches if any(e.type == "no_legal_move" for e in m.events))
    dance = next(e for e in match.events if e.type == "no_legal_move")
    dice = f"{max(dance['dice'])}{min(dance['dice'])}:"
    assert re.search(rf"(^|\s){dice}(\s\s|$)", mat(match), re.MULTILINE)


def test_doubles_are_four_single_moves() -> None:
    match = direct_match(3, 0)
    rolled = [e for e in match.events if e.type == "played" and len(set(e["dice"])) == 1]
    assert rolled
    for line in mat(match).splitlines():
        for dice, moves in re.findall(r"(\d\d): ([\d/* ]+?)(?=\s{2}|$)", line):
            if dice[0] == dice[1]:
                assert len(moves.split()) <= 4


def test_a_money_session_is_a_zero_point_match() -> None:
    match = direct_match(5, 0, games=3)
    text = mat(match)
    assert "\n 0 point match\n" in text
    assert text.count(" Game ") == 3
    scores = re.findall(r" White : (\d+) +Black : (\d+)", text)
    assert scores[0] == ("0", "0")


def gnubg_split(row: str) -> tuple[str, str]:
    """A row's two entries, split the way gnubg's importer splits them (import.c)."""
    first = row.find(":")
    second = row.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        cut, right = second - 3, row[second - 2:]
    else:
        cut = row.find("  ", 15) if len(row) > 15 else -1
        right = row[cut + 1:] if cut >= 0 else ""
    left = row[: cut if cut >= 0 else len(row)]
    return left[left.index(")") + 1:].strip(), right.strip()


@pytest.mark.parametrize("left", ["66: 24/18* 24/18 13/7 13/7*", "66: 24/18 24/18 13/7 13/7",
                                  "66: 24/18 24/18 13/7", "21: 25/23", "55:", "Takes"])
@pytest.mark.parametrize("right", ["Doubles => 2", "Drops", "Takes", "43: 24/20 13/10", "66:"])
def test_every_row_splits_where_gnubg_splits_it(left: str, right: str) -> None:
    game = GameRecord((0, 0), (Entry(W, left), Entry(B, right)), B, 1, (0, 1))
    row = format_game(1, game)[2]
    assert gnubg_split(row) == (left, right)


def test_unfinished_games_are_left_out() -> None:
    match = direct_match(8, 5, games=1)
    match.play(until=lambda m: sum(e.type == "played" for e in m.events) > 60)
    record = record_match(match.events, str)
    assert len(record.games) == 1
    assert record.skipped == ()


def test_a_game_from_a_loaded_position_is_skipped_with_the_reason() -> None:
    board = Board.from_counts({"1": 1, "off": 14}, {"13": 5, "12": 10})
    match = MatchState(game_state=GameState.PLAYING, match_length=3)
    events = [Event(EventType.GAME_STARTED, 0, {"position_id": Position.from_board(board, W)
                                               .position_id(), "match_id": match.match_id()})]
    record = record_match(events, lambda i: f"j.jsonl:{i + 1}")
    assert record.games == ()
    assert record.skipped == ("j.jsonl:1: game_started: the game starts from a loaded position, "
                              "which a match file cannot hold",)


def test_a_play_that_does_not_follow_from_the_position_skips_its_game() -> None:
    first, second = direct_match(1, 0, games=2).events, list[Event]()
    at = next(i for i, e in enumerate(first) if e.type == "played")
    wrong = replace(first[at], fields={**first[at].fields, "dice": [1, 1]})
    record = record_match([*first[:at], wrong, *first[at + 1:], *second], lambda i: f"j:{i}")
    assert len(record.games) == 1  # the other game is still there
    assert record.skipped[0].startswith(f"j:{at}: played: ")
    assert "does not lead to" in record.skipped[0]


def test_a_beaver_is_written_and_a_taken_beaver_left_to_the_next_roll() -> None:
    opened = [e for e in short_game().events if not e.type.startswith(("double", "game_o"))]
    beaver = [
        Event(EventType.DOUBLE_OFFERED, 1, {"player": "black", "cube": 2}),
        Event(EventType.DOUBLE_TAKEN, 2, {"player": "white", "cube": 2, "beaver": True}),
        Event(EventType.DOUBLE_TAKEN, 3, {"player": "black", "cube": 4}),
        Event(EventType.DOUBLE_OFFERED, 4, {"player": "black", "cube": 8}),
        Event(EventType.DOUBLE_DROPPED, 5, {"player": "white", "cube": 8}),
        Event(EventType.GAME_OVER, 6, {"winner": "black", "kind": "single", "cube": 4,
                                       "points": 4, "score": [0, 4]}),
    ]
    text = format_match(record_match([*opened, *beaver], str))
    assert text.endswith(
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4                Doubles => 8\n"
        "  3)  Drops                      Wins 4 points\n\n")


# -- the command line ---------------------------------------------------------------


def journal_of(state: Path, *matches: DirectMatch) -> None:
    with Journal.open(state) as journal:
        for match in matches:
            journal.append([Event(EventType.NEW_MATCH, 0,
                                  {"match_length": match.settings.match_length}),
                            *match.events])


def test_export_writes_the_latest_finished_match(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    first, second = direct_match(1, 3, games=2), direct_match(2, 0, games=2)
    journal_of(tmp_path, first, second)
    assert main(["export", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == mat(second)
    out = tmp_path / "one.mat"
    assert main(["export", "--state-dir", str(tmp_path), "--match", "1", "--out", str(out)]) == 0
    assert out.read_text() == mat(first)


def test_export_all_writes_one_file_per_match(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    matches = [direct_match(seed, 3, games=2) for seed in (4, 5, 6)]
    journal_of(tmp_path / "state", *matches)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["export", "--state-dir", str(tmp_path / "state"), "--all",
                 "--out", str(out)]) == 0
    written = capsys.readouterr().out.split()
    assert written == [str(out / f"tavla-match-{n}.mat") for n in (1, 2, 3)]
    assert [Path(p).read_text() for p in written] == [mat(m) for m in matches]


def test_export_list_shows_each_match(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    first, second = direct_match(1, 3, games=2), direct_match(2, 0, games=2)
    journal_of(tmp_path, first, second)
    assert main(["export", "--state-dir", str(tmp_path), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    score = "-".join(map(str, first.referee.match.score))
    assert re.match(rf"\s+1\s+3 pt\s+{len(re.findall('game_over', str(first.events)))}"
                    rf"\s+{score}\s+\S+matches/000001-", lines[1])
    assert re.match(r"\s+2\s+money\s+2\s+", lines[2])


@pytest.mark.parametrize(("args", "message"), [
    (["--match", "3"], "tavla-pi: --match: no match 3 (1..2)\n"),
    (["--match", "2"], "has no finished game yet\n"),
])
def test_export_errors_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    unfinished = direct_match(3, 0, games=1)
    unfinished.steps = unfinished.steps[:10]
    journal_of(tmp_path, direct_match(1, 3, games=2), unfinished)
    assert main(["export", "--state-dir", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert err.endswith(message)
    assert err.count("\n") == 1


def test_export_of_an_empty_state_directory_says_so(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--state-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"tavla-pi: {tmp_path}: no finished game to export\n"


def test_export_warns_about_damaged_lines_and_exports_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = direct_match(1, 3, games=2)
    journal_of(tmp_path, match)
    with (tmp_path / "journal.jsonl").open("ab") as out:
        out.write(b"\x00\x01 garbage\n")
    assert main(["export", "--state-dir", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == mat(match)
    assert captured.err.startswith("tavla-pi: warning: ")
    assert "journal.jsonl:" in captured.err and "(left out)" in captured.err


def test_dice_stats_reads_every_archived_match(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    matches = [direct_match(seed, 1, games=1) for seed in (1, 2, 3)]
    journal_of(tmp_path, *matches)
    assert main(["dice-stats", "--state-dir", str(tmp_path)]) == 0
    rolls = sum(e.type in ("rolled", "opening_roll") for m in matches for e in m.events)
    assert capsys.readouterr().out.startswith(f"{rolls} rolls")


def test_export_leaves_out_what_does_not_follow_the_rules_and_says_where(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An archived match edited in its second game: the first game is exported."""
    first, second = direct_match(1, 3, games=2), direct_match(2, 0, games=2)
    journal_of(tmp_path, first, second)
    path = next((tmp_path / "matches").iterdir())
    lines = path.read_text().splitlines(keepends=True)
    starts = [i for i, e in enumerate(first.events) if e.type == "game_started"]
    played = next(i for i, e in enumerate(first.events) if e.type == "played" and i > starts[1])
    lines[played + 1] = lines[played + 1].replace('"play": "', '"play": "24/1 ')
    path.write_text("".join(lines))
    assert main(["export", "--state-dir", str(tmp_path), "--match", "1"]) == 0
    captured = capsys.readouterr()
    one_game = first.events[: starts[1]]
    assert captured.out == format_match(record_match(one_game, lambda i: "", 3))
    assert captured.err.startswith(f"tavla-pi: warning: {path}:{played + 2}: played: the "
                                   "play's notation is ")
    assert captured.err.count("\n") == 1 and "(left out, with the " in captured.err


def test_a_game_book_numbers_the_games_as_the_match_does() -> None:
    events = short_game_events(*LAST_CHECKER, *SHORT_GAME)
    book = GameBook()
    ended = [book.follow(e) for e in events]
    assert book.number == 3 and sorted(book.records) == [1, 3]
    assert "loaded position" in book.skipped[2]
    assert [r for r in ended if r is not None] == [book.records[1], book.records[3]]
    record, order = book.match_file()
    assert order == [1, 3] and record.games == (book.records[1], book.records[3])
    assert format_match(record).count(" Game ") == 2
    first, order = book.match_file(2)
    assert order == [1] and first.games == (book.records[1],)
    book.follow(Event(EventType.NEW_MATCH, 9999, {"match_length": 3}))
    assert (book.number, book.records, book.skipped) == (0, {}, {})
