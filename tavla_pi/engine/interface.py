"""What the game may ask the computer opponent, and the answers, as values.

The game depends on :class:`Engine` only, never on a process: GNU Backgammon
(:class:`~tavla_pi.engine.gnubg.GnubgEngine`) and the scripted fake of the
tests (:class:`tavla_pi.testing.engine.ScriptedEngine`) both implement it.
Every question carries the exact match context (:class:`EngineRequest`), and
every chequer play answered is one of the rules' own legal plays.

The ``check_*`` functions state when each question may be asked; every
implementation calls them, so asking at the wrong moment fails the same way
(IllegalPlayError) with a scripted engine as with gnubg.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol

from tavla_pi.engine.levels import Level
from tavla_pi.errors import IllegalPlayError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, Play, Position, Resignation
from tavla_pi.rules.cube import may_double


@dataclass(frozen=True)
class EngineRequest:
    """One question to the engine: the position and the whole match context.

    ``position`` is seen from ``state.on_roll`` (as a Position ID is);
    ``state`` holds dice, cube value and owner, score, match length, the
    Crawford game, the Jacoby flag in use and who is to act; ``rules`` the
    optional rules (beavers); ``level`` how well the computer plays; ``seed``
    is journaled with the request so that a replay asks exactly the same.
    """

    position: Position
    state: MatchState
    rules: MatchRules = field(default_factory=MatchRules)
    level: Level = Level.EXPERT
    seed: int = 0

    @property
    def player(self) -> Color:
        """The player who must decide now (``state.to_act``)."""
        return self.state.to_act


@dataclass(frozen=True)
class RankedPlay:
    """A legal play with gnubg's equity for it (cubeful, for the player who plays it)."""

    play: Play
    equity: float


@dataclass(frozen=True)
class EnginePlay:
    """The computer's chequer play: None (and no equity) when the roll cannot be played."""

    play: Play | None
    equity: float | None = None


class CubeAction(enum.Enum):
    """Before rolling: does the computer double?"""

    DOUBLE = "double"
    NO_DOUBLE = "no double"


class TakeDecision(enum.Enum):
    """The computer's answer to a double (or, having doubled, to a beaver)."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


class ResignAnswer(enum.Enum):
    """The computer's answer to a resignation offered to it."""

    ACCEPT = "accept"
    DECLINE = "decline"


@dataclass(frozen=True)
class Evaluation:
    """gnubg's evaluation of a position before the roll, for the player on roll.

    Probabilities of winning (any way), winning a gammon or backgammon, and
    losing a gammon or backgammon; the cubeless equity; the cubeful equities
    of not doubling, doubling and being taken, doubling and being dropped,
    the best of those (``cubeful``) and gnubg's advice in words.  Equities
    are normalised to the cube, as gnubg shows them (in match play, its
    equities converted from match winning chances).
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    cubeless: float
    cubeful: float
    no_double: float
    double_take: float
    double_drop: float
    advice: str


class Engine(Protocol):
    """The computer opponent: every decision of a player, given the match context."""

    def start(self) -> None:
        """Get ready (start a process, load weights); may block, so call it off the scan loop."""
        ...

    def close(self) -> None:
        """Stop, releasing what :meth:`start` took."""
        ...

    def play(self, request: EngineRequest) -> EnginePlay:
        """The chequer play for the rolled dice: one of the rules' legal plays."""
        ...

    def hint(self, request: EngineRequest, n: int = 5) -> list[RankedPlay]:
        """The ``n`` best plays for the rolled dice, best first (empty if none is legal)."""
        ...

    def cube_action(self, request: EngineRequest) -> CubeAction:
        """Before rolling: double or not (NO_DOUBLE whenever the rules forbid a double)."""
        ...

    def take_decision(self, request: EngineRequest) -> TakeDecision:
        """The answer to the double (or beaver) on offer."""
        ...

    def resign_answer(self, request: EngineRequest) -> ResignAnswer:
        """The answer to the resignation on offer."""
        ...

    def resign_offer(self, request: EngineRequest) -> Resignation:
        """Before its cube decision: the resignation the player on roll offers (NONE: none).

        As gnubg's ComputerTurn: only out of contact (ClassifyPosition at most
        CLASS_RACE), decided by getResignation at 0 plies whatever the level.
        """
        ...

    def evaluate(self, request: EngineRequest) -> Evaluation:
        """gnubg's evaluation of the position for the player on roll, before the roll."""
        ...


# -- when each question may be asked ----------------------------------------------------


def _refuse(question: str, reason: str) -> IllegalPlayError:
    return IllegalPlayError(f"the engine was asked {question}, but {reason}")


def _check_playing(state: MatchState, question: str) -> None:
    if state.game_state is not GameState.PLAYING:
        raise _refuse(question, "no game is in progress")


def check_play(request: EngineRequest) -> tuple[int, int]:
    """The dice to play: the player on roll has rolled and nothing is on offer."""
    state = request.state
    _check_playing(state, "for a play")
    if state.double_offered or state.resignation:
        raise _refuse("for a play", "an offer waits for an answer")
    if state.dice is None:
        raise _refuse("for a play", f"{state.on_roll.value} has not rolled")
    return state.dice


def may_engine_double(request: EngineRequest) -> bool:
    """Whether the question "double?" is open: before the roll, the rules allowing a double."""
    state = request.state
    _check_playing(state, "whether to double")
    if state.double_offered or state.resignation:
        raise _refuse("whether to double", "an offer waits for an answer")
    if state.dice is not None:
        raise _refuse("whether to double", "the dice are already rolled")
    return bool(may_double(state, state.on_roll, request.rules))


def check_take(request: EngineRequest) -> None:
    """A double waits for the answer of ``state.to_act``: the opponent of the doubler
    (on roll), or the doubler itself once the opponent has beavered (and owns the cube)."""
    state = request.state
    _check_playing(state, "to take or drop")
    if not state.double_offered:
        raise _refuse("to take or drop", "no double is offered")
    if state.to_act is state.on_roll:
        if state.cube_owner is not state.on_roll.opponent:
            doubler = state.on_roll.value
            raise _refuse("to take or drop", f"{doubler} doubled and must not answer it")
        if not request.rules.beavers:
            raise _refuse("to answer a beaver", "beavers are not in use")


def check_resign(request: EngineRequest) -> Resignation:
    """The resignation the player on roll offers, waiting for the answer of ``state.to_act``.

    As in gnubg, one resigns on one's own turn (before or after rolling,
    with no double pending): gnubg cannot weigh an offer made out of turn.
    """
    state = request.state
    _check_playing(state, "to accept a resignation")
    if not state.resignation:
        raise _refuse("to accept a resignation", "no resignation is offered")
    if state.double_offered or state.to_act is state.on_roll:
        raise _refuse("to accept a resignation", "it was not offered by the player on roll")
    return state.resignation


def check_resign_offer(request: EngineRequest) -> None:
    """The player on roll is to act, with nothing on offer: it may resign now."""
    state = request.state
    _check_playing(state, "whether to resign")
    if state.double_offered or state.resignation:
        raise _refuse("whether to resign", "an offer waits for an answer")
    if state.to_act is not state.on_roll:
        raise _refuse("whether to resign", f"{state.on_roll.value} is not to act")


def check_evaluate(request: EngineRequest) -> None:
    """A game is in progress (any moment of it)."""
    _check_playing(request.state, "for an evaluation")
