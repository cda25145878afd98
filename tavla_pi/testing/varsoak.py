"""The soak of Plakoto, Fevga and the tavli match: random legal games, every event checked.

A :class:`VariantSession` is a :class:`~tavla_pi.testing.soak.Session` of
another game: a match (or money session) of "plakoto", "fevga" or "tavli"
(Portes, Plakoto and Fevga in turn), kept by a :class:`VariantMatch`.  The rules engine
(``tavla_pi.rules.variant(...).legal_plays``) chooses a random legal play; the
scripted hand moves it (:mod:`tavla_pi.testing.varhand`; Portes games of a
tavli match with :mod:`tavla_pi.testing.hand`), pins laid on top of the pinned
checker, the fifteen of a start laid layer by layer.  The session keeps the
match by the rules (:class:`~tavla_pi.rules.tavlimatch.TavliMatch`) and checks
each event: the opening roll of the first game only, the winner of the last
game rolling both dice, every ``played`` with the chosen play and its result
board (``board``), ``no_legal_move`` exactly when the roll has no play, no
cube, ``game_over`` and ``match_over`` as the rules score them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.replay.actions import SetupAction
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.movegen import Dice
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import MATCHES, TavliMatch, gnubg_match
from tavla_pi.rules.variants import variant
from tavla_pi.testing.hand import HandStyle
from tavla_pi.testing.soak import (
    DEFAULT_PLAYERS,
    DEFAULT_STYLE,
    Chosen,
    GameEnd,
    GameStart,
    Players,
    Session,
)
from tavla_pi.testing.varhand import variant_turn

VARIANTS = tuple(m for m in MATCHES if not gnubg_match(m))
"""What a variant session plays: the matches GNU Backgammon does not play (Plakoto,
Fevga, tavli)."""


class VariantSession(Session):
    """One match (or ``games`` games of money play) of ``variant``, played and checked."""

    def __init__(self, pinmap: PinMap, seed: int, variant: str, *, match_length: int = 0,
                 games: int = 1, style: HandStyle = DEFAULT_STYLE,
                 players: Players = DEFAULT_PLAYERS, dump_dir: Path | None = None,
                 naive_done: bool = False) -> None:
        super().__init__(pinmap, seed, match_length=match_length, games=games, style=style,
                         players=players, dump_dir=dump_dir, naive_done=naive_done,
                         variant=variant, match_of=VariantMatch)


class VariantMatch:
    """A match (or money session) of Plakoto, Fevga or tavli as the rules keep it
    (:class:`~tavla_pi.rules.tavlimatch.TavliMatch`): the opening roll of the first game
    only, no cube, every ``played`` with its result board, the variants' endings."""

    def __init__(self, settings: GameSettings) -> None:
        self.name, self.length = settings.variant, settings.match_length
        self.state = TavliMatch.new(settings.variant, settings.match_length)

    def begin(self, game: int) -> GameStart:
        """The first game sets the match up (its length and variant); the others only
        the checkers."""
        name = self.state.variant
        note = f"game {game} ({name}): score {self.state.score}"
        started = {"variant": name}
        tally = {f"games_{name}": 1}
        if game == 1:
            return GameStart(note, SetupAction(self.length, None, self.name),
                             frozenset({EventType.GAME_STARTED, EventType.NEW_MATCH}),
                             started, tally)
        return GameStart(note, SetupAction(), frozenset({EventType.GAME_STARTED}), started,
                         tally)

    def start(self, opening: Callable[[], OpeningRoll]) -> tuple[Color, Dice | None]:
        """The first game's opening roll (its dice played in Portes); then the last
        game's winner starts."""
        if not self.state.opening_roll:
            assert self.state.starter is not None
            return self.state.starter, None
        roll = opening()
        self.state = self.state.opened_by(roll.starter)
        return roll.starter, roll.dice if self.state.opening_dice_played else None

    def initial(self, mover: Color) -> VariantPosition:
        return variant(self.state.variant).start(mover)

    def before_roll(self, session: Session, mover: Color) -> bool:
        """The other player's stray press, then perhaps a CUBE press (no cube: rejected)."""
        session.stray(mover)
        session.refuse_cube(mover)
        return False

    def rolled(self, dice: Dice) -> None:
        pass

    def passed(self, position: VariantPosition, mover: Color) -> VariantPosition:
        return position.with_on_roll(mover.opponent)

    def choose(self, session: Session, position: VariantPosition, mover: Color,
               dice: Dice) -> Chosen[VariantPosition]:
        """A random legal play, its steps planned at once (the hand of a Portes game of a
        tavli match moves the Portes play)."""
        play = session.rng.choice(position.legal_plays(dice))
        result, notation = play.result, play.notation
        steps = variant_turn(session.hand, play)
        pinned = len(result.board()["pinned"]) > len(position.board()["pinned"])
        return Chosen(notation, result, lambda: steps, {"pins": int(pinned)})

    def commit(self, chosen: Chosen[VariantPosition], mover: Color
               ) -> tuple[dict[str, Any], GameEnd | None]:
        """The result board; the game's end as the rules score it (the match's score
        after it)."""
        played = {"board": chosen.result.board()}
        outcome = chosen.result.outcome()
        if outcome is None:
            return played, None
        points = self.state.points(outcome)
        self.state = self.state.after(outcome)
        winner = None if outcome.winner is None else outcome.winner.value
        return played, GameEnd(outcome.ending.value, {
            "winner": winner, "kind": outcome.ending.value, "points": points,
            "score": list(self.state.score)})
