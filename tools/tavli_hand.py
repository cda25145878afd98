"""A hand that plays recorded tavli games on the modelled board: scenario lines and events.

``TavliHand.render(items)`` turns the items of tools/tavli_game.py into the
actions of docs/CONTRACTS.md §4 and the events ``tavla-pi replay`` must print
for them.  A clean hand moves each checker in one movement per die; a noisy
hand also splits lifts from placements, slides across the points it passes,
knocks a stack and puts it back, leaves phantom readings, and puts checkers on
wrong points (out of sync; sometimes DONE there, which is rejected) before
correcting them.  Every DONE that commits is checked against the rules' board.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tavli_game import Begin, End, Item, MatchEnd, Step, Turn, steps_of

from tavla_pi.rules.tavli import VariantPosition

Line = dict[str, Any]
Table = Counter[tuple[str, str]]
SETTLE = 400


def other(color: str) -> str:
    return "black" if color == "white" else "white"


def table_of(position: VariantPosition) -> Table:
    """Checkers per (colour, location) of a position, "off" included."""
    board = position.board()
    return Counter({(c, at): n for c in ("white", "black")
                    for at, n in board[c].items() if n})


def frozen(table: Table) -> frozenset[tuple[tuple[str, str], int]]:
    return frozenset((key, n) for key, n in table.items() if n)


@dataclass(frozen=True)
class Noise:
    """Chances, per movement, of each thing a noisy hand does; all zero: a clean hand."""

    split: float = 0.0
    slide: float = 0.0
    wrong: float = 0.0
    wrong_done: float = 0.0  # given a wrong placement: DONE pressed there (rejected)
    early_done: float = 0.0
    knock: float = 0.0
    takeback: float = 0.0
    glitch: float = 0.0


CLEAN = Noise()
NOISY = Noise(split=0.5, slide=0.25, knock=0.04, takeback=0.08, glitch=0.2)
CORRECTED = Noise(split=0.3, wrong=0.25, wrong_done=0.5, early_done=0.05)


class TavliHand:
    """Renders tavli items as scenario lines (comments as strings) and expected events."""

    def __init__(self, rng: random.Random, noise: Noise, first_setup: Line) -> None:
        self.rng, self.noise, self.first_setup = rng, noise, first_setup
        self.lines: list[Line | str] = []
        self.expected: list[Line] = []
        self.table: Table = Counter()
        self.name = "portes"

    def render(self, items: list[Item]) -> tuple[list[Line | str], list[Line]]:
        for item in items:
            if isinstance(item, Begin):
                self._begin(item)
            elif isinstance(item, Turn):
                self._turn(item)
            elif isinstance(item, End):
                self._end(item)
            elif isinstance(item, MatchEnd):
                self.expected.append({"type": "match_over", "winner": item.winner,
                                      "score": list(item.score)})
        return self.lines, self.expected

    # items

    def _begin(self, item: Begin) -> None:
        self.name = item.name
        if self.lines:
            self.lines += [{"wait": 2000}, f"# game of {item.name}", {"setup": "start"}]
        else:
            self.lines += [f"# game of {item.name}", dict(self.first_setup)]
        self.lines.append({"wait": 500})
        self.table = table_of(item.position)
        self.expected.append({"type": "game_started", "variant": item.name})
        for white, black in item.opening:
            self.lines.append(f"# opening roll: white {white}, black {black}")
            self.lines.append({"dice": [white, black]})
            self._press(self.rng.choice(["white", "black"]), "roll")
            starter = None if white == black else "white" if white > black else "black"
            self.expected.append({"type": "opening_roll", "white": white, "black": black,
                                  "starter": starter})

    def _end(self, item: End) -> None:
        self.lines.append(f"# {item.winner or 'nobody'} wins: {item.kind}, {item.points} "
                          f"point(s), {item.score[0]}-{item.score[1]}")
        self.expected.append({"type": "game_over", "winner": item.winner, "kind": item.kind,
                              "cube": 1, "points": item.points, "score": list(item.score)})

    def _turn(self, turn: Turn) -> None:
        color = turn.player
        assert self.table == table_of(turn.before), ("hand drifted", turn)
        play = turn.play.notation if turn.play else "no legal move"
        self.lines.append(f"# {color} rolls {turn.dice[0]}-{turn.dice[1]}: {play}")
        if not turn.opening:
            self._glitch()
            self.lines.append({"dice": list(turn.dice)})
            self._press(color, "roll")
        dice = sorted(turn.dice, reverse=True)
        if turn.play is None:
            self.expected.append({"type": "no_legal_move", "player": color, "dice": dice})
            self._wait(3000)
            return
        if turn.moment is not None and turn.moment.hand:
            self._scripted(turn)
        else:
            self._movements(turn)
        want = table_of(turn.after)
        assert self.table == want, ("not the play", turn.play.notation, self.table, want)
        if self.noise.split:
            self._wait(self.rng.randrange(SETTLE, 1200, 100))
        self._press(color, "roll")
        self.expected.append({"type": "played", "player": color, "dice": dice,
                              "play": turn.play.notation, "board": turn.after.board()})

    def _scripted(self, turn: Turn) -> None:
        assert turn.moment is not None
        for line in turn.moment.hand:
            self.lines.append(line)
            if isinstance(line, dict):
                self._follow(line)
        self.expected += list(turn.moment.expect)

    def _follow(self, line: Line) -> None:
        """Keep the table in step with a hand-written line."""
        if "move" in line:
            frm, to = line["move"].split("/")
            self.table[line["color"], frm] -= 1
            self.table[line["color"], to] += 1
        elif "lift" in line:
            self.table[line["color"], line["lift"]] -= 1
        elif "place" in line:
            self.table[line["color"], line["place"]] += 1
        assert all(n >= 0 for n in self.table.values()), line

    # the movements of a play

    def _movements(self, turn: Turn) -> None:
        color = turn.player
        legalish = self._partials(turn)
        finals = {frozen(table_of(p.result)) for p in turn.plays}
        for step in turn.steps:
            self._between(color, finals, step)
            if turn.name == "portes" and step[2]:
                self._move(other(color), step[1], "bar")
            self._carry(color, step, legalish, finals)

    def _partials(self, turn: Turn) -> set[frozenset[tuple[tuple[str, str], int]]]:
        """Every board some sub-multiset of some legal play's steps leads to (a superset
        of the boards the game may take for a partial play)."""
        seen = set()
        for play in turn.plays:
            steps = list(steps_of(turn.name, turn.player, play))
            for k in range(len(steps) + 1):
                for part in combinations(steps, k):
                    table = Counter(self.table)
                    for frm, to, flag in part:
                        table[turn.player, frm] -= 1
                        table[turn.player, to] += 1
                        if flag and turn.name == "portes":
                            table[other(turn.player), to] -= 1
                            table[other(turn.player), "bar"] += 1
                    seen.add(frozen(table))
        return seen

    def _between(self, color: str, finals: set[Any], step: Step) -> None:
        if frozen(self.table) not in finals and self._chance(self.noise.early_done):
            self._wait(SETTLE)
            self._press(color, "roll")
            self.expected.append({"type": "rejected", "player": color})
        if self._chance(self.noise.knock):
            self._knock()
        frm, to, flag = step
        if not flag and "off" not in (frm, to) and "bar" not in (frm, to) \
                and self._chance(self.noise.takeback):
            self._move(color, frm, to)
            self._wait(self.rng.randrange(200, 900, 100))
            self._move(color, to, frm)
        self._glitch()

    def _carry(self, color: str, step: Step, legalish: set[Any], finals: set[Any]) -> None:
        frm, to, _ = step
        wrong = self._wrong_point(color, frm, legalish) if self._chance(self.noise.wrong) \
            else None
        if wrong is not None:
            self._lift(color, frm)
            self._wait(self.rng.randrange(100, 500, 50))
            self._place(color, wrong)
            self._wait(self.rng.randrange(600, 1000, 100))
            if frozen(self.table) not in finals and self._chance(self.noise.wrong_done):
                self._press(color, "roll")
                self.expected.append({"type": "rejected", "player": color})
                self._wait(300)
            self._lift(color, wrong)
            self._wait(self.rng.randrange(100, 400, 50))
            self._place(color, to)
            self._wait(SETTLE)
        elif "off" not in (frm, to) and "bar" not in (frm, to) and self._chance(self.noise.slide):
            self._slide(color, frm, to)
        elif self._chance(self.noise.split):
            self._lift(color, frm)
            self._wait(self.rng.randrange(100, 900, 50))
            self._place(color, to)
            self._wait(self.rng.randrange(SETTLE, 800, 100))
        else:
            self._move(color, frm, to)

    def _wrong_point(self, color: str, frm: str, legalish: set[Any]) -> str | None:
        """A point, free of the opponent's checkers, where this checker makes no board a
        legal (partial) play could make."""
        picks = []
        for point in map(str, range(1, 25)):
            if point == frm or self.table[other(color), point]:
                continue
            table = Counter(self.table)
            table[color, frm] -= 1
            table[color, point] += 1
            if frozen(table) not in legalish:
                picks.append(point)
        return self.rng.choice(picks) if picks else None

    def _slide(self, color: str, frm: str, to: str) -> None:
        a, b = int(frm), int(to)
        if (a > b) != (color == "white" or self.name == "fevga"):
            self._move(color, frm, to)  # Fevga's Black crossing from 1 to 24: no slide
            return
        between = range(a - 1, b, -1) if a > b else range(a + 1, b)
        clear = [p for p in between if not self.table[other(color), str(p)]]
        touched = sorted(self.rng.sample(clear, min(len(clear), self.rng.randint(1, 2))),
                         key=lambda p: abs(p - a))
        self._lift(color, frm)
        for p in touched:
            self._place(color, str(p))
            self._wait(self.rng.randrange(20, 130, 10))
            self._lift(color, str(p))
        self._place(color, to)
        self._wait(SETTLE)

    def _knock(self) -> None:
        """Knock 2-3 checkers off a one-colour stack and put them back."""
        stacks = sorted((c, at) for (c, at), n in self.table.items()
                        if n >= 2 and at not in ("bar", "off") and not self.table[other(c), at])
        if not stacks:
            return
        color, at = self.rng.choice(stacks)
        n = self.rng.randint(2, min(3, self.table[color, at]))
        for _ in range(n):
            self._lift(color, at)
        self._wait(self.rng.randrange(60, 700, 20))
        for _ in range(n):
            self._place(color, at)
        self._wait(SETTLE)

    # primitive actions

    def _glitch(self) -> None:
        if self._chance(self.noise.glitch):
            self.lines.append({"glitch": {"at": str(self.rng.randint(1, 24)),
                                          "color": self.rng.choice(["white", "black"]),
                                          "ms": self.rng.randrange(20, 130, 10)}})
            self._wait(200)

    def _chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def _press(self, color: str, button: str) -> None:
        self.lines.append({"press": f"{color}.{button}"})

    def _wait(self, ms: int) -> None:
        self.lines.append({"wait": ms})

    def _move(self, color: str, frm: str, to: str) -> None:
        self.table[color, frm] -= 1
        self.table[color, to] += 1
        self.lines.append({"move": f"{frm}/{to}", "color": color})

    def _lift(self, color: str, at: str) -> None:
        assert self.table[color, at] > 0, (color, at)
        self.table[color, at] -= 1
        self.lines.append({"lift": at, "color": color})

    def _place(self, color: str, at: str) -> None:
        self.table[color, at] += 1
        self.lines.append({"place": at, "color": color})

