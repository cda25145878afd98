"""Hands that play a refereed game on the simulated board: scenario lines and expected events.

Pure Python, no gnubg.  The referee (gen_gnubg_scenarios.py) records a game
as items (setup, load, opening, cube action, turn, game over, match over);
``render`` turns them into docs/CONTRACTS.md §4 scenario actions, played by a clean
hand or a clumsy one, and the events the game must emit for them.  A clumsy
hand fumbles (glitches, slides, wrong placements it corrects, DONE too early,
a knocked stack, takebacks) but always ends on gnubg's chosen play.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from scenario_moves import (
    BAR,
    OFF,
    Board,
    Step,
    apply_steps,
    chains,
    partial_tree,
)

Line = dict[str, Any]
SETTLE = 400  # ms a placement is left alone so the board registers it


def other(color: str) -> str:
    """The opponent's colour."""
    return "black" if color == "white" else "white"


def location(color: str, own: int) -> str:
    """A docs/CONTRACTS.md §1 location of a checker of ``color`` on its own point ``own``."""
    if own == BAR:
        return "bar"
    if own == OFF:
        return "off"
    return str(own if color == "white" else 25 - own)


# --- what happened (recorded by the referee) ------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """All checkers put on the starting position (a new game)."""


@dataclass(frozen=True)
class Load:
    """The board and match laid out from a Position ID and Match ID."""

    position_id: str
    match_id: str
    on_roll: str
    board: Board  # of the player on roll


@dataclass(frozen=True)
class Opening:
    """The opening roll(s): (white die, black die) pairs, ties first."""

    rolls: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CubeAction:
    """A double offered by ``player`` at ``cube`` (the new value), taken or dropped."""

    player: str
    cube: int
    taken: bool


@dataclass(frozen=True)
class Turn:
    """A roll and gnubg's chosen play (``play`` None: no legal move)."""

    player: str
    dice: tuple[int, int]
    play: str | None
    before: Board  # mover's numbering
    after: Board  # mover's numbering
    sequences: tuple[tuple[Step, ...], ...]  # every legal way to play the roll
    position_id: str
    match_id: str
    opening: bool = False  # played with the opening roll (already rolled)


@dataclass(frozen=True)
class GameOver:
    """The end of a game as gnubg scored it; ``score`` is (white, black)."""

    winner: str
    kind: str
    cube: int
    points: int
    score: tuple[int, int]


@dataclass(frozen=True)
class MatchOver:
    """The end of the match."""

    winner: str
    score: tuple[int, int]


Item = Setup | Load | Opening | CubeAction | Turn | GameOver | MatchOver


# --- how the hand plays -----------------------------------------------------------------------


@dataclass(frozen=True)
class Clumsiness:
    """Per-movement (or per-turn) chances of each fumble; all zero is a clean hand."""

    combine: float = 0.5  # a checker using several dice moves in one movement
    split: float = 0.0  # lift, hold, place as separate actions
    slide: float = 0.0  # touch down on points passed over, < 150 ms each
    wrong: float = 0.0  # placed on a wrong or blocked point, then corrected
    early_done: float = 0.0  # DONE before the play is complete (rejected)
    knock: float = 0.0  # several checkers knocked off a point and put back
    takeback: float = 0.0  # a legal step played and taken back first
    glitch: float = 0.0  # a phantom reading shorter than 150 ms


CLEAN = Clumsiness()
CLUMSY = Clumsiness(
    combine=0.4, split=0.6, slide=0.2, wrong=0.1, early_done=0.06, knock=0.05,
    takeback=0.1, glitch=0.2,
)


@dataclass
class Table:
    """The physical board as the hand leaves it: checkers per (colour, location)."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)

    @classmethod
    def start(cls) -> Table:
        table = cls()
        for color in ("white", "black"):
            for own, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
                table.counts[color, location(color, own)] = n
        return table

    @classmethod
    def of(cls, on_roll: str, board: Board) -> Table:
        table = cls()
        for color, side in ((on_roll, board[0]), (other(on_roll), board[1])):
            for own in range(OFF, BAR + 1):
                if side[own]:
                    table.counts[color, location(color, own)] = side[own]
        return table

    def lift(self, color: str, loc: str) -> None:
        if self.counts[color, loc] < 1:
            raise AssertionError(f"no {color} checker to lift on {loc}")
        self.counts[color, loc] -= 1

    def place(self, color: str, loc: str) -> None:
        self.counts[color, loc] += 1

    def snapshot(self) -> dict[tuple[str, str], int]:
        return {key: n for key, n in self.counts.items() if n}


class Hand:
    """Renders recorded items as scenario lines, with the events the game must emit."""

    def __init__(self, rng: random.Random, how: Clumsiness) -> None:
        self.rng = rng
        self.how = how
        self.lines: list[Line | str] = []
        self.expected: list[Line] = []
        self.table = Table()

    def render(self, items: list[Item]) -> tuple[list[Line | str], list[Line]]:
        """The scenario lines (comments as strings) and the expected events."""
        for item in items:
            getattr(self, "_" + type(item).__name__.lower())(item)
        return self.lines, self.expected

    # items

    def _setup(self, _: Setup) -> None:
        if self.lines:
            self._wait(2000)
        self.lines.append({"setup": "start"})
        self.table = Table.start()
        self._wait(500)

    def _load(self, item: Load) -> None:
        self.lines.append({"load": {"position_id": item.position_id, "match_id": item.match_id}})
        self.table = Table.of(item.on_roll, item.board)
        self._wait(500)

    def _opening(self, item: Opening) -> None:
        for white, black in item.rolls:
            self.lines.append(f"# opening roll: white {white}, black {black}")
            self.lines.append({"dice": [white, black]})
            self._press(self.rng.choice(["white", "black"]), "roll")
            event: Line = {"type": "opening_roll", "white": white, "black": black}
            event["starter"] = None if white == black else "white" if white > black else "black"
            self.expected.append(event)

    def _cubeaction(self, item: CubeAction) -> None:
        taker = other(item.player)
        self.lines.append(f"# {item.player} doubles to {item.cube}, {taker} "
                          f"{'takes' if item.taken else 'drops'}")
        self._maybe_glitch()
        self._press(item.player, "cube")
        self.expected.append({"type": "double_offered", "player": item.player, "cube": item.cube})
        if self.how.split > 0:
            self._wait(self.rng.randrange(300, 1500, 100))
        self._press(taker, "roll" if item.taken else "cube")
        kind = "double_taken" if item.taken else "double_dropped"
        self.expected.append({"type": kind, "player": taker, "cube": item.cube})

    def _gameover(self, item: GameOver) -> None:
        self.lines.append(f"# {item.winner} wins a {item.kind}, {item.points} point(s) with the "
                          f"cube on {item.cube}: {item.score[0]}-{item.score[1]}")
        self.expected.append({
            "type": "game_over", "winner": item.winner, "kind": item.kind, "cube": item.cube,
            "points": item.points, "score": list(item.score),
        })

    def _matchover(self, item: MatchOver) -> None:
        self.expected.append({"type": "match_over", "winner": item.winner,
                              "score": list(item.score)})

    def _turn(self, turn: Turn) -> None:
        color = turn.player
        if self.table.snapshot() != Table.of(color, turn.before).snapshot():
            raise AssertionError(f"the hand's board drifted from gnubg's before {turn}")
        self.lines.append(f"# {color} rolls {turn.dice[0]}-{turn.dice[1]}: "
                          f"{turn.play or 'no legal move'}")
        if not turn.opening:
            self._maybe_glitch()
            self.lines.append({"dice": list(turn.dice)})
            self._press(color, "roll")
        dice = sorted(turn.dice, reverse=True)
        if turn.play is None:
            self.expected.append({"type": "no_legal_move", "player": color, "dice": dice})
            self._wait(3000)
            return
        mine = [seq for seq in turn.sequences if apply_steps(turn.before, seq) == turn.after]
        tree = partial_tree(turn.before, turn.sequences)
        finals = {apply_steps(turn.before, seq) for seq in turn.sequences}
        board = turn.before
        for chain in chains(self.rng.choice(mine)):
            self._fumble_between(color, board, tree, finals)
            board = self._movement(color, board, chain, tree)
        if self.how.split > 0:
            self._wait(self.rng.randrange(SETTLE, 1200, 100))
        self._press(color, "roll")
        self.expected.append({
            "type": "played", "player": color, "dice": dice, "play": turn.play,
            "position_id": turn.position_id, "match_id": turn.match_id,
        })

    # fumbles between movements

    def _fumble_between(
        self, color: str, board: Board, tree: dict[Board, set[Step]], finals: set[Board]
    ) -> None:
        if board not in finals and self._chance(self.how.early_done):
            self._wait(self.rng.randrange(SETTLE, 1000, 100))
            self._press(color, "roll")
            self.expected.append({"type": "rejected", "player": color})
        if self._chance(self.how.knock):
            self._knock()
        backs = [s for s in tree.get(board, ()) if not s.hit and s.frm != BAR and s.to != OFF]
        if backs and self._chance(self.how.takeback):
            step = self.rng.choice(sorted(backs))
            there, back = location(color, step.frm), location(color, step.to)
            self._move(color, there, back)
            self._wait(self.rng.randrange(200, 900, 100))
            self._move(color, back, there)
        self._maybe_glitch()

    def _knock(self) -> None:
        stacks = sorted(key for key, n in self.table.counts.items()
                        if n >= 2 and key[1] not in ("bar", "off"))
        if not stacks:
            return
        color, loc = self.rng.choice(stacks)
        n = self.rng.randint(2, min(3, self.table.counts[color, loc]))
        for _ in range(n):
            self._lift(color, loc)
        self._wait(self.rng.randrange(60, 700, 20))
        for _ in range(n):
            self._place(color, loc)
        self._wait(SETTLE)

    def _maybe_glitch(self) -> None:
        if self._chance(self.how.glitch):
            at = str(self.rng.randint(1, 24))
            ms = self.rng.randrange(20, 130, 10)
            color = self.rng.choice(["white", "black"])
            self.lines.append({"glitch": {"at": at, "color": color, "ms": ms}})
            self._wait(200)

    # one checker's movement (one or several steps), with the blots it hits

    def _movement(
        self, color: str, board: Board, chain: list[Step], tree: dict[Board, set[Step]]
    ) -> Board:
        whole = len(chain) > 1 and self._chance(self.how.combine)
        parts = [chain] if whole else [[step] for step in chain]
        for part in parts:
            after = apply_steps(board, part)
            hits = [location(other(color), 25 - s.to) for s in part if s.hit]
            wrong = None
            if self._chance(self.how.wrong):
                wrong = self._wrong_point(color, board, part[0], tree)
            first = not wrong and self.rng.random() < 0.5
            if first:
                self._to_bar(color, hits)
            self._carry(color, location(color, part[0].frm), location(color, part[-1].to), wrong)
            if not first:
                self._to_bar(color, hits)
            board = after
        return board

    def _to_bar(self, color: str, hits: list[str]) -> None:
        for at in hits:
            self._move(other(color), at, "bar")

    def _carry(self, color: str, frm: str, to: str, wrong: str | None) -> None:
        """Lift a checker from ``frm`` and put it on ``to``, the way this hand does."""
        if wrong:
            self._lift(color, frm)
            self._wait(self.rng.randrange(100, 600, 50))
            self._place(color, wrong)
            self._wait(self.rng.randrange(SETTLE, 900, 100))
            self._lift(color, wrong)
            self._wait(self.rng.randrange(100, 400, 50))
            self._place(color, to)
            self._wait(SETTLE)
        elif {frm, to}.isdisjoint({"bar", "off"}) and self._chance(self.how.slide):
            self._slide(color, frm, to)
        elif self._chance(self.how.split):
            self._lift(color, frm)
            self._wait(self.rng.randrange(100, 900, 50))
            self._place(color, to)
            self._wait(self.rng.randrange(SETTLE, 800, 100))
        else:
            self._move(color, frm, to)

    def _slide(self, color: str, frm: str, to: str) -> None:
        a, b = int(frm), int(to)
        between = range(a - 1, b, -1) if a > b else range(a + 1, b)
        clear = [p for p in between if not self.table.counts[other(color), str(p)]]
        count = min(len(clear), self.rng.randint(1, 2))
        touched = sorted(self.rng.sample(clear, count), key=lambda p: abs(p - a))
        at = frm
        self._lift(color, at)
        for p in touched:
            self._place(color, str(p))
            self._wait(self.rng.randrange(20, 130, 10))
            self._lift(color, str(p))
        self._place(color, to)
        self._wait(SETTLE)

    def _wrong_point(
        self, color: str, board: Board, step: Step, tree: dict[Board, set[Step]]
    ) -> str | None:
        """A point where putting this checker is no legal (partial) play, or None."""
        if step.frm == BAR:
            return None
        mine, theirs = board
        candidates = []
        for own in range(1, 25):
            if own == step.frm or theirs[25 - own] == 1:
                continue
            moved = list(mine)
            moved[step.frm] -= 1
            moved[own] += 1
            if theirs[25 - own] >= 2 or (tuple(moved), theirs) not in tree:
                candidates.append(own)
        blocked = [own for own in candidates if theirs[25 - own] >= 2]
        pick = [own for own in candidates if own not in blocked]
        if blocked and self.rng.random() < 0.3:
            pick = blocked
        return location(color, self.rng.choice(pick)) if pick else None

    # primitive actions

    def _chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def _wait(self, ms: int) -> None:
        self.lines.append({"wait": ms})

    def _press(self, color: str, button: str) -> None:
        self.lines.append({"press": f"{color}.{button}"})

    def _move(self, color: str, frm: str, to: str) -> None:
        self.table.lift(color, frm)
        self.table.place(color, to)
        self.lines.append({"move": f"{frm}/{to}", "color": color})

    def _lift(self, color: str, loc: str) -> None:
        self.table.lift(color, loc)
        self.lines.append({"lift": loc, "color": color})

    def _place(self, color: str, loc: str) -> None:
        self.table.place(color, loc)
        self.lines.append({"place": loc, "color": color})

