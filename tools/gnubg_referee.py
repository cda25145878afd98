"""GNU Backgammon as the referee: two human players driven through gnubg's own commands.

Runs inside gnubg's embedded Python (the ``gnubg`` module is handed in).  The
referee sets up matches, sessions and positions, rolls the dice a policy
chooses (``set dice``), plays one of gnubg's legal plays (``move``), offers and
answers doubles (``double``, ``take``, ``drop``), and records every step as
items for ``scenario_hand``, with the Position ID and Match ID gnubg reports.
gnubg player 0 is White, player 1 Black.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hand_lines import MatchOver
from scenario_hand import (
    CubeAction,
    GameOver,
    Item,
    Load,
    Opening,
    Setup,
    Turn,
)
from scenario_moves import (
    BAR,
    OFF,
    Board,
    Side,
    apply_steps,
    legal_sequences,
    side_from_gnubg,
    side_to_gnubg,
)

COLORS = ("white", "black")  # gnubg player 0, player 1
KINDS = {1: "single", 2: "gammon", 3: "backgammon"}


# --- Match IDs (gnubg's 9-byte key, bits little-endian) -------------------------------------

FIELDS = (  # name, first bit, width
    ("cube_log", 0, 4), ("owner", 4, 2), ("dice_owner", 6, 1), ("crawford", 7, 1),
    ("state", 8, 3), ("turn", 11, 1), ("doubled", 12, 1), ("resign", 13, 2),
    ("die1", 15, 3), ("die2", 18, 3), ("length", 21, 15), ("score0", 36, 15),
    ("score1", 51, 15), ("no_jacoby", 66, 1),
)


def decode_match_id(match_id: str) -> dict[str, int]:
    """The fields of a gnubg Match ID; ``owner`` 3 is a centred cube, ``state`` 1 playing."""
    bits = int.from_bytes(base64.b64decode(match_id), "little")
    return {name: (bits >> first) & ((1 << width) - 1) for name, first, width in FIELDS}


def encode_match_id(**fields: int) -> str:
    """A gnubg Match ID from its fields (missing ones 0)."""
    bits = 0
    for name, first, width in FIELDS:
        bits |= (fields.get(name, 0) & ((1 << width) - 1)) << first
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


# --- decisions: random (seeded) or scripted --------------------------------------------------


@dataclass
class Plan:
    """What the player on roll does this turn."""

    dice: tuple[int, int]
    double: str | None = None  # None, "take" or "drop"
    play: str | None = None  # exact notation, "hit" (any hitting play), or None (policy's pick)


class RandomPolicy:
    """Random dice, cube actions and plays from a seeded RNG."""

    def __init__(self, rng: random.Random, double: float = 0.06, take: float = 0.65) -> None:
        self.rng = rng
        self.p_double = double
        self.p_take = take

    def dice(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def opening(self) -> list[tuple[int, int]]:
        rolls = [self.dice()]
        while rolls[-1][0] == rolls[-1][1]:
            rolls.append(self.dice())
        return rolls

    def plan(self, *, may_double: bool) -> Plan | None:
        double = None
        if may_double and self.rng.random() < self.p_double:
            double = "take" if self.rng.random() < self.p_take else "drop"
        return Plan(self.dice(), double)

    def choose(self, plays: list[str], plan: Plan | None) -> str:
        """One of gnubg's legal plays (``plays`` best first): mostly a good one, else any."""
        if plan and plan.play:
            return pick_play(plays, plan.play)
        luck = self.rng.random()
        if luck < 0.6:
            return plays[0]
        if luck < 0.85:
            return self.rng.choice(plays[:3])
        return self.rng.choice(sorted(plays))


class ScriptPolicy(RandomPolicy):
    """Scripted openings and turns first; then random, or the end of the scenario."""

    def __init__(self, rng: random.Random, script: list[dict[str, Any]], *,
                 then_random: bool) -> None:
        super().__init__(rng)
        self.script = list(script)
        self.then_random = then_random

    def opening(self) -> list[tuple[int, int]]:
        if self.script and "opening" in self.script[0]:
            return [(white, black) for white, black in self.script.pop(0)["opening"]]
        return super().opening()

    def plan(self, *, may_double: bool) -> Plan | None:
        if self.script:
            step = self.script.pop(0)
            a, b = step["dice"]
            return Plan((a, b), step.get("double"), step.get("play"))
        return super().plan(may_double=may_double) if self.then_random else None


class ReplayPolicy(RandomPolicy):
    """The decisions recorded in expected events, to referee them again."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__(random.Random(0))
        skipped = ("rejected", "game_over", "match_over")
        self.events = [e for e in events if e["type"] not in skipped]
        self.opening_play: str | None = None

    def opening(self) -> list[tuple[int, int]]:
        rolls = []
        while self.events and self.events[0]["type"] == "opening_roll":
            event = self.events.pop(0)
            rolls.append((event["white"], event["black"]))
            if event.get("starter"):
                break
        return rolls

    def plan(self, *, may_double: bool) -> Plan | None:
        double = None
        if self.events and self.events[0]["type"] == "double_offered":
            answer = self.events[1]["type"]
            del self.events[:2]
            double = "take" if answer == "double_taken" else "drop"
            if double == "drop":
                return Plan((1, 1), double)
        if not self.events or self.events[0]["type"] not in ("played", "no_legal_move"):
            return None
        event = self.events.pop(0)
        a, b = event["dice"]
        return Plan((a, b), double, event.get("play"))

    def choose(self, plays: list[str], plan: Plan | None) -> str:
        if plan is None:  # the opening roll's play
            plan = self.plan(may_double=False)
        if plan is None or plan.play is None:
            raise SystemExit(f"expected no legal move (or nothing), gnubg has the plays {plays}")
        return pick_play(plays, plan.play)

    def more(self) -> bool:
        return bool(self.events)


def pick_play(plays: list[str], want: str) -> str:
    """The scripted play: an exact notation, or "hit" for the first hitting play."""
    if want == "hit":
        hits = sorted(p for p in plays if "*" in p)
        if hits:
            return hits[0]
    if want in plays:
        return want
    raise SystemExit(f"scripted play {want!r} is not among gnubg's legal plays {plays}")


# --- the referee: gnubg driven by two human players ------------------------------------------


class Referee:
    """Plays games in gnubg on behalf of both players and records what happened as items."""

    def __init__(self, gnubg: Any, policy: RandomPolicy, plies: int = 2) -> None:
        self.g = gnubg
        self.policy = policy
        self.plies = plies  # gnubg's lookahead when it ranks the plays (its default: 2)
        self.items: list[Item] = []

    # gnubg access

    def cmd(self, text: str) -> None:
        self.g.command(text)

    def state(self) -> dict[str, int]:
        return decode_match_id(self.g.matchid())

    def board(self) -> Board:
        """The board from the side of the player on roll (gnubg's board()[1])."""
        theirs, mine = self.g.board()
        return side_from_gnubg(mine), side_from_gnubg(theirs)

    # matches, sessions, positions

    def new(self, length: int) -> None:
        """A new match of ``length`` points, or a money session (0) without Jacoby."""
        for setting in ("set player 0 human", "set player 1 human", "set automatic roll off",
                        "set automatic move off", "set automatic game off",
                        "set automatic doubles 0", "set jacoby off", "set crawford on",
                        "set cube use on",
                        f"set evaluation chequerplay evaluation plies {self.plies}"):
            self.cmd(setting)
        self.cmd(f"new match {length}" if length else "new session")
        self.expect(ok=self.state()["length"] == length, what="a new match")

    def load(self, *, on_roll: int, white: dict[str, int], black: dict[str, int], length: int,
             score: tuple[int, int] = (0, 0), cube: int = 1, owner: int | None = None) -> None:
        """Lay out a position (absolute locations) and match state, as a scenario ``load``."""
        match_id = encode_match_id(
            cube_log=cube.bit_length() - 1, owner=3 if owner is None else owner,
            dice_owner=on_roll, turn=on_roll, state=1, length=length,
            score0=score[0], score1=score[1], no_jacoby=1)
        sides = {0: absolute_side(white, "white"), 1: absolute_side(black, "black")}
        position_id = self.g.positionid((side_to_gnubg(sides[1 - on_roll]),
                                         side_to_gnubg(sides[on_roll])))
        self.load_ids(position_id, match_id)

    def load_ids(self, position_id: str, match_id: str) -> None:
        """Set up gnubg from a Position ID and Match ID, as a scenario ``load``."""
        self.new(decode_match_id(match_id)["length"])
        self.cmd(f"set matchid {match_id}")
        self.cmd(f"set board {position_id}")
        self.expect(ok=self.g.matchid() == match_id and self.g.positionid() == position_id,
                    what=f"gnubg took the load {position_id} {match_id}")
        self.snapshot()

    def snapshot(self) -> None:
        """Start recording here, as a scenario ``load`` of the current position and match."""
        s = self.state()
        self.items.append(Load(self.g.positionid(), self.g.matchid(), COLORS[s["turn"]],
                               self.board()))

    # games

    def play(self, *, fresh: bool, stop: Callable[[Referee], bool] | None = None) -> bool:
        """Play a game (from its opening roll when ``fresh``) until it ends (True) or stops."""
        if fresh:
            self.opening()
            if self.over():
                return True
        while True:
            if stop and stop(self):
                return False
            plan = self.policy.plan(may_double=self.may_double())
            if plan is None:
                return False
            if plan.double and self.double(take=plan.double == "take"):
                return True
            self.turn(plan)
            if self.over():
                return True

    def opening(self) -> None:
        self.items.append(Setup())
        rolls = self.policy.opening()
        white, black = rolls[-1]
        starter = 0 if white > black else 1
        self.cmd(f"set turn {starter}")
        self.cmd(f"set dice {white} {black}")
        s = self.state()
        self.expect(ok=s["turn"] == starter and {s["die1"], s["die2"]} == {white, black},
                    what="opening")
        self.items.append(Opening(tuple(rolls)))
        self.turn(None, (white, black))

    def may_double(self) -> bool:
        """Whether the player on roll may (usefully) double now."""
        s = self.state()
        me, cube = s["turn"], 1 << s["cube_log"]
        if s["crawford"] or cube >= 64 or s["owner"] not in (3, me):
            return False
        mine = s["score0"] if me == 0 else s["score1"]
        return not s["length"] or mine + cube < s["length"]

    def double(self, *, take: bool) -> bool:
        """Offer a double; the opponent takes or drops.  True when the game ended."""
        s = self.state()
        me = s["turn"]
        cube = 2 << s["cube_log"]
        self.cmd("double")
        self.expect(ok=self.state()["doubled"] == 1, what="double accepted by gnubg")
        self.items.append(CubeAction(COLORS[me], cube, take))
        self.cmd("take" if take else "drop")
        if take:
            s = self.state()
            self.expect(ok=1 << s["cube_log"] == cube and s["owner"] == 1 - me, what="take")
            return False
        return self.over(dropped=True)

    def turn(self, plan: Plan | None, dice: tuple[int, int] | None = None) -> None:
        """The player on roll rolls (unless the opening rolled) and plays."""
        s = self.state()
        player = s["turn"]
        if dice is None:
            assert plan is not None
            dice = plan.dice
            self.cmd(f"set dice {dice[0]} {dice[1]}")
        before = self.board()
        plays = [hint["move"] for hint in self.g.hint(100000)["hint"]]
        sequences = tuple(legal_sequences(before, dice))
        results = {apply_steps(before, seq) for seq in sequences}
        theirs = {apply_gnubg_move(before, self.g.parsemove(p)): p for p in plays}
        self.expect(ok=set(theirs) == results and len(theirs) == len(plays),
                    what=f"gnubg's legal plays of {dice} at {self.g.positionid()} agree with ours")
        if not plays:
            self.cmd("move")
            self.expect(ok=self.state()["turn"] != player,
                        what="the turn passes with no legal move")
            after, play = before, None
        else:
            play = self.policy.choose(plays, plan)
            self.cmd(f"move {play}")
            mover, next_on_roll = self.g.board()  # gnubg's board()[1] is the side on roll
            after = side_from_gnubg(mover), side_from_gnubg(next_on_roll)
            self.expect(ok=after == apply_gnubg_move(before, self.g.parsemove(play)),
                        what=f"gnubg played {play}")
        self.items.append(Turn(COLORS[player], dice, play, before, after, sequences,
                               self.g.positionid(), self.g.matchid(), opening=plan is None))

    def over(self, *, dropped: bool = False) -> bool:
        """Record the end of the game (and match) if the game is over."""
        s = self.state()
        if s["state"] == 1:
            return False
        previous = self.last_score()
        score = s["score0"], s["score1"]
        winner = 0 if score[0] > previous[0] else 1
        points = score[winner] - previous[winner]
        cube = 1 << s["cube_log"]
        kind = "single" if dropped else KINDS[points // cube]
        self.expect(ok=points in (cube, 2 * cube, 3 * cube) and (not dropped or points == cube),
                    what=f"gnubg's score {score} after {previous}")
        self.items.append(GameOver(COLORS[winner], kind, cube, points, score))
        if s["length"] and score[winner] >= s["length"]:
            self.items.append(MatchOver(COLORS[winner], score))
        return True

    def last_score(self) -> tuple[int, int]:
        """The score before this game ended (from the last recorded game over, or the load)."""
        for item in reversed(self.items):
            if isinstance(item, GameOver):
                return item.score
            if isinstance(item, Load):
                s = decode_match_id(item.match_id)
                return s["score0"], s["score1"]
        return 0, 0

    def next_game(self) -> None:
        self.cmd("new game")
        self.expect(ok=self.state()["state"] == 1, what="a new game")

    def expect(self, *, ok: bool, what: str) -> None:
        if not ok:
            raise SystemExit(f"gnubg disagrees: {what} (position {self.g.positionid()}, "
                             f"match {self.g.matchid()})")


def apply_gnubg_move(board: Board, pairs: tuple[tuple[int, int], ...]) -> Board:
    """The board after gnubg's parsed move pairs (from, to; 25 bar, 0 off); hits blots."""
    mine, theirs = list(board[0]), list(board[1])
    for frm, to in pairs:
        mine[frm] -= 1
        mine[to] += 1
        if to != OFF and theirs[25 - to] == 1:
            theirs[25 - to] = 0
            theirs[BAR] += 1
    return tuple(mine), tuple(theirs)


def absolute_side(counts: dict[str, int], color: str) -> Side:
    """A side in its own numbering from absolute locations ("1".."24", "bar"); the rest off."""
    side = [0] * 26
    for loc, n in counts.items():
        own = BAR if loc == "bar" else int(loc) if color == "white" else 25 - int(loc)
        side[own] += n
    side[OFF] = 15 - sum(side)
    return tuple(side)
