"""What the two scenario hands share: a table of checkers and the lines that move them.

tools/scenario_hand.py (games gnubg referees) and tools/tavli_hand.py (games
of tavla_pi.rules) render recorded games as docs/CONTRACTS.md §4 scenario
lines and the events the game must emit.  :class:`HandLines` is the part
that does not depend on the game: the primitive actions on the table, the
opening rolls, a turn's roll and its DONE, and the fumbles every hand makes
the same way (a knocked stack, a takeback, a slide, a phantom reading, a
checker put on a wrong point and corrected).  Pure Python: gnubg's own
Python runs tools/scenario_hand.py, without tavla_pi.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

Line = dict[str, Any]
Table = Counter[tuple[str, str]]
"""Checkers per (colour, location) as the hand leaves the board."""
SETTLE = 400
"""ms a placement is left alone so the board registers it."""


def other(color: str) -> str:
    """The opponent's colour."""
    return "black" if color == "white" else "white"


@dataclass(frozen=True)
class MatchOver:
    """The end of the match; ``score`` is (white, black)."""

    winner: str
    score: tuple[int, int]


@dataclass(frozen=True)
class Fumbles:
    """Chances (per movement, or per turn) of what every hand may do; all zero: a clean
    hand."""

    split: float = 0.0  # lift, hold, place as separate actions
    slide: float = 0.0  # touch down on points passed over, < 150 ms each
    wrong: float = 0.0  # placed on a wrong or blocked point, then corrected
    early_done: float = 0.0  # DONE before the play is complete (rejected)
    knock: float = 0.0  # several checkers knocked off a point and put back
    takeback: float = 0.0  # a legal step played and taken back first
    glitch: float = 0.0  # a phantom reading shorter than 150 ms


class HandLines:
    """Scenario lines (comments as strings) and expected events, with the table of
    checkers they leave; the hands of both scenario generators build on it."""

    def __init__(self, rng: random.Random, how: Fumbles) -> None:
        self.rng = rng
        self.how = how
        self.lines: list[Line | str] = []
        self.expected: list[Line] = []
        self.table: Table = Counter()

    # a game's and a turn's frame

    def _opening_rolls(self, rolls: tuple[tuple[int, int], ...]) -> None:
        """The opening roll(s), (white die, black die), ties first."""
        for white, black in rolls:
            self.lines.append(f"# opening roll: white {white}, black {black}")
            self.lines.append({"dice": [white, black]})
            self._press(self.rng.choice(["white", "black"]), "roll")
            starter = None if white == black else "white" if white > black else "black"
            self.expected.append({"type": "opening_roll", "white": white, "black": black,
                                  "starter": starter})

    def _roll(self, color: str, dice: tuple[int, int], play: str | None,
              *, opening: bool) -> None:
        """The roll of a turn (none when the opening roll's dice are played), and when it
        has no legal ``play``, the turn passing."""
        self.lines.append(f"# {color} rolls {dice[0]}-{dice[1]}: {play or 'no legal move'}")
        if not opening:
            self._glitch()
            self.lines.append({"dice": list(dice)})
            self._press(color, "roll")
        if play is None:
            self.expected.append({"type": "no_legal_move", "player": color,
                                  "dice": sorted(dice, reverse=True)})
            self._wait(3000)

    def _done(self, color: str, dice: tuple[int, int], play: str, **fields: Any) -> None:
        """DONE pressed on the play, which commits it (``played`` with these fields)."""
        if self.how.split > 0:
            self._wait(self.rng.randrange(SETTLE, 1200, 100))
        self._press(color, "roll")
        self.expected.append({"type": "played", "player": color,
                              "dice": sorted(dice, reverse=True), "play": play, **fields})

    def _game_over(self, winner: str | None, kind: str, cube: int, points: int,
                   score: tuple[int, int]) -> None:
        self.expected.append({"type": "game_over", "winner": winner, "kind": kind,
                              "cube": cube, "points": points, "score": list(score)})

    def _match_over(self, item: MatchOver) -> None:
        self.expected.append({"type": "match_over", "winner": item.winner,
                              "score": list(item.score)})

    # fumbles

    def _rejected_done(self, color: str) -> None:
        """DONE pressed before the play is on the board: rejected."""
        self._press(color, "roll")
        self.expected.append({"type": "rejected", "player": color})

    def _take_back(self, color: str, frm: str, to: str) -> None:
        """A step played and taken back."""
        self._move(color, frm, to)
        self._wait(self.rng.randrange(200, 900, 100))
        self._move(color, to, frm)

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

    def _glitch(self) -> None:
        """Perhaps a phantom reading somewhere, shorter than the stability time."""
        if self._chance(self.how.glitch):
            at, color, ms = self._phantom()
            self.lines.append({"glitch": {"at": at, "color": color, "ms": ms}})
            self._wait(200)

    def _phantom(self) -> tuple[str, str, int]:
        """Where, of which colour and how long a phantom reading is."""
        return (str(self.rng.randint(1, 24)), self.rng.choice(["white", "black"]),
                self.rng.randrange(20, 130, 10))

    # one checker carried

    def _carry(self, color: str, frm: str, to: str, wrong: str | None) -> None:
        """Lift a checker from ``frm`` and put it on ``to`` (first on ``wrong``, if given),
        the way this hand does."""
        if wrong is not None:
            self._misplace(color, frm, wrong)
            self._lift(color, wrong)
            self._wait(self.rng.randrange(100, 400, 50))
            self._place(color, to)
            self._wait(SETTLE)
        elif "off" not in (frm, to) and "bar" not in (frm, to) and self._chance(self.how.slide):
            self._slide(color, frm, to)
        elif self._chance(self.how.split):
            self._lift(color, frm)
            self._wait(self.rng.randrange(100, 900, 50))
            self._place(color, to)
            self._wait(self.rng.randrange(SETTLE, 800, 100))
        else:
            self._move(color, frm, to)

    def _misplace(self, color: str, frm: str, wrong: str) -> None:
        """The checker from ``frm`` put on the ``wrong`` point and left there a while."""
        raise NotImplementedError

    def _slide(self, color: str, frm: str, to: str) -> None:
        """The checker touches down on one or two free points on its way, briefly."""
        a, b = int(frm), int(to)
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

    # primitive actions

    def _chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def _wait(self, ms: int) -> None:
        self.lines.append({"wait": ms})

    def _press(self, color: str, button: str) -> None:
        self.lines.append({"press": f"{color}.{button}"})

    def _move(self, color: str, frm: str, to: str) -> None:
        self._take(color, frm)
        self.table[color, to] += 1
        self.lines.append({"move": f"{frm}/{to}", "color": color})

    def _lift(self, color: str, at: str) -> None:
        self._take(color, at)
        self.lines.append({"lift": at, "color": color})

    def _place(self, color: str, at: str) -> None:
        self.table[color, at] += 1
        self.lines.append({"place": at, "color": color})

    def _take(self, color: str, at: str) -> None:
        if self.table[color, at] < 1:
            raise AssertionError(f"no {color} checker to lift on {at}")
        self.table[color, at] -= 1
