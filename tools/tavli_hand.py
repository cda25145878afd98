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

from hand_lines import SETTLE, Fumbles, HandLines, Line, MatchOver, Table, other
from tavli_game import Begin, End, Item, Step, Turn, steps_of

from tavla_pi.rules.tavli import VariantPosition


def table_of(position: VariantPosition) -> Table:
    """Checkers per (colour, location) of a position, "off" included."""
    board = position.board()
    return Counter({(c, at): n for c in ("white", "black")
                    for at, n in board[c].items() if n})


def frozen(table: Table) -> frozenset[tuple[tuple[str, str], int]]:
    return frozenset((key, n) for key, n in table.items() if n)


@dataclass(frozen=True)
class Noise(Fumbles):
    """Chances, per movement, of each thing a noisy hand does; all zero: a clean hand."""

    wrong_done: float = 0.0  # given a wrong placement: DONE pressed there (rejected)


CLEAN = Noise()
NOISY = Noise(split=0.5, slide=0.25, knock=0.04, takeback=0.08, glitch=0.2)
CORRECTED = Noise(split=0.3, wrong=0.25, wrong_done=0.5, early_done=0.05)


class TavliHand(HandLines):
    """Renders tavli items as scenario lines (comments as strings) and expected events."""

    def __init__(self, rng: random.Random, noise: Noise, first_setup: Line) -> None:
        super().__init__(rng, noise)
        self.how: Noise = noise
        self.first_setup = first_setup
        self.name = "portes"
        self.finals: set[Any] = set()
        """The boards the play being moved may end on."""

    def render(self, items: list[Item]) -> tuple[list[Line | str], list[Line]]:
        for item in items:
            if isinstance(item, Begin):
                self._begin(item)
            elif isinstance(item, Turn):
                self._turn(item)
            elif isinstance(item, End):
                self._end(item)
            elif isinstance(item, MatchOver):
                self._match_over(item)
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
        self._opening_rolls(item.opening)

    def _end(self, item: End) -> None:
        self.lines.append(f"# {item.winner or 'nobody'} wins: {item.kind}, {item.points} "
                          f"point(s), {item.score[0]}-{item.score[1]}")
        self._game_over(item.winner, item.kind, 1, item.points, item.score)

    def _turn(self, turn: Turn) -> None:
        color = turn.player
        assert self.table == table_of(turn.before), ("hand drifted", turn)
        self._roll(color, turn.dice, turn.play.notation if turn.play else None,
                   opening=turn.opening)
        if turn.play is None:
            return
        if turn.moment is not None and turn.moment.hand:
            self._scripted(turn)
        else:
            self._movements(turn)
        want = table_of(turn.after)
        assert self.table == want, ("not the play", turn.play.notation, self.table, want)
        self._done(color, turn.dice, turn.play.notation, board=turn.after.board())

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
        self.finals = {frozen(table_of(p.result)) for p in turn.plays}
        for step in turn.steps:
            self._between(color, step)
            if turn.name == "portes" and step[2]:
                self._move(other(color), step[1], "bar")
            frm, to, _ = step
            wrong = self._wrong_point(color, frm, legalish) if self._chance(self.how.wrong) \
                else None
            self._carry(color, frm, to, wrong)

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

    def _between(self, color: str, step: Step) -> None:
        if frozen(self.table) not in self.finals and self._chance(self.how.early_done):
            self._wait(SETTLE)
            self._rejected_done(color)
        if self._chance(self.how.knock):
            self._knock()
        frm, to, flag = step
        if not flag and "off" not in (frm, to) and "bar" not in (frm, to) \
                and self._chance(self.how.takeback):
            self._take_back(color, frm, to)
        self._glitch()

    def _misplace(self, color: str, frm: str, wrong: str) -> None:
        """Left there a while, and sometimes DONE pressed there (rejected)."""
        self._lift(color, frm)
        self._wait(self.rng.randrange(100, 500, 50))
        self._place(color, wrong)
        self._wait(self.rng.randrange(600, 1000, 100))
        if frozen(self.table) not in self.finals and self._chance(self.how.wrong_done):
            self._rejected_done(color)
            self._wait(300)

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
        if (int(frm) > int(to)) != (color == "white" or self.name == "fevga"):
            self._move(color, frm, to)  # Fevga's Black crossing from 1 to 24: no slide
            return
        super()._slide(color, frm, to)
