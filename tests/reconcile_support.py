"""Test support for reconcile: a physical board moved by hand, read as observations.

A :class:`Table` holds checkers per location and colour (both colours on one
point while a hit is under way) and turns into an
:class:`~tavla_pi.decode.Observation` the way the decoder would read it: exact
counts, or with ``saturate`` tall stacks as intervals ("7 or more").
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Protocol

from sim_support import calibrated, settle

from tavla_pi.decode.observation import (
    NOTHING,
    CountRange,
    Observation,
    Reading,
    SensorFault,
)
from tavla_pi.reconcile.layout import (
    BLACK_BAR_CELL,
    N_LOCS,
    N_POINTS,
    OFF_CELL,
    WHITE_BAR_CELL,
    Cells,
    bar_cell,
    cell_of,
    cells_of,
    location_name,
)
from tavla_pi.reconcile.tracker import TurnTracker
from tavla_pi.reconcile.tree import Node, TurnTree
from tavla_pi.reconcile.verdicts import Verdict
from tavla_pi.rules import Color, Position

W = Color.WHITE
B = Color.BLACK
POINT_SLOTS = 6
BAR_SLOTS = 4


def cell(location: str, color: Color) -> int:
    """The cell index of a location name ("bar" is ``color``'s half; "off" is OFF_CELL)."""
    if location == "bar":
        return bar_cell(color)
    if location == "off":
        return OFF_CELL
    return int(location) - 1


def count_reading(n: int, slots: int, *, saturate: bool) -> CountRange:
    """How the sensors read ``n`` checkers on a location with ``slots`` slots."""
    if saturate and n > slots:
        return CountRange(slots + 1, 15)
    return CountRange(n, n)


class Table:
    """A board in a test: what really stands where, moved one checker at a time."""

    def __init__(self, cells: Cells) -> None:
        self.white = [max(0, v) for v in cells]
        self.black = [max(0, -v) for v in cells]
        self.overrides: dict[str, Reading] = {}

    @classmethod
    def of(cls, position: Position, mover: Color) -> Table:
        """The board of ``position`` with ``mover`` on roll."""
        return cls(cells_of(position.mine, position.theirs, mover))

    def _side(self, color: Color) -> list[int]:
        return self.white if color is W else self.black

    def lift(self, location: str, color: Color) -> None:
        """One checker of ``color`` leaves ``location`` into the hand ("off": the tray)."""
        i = cell(location, color)
        if i == OFF_CELL:
            return
        side = self._side(color)
        assert side[i] > 0, f"no {color.value} checker on {location}"
        side[i] -= 1

    def place(self, location: str, color: Color) -> None:
        """One checker of ``color`` is put on ``location`` ("off": the tray)."""
        i = cell(location, color)
        if i != OFF_CELL:
            self._side(color)[i] += 1

    def count(self, location: str, color: Color) -> int:
        """How many checkers of ``color`` really stand on ``location``."""
        return self._side(color)[cell(location, color)]

    def cells(self) -> Cells:
        """The board as cells (only meaningful while no point holds two colours)."""
        return tuple(w - b for w, b in zip(self.white, self.black, strict=True))

    def observation(self, *, saturate: bool = False) -> Observation:
        """What the decoder reports for this board."""
        readings = []
        faults = []
        for i in range(N_LOCS):
            w, b = self.white[i], self.black[i]
            slots = POINT_SLOTS if i < N_POINTS else BAR_SLOTS
            if w and b:
                faults.append(SensorFault(i, location_name(i), "mixed_colors", "both polarities"))
            if w or b:
                color = B if b >= w else W            # the blot lies nearer the base
                own, other = (w, b) if color is W else (b, w)
                readings.append(Reading(color, count_reading(own, slots, saturate=saturate),
                                        count_reading(other, slots, saturate=saturate)))
            else:
                readings.append(NOTHING)
            bar = "bar-w" if i == WHITE_BAR_CELL else "bar-b"
            name = location_name(i) if i < N_POINTS else bar
            if name in self.overrides:
                readings[-1] = self.overrides[name]
        return Observation(tuple(readings[:N_POINTS]), readings[WHITE_BAR_CELL],
                           readings[BLACK_BAR_CELL], tuple(faults))


def random_positions(rng: random.Random, count: int) -> list[tuple[Position, Color]]:
    """Positions met in random legal games (opening to bear-off), mover on roll."""
    found: list[tuple[Position, Color]] = []
    while len(found) < count:
        position, mover = Position.initial(), rng.choice((W, B))
        while not position.is_game_over() and len(found) < count:
            if rng.random() < 0.3:
                found.append((position, mover))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            position = rng.choice(plays).result if plays else position.swap()
            mover = mover.opponent
    return found


def loc(node_or_tree: TurnTree, number: int) -> str:
    """The location name of the mover's own point ``number`` (25 bar, 0 off)."""
    return location_name(cell_of(node_or_tree.mover, number))


def path_to(tree: TurnTree, target: Node, rng: random.Random) -> list[tuple[int, int, bool]]:
    """A random legal order of single-die moves from the root to ``target``."""
    ancestors = {target.index}
    frontier = [target]
    while frontier:
        node = frontier.pop()
        for edge in node.parents:
            if edge.parent.index not in ancestors:
                ancestors.add(edge.parent.index)
                frontier.append(edge.parent)
    node = tree.root
    moves = []
    while node is not target:
        edges = [e for e in node.children if e.child.index in ancestors]
        edge = rng.choice(edges)
        moves.append(edge.move)
        node = edge.child
    return moves


def hand_movements(
    moves: list[tuple[int, int, bool]], rng: random.Random
) -> Iterator[tuple[int, int, list[int]]]:
    """Group consecutive moves of one checker into hand movements at random:
    (from, to, points hit on the way), in the mover's numbering."""
    i = 0
    while i < len(moves):
        frm, to, hit = moves[i]
        hits = [to] if hit else []
        while i + 1 < len(moves) and moves[i + 1][0] == to and to != 0 and rng.random() < 0.5:
            i += 1
            _, to, hit = moves[i]
            if hit:
                hits.append(to)
        yield frm, to, hits
        i += 1


class Surface(Protocol):
    """A board a test moves checkers on and reads observations from."""

    def lift(self, location: str, color: Color) -> None: ...
    def place(self, location: str, color: Color) -> None: ...
    def count(self, location: str, color: Color) -> int: ...
    def cells(self) -> Cells: ...
    def observation(self, *, saturate: bool = False) -> Observation: ...


class Player:
    """Moves checkers on a table and shows every settled board to a tracker."""

    def __init__(self, tracker: TurnTracker, table: Surface, rng: random.Random,
                 *, saturate: bool = False) -> None:
        self.tracker = tracker
        self.table = table
        self.rng = rng
        self.saturate = saturate
        self.seen: list[Verdict] = []

    @property
    def mover(self) -> Color:
        return self.tracker.mover

    def show(self) -> Verdict:
        """One stable frame of the table."""
        verdict = self.tracker.observe(self.table.observation(saturate=self.saturate))
        self.seen.append(verdict)
        return verdict

    def lift(self, location: str, color: Color | None = None) -> Verdict:
        self.table.lift(location, color or self.mover)
        return self.show()

    def place(self, location: str, color: Color | None = None) -> Verdict:
        self.table.place(location, color or self.mover)
        return self.show()

    def move(self, frm: str, to: str, color: Color | None = None) -> Verdict:
        self.lift(frm, color)
        return self.place(to, color)

    def hand_move(self, frm: int, to: int, hits: list[int]) -> Verdict:
        """One hand movement in the mover's numbering, hits done in a random order."""
        tree = self.tracker.tree
        opponent = self.mover.opponent
        early = [h for h in hits if h != to or self.rng.random() < 0.5]
        for h in early:                          # blot to the bar before the hitter lands
            if self.rng.random() < 0.3:
                self.table.lift(loc(tree, h), opponent)
                self.table.place("bar", opponent)
                self.show()
        self.lift(loc(tree, frm))
        for h in early:
            if self.table.count(loc(tree, h), opponent):
                self.lift(loc(tree, h), opponent)
                self.place("bar", opponent)
        verdict = self.place(loc(tree, to))
        for h in hits:
            if h not in early:                   # hitter on the blot, then the blot away
                self.lift(loc(tree, h), opponent)
                verdict = self.place("bar", opponent)
        return verdict


def own(**points: int) -> tuple[int, ...]:
    """A side as a 25-tuple from own point numbers: own(p24=1, bar=2)."""
    out = [0] * 25
    for key, n in points.items():
        out[24 if key == "bar" else int(key[1:]) - 1] = n
    return tuple(out)


class SimTable:
    """The modelled board (sensors, magnets, noise) read through the real decoder."""

    def __init__(self, position: Position, mover: Color, seed: int, frames: int = 5) -> None:
        self.board, self.decoder, self.clock = calibrated(seed)
        board = position.to_board(mover)
        self.board.lay_out({(loc, color): n for loc, color, n in board.items() if loc != "off"})
        self.frames = frames

    def lift(self, location: str, color: Color) -> None:
        self.board.lift(location, color)

    def place(self, location: str, color: Color) -> None:
        self.board.place(location, color)

    def count(self, location: str, color: Color) -> int:
        return self.board.count(location, color)

    def cells(self) -> Cells:
        c = self.board.count
        points = tuple(c(str(n), W) - c(str(n), B) for n in range(1, 25))
        return (*points, c("bar", W), -c("bar", B))

    def observation(self, *, saturate: bool = False) -> Observation:
        return settle(self.board, self.decoder, frames=self.frames, clock=self.clock)
