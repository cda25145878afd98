"""Games of tavli played through tavla_pi.rules: the items a scenario hand renders.

A match (one variant repeated, or "tavli": Portes, Plakoto, Fevga in turn) is
played with seeded dice and plays chosen by a policy, or by a script of dice
and plays for the first turns of a game; every roll, play and result is
recorded as an item.  Nothing here knows the game layer: the items are what
the rules (tavla_pi.rules.variant, TavliMatch) say must happen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hand_lines import MatchOver

from tavla_pi.rules import variant
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import VariantPlay, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch

Step = tuple[str, str, bool]
"""One checker moved by one die, in absolute locations ("1".."24", "bar", "off"); pinned/hit."""
Policy = Callable[[VariantPosition, list[VariantPlay], random.Random], VariantPlay]


def absolute(name: str, color: str, own: int) -> str:
    """The location of ``color``'s own point ``own`` (0 off, 25 bar) in game ``name``."""
    if own == 0:
        return "off"
    if own == 25:
        return "bar"
    if color == "white":
        return str(own)
    if name == "fevga":
        return str(own + 12 if own <= 12 else own - 12)
    return str(25 - own)


def steps_of(name: str, color: str, play: VariantPlay) -> tuple[Step, ...]:
    """The play's single-die moves in absolute locations."""
    return tuple((absolute(name, color, a), absolute(name, color, b), flag)
                 for a, b, flag in play.moves)


@dataclass(frozen=True)
class Moment:
    """A scripted turn: its dice and play, and optionally the hand's own lines for it
    (checked to end on the play) with the events those lines add before ``played``."""

    dice: tuple[int, int]
    play: str | None
    hand: tuple[dict[str, Any] | str, ...] = ()
    expect: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Begin:
    """A game set up: its variant, the opening rolls (ties first; none when the
    previous winner starts) and its starter."""

    name: str
    opening: tuple[tuple[int, int], ...]
    starter: str
    position: VariantPosition


@dataclass(frozen=True)
class Turn:
    """A roll and its play (None: no legal move), with every legal play of it."""

    name: str
    player: str
    dice: tuple[int, int]
    play: VariantPlay | None
    plays: tuple[VariantPlay, ...]
    before: VariantPosition
    after: VariantPosition
    opening: bool = False
    moment: Moment | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        return steps_of(self.name, self.player, self.play) if self.play else ()


@dataclass(frozen=True)
class End:
    """A game's end as the rules score it; ``score`` (White, Black) after it."""

    winner: str | None
    kind: str
    points: int
    score: tuple[int, int]


Item = Begin | Turn | End | MatchOver


@dataclass
class Script:
    """Per game (0-based), the opening rolls and the moments of its first turns."""

    openings: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    moments: dict[int, list[Moment]] = field(default_factory=dict)


def random_policy(_: VariantPosition, plays: list[VariantPlay], rng: random.Random
                  ) -> VariantPlay:
    """Any legal play."""
    return rng.choice(plays)


def on_roll(position: VariantPosition, color: Color) -> VariantPosition:
    """The same board with ``color`` to play."""
    if position.on_roll is color:
        return position
    return variant(position.variant).from_board(position.board(), color)


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def play_match(name: str, length: int, rng: random.Random, *, policy: Policy = random_policy,
               script: Script | None = None, games: int = 0) -> list[Item]:
    """Play a match of ``name`` to ``length`` (or ``games`` games); its items."""
    script = script or Script()
    tavli = TavliMatch.new(name, length)
    items: list[Item] = []
    for game in range(10_000):
        tavli = _play_game(tavli, game, items, rng=rng, policy=policy, script=script)
        winner = tavli.match_winner
        if winner is not None:
            items.append(MatchOver(winner.value, tavli.score))
            break
        if games and game + 1 >= games:
            break
    return items


def _play_game(tavli: TavliMatch, game: int, items: list[Item], *, rng: random.Random,
               policy: Policy, script: Script) -> TavliMatch:
    """Play game number ``game`` (0-based) of the match; the match after it."""
    name = tavli.variant
    openings = list(script.openings.get(game, []))
    rolls: list[tuple[int, int]] = []
    if tavli.opening_roll:
        while not rolls or rolls[-1][0] == rolls[-1][1]:
            rolls.append(openings.pop(0) if openings else roll(rng))
        tavli = tavli.opened_by(Color.WHITE if rolls[-1][0] > rolls[-1][1] else Color.BLACK)
    assert tavli.starter is not None
    position = on_roll(variant(name).initial(), tavli.starter)
    items.append(Begin(name, tuple(rolls), tavli.starter.value, position))
    first = rolls[-1] if rolls and tavli.opening_dice_played else None
    moments = list(script.moments.get(game, []))
    while not position.is_game_over():
        moment = moments.pop(0) if moments else None
        dice = first or (moment.dice if moment else roll(rng))
        plays = position.legal_plays(dice)
        chosen = _choose(position, plays, moment, policy, rng)
        after = chosen.result if chosen else on_roll(position, position.on_roll.opponent)
        items.append(Turn(name, position.on_roll.value, dice, chosen, tuple(plays), position,
                          after, first is not None, moment))
        position, first = after, None
    outcome = position.outcome()
    assert outcome is not None
    points = tavli.points(outcome)
    tavli = tavli.after(outcome)
    winner = outcome.winner.value if outcome.winner else None
    items.append(End(winner, outcome.ending.value, points, tavli.score))
    return tavli


def _choose(position: VariantPosition, plays: list[VariantPlay], moment: Moment | None,
            policy: Policy, rng: random.Random) -> VariantPlay | None:
    if moment is not None:
        found = [p for p in plays if p.notation == moment.play]
        if moment.play is None:
            assert not plays, (position, moment)
            return None
        assert found, (position.board(), moment, [p.notation for p in plays])
        return found[0]
    return policy(position, plays, rng) if plays else None
