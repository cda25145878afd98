"""Dice behind a small interface: secure dice for play, scripted dice for tests.

The game never calls a random function itself; it asks a :class:`DiceSource`.
:class:`SecureDice` is what the board rolls with.  :class:`ScriptedDice`
replays given dice and insists that every one of them was used (as wildbg's
test dice do), so a test that scripts more rolls than the game asked for
fails instead of passing by accident.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol

from tavla_pi.errors import DiceError
from tavla_pi.rules.color import Color

FACES = 6


class DiceSource(Protocol):
    """Where dice come from."""

    def roll(self) -> tuple[int, int]:
        """Two dice, each 1..6, in the order they were thrown."""
        ...

    def roll_one(self) -> int:
        """One die, 1..6."""
        ...


class SecureDice:
    """Fair dice from the operating system's secure random source.

    Each die is ``secrets.randbelow(6) + 1``: ``randbelow(6)`` draws 0..5
    uniformly (it rejects and redraws rather than reducing a larger random
    number modulo 6), so there is no modulo bias and each face has chance 1/6.
    ``randbelow`` may be replaced for tests; it is called with 6 only.
    """

    def __init__(self, randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self._randbelow = randbelow

    def roll_one(self) -> int:
        """One die, 1..6."""
        return self._randbelow(FACES) + 1

    def roll(self) -> tuple[int, int]:
        """Two dice, 1..6 each."""
        return (self.roll_one(), self.roll_one())


class ScriptedDice:
    """Dice that come from a script, for tests and scenarios.

    ``ScriptedDice([(3, 1), (6, 6)])`` gives 3, 1, 6, 6 in that order, to
    ``roll`` two at a time or to ``roll_one`` one at a time (an opening roll
    takes White's die, then Black's).  Asking for more than the script holds
    raises DiceError.  :meth:`close` (also on leaving a ``with`` block) raises
    DiceError if scripted dice were left unused; it is safe to call twice.
    """

    def __init__(self, rolls: Iterable[tuple[int, int]] = ()) -> None:
        self._dice: deque[int] = deque()
        self._closed = False
        self.extend(rolls)

    def extend(self, rolls: Iterable[tuple[int, int]]) -> None:
        """Queue more rolls after those still waiting."""
        for pair in rolls:
            for die in pair:
                self._dice.append(_checked_die(die))

    @property
    def remaining(self) -> tuple[int, ...]:
        """The scripted dice not used yet, in order."""
        return tuple(self._dice)

    def roll_one(self) -> int:
        """The next scripted die."""
        if self._closed:
            raise DiceError("scripted dice are closed")
        if not self._dice:
            raise DiceError("scripted dice ran out: the test asked for a die it did not script")
        return self._dice.popleft()

    def roll(self) -> tuple[int, int]:
        """The next two scripted dice."""
        if len(self._dice) == 1:
            left = self._dice[0]
            raise DiceError(f"scripted dice ran out: one die ({left}) left, a roll takes two")
        return (self.roll_one(), self.roll_one())

    def close(self) -> None:
        """Stop; DiceError if scripted dice were never used."""
        if self._closed:
            return
        self._closed = True
        if self._dice:
            raise DiceError(f"scripted dice left unused: {list(self._dice)}")

    def __enter__(self) -> ScriptedDice:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.close()
        else:  # do not hide the error already on its way out
            self._closed = True


def _checked_die(die: int) -> int:
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= FACES:
        raise DiceError(f"a scripted die must be 1..6, got {die!r}")
    return die


@dataclass(frozen=True)
class OpeningRoll:
    """The opening roll: one die each, thrown again on a tie.

    ``throws`` holds each (White, Black) pair in order; all but the last are
    ties.  The higher die starts and plays both dice of the last throw.
    """

    throws: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if not self.throws or self.throws[-1][0] == self.throws[-1][1]:
            raise DiceError(f"an opening roll ends with a throw that is not a tie: {self.throws}")
        if any(white != black for white, black in self.throws[:-1]):
            raise DiceError(f"only the last throw of an opening roll may differ: {self.throws}")

    @property
    def white(self) -> int:
        """White's die in the deciding throw."""
        return self.throws[-1][0]

    @property
    def black(self) -> int:
        """Black's die in the deciding throw."""
        return self.throws[-1][1]

    @property
    def starter(self) -> Color:
        """Who plays first: the player with the higher die."""
        return Color.WHITE if self.white > self.black else Color.BLACK

    @property
    def dice(self) -> tuple[int, int]:
        """The dice the starter plays, larger first."""
        return (max(self.white, self.black), min(self.white, self.black))

    @property
    def ties(self) -> int:
        """How many tied throws came before the deciding one."""
        return len(self.throws) - 1


def opening_roll(dice: DiceSource) -> OpeningRoll:
    """Throw one die for White, then one for Black, again while they tie.

    (A game that shows each tie and waits for a press before throwing again
    collects the throws itself and builds the :class:`OpeningRoll` from them.)
    """
    throws: list[tuple[int, int]] = []
    while True:
        white = dice.roll_one()
        black = dice.roll_one()
        throws.append((white, black))
        if white != black:
            return OpeningRoll(tuple(throws))
