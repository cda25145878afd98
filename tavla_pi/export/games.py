"""A match's events as a game record: who did what, turn by turn, game by game.

Each finished game becomes a list of :class:`Entry` (a roll and its play in
the mover's own numbering, or a cube action), the score it started from and
its result: what a match file (``.mat``) writes.  Portes plays are derived
from the positions, wildbg style: the legal play of the roll that leads from
the position before to the Position ID after, its single-die moves written
"from/to" (25 the bar, 0 off, ``*`` a hit), as GNU Backgammon reads them.
A Plakoto or Fevga play is the ``played`` event's own notation (the mover's
numbering, ``*`` a pin; the journal's check, :mod:`tavla_pi.cli.trusted`,
has made sure it is the legal play leading to the event's ``board``): gnubg
cannot read those games, a person can (:mod:`tavla_pi.export.mat`).

Only games that start from their variant's starting position and end
(``game_over``) are recorded; the others are listed in ``skipped`` with the
reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from tavla_pi.errors import JournalError, TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavlimatch import TAVLI, gnubg_match
from tavla_pi.rules.variants import DEFAULT, variant

CUBE_EVENTS = frozenset({EventType.DOUBLE_OFFERED, EventType.DOUBLE_TAKEN,
                         EventType.DOUBLE_DROPPED})
"""The cube actions a match file records."""


@dataclass(frozen=True)
class Entry:
    """One player's action: ``"31: 8/5 6/5"``, ``"Doubles => 2"``, ``"Takes"``..."""

    player: Color
    text: str


def gnubg_game(name: str) -> bool:
    """Whether GNU Backgammon plays the game called ``name``: a match file holds its
    plays (Portes); the others' are comments."""
    return variant(name).gnubg_plays


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the score before and after it, the entries, who won how much
    (``winner`` None: a Plakoto draw), the game (``variant``), how it ended (``kind``,
    as ``game_over`` says) and its number in the match (every ``game_started``
    counts, from 1; 0 when not known)."""

    score: tuple[int, int]
    entries: tuple[Entry, ...]
    winner: Color | None
    points: int
    final_score: tuple[int, int]
    variant: str = DEFAULT
    kind: str = ""
    number: int = 0


@dataclass(frozen=True)
class MatchRecord:
    """The finished games of a match and the games that could not be recorded.

    ``variant`` is the match's (``new_match``'s: "portes", "plakoto", "fevga" or
    "tavli"); ``cube_used`` whether any cube action was taken in it."""

    match_length: int
    games: tuple[GameRecord, ...]
    skipped: tuple[str, ...] = ()
    variant: str = DEFAULT
    cube_used: bool = False

    @property
    def portes_only(self) -> bool:
        """Whether the match is backgammon alone: a plain GNU Backgammon match file."""
        return gnubg_match(self.variant) and all(gnubg_game(g.variant) for g in self.games)


def record_match(events: Sequence[Event], where: Callable[[int], str],
                 match_length: int | None = None) -> MatchRecord:
    """The game record of one match's events (``where(i)`` names event i's place)."""
    games: list[GameRecord] = []
    skipped: list[str] = []
    starts = [i for i, e in enumerate(events) if e.type == EventType.GAME_STARTED]
    ends = [*starts[1:], len(events)]
    for number, (start, end) in enumerate(zip(starts, ends, strict=True), start=1):
        try:
            game = _record_game(events, start, end, where)
        except (TavlaError, ValueError) as exc:
            skipped.append(str(exc))
            continue
        if game is not None:
            games.append(replace(game, number=number))
    length = match_length
    if starts:
        length = MatchState.from_match_id(events[starts[0]]["match_id"]).match_length
    cube_used = any(e.type in CUBE_EVENTS for e in events)
    return MatchRecord(length or 0, tuple(games), tuple(skipped), _match_variant(events),
                       cube_used)


def _match_variant(events: Sequence[Event]) -> str:
    """The match's variant: its ``new_match``'s, else what its games were."""
    for event in events:
        if event.type == EventType.NEW_MATCH:
            return str(event.fields.get("variant", DEFAULT))
    games = {_variant(e) for e in events if e.type == EventType.GAME_STARTED}
    if len(games) > 1:
        return TAVLI
    return games.pop() if games else DEFAULT


def _variant(game_started: Event) -> str:
    return str(game_started.fields.get("variant", DEFAULT))


@dataclass
class _Game:
    """A game being recorded: the position with the player on roll, the entries so far."""

    position: Position
    variant: str = DEFAULT
    where: str = ""
    entries: list[Entry] = field(default_factory=list)
    offered: int = 1
    beavered: bool = False

    def add(self, player: str, text: str) -> None:
        self.entries.append(Entry(Color(player), text))

    def played(self, event: Event) -> None:
        a, b = event["dice"]
        if not gnubg_game(self.variant):  # the journal's check has made sure it is legal
            self.add(event["player"], f"{_roll(a, b)}: {event['play']}")
            return
        play = _find_play(self.position, (a, b), event["position_id"])
        if play is None:
            raise JournalError(self.where, f'played: "{event["play"]}" with {a}-{b} does not '
                               f'lead to {event["position_id"]} from {self.position.position_id()}')
        self.add(event["player"], f"{_roll(a, b)}: {_moves(play)}")
        self.position = play.result

    def take_back(self, event: Event) -> None:
        """A ``takeback``: the player's last play is undone, as if never made."""
        player = Color(event["player"])
        last = max((i for i, e in enumerate(self.entries) if e.player is player), default=None)
        if last is not None:
            del self.entries[last:]
        self.position = Position.from_position_id(event["position_id"])

    def no_move(self, event: Event) -> None:
        a, b = event["dice"]
        self.add(event["player"], f"{_roll(a, b)}:")
        if gnubg_game(self.variant):
            self.position = self.position.swap()

    def cube(self, event: Event) -> None:
        if event.type == EventType.DOUBLE_OFFERED:
            self.offered = int(event["cube"])
            self.add(event["player"], f"Doubles => {self.offered}")
        elif event.type == EventType.DOUBLE_DROPPED:
            self.add(event["player"], "Drops")
        elif event.fields.get("beaver"):  # the beaver redoubles what was offered
            self.offered *= 2
            self.add(event["player"], f"Beavers => {self.offered}")
            self.beavered = True
        elif self.beavered:  # a match file lets the next roll say the beaver was taken
            self.beavered = False
        else:
            self.add(event["player"], "Takes")


def _record_game(events: Sequence[Event], start: int, end: int,
                 where: Callable[[int], str]) -> GameRecord | None:
    """The record of the game started at ``events[start]``; None if it did not end."""
    first = events[start]
    name = _variant(first)
    if gnubg_game(name) and Position.from_position_id(first["position_id"]) != Position.initial():
        raise JournalError(where(start), "game_started: the game starts from a loaded "
                           "position, which a match file cannot hold")
    before = MatchState.from_match_id(first["match_id"])
    game = _Game(Position.initial(), name)
    for index in range(start + 1, end):
        event = events[index]
        game.where = where(index)
        if event.type == EventType.PLAYED:
            game.played(event)
        elif event.type == EventType.NO_LEGAL_MOVE:
            game.no_move(event)
        elif event.type in CUBE_EVENTS:
            game.cube(event)
        elif event.type == EventType.TAKEBACK:
            game.take_back(event)
        elif event.type == EventType.GAME_OVER:
            return _finished(game, before, event)
    return None


RECORDED = frozenset({EventType.GAME_STARTED, EventType.PLAYED, EventType.NO_LEGAL_MOVE,
                      *CUBE_EVENTS, EventType.GAME_OVER})
"""The events a game's record is made of."""


class GameBook:
    """A match's finished games, by their number in the match (each ``game_started``
    counts, from 1), followed event by event; a game a match file cannot hold (one
    started from a loaded position, or a game of Plakoto or Fevga) is left out, with the
    reason in ``skipped``."""

    def __init__(self) -> None:
        self.number = 0
        """The current game's number (0 before the match's first game)."""
        self.records: dict[int, GameRecord] = {}
        self.skipped: dict[int, str] = {}
        self.length = 0
        """The match length (0: money play), as the games' Match IDs say."""
        self._game: list[Event] = []

    def clear(self) -> None:
        """Forget every game: a new match begins."""
        self.number, self.length, self._game = 0, 0, []
        self.records, self.skipped = {}, {}

    def follow(self, event: Event) -> GameRecord | None:
        """Take the next event of the match; the game's record if it ends the game."""
        if event.type == EventType.NEW_MATCH:
            self.clear()
        elif event.type in RECORDED:
            if event.type == EventType.GAME_STARTED:
                self.number += 1
                self._game = []
            self._game.append(event)
            if event.type == EventType.GAME_OVER:
                return self._record()
        return None

    def _record(self) -> GameRecord | None:
        number = self.number
        try:
            record = record_match(self._game, lambda i: f"its event {i + 1}")
        except (TavlaError, ValueError) as exc:
            record = MatchRecord(0, (), (str(exc),))
        if record.games and not gnubg_game(record.games[0].variant):
            record = MatchRecord(0, (), (f"a game of {record.games[0].variant}, which "
                                         "GNU Backgammon cannot play",))
        if not record.games:
            self.skipped[number] = "; ".join(record.skipped) or "it has no game_started"
            return None
        game = self.records[number] = replace(record.games[0], number=number)
        self.length = record.match_length
        return game

    def match_file(self, upto: int | None = None) -> tuple[MatchRecord, list[int]]:
        """The record of the games up to game ``upto`` (None: all), and the number in
        the match of each of its games."""
        order = sorted(n for n in self.records if upto is None or n <= upto)
        return MatchRecord(self.length, tuple(self.records[n] for n in order)), order


def _finished(game: _Game, before: MatchState, over: Event) -> GameRecord:
    a, b = over["score"]
    winner = None if over["winner"] is None else Color(over["winner"])
    return GameRecord(score=before.score, entries=tuple(game.entries), winner=winner,
                      points=int(over["points"]), final_score=(int(a), int(b)),
                      variant=game.variant, kind=str(over["kind"]))


def _find_play(position: Position, dice: tuple[int, int], position_id: str) -> Play | None:
    for play in position.legal_plays(dice):
        if play.result.position_id() == position_id:
            return play
    return None


def _roll(a: int, b: int) -> str:
    return f"{max(a, b)}{min(a, b)}"


def _moves(play: Play) -> str:
    """Single-die moves in the mover's numbering, in an order they can be made."""
    return " ".join(f"{src}/{dst}{'*' if hit else ''}" for src, dst, hit in play.moves)
