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
from dataclasses import dataclass

from hand_lines import SETTLE, Fumbles, HandLines, Line, MatchOver, Table, other
from scenario_moves import (
    BAR,
    OFF,
    Board,
    Step,
    apply_steps,
    chains,
    partial_tree,
)


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


Item = Setup | Load | Opening | CubeAction | Turn | GameOver | MatchOver


# --- how the hand plays -----------------------------------------------------------------------


@dataclass(frozen=True)
class Clumsiness(Fumbles):
    """Per-movement (or per-turn) chances of each fumble; all zero but ``combine`` is a
    clean hand."""

    combine: float = 0.5  # a checker using several dice moves in one movement


CLEAN = Clumsiness()
CLUMSY = Clumsiness(
    combine=0.4, split=0.6, slide=0.2, wrong=0.1, early_done=0.06, knock=0.05,
    takeback=0.1, glitch=0.2,
)


def start_table() -> Table:
    """The checkers of a new game."""
    table: Table = Counter()
    for color in ("white", "black"):
        for own, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            table[color, location(color, own)] = n
    return table


def table_of(on_roll: str, board: Board) -> Table:
    """The checkers of ``board``, numbered for the player ``on_roll``."""
    table: Table = Counter()
    for color, side in ((on_roll, board[0]), (other(on_roll), board[1])):
        for own in range(OFF, BAR + 1):
            if side[own]:
                table[color, location(color, own)] = side[own]
    return table


class Hand(HandLines):
    """Renders recorded items as scenario lines, with the events the game must emit."""

    def __init__(self, rng: random.Random, how: Clumsiness) -> None:
        super().__init__(rng, how)
        self.how: Clumsiness = how

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
        self.table = start_table()
        self._wait(500)

    def _load(self, item: Load) -> None:
        self.lines.append({"load": {"position_id": item.position_id, "match_id": item.match_id}})
        self.table = table_of(item.on_roll, item.board)
        self._wait(500)

    def _opening(self, item: Opening) -> None:
        self._opening_rolls(item.rolls)

    def _cubeaction(self, item: CubeAction) -> None:
        taker = other(item.player)
        self.lines.append(f"# {item.player} doubles to {item.cube}, {taker} "
                          f"{'takes' if item.taken else 'drops'}")
        self._glitch()
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
        self._game_over(item.winner, item.kind, item.cube, item.points, item.score)

    def _matchover(self, item: MatchOver) -> None:
        self._match_over(item)

    def _turn(self, turn: Turn) -> None:
        color = turn.player
        if self.table != table_of(color, turn.before):
            raise AssertionError(f"the hand's board drifted from gnubg's before {turn}")
        self._roll(color, turn.dice, turn.play, opening=turn.opening)
        if turn.play is None:
            return
        mine = [seq for seq in turn.sequences if apply_steps(turn.before, seq) == turn.after]
        tree = partial_tree(turn.before, turn.sequences)
        finals = {apply_steps(turn.before, seq) for seq in turn.sequences}
        board = turn.before
        for chain in chains(self.rng.choice(mine)):
            self._fumble_between(color, board, tree, finals)
            board = self._movement(color, board, chain, tree)
        self._done(color, turn.dice, turn.play, position_id=turn.position_id,
                   match_id=turn.match_id)

    # fumbles between movements

    def _fumble_between(
        self, color: str, board: Board, tree: dict[Board, set[Step]], finals: set[Board]
    ) -> None:
        if board not in finals and self._chance(self.how.early_done):
            self._wait(self.rng.randrange(SETTLE, 1000, 100))
            self._rejected_done(color)
        if self._chance(self.how.knock):
            self._knock()
        backs = [s for s in tree.get(board, ()) if not s.hit and s.frm != BAR and s.to != OFF]
        if backs and self._chance(self.how.takeback):
            step = self.rng.choice(sorted(backs))
            self._take_back(color, location(color, step.frm), location(color, step.to))
        self._glitch()

    def _phantom(self) -> tuple[str, str, int]:
        """Drawn in the order this hand always drew them (where, how long, which colour)."""
        at = str(self.rng.randint(1, 24))
        ms = self.rng.randrange(20, 130, 10)
        return at, self.rng.choice(["white", "black"]), ms

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

    def _misplace(self, color: str, frm: str, wrong: str) -> None:
        self._lift(color, frm)
        self._wait(self.rng.randrange(100, 600, 50))
        self._place(color, wrong)
        self._wait(self.rng.randrange(SETTLE, 900, 100))

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
