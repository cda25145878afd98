"""The game's one fold: a state and an event give the next state, or a refusal.

:func:`push` is the only way from one :class:`~tavla_pi.game.state.State` to the next:
the referee reaches its state through it, and the journal's check
(:mod:`tavla_pi.game.restore`), resume, export and the dice statistics fold
the journal with it.  An event the rules refuse raises :class:`RefusedEventError`,
naming the event's type and the rule; nothing else is caught, so a coding
error raises as itself.

What an event must do to follow:

* its type is one this board writes, and its fields are those the journal's
  schema (:mod:`tavla_pi.events.schema`) gives it.
* ``new_match`` and ``game_started`` may come at any time (a new match; a
  setup, or a scenario's or the simulator's ``load``): a ``game_started``
  carries the whole position and Match ID, which must be readable.  A
  ``new_match`` against the computer names its colour (``opponent``) and
  ``level``; against a friend's board its colour and the board (``remote``);
  without them the match is two players.
* ``opening_roll`` while the opening is rolled, naming the higher die's
  player as ``starter`` unless it is a tie.
* ``rolled``: the player on roll, before rolling, with no double on offer
  (after a turn with no legal move has passed).
* ``no_legal_move`` right after a roll with no legal play, with its dice.
* ``played``: a legal play of the position before it with the rolled dice:
  its ``position_id`` the play's result, ``play`` the play's notation, its
  ``match_id`` the match after it.
* cube events follow the cube rules (who may double, take, drop) and carry
  the cube values they lead to, in a game with the cube only (not in Plakoto and
  Fevga, nor in a tavli match's Portes without its ``cube_in_portes`` rule).
* ``resign_offered`` by the player on roll before rolling, for 1, 2 or 3
  times the cube, above a level declined this turn, in a game with the cube
  (Plakoto and Fevga are played out); ``resign_accepted`` and
  ``resign_declined`` by the opponent, for the points offered
  (:mod:`tavla_pi.rules.resign`).
* ``game_over`` right after the play, drop or accepted resignation that
  ended a game, with its result; ``match_over`` right after the ``game_over`` that decided a match.
* ``engine_play`` (and the friend's board's ``remote_play``): the computer's
  choice, once per roll: a legal play of the
  rolled dice by the player on roll (``position_id`` its result); the state
  keeps it until the ``played`` that carries it out.
* ``takeback``: the last ``played`` undone, while nothing but the opponent's
  ``rolled`` and ``engine_play`` (and what the board showed, but a ``lifted``)
  came after it; it names the player, the dice, the position and the Match
  ID the turn began with, and that turn is open again.  The opponent's dice
  rolled before it are spent: its next turn rolls anew.  With a friend's board a
  ``rolled`` closes the play to a takeback (both boards made those dice).
* ``lifted``, ``out_of_sync``, ``in_sync`` and ``rejected`` say what the
  board showed: they change nothing.
* ``hint`` and ``blunder_warning`` say what the engine told the mover while
  moving: they change nothing, but must fit the turn (the player on roll, its
  dice; each play a legal play of them, a hint's leading to its
  ``position_id``).
* ``clock`` (the match's clock, docs/CLOCK.md) in a match with a clock, at any time,
  even while another event is due: its figures are the clock's from then on; a flag
  fall (``flag``) ends the match, and a ``match_over`` with ``reason`` ``"time"``
  giving the match to the flag's opponent at the score standing is due next.  One
  whose time runs (or falls) for the other side than a turn with no legal move says
  that turn passed.
* ``review`` (gnubg's analysis of a finished game, which comes in the
  background whenever it is done) changes nothing and may come at any time,
  even while another event is due; so do ``spoken``, the remote side's record
  and ``online_status``.

The journal does not record the optional rules, and the config may change
between restarts, so what they decide is accepted either way: a beaver is
checked as if beavers were on, a game-ending play's Match ID may carry the
Crawford flag of either setting, and after tied opening throws in money play
the cube may show any number of automatic doubles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tavla_pi.errors import RefusedEventError, TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.schema import event_problem
from tavla_pi.events.types import EventType
from tavla_pi.game import restore_clock, restore_computer, restore_tavli
from tavla_pi.game.fold_checks import (
    chosen_play,
    color_of,
    dice_of,
    die,
    high_low,
    mover_of,
    same,
)
from tavla_pi.game.matchclock import FLAG_KIND, ClockRules
from tavla_pi.game.resign import unplayable_offer
from tavla_pi.game.seat import drop_level, roll_closes_takeback, seat_of_fields
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.tavli import EndOfGame, between_matches
from tavla_pi.game.transitions import (
    after_game,
    after_opening,
    after_play,
    loaded_phase,
)
from tavla_pi.game.view import Phase
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules import resign as resign_rules
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.match import (
    MAX_CUBE,
    MatchRules,
    MatchState,
    Resignation,
    new_match,
    rolled,
)
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import VariantPlay, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant

NOTES = frozenset({EventType.LIFTED, EventType.OUT_OF_SYNC, EventType.IN_SYNC, EventType.REJECTED})
"""Event types that say what the board showed and change no state."""
REMOTE_ASIDES = frozenset({EventType.REMOTE_STATUS, EventType.REMOTE_MATCH,
                           EventType.REMOTE_SENT, EventType.REMOTE_TAKEN,
                           EventType.DICE_COMMIT, EventType.DICE_REVEAL})
"""The remote side's record (:mod:`tavla_pi.remote`): the link, the messages, the dice's
commitments; the game's state does not change by them (``tavla_pi.remote.audit`` checks
the dice)."""
ASIDES = frozenset({EventType.REVIEW, EventType.SPOKEN, EventType.ONLINE_STATUS}) \
    | REMOTE_ASIDES
"""Event types that come in the background, at any time, and change no state (a review,
a sentence said aloud, the remote side's record, the online server's status)."""

KEEPS_UNDO = frozenset({EventType.ROLLED, EventType.ENGINE_PLAY, EventType.REMOTE_PLAY,
                        EventType.OUT_OF_SYNC, EventType.CLOCK,
                        EventType.IN_SYNC, EventType.REJECTED}) | ASIDES
"""Event types after a ``played`` that leave it open to a ``takeback``; any other closes it."""


def push(state: State, event: Event, settings: GameSettings) -> State:
    """``state`` after ``event``, folded with ``settings`` (the optional rules, the
    tavli rules, the configured opponent); :class:`RefusedEventError` names the event's type
    and the rule when the rules refuse it."""
    fold = _Fold(state, settings)
    fold.apply(event)
    return fold.state


class _Fold:
    """One event's fold: the state so far, changed field by field, and the settings it
    is folded with."""

    def __init__(self, state: State, settings: GameSettings) -> None:
        self.state = state
        self.settings = settings
        self._plays: tuple[VariantPosition, tuple[int, int], list[VariantPlay]] | None = None

    @property
    def match(self) -> MatchState:
        return self.state.match

    @property
    def rules(self) -> MatchRules:
        return self.settings.rules

    @property
    def due(self) -> EventType | None:
        """The event that must come next (None: none must)."""
        return self.state.due

    @due.setter
    def due(self, kind: EventType | None) -> None:
        self.set(due=kind)

    @property
    def cubes(self) -> tuple[int, ...]:
        """The other cube values automatic doubles may have given the game."""
        return self.state.cubes

    @cubes.setter
    def cubes(self, values: tuple[int, ...]) -> None:
        self.set(cubes=values)

    def apply(self, event: Event) -> None:
        """Fold ``event`` in, or raise :class:`RefusedEventError` saying why it does not follow."""
        kind = event.type
        if not isinstance(kind, EventType):
            raise RefusedEventError(f"{kind}: not an event type this board writes")
        problem = event_problem(event.to_dict())
        if problem:
            raise RefusedEventError(problem)
        if self.due and kind != self.due and kind not in ASIDES and kind is not EventType.CLOCK:
            raise RefusedEventError(f"{kind}: a {self.due} event is due first")
        try:
            _HANDLERS[kind](self, event)
        except TavlaError as exc:  # a rule refused it: our own tree, never a builtin
            raise RefusedEventError(f"{kind}: {exc}") from None
        if self.state.phase not in (Phase.AWAIT_ROLL, Phase.RESIGN_OFFERED):
            self.set(resign_declined=Resignation.NONE)  # gnubg's ApplyMoveRecord
        if kind not in KEEPS_UNDO and kind != EventType.PLAYED:
            self.set(before_play=None)

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def expect(self, phase: Phase, what: str) -> None:
        """RefusedEventError unless the state is in ``phase``."""
        if self.state.phase is not phase:
            raise RefusedEventError(f"no {what} now ({self.state.phase.value})")

    def legal_plays(self, dice: tuple[int, int]) -> list[VariantPlay]:
        """The legal plays of ``dice`` from the committed position (the turn's are kept:
        the roll and the play both need them)."""
        position = self.state.game_position()
        if self._plays is None or self._plays[:2] != (position, dice):
            self._plays = (position, dice, position.legal_plays(dice))
        return self._plays[2]

    def start_turn(self, dice: tuple[int, int]) -> None:
        """The player on roll has these dice: moving, or passing if nothing is legal."""
        plays = self.legal_plays(dice)
        self.set(dice=dice, phase=Phase.MOVING if plays else Phase.NO_MOVE)
        self.due = None if plays else EventType.NO_LEGAL_MOVE

    def pass_if_stuck(self) -> None:
        """A turn without a legal move passed silently before this event."""
        self.state = self.state.passed()

    def matches(self) -> list[MatchState]:
        """The match as it may stand: the cube the rules in force gave, or another
        number of automatic doubles (see ``cubes``)."""
        return [self.match, *(self.match.replace(cube=c) for c in self.cubes)]

    def game_over(self, match: MatchState, result: EndOfGame) -> None:
        tavli, phase = after_game(match, self.state.tavli, result)
        self.set(match=match, result=result, phase=phase, tavli=tavli)
        self.due, self.cubes = EventType.GAME_OVER, ()


# -- one handler per event type ------------------------------------------------


def _new_match(fold: _Fold, event: Event) -> None:
    length = int(event["match_length"])
    match = new_match(length, fold.rules)
    opponent = seat_of_fields(event.fields, fold.settings.opponent)
    rules = event.fields.get("clock")
    clock = None if rules is None else restore_clock.clocked(ClockRules.from_fields(rules), length,
                                               opponent.color, event.t)
    fold.set(match=match, phase=Phase.SETUP, dice=(), result=None, opening_throws=(),
             opponent=opponent, clock=clock, clock_wall_ms=None,
             tavli=restore_tavli.new_tavli(fold, event),
             committed=between_matches(fold.state.committed))
    fold.cubes = ()


def _match_of(event: Event) -> MatchState:
    """The event's Match ID, if this board can continue from it."""
    match = MatchState.from_match_id(event["match_id"])
    if why := unplayable_offer(match):
        raise RefusedEventError(f"Match ID {event['match_id']}: {why}")
    return match


def _game_started(fold: _Fold, event: Event) -> None:
    match = _match_of(event)
    position = Position.from_position_id(event["position_id"])
    fold.set(match=match, dice=(), result=None, opening_throws=())
    fold.set(committed=restore_tavli.started(fold, event, position))
    fold.cubes = ()
    phase = loaded_phase(match)
    if phase is Phase.SETUP:
        at_start = fold.state.game_position() == restore_tavli.start_of_game(fold)
        fold.set(phase=Phase.OPENING if at_start else Phase.SETUP)
    elif phase is Phase.MOVING and match.dice is not None:
        fold.start_turn(match.dice)
    else:
        fold.set(phase=phase)


def _opening_roll(fold: _Fold, event: Event) -> None:
    fold.expect(Phase.OPENING, "opening roll is awaited")
    white, black = die(event["white"]), die(event["black"])
    throws = (*fold.state.opening_throws, (white, black))
    starter = event.fields.get("starter")
    if white == black:
        same("the starter of a tie", starter, None)
        fold.set(opening_throws=throws, dice=(white, black))
        return
    opening = OpeningRoll(throws)
    same("the starter", starter, opening.starter.value)
    match, tavli, start = after_opening(fold.match, fold.state.tavli, opening, fold.rules)
    fold.set(match=match, tavli=tavli, committed=start, opening_throws=(), dice=(white, black))
    if match.is_money and opening.ties:
        most = min(opening.ties, MAX_CUBE.bit_length() - 1)
        fold.cubes = tuple(1 << n for n in range(most + 1) if 1 << n != match.cube)
    if tavli.opening_dice_played:
        fold.start_turn(opening.dice)
    else:  # Plakoto and Fevga: the starter rolls both dice
        fold.set(phase=Phase.AWAIT_ROLL)


def _rolled(fold: _Fold, event: Event) -> None:
    fold.pass_if_stuck()
    mover_of(fold, event)
    fold.expect(Phase.AWAIT_ROLL, "roll is awaited")
    dice = dice_of(event)
    fold.set(match=rolled(fold.match, high_low(dice)))
    if roll_closes_takeback(fold.state.opponent or fold.settings.opponent):
        fold.set(before_play=None)
    fold.start_turn(dice)


def _no_legal_move(fold: _Fold, event: Event) -> None:
    if fold.due != EventType.NO_LEGAL_MOVE:
        raise RefusedEventError("only right after a roll with no legal play "
                                f"({fold.state.phase.value})")
    mover_of(fold, event)
    same("dice", dice_of(event), high_low(fold.state.dice))
    fold.due = None


def _played(fold: _Fold, event: Event) -> None:
    play, _ = chosen_play(fold, event)
    same("position_id", event["position_id"], play.result.position_id())
    match, result = _after_play(fold, play, _match_of(event))
    before = replace(fold.state, seat_play=None, before_play=None)
    undoable = result is None and variant(fold.state.tavli.variant).gnubg_plays
    fold.set(match=match, committed=play.result, seat_play=None,
             before_play=before if undoable else None)  # a takeback is the computer's
    fold.cubes = ()
    if result is None:
        fold.set(phase=Phase.AWAIT_ROLL)
    else:
        fold.game_over(match, result)


def _after_play(fold: _Fold, play: VariantPlay, recorded: MatchState
                ) -> tuple[MatchState, EndOfGame | None]:
    """The match after ``play`` as the rules derive it, if it is the recorded one."""
    for before in fold.matches():
        for match, result in _outcomes(before, play, fold.rules, fold.state.tavli):
            if match == recorded:
                return match, result
    raise RefusedEventError(f"the Match ID after the play is not {recorded.match_id()} "
                     f"by the rules (from {fold.match.match_id()})")


def _outcomes(before: MatchState, play: VariantPlay, rules: MatchRules, tavli: TavliMatch
              ) -> list[tuple[MatchState, EndOfGame | None]]:
    """The match after ``play``: the next turn, or the game won (Crawford either way)."""
    other = replace(rules, crawford=not rules.crawford)
    return [after_play(before, play, r, tavli) for r in (rules, other)]


def _double_offered(fold: _Fold, event: Event) -> None:
    fold.pass_if_stuck()
    color = mover_of(fold, event)
    fold.expect(Phase.AWAIT_ROLL, "double may be offered")
    if refusal := fold.state.tavli.cube_refusal():
        raise RefusedEventError(refusal)
    before = next((m for m in fold.matches() if 2 * m.cube == event["cube"]), None)
    if before is None:
        raise RefusedEventError(f"a double offers {2 * fold.match.cube}, not {event['cube']!r}")
    fold.set(match=cube_rules.offer_double(before, color, fold.rules),
             phase=Phase.DOUBLE_OFFERED)
    fold.cubes = ()


def _double_taken(fold: _Fold, event: Event) -> None:
    color = color_of(event)
    fold.expect(Phase.DOUBLE_OFFERED, "double is offered")
    if event.fields.get("beaver"):
        match = cube_rules.beaver(fold.match, color, replace(fold.rules, beavers=True))
    else:
        match = cube_rules.take(fold.match, color)
        fold.set(phase=Phase.AWAIT_ROLL)
    same("the cube", event["cube"], match.cube)
    fold.set(match=match)


def _double_dropped(fold: _Fold, event: Event) -> None:
    fold.expect(Phase.DOUBLE_OFFERED, "double is offered")
    same("the cube", event["cube"], 2 * fold.match.cube)
    dropper = color_of(event)
    side = fold.state.position().to_board(fold.match.on_roll).side(dropper)
    level = drop_level(fold.state.opponent or fold.settings.opponent, side)
    match, dropped = cube_rules.drop(fold.match, dropper, fold.rules, level)
    result = EndOfGame.of(dropped)
    fold.game_over(match, result)


def _resign_offered(fold: _Fold, event: Event) -> None:
    fold.pass_if_stuck()
    color = mover_of(fold, event)
    fold.expect(Phase.AWAIT_ROLL, "resignation may be offered")
    if not fold.state.committed.has_cube:
        raise RefusedEventError(f"no resignation in {fold.state.tavli.variant}: it is played out")
    offers = [(m, level) for m in fold.matches()
              if (level := resign_rules.level_of_points(m, event["points"])) is not None]
    if not offers:
        raise RefusedEventError(f"a resignation offers 1, 2 or 3 times the cube "
                         f"({fold.match.cube}), not {event['points']!r} points")
    before, level = offers[0]
    match = resign_rules.offer_resignation(before, color, level, fold.state.resign_declined)
    fold.set(match=match, phase=Phase.RESIGN_OFFERED)
    fold.cubes = ()


def _resign_answered(fold: _Fold, event: Event) -> tuple[Color, Resignation]:
    """The answerer and the level of an answer to the resignation on offer."""
    fold.expect(Phase.RESIGN_OFFERED, "resignation is offered")
    color, match = color_of(event), fold.match
    if not (verdict := resign_rules.may_answer_resignation(match, color)):
        raise RefusedEventError(verdict.reason)
    same("the points", event["points"],
          resign_rules.resignation_points(match, match.resignation))
    return color, match.resignation


def _resign_accepted(fold: _Fold, event: Event) -> None:
    color, _ = _resign_answered(fold, event)
    match, taken = resign_rules.take_resignation(fold.match, color, fold.rules)
    result = EndOfGame.of(taken)
    fold.game_over(match, result)


def _resign_declined(fold: _Fold, event: Event) -> None:
    color, level = _resign_answered(fold, event)
    fold.set(match=resign_rules.decline_resignation(fold.match, color),
             phase=Phase.AWAIT_ROLL, resign_declined=level)


def _game_over(fold: _Fold, event: Event) -> None:
    result, match = fold.state.result, fold.match
    if fold.due != EventType.GAME_OVER or result is None:
        raise RefusedEventError("only right after the play, drop or resignation that ends a game")
    same("the winner", event["winner"], result.winner and result.winner.value)
    same("the kind", event["kind"], result.kind)
    same("the cube", event["cube"], match.cube)
    same("the points", event["points"], result.points)
    same("the score", event["score"], list(match.score))
    fold.due = EventType.MATCH_OVER if match.match_winner is not None else None


def _match_over(fold: _Fold, event: Event) -> None:
    clock = fold.state.clock
    flag = clock.flag if clock is not None else None
    winner = fold.match.match_winner if flag is None else flag.opponent
    same("the reason", event.fields.get("reason"), None if flag is None else FLAG_KIND)
    if fold.due != EventType.MATCH_OVER or winner is None:
        raise RefusedEventError("only right after the game that decides the match")
    same("the winner", event["winner"], winner.value)
    same("the score", event["score"], list(fold.match.score))
    fold.due = None


def _noted(fold: _Fold, event: Event) -> None:
    """What the board showed (a lift, a fix, a refused press), or a review: no state changes."""


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
    EventType.HINT: restore_computer.hint,
    EventType.BLUNDER_WARNING: restore_computer.blunder_warning,
    EventType.RESIGN_OFFERED: _resign_offered,
    EventType.RESIGN_ACCEPTED: _resign_accepted,
    EventType.RESIGN_DECLINED: _resign_declined,
    EventType.ENGINE_PLAY: restore_computer.fold_engine_play,
    EventType.REMOTE_PLAY: restore_computer.fold_engine_play,
    EventType.TAKEBACK: restore_computer.takeback,
    EventType.CLOCK: restore_clock.clock_event,
    **dict.fromkeys(NOTES | ASIDES, _noted),
}
