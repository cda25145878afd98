"""Rebuilding the referee's state from the journal, after a restart or a power cut.

:func:`restore` folds the events of a match into a :class:`Resumed` state:
the match (cube, score, dice, Crawford), the committed board, the phase,
the dice shown, a pending double, the result of a finished game and the
tied opening throws.  It uses only what the events carry: ``game_started``
and ``played`` hold the whole position and Match ID, so every played turn
brings the state back in step; rolls, opening throws and cube actions are
replayed with the rules.  A turn with no legal move passes silently: a
later roll or double of the other player implies it.

An event that cannot apply (a roll out of turn, an unreadable ID) is
skipped with a one-line warning naming where it is; the state stays as it
was, and the next ``played`` or ``game_started`` resynchronises it.  Nothing
raises on bad journal content.

:meth:`tavla_pi.game.referee.Referee.resume` continues a referee from the
result; a turn being moved starts afresh from the committed position (the
checkers already moved are read again from the sensors).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from tavla_pi.errors import TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.match import (
    GameState,
    MatchState,
    new_match,
    player_index,
    rolled,
    start_game,
    turn_done,
)
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult, WinKind, end_game

_KINDS = {kind.multiplier: kind for kind in WinKind}


@dataclass(frozen=True)
class Resumed:
    """The referee's state as the journal leaves it.

    ``dice`` are the dice shown (the turn's dice while moving or passing, a
    tied opening throw while rolling for the start); ``result`` is the
    finished game's; ``opening_throws`` the ties thrown so far.
    ``warnings`` lists the events skipped, one line each.
    """

    match: MatchState
    board: Board
    phase: Phase
    dice: tuple[int, ...] = ()
    result: GameResult | None = None
    opening_throws: tuple[tuple[int, int], ...] = ()
    warnings: tuple[str, ...] = ()

    def position(self) -> Position:
        """The committed position from the side of the player on roll."""
        return Position.from_board(self.board, self.match.on_roll)


def fresh(settings: GameSettings) -> Resumed:
    """The state of an empty journal: a new match, waiting for the board's setup."""
    match = new_match(settings.match_length, settings.rules)
    return Resumed(match, Board.initial(), Phase.SETUP)


def restore(events: Iterable[Event], settings: GameSettings,
            where: Callable[[int], str] | None = None) -> Resumed:
    """Fold ``events`` (a journal, oldest first) into the state they leave.

    ``where(i)`` names the place of the i-th event in warnings (e.g.
    ``Journal.where``: "<file>:<line>"); by default "event <i+1>".
    """
    last = fresh(settings)
    for last in restore_steps(events, settings, where):  # noqa: B007 (the last one counts)
        pass
    return last


def restore_steps(events: Iterable[Event], settings: GameSettings,
                  where: Callable[[int], str] | None = None) -> Iterator[Resumed]:
    """The state after each event in turn (``restore`` of every prefix, in one pass)."""
    fold = _Fold(fresh(settings), settings)
    for index, event in enumerate(events):
        handler = _HANDLERS.get(event.type) if isinstance(event.type, EventType) else None
        if handler is not None:
            try:
                handler(fold, event)
            except (TavlaError, ValueError, KeyError, TypeError) as exc:
                place = where(index) if where is not None else f"event {index + 1}"
                fold.warnings.append(f"{place}: {event.type} skipped: {exc}")
        yield replace(fold.state, warnings=tuple(fold.warnings))


@dataclass
class _Fold:
    """The state so far, and the rules it is folded with."""

    state: Resumed
    settings: GameSettings
    warnings: list[str] = field(default_factory=list)

    @property
    def match(self) -> MatchState:
        return self.state.match

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def start_turn(self, dice: tuple[int, int]) -> None:
        """The player on roll has these dice: moving, or passing if nothing is legal."""
        plays = self.state.position().legal_plays(dice)
        self.set(dice=dice, phase=Phase.MOVING if plays else Phase.NO_MOVE)

    def pass_if_stuck(self) -> None:
        """A turn without a legal move passed silently before this event."""
        if self.state.phase is Phase.NO_MOVE:
            self.set(match=turn_done(self.match), phase=Phase.AWAIT_ROLL)

    def game_over(self, match: MatchState, result: GameResult) -> None:
        phase = Phase.MATCH_OVER if match.match_winner is not None else Phase.GAME_OVER
        self.set(match=match, result=result, phase=phase)


def _color(event: Event, name: str = "player") -> Color:
    return Color(event[name])


def _dice(event: Event) -> tuple[int, int]:
    a, b = event["dice"]
    return int(a), int(b)


def _mover(fold: _Fold, event: Event) -> Color:
    color = _color(event)
    if color is not fold.match.on_roll:
        raise ValueError(f"{color.value} is not on roll ({fold.match.on_roll.value} is)")
    return color


# -- one handler per event type ------------------------------------------------


def _new_match(fold: _Fold, event: Event) -> None:
    match = new_match(int(event["match_length"]), fold.settings.rules)
    fold.set(match=match, phase=Phase.SETUP, dice=(), result=None, opening_throws=())


def _match_of(event: Event) -> MatchState:
    """The event's Match ID, if this board can continue from it."""
    match = MatchState.from_match_id(event["match_id"])
    if match.resignation:
        raise ValueError(f"Match ID {event['match_id']}: a resignation is on offer, "
                         "which this board does not play")
    return match


def _game_started(fold: _Fold, event: Event) -> None:
    match = _match_of(event)
    position = Position.from_position_id(event["position_id"])
    fold.set(match=match, board=position.to_board(match.on_roll), dice=(), result=None,
             opening_throws=())
    if match.game_state is not GameState.PLAYING:
        fold.set(phase=Phase.OPENING if position == Position.initial() else Phase.SETUP)
    elif match.double_offered:
        fold.set(phase=Phase.DOUBLE_OFFERED)
    elif match.dice is not None:
        fold.start_turn(match.dice)
    else:
        fold.set(phase=Phase.AWAIT_ROLL)


def _opening_roll(fold: _Fold, event: Event) -> None:
    if fold.state.phase is not Phase.OPENING:
        raise ValueError(f"no opening roll is awaited ({fold.state.phase.value})")
    throws = (*fold.state.opening_throws, (int(event["white"]), int(event["black"])))
    white, black = throws[-1]
    if white == black:
        fold.set(opening_throws=throws, dice=(white, black))
        return
    opening = OpeningRoll(throws)
    fold.set(match=start_game(fold.match, opening, fold.settings.rules), opening_throws=())
    fold.start_turn(opening.dice)


def _rolled(fold: _Fold, event: Event) -> None:
    fold.pass_if_stuck()
    _mover(fold, event)
    if fold.state.phase is not Phase.AWAIT_ROLL:
        raise ValueError(f"no roll is awaited ({fold.state.phase.value})")
    dice = _dice(event)
    fold.set(match=rolled(fold.match, (max(dice), min(dice))))
    fold.start_turn(dice)


def _no_legal_move(fold: _Fold, event: Event) -> None:
    _mover(fold, event)
    if fold.state.phase is not Phase.NO_MOVE:
        raise ValueError(f"{fold.state.phase.value}: there is a legal move")


def _played(fold: _Fold, event: Event) -> None:
    mover = _color(event)
    match = _match_of(event)
    position = Position.from_position_id(event["position_id"])
    before = fold.match
    fold.set(match=match, board=position.to_board(match.on_roll))
    if not match.game_state.ended:
        fold.set(phase=Phase.AWAIT_ROLL)
        return
    i = player_index(mover)
    points = match.score[i] - before.score[i]
    kind = _KINDS.get(points // max(match.cube, 1), WinKind.SINGLE)
    fold.game_over(match, GameResult(mover, kind, points, match.game_state))


def _double_offered(fold: _Fold, event: Event) -> None:
    fold.pass_if_stuck()
    color = _mover(fold, event)
    if fold.state.phase is not Phase.AWAIT_ROLL:
        raise ValueError(f"no double may be offered now ({fold.state.phase.value})")
    match = cube_rules.offer_double(fold.match, color, fold.settings.rules)
    fold.set(match=match, phase=Phase.DOUBLE_OFFERED)


def _double_taken(fold: _Fold, event: Event) -> None:
    color = _color(event)
    rules = fold.settings.rules
    if event.fields.get("beaver"):
        fold.set(match=cube_rules.beaver(fold.match, color, rules))
    else:
        fold.set(match=cube_rules.take(fold.match, color), phase=Phase.AWAIT_ROLL)


def _double_dropped(fold: _Fold, event: Event) -> None:
    match, result = cube_rules.drop(fold.match, _color(event), fold.settings.rules)
    fold.game_over(match, result)


def _game_over(fold: _Fold, event: Event) -> None:
    winner = _color(event, "winner")
    result = GameResult(winner, WinKind(event["kind"]), int(event["points"]),
                        fold.match.game_state)
    match = fold.match
    if not match.game_state.ended:  # the play or drop that ended it was lost
        result = replace(result, how=GameState.OVER)
        match = end_game(match, result, fold.settings.rules)
    fold.game_over(match, result)


def _match_over(fold: _Fold, event: Event) -> None:
    if fold.match.match_winner is None:
        raise ValueError("the match is not over: no player has reached the match length")
    fold.set(phase=Phase.MATCH_OVER)


_HANDLERS: dict[EventType, Callable[[_Fold, Event], None]] = {
    EventType.NEW_MATCH: _new_match,
    EventType.GAME_STARTED: _game_started,
    EventType.OPENING_ROLL: _opening_roll,
    EventType.ROLLED: _rolled,
    EventType.NO_LEGAL_MOVE: _no_legal_move,
    EventType.PLAYED: _played,
    EventType.DOUBLE_OFFERED: _double_offered,
    EventType.DOUBLE_TAKEN: _double_taken,
    EventType.DOUBLE_DROPPED: _double_dropped,
    EventType.GAME_OVER: _game_over,
    EventType.MATCH_OVER: _match_over,
}
