"""The modelled board survives a restart, as a real board's checkers do.

A real board keeps its checkers where the players left them when the power
goes; the simulated one lives in the daemon's memory, so the daemon writes
its truth (checkers per location, checkers in hand) and the queued dice to
``sim-board.json`` in the state directory after every simulator action, and
lays the board out again from it on start.

The dice queue is written with the roll count of the journal's current
match (:class:`RollCount`: the match's first event time and its rolls);
rolls journaled later took their dice from the front of the queue, so on
start the queue is what the journal's later rolls left.  That keeps the
file and the journal consistent without writing both at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.bounded import parse_json, read_text
from tavla_pi.errors import BadInputError
from tavla_pi.events.event import Event
from tavla_pi.events.files import OS_FILES, Files, replace_file
from tavla_pi.events.types import ROLL_EVENTS, EventType
from tavla_pi.hal.sim.board import SimBoard
from tavla_pi.rules.board import LOCATIONS
from tavla_pi.rules.color import Color

SIM_BOARD_FILENAME = "sim-board.json"
SIM_BOARD_FORMAT = "tavla-pi sim board"
SIM_BOARD_VERSION = 1
MAX_SIM_BOARD_BYTES = 64 * 1024
"""A saved board is about 1 kB; anything past this is refused unread."""


class SimStoreError(BadInputError):
    """A saved simulated board that cannot be used; names the file and the field."""


@dataclass(frozen=True, slots=True)
class RollCount:
    """How many rolls (two dice each) the journal's current match holds.

    ``match`` is the time of the match's first event (its file's first
    line; a ``new_match`` starts a new one), None while the journal is empty.
    """

    match: int | None = None
    rolls: int = 0

    def add(self, events: Iterable[Event]) -> RollCount:
        """The count after ``events``."""
        match, rolls = self.match, self.rolls
        for event in events:
            if event.type == EventType.NEW_MATCH or match is None:
                match, rolls = event.t, 0
            if event.type in ROLL_EVENTS:
                rolls += 1
        return RollCount(match, rolls)

    def since(self, earlier: RollCount) -> int:
        """Rolls made after ``earlier`` was counted."""
        if self.match != earlier.match:  # a new match since: all of this one's rolls
            return self.rolls
        return max(self.rolls - earlier.rolls, 0)


@dataclass(frozen=True, slots=True)
class SimSnapshot:
    """The simulated board's checkers, hands and queued dice, with the roll count then."""

    counts: dict[tuple[str, Color], int]
    hands: dict[Color, int]
    dice: tuple[int, ...]
    rolls: RollCount

    @classmethod
    def of(cls, board: SimBoard, dice: Iterable[int], rolls: RollCount) -> SimSnapshot:
        """What ``board`` holds now."""
        counts = {key: n for key, n in board.counts().items() if key[0] != "off"}
        return cls(counts, {c: board.in_hand(c) for c in Color}, tuple(dice), rolls)

    def restore(self, board: SimBoard) -> None:
        """Lay ``board`` out as saved (hands included)."""
        board.lay_out(self.counts)
        for color, n in self.hands.items():
            for _ in range(n):
                board.lift("off", color)

    def dice_left(self, now: RollCount) -> tuple[int, ...]:
        """The queued dice not taken by rolls journaled after the save."""
        return self.dice[2 * now.since(self.rolls):]

    def to_json(self) -> str:
        """The file's text."""
        board: dict[str, dict[str, int]] = {"white": {}, "black": {}}
        for (location, color), n in sorted(self.counts.items(), key=_order):
            board[color.value][location] = n
        return json.dumps({
            "format": SIM_BOARD_FORMAT, "version": SIM_BOARD_VERSION, "board": board,
            "hands": {c.value: n for c, n in self.hands.items()},
            "dice": list(self.dice),
            "rolls": {"match": self.rolls.match, "count": self.rolls.rolls},
        }, indent=1) + "\n"


def save(state_dir: Path, snap: SimSnapshot, files: Files = OS_FILES) -> None:
    """Write ``snap`` atomically and durably: a power cut or a full disk leaves the old
    file or the new one (OSError says why not the new one); no link is followed."""
    replace_file(files, state_dir / SIM_BOARD_FILENAME, snap.to_json().encode("utf-8"))


def load(state_dir: Path) -> SimSnapshot | None:
    """The saved board, or None if there is none."""
    path = state_dir / SIM_BOARD_FILENAME
    if not path.exists():
        return None
    where = str(path)
    try:
        doc = parse_json(read_text(path, MAX_SIM_BOARD_BYTES, "a saved board"))
    except (BadInputError, ValueError) as exc:  # not a file, too large, not JSON, too deep
        raise SimStoreError(where, f"cannot read the saved board ({exc}); delete it to "
                                   "start from an empty board") from None
    return _parse(doc, where)


def _parse(doc: Any, where: str) -> SimSnapshot:
    if (not isinstance(doc, dict) or doc.get("format") != SIM_BOARD_FORMAT
            or doc.get("version") != SIM_BOARD_VERSION):
        raise SimStoreError(where,
                            f"expected a {SIM_BOARD_FORMAT!r} file, version {SIM_BOARD_VERSION}")
    board, hands = doc.get("board"), doc.get("hands")
    if not isinstance(board, dict) or not isinstance(hands, dict):
        raise SimStoreError(where, 'expected "board" and "hands" objects')
    counts: dict[tuple[str, Color], int] = {}
    for color in Color:
        table = board.get(color.value, {})
        if not isinstance(table, dict):
            raise SimStoreError(f"{where}: board.{color.value}", "expected an object")
        for location, n in table.items():
            if location not in LOCATIONS or location == "off":
                raise SimStoreError(f"{where}: board.{color.value}", f"bad location {location!r}")
            counts[(location, color)] = _count(n, f"{where}: board.{color.value}.{location}")
    hand = {c: _count(hands.get(c.value, 0), f"{where}: hands.{c.value}") for c in Color}
    dice = doc.get("dice")
    if not isinstance(dice, list) or not all(d in range(1, 7) and type(d) is int for d in dice):
        raise SimStoreError(f"{where}: dice", "expected a list of dice 1..6")
    return SimSnapshot(counts, hand, tuple(dice), _rolls(doc.get("rolls"), f"{where}: rolls"))


def _rolls(value: Any, where: str) -> RollCount:
    if not isinstance(value, dict):
        raise SimStoreError(where, 'expected {"match": ms or null, "count": n}')
    match = value.get("match")
    if match is not None and type(match) is not int:
        raise SimStoreError(f"{where}.match", f"expected a time in ms or null, got {match!r}")
    return RollCount(match, _count(value.get("count"), f"{where}.count", 1 << 40))


def _count(value: Any, where: str, most: int = 15) -> int:
    if type(value) is not int or not 0 <= value <= most:
        raise SimStoreError(where, f"expected a count 0..{most}, got {value!r}")
    return value


def _order(item: tuple[tuple[str, Color], int]) -> int:
    return LOCATIONS.index(item[0][0])
