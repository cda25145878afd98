"""The soak of Plakoto, Fevga and the tavli match: random legal games, every event checked.

A :class:`VariantSession` is a :class:`~tavla_pi.testing.soak.Session` of
another game: a match (or money session) of "plakoto", "fevga" or "tavli"
(Portes, Plakoto and Fevga in turn).  The rules engine
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

from pathlib import Path

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.replay.actions import DiceAction, SetupAction, WaitAction
from tavla_pi.rules.color import Color
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.tavli import BoardDict, Outcome, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant
from tavla_pi.testing.hand import HandStep, HandStyle, done_button
from tavla_pi.testing.soak import (
    DEFAULT_PLAYERS,
    DEFAULT_STYLE,
    MAX_TURNS,
    PLAYER_SETTLE_LIMIT_MS,
    SETUP_WAIT_MS,
    Players,
    Session,
    _AbortError,
    _press,
)
from tavla_pi.testing.varhand import variant_turn

VARIANTS = ("plakoto", "fevga", "tavli")
"""What a variant session plays."""


class VariantSession(Session):
    """One match (or ``games`` games of money play) of ``variant``, played and checked."""

    def __init__(self, pinmap: PinMap, seed: int, variant: str, *, match_length: int = 0,
                 games: int = 1, style: HandStyle = DEFAULT_STYLE,
                 players: Players = DEFAULT_PLAYERS, dump_dir: Path | None = None,
                 naive_done: bool = False) -> None:
        super().__init__(pinmap, seed, match_length=match_length, games=games, style=style,
                         players=players, dump_dir=dump_dir, naive_done=naive_done,
                         variant=variant)
        self.variant = variant
        self.tavli = TavliMatch.new(variant, match_length)

    def _more_games(self) -> bool:
        if self.match_length == 0:
            return self.game < self.games
        return self.tavli.match_winner is None

    def _game(self) -> None:
        self.turn = 0
        name = self.tavli.variant
        self.counts[f"games_{name}"] += 1
        self._note(f"game {self.game} ({name}): score {self.tavli.score}")
        first = self.game == 1
        setup = SetupAction(self.match_length, None, self.variant) if first else SetupAction()
        expect = {EventType.GAME_STARTED, EventType.NEW_MATCH} if first \
            else {EventType.GAME_STARTED}
        events = self._do(setup, WaitAction(SETUP_WAIT_MS), expect=expect)
        for _ in range(PLAYER_SETTLE_LIMIT_MS // 20):
            if any(e.type == EventType.GAME_STARTED for e in events):
                break
            events += self._do(WaitAction(20), expect={EventType.GAME_STARTED})
        self._one(events, EventType.GAME_STARTED, variant=name)
        mover, dice = self._start()
        position = _start(name, mover)
        while True:
            self.turn += 1
            if self.turn > MAX_TURNS:
                raise _AbortError("stuck", f"no end after {MAX_TURNS} turns")
            if dice is None:
                dice = self._variant_roll(mover, position)
            if dice is not None:
                position = self._play(position, dice)
                if position.is_game_over():
                    return
            else:
                position = variant(name).from_board(position.board(), mover.opponent)
            mover, dice = mover.opponent, None

    # -- the start of a game, the roll -------------------------------------------------

    def _start(self) -> tuple[Color, tuple[int, int] | None]:
        """The opening roll (the first game) or the starter's colour: who moves first,
        and the dice when the opening roll's are played (Portes)."""
        if not self.tavli.opening_roll:
            assert self.tavli.starter is not None
            return self.tavli.starter, None
        starter, dice = self._opening()
        self.tavli = self.tavli.opened_by(starter)
        return starter, dice if self.tavli.opening_dice_played else None

    def _variant_roll(self, mover: Color, position: VariantPosition) -> tuple[int, int] | None:
        """Roll (a cube press refused first, now and then); the dice, or None (no play)."""
        self._stray(mover)
        if self.hand.chance(self.players.wrong_cube):
            self.counts["cube_refused"] += 1
            self._one(self._do(_press(f"{mover.value}.cube")), EventType.REJECTED,
                      player=mover.value)
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        events = self._do(DiceAction(*dice), _press(done_button(mover)),
                          expect={EventType.ROLLED, EventType.NO_LEGAL_MOVE})
        self._one(events, EventType.ROLLED, player=mover.value, dice=list(dice))
        if position.legal_plays(dice):
            self._none(events, EventType.NO_LEGAL_MOVE)
            return dice
        self.counts["no_move_turns"] += 1
        self._one(events, EventType.NO_LEGAL_MOVE, player=mover.value,
                  dice=sorted(dice, reverse=True))
        return None

    # -- one play ----------------------------------------------------------------------

    def _play(self, position: VariantPosition, dice: tuple[int, int]) -> VariantPosition:
        """A random legal play moved by hand and committed; the position after it."""
        mover = position.on_roll
        if isinstance(position, PortesPosition):
            play = self.rng.choice(position.position.legal_plays(dice))
            result: VariantPosition = PortesPosition(play.result, mover.opponent)
            steps = self.hand.turn(play, mover)
            notation = play.notation
        else:
            vplay = self.rng.choice(position.legal_plays(dice))
            result, notation = vplay.result, vplay.notation
            steps = variant_turn(self.hand, vplay)
        self._note(f"turn {self.turn}: {mover.value} {dice[0]}-{dice[1]} plays {notation}")
        self.counts["turns"] += 1
        self.counts["pins"] += len(result.board()["pinned"]) > len(position.board()["pinned"])
        events = self._moved_by_hand(steps, mover, notation, dice, result.board())
        outcome = result.outcome()
        if outcome is not None:
            self._variant_over(events, outcome)
        else:
            self._none(events, EventType.GAME_OVER)
        return result

    def _moved_by_hand(self, steps: list[HandStep], mover: Color, notation: str,
                       dice: tuple[int, int], board: BoardDict) -> list[Event]:
        """Apply the hand's steps, press DONE, check the one ``played``; DONE's events."""
        self._stray(mover)
        start = len(self.events)
        for step in steps:
            self._step(step, mover)
        events = self._done(notation, mover)
        self.counts["illegal_recovered"] += sum(s.what.startswith("illegal") for s in steps)
        self._check_sync(self.events[start:])
        self._one(events, EventType.PLAYED, player=mover.value,
                  dice=sorted(dice, reverse=True), play=notation, board=board)
        self.counts["plays_committed"] += 1
        return events

    def _variant_over(self, events: list[Event], outcome: Outcome) -> None:
        """The game's end as the rules score it; the match's, once it is won."""
        points = self.tavli.points(outcome)
        self.tavli = self.tavli.after(outcome)
        winner = None if outcome.winner is None else outcome.winner.value
        self.counts[f"won_{outcome.ending.value}"] += 1
        self._one(events, EventType.GAME_OVER, winner=winner, kind=outcome.ending.value,
                  points=points, score=list(self.tavli.score))
        self._match_over(events, self.tavli.match_winner, self.tavli.score)


def _start(name: str, mover: Color) -> VariantPosition:
    """The start of ``name`` with ``mover`` on roll."""
    start = variant(name).initial()
    return start if mover is Color.WHITE else variant(name).from_board(start.board(), mover)
