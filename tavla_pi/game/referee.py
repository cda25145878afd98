"""The match state machine: setup, opening roll, cube, rolls, turns, game end.

The referee is fed stable observations, button presses and the time, and
answers with events (docs/CONTRACTS.md §4).  It never touches hardware and keeps
no clock of its own: every call carries ``now`` in milliseconds.  The logical
board is the authority: when the sensed board differs, the referee says what
to fix and waits.

Its state is one value (:class:`~tavla_pi.game.state.State`), reached only through
the fold (:func:`~tavla_pi.game.fold.push`): the referee decides events, and the
fold of each says what the game is then, as the journal's check will say it.

The referee holds its parts, each of which rules and returns what to write
(:mod:`tavla_pi.game.rulings`), carried out in one place: the cube and resignations
(:mod:`tavla_pi.game.offers`), the turn being moved (:mod:`tavla_pi.game.moving`),
the tournament clock (:mod:`tavla_pi.game.clockdesk`, docs/CLOCK.md), the next match
and MENU (:mod:`tavla_pi.game.matchdesk`), and the seat: whoever decides for the
colour the hand does not play (:mod:`tavla_pi.game.seat`, :mod:`tavla_pi.game.deciding`; ruled by
:mod:`tavla_pi.game.seatdesk`).  The coach (:mod:`tavla_pi.game.coach`) says its
hints and warnings through the same events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from tavla_pi.clock import Clock, WallClock
from tavla_pi.decode.observation import Observation
from tavla_pi.engine import BackgroundEngine
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.clockdesk import ClockDesk
from tavla_pi.game.coach import coach_for
from tavla_pi.game.deciding import Press
from tavla_pi.game.fold import push
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.matchdesk import MatchDesk
from tavla_pi.game.menu import Menu
from tavla_pi.game.moving import Moving
from tavla_pi.game.offers import Offers
from tavla_pi.game.presses import Presses
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.restore import fresh
from tavla_pi.game.rulings import Passed, Refused, Ruled, Ruling, Synced, owed
from tavla_pi.game.seat import seat_for
from tavla_pi.game.seatdesk import SeatDesk
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.state import State
from tavla_pi.game.table import TableView
from tavla_pi.game.tavli import game_start
from tavla_pi.game.view import Phase
from tavla_pi.reconcile import board_fixes
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules import Resignation
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import DiceSource
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.position import Position
from tavla_pi.rules.variants import DEFAULT

REENTERS = frozenset({EventType.NEW_MATCH, EventType.GAME_STARTED, EventType.TAKEBACK})
"""Events after which the phase is entered anew even when it is the same."""
BEGINS_TURN = frozenset({EventType.OPENING_ROLL, EventType.ROLLED, EventType.TAKEBACK,
                         EventType.GAME_STARTED})
"""Events after which dice may be there to play (the turn then begins)."""


class Referee(TableView):
    """Referees a match on a sensed board; every decision is an event.

    ``state`` is the game's state (the fold's of the events so far); ``engine``: GNU
    Backgammon in the background, None without it; ``engine_missing`` is the line
    saying how to install it when it is not installed (None: it is); the menu then
    offers two players only.  ``wall``: the wall clock the ``clock`` events are
    stamped with (a resume counts the time that ran through a power cut from it).
    What is shown (the view, the clock's figures) comes from :class:`TableView`.
    """

    def __init__(self, settings: GameSettings, dice: DiceSource, *,
                 engine: BackgroundEngine | None = None,
                 engine_missing: str | None = None,
                 friends: tuple[OpponentSettings, ...] = (),
                 wall: Clock | None = None) -> None:
        self._settings = settings
        self.dice = dice
        self.engine = engine
        self.coach = coach_for(engine, settings)
        self.wall: Clock = wall if wall is not None else WallClock()
        self.clocks = ClockDesk(settings.clock, self.wall)
        self.matches = MatchDesk(settings, Menu(settings.menu_confirm_ms, engine_missing, friends),
                                 self.clocks)
        self.state: State = fresh(settings)
        self.obs: Observation | None = None
        self.sync_fixes: tuple[Fix, ...] = ()
        self.since_ms = 0
        self.resign = ResignDesk()
        self.offers = Offers(self)
        self.seat = seat_for(settings.opponent, engine)
        self.moving = Moving(self)
        self.seats = SeatDesk(self)
        self.presses = Presses(self)
        self._out: list[Event] = []
        self._now = 0
        self._entered: Phase | None = self.state.phase  # the phase the hooks last entered

    @property
    def settings(self) -> GameSettings:
        """The match's settings; the coach follows every change (a new mode, a resume)."""
        return self._settings

    @settings.setter
    def settings(self, settings: GameSettings) -> None:
        changed = settings.opponent != self._settings.opponent
        self._settings = settings
        self.coach.settings = settings
        if changed:  # the computer plays another side, or at another level
            self._take_seat(settings.opponent)

    def _take_seat(self, opponent: OpponentSettings) -> None:
        """The seat of ``opponent`` on the referee's engine; the old seat's decision is
        withdrawn and no takeback is left open."""
        self.seat.withdraw()
        self.seat, self.moving.undo = seat_for(opponent, self.engine), None

    # -- inputs ------------------------------------------------------------------

    def on_observation(self, obs: Observation, now: int) -> list[Event]:
        """A new stable observation of the board."""
        self._begin(now)
        self.obs = obs
        taken_back = self.seats.takeback_shown(obs)
        if taken_back is not None:
            self._carry_out(taken_back)
        elif self.phase is Phase.MOVING and self.moving.turn is not None:
            self._carry_out(self.moving.observe(obs))
        elif self.phase in (Phase.SETUP, Phase.GAME_OVER):
            self._check_setup(obs)
        elif self.phase is not Phase.MATCH_OVER:
            self._report_sync(board_fixes(self.board_dict(), obs))
        return self._flush()

    def on_button(self, name: str, *, long: bool, now: int) -> list[Event]:
        """A debounced press of a button (``white.roll``, ``menu``, ...)."""
        self._begin(now)
        color, _, role = name.partition(".")
        if name == "menu":
            variant = self.matches.menu_press(long=long, now=now)
            if variant is not None:
                self._new_match(self.settings.match_length, variant)
        elif role == "cube" and not long and self.menu.armed(now):
            refused = self.matches.menu_clock(self.settings.match_length, now)
            self._carry_out([] if refused is None else [refused], Color(color))
        else:
            self._carry_out(self.presses.by_hand(Color(color), role, now, long=long),
                            Color(color))
        return self._flush()

    def tick(self, now: int, *, settled: bool) -> list[Event]:
        """Time passes: the engine's answers, pending DONE and the no-move pass resolve here."""
        self._begin(now)
        self._carry_out(self.moving.tick(now, settled=settled))
        self._carry_out([Passed()] if self.moving.pass_due(now) else [])
        while (action := self.seat.update(self, now)) is not None:
            color = self.seat.color
            assert color is not None  # only a seat that plays a colour decides
            self._carry_out(self.seats.rule(action, color, now), color)
        return self._flush()

    def load(self, position: Position, match: MatchState, now: int) -> list[Event]:
        """Continue from a Position ID and Match ID (a scenario's ``load``)."""
        self._begin(now)
        self.resign = ResignDesk.loaded(match)
        self.moving.turn, self.sync_fixes = None, ()
        self._write(Ruled(EventType.GAME_STARTED, {
            "position_id": position.position_id(), "match_id": match.match_id(),
            "variant": DEFAULT}))
        return self._flush()

    def resume(self, state: State, now: int) -> None:
        """Continue from a state rebuilt from the journal (:mod:`tavla_pi.game.restore`).

        A turn being moved starts afresh from the committed position; a turn with no
        legal move passes after the usual delay; what a journal cut short still owes
        (a ``game_over`` lost to a power cut) is written with the next scan's events.
        """
        self._now = now
        self.state = self.clocks.resumed(state, now)
        self.settings = self.matches.resumed(state, self.settings)
        self.resign, self.sync_fixes = ResignDesk(state.resign_declined), ()
        self._entered, self.since_ms = state.phase, now
        self.resign.entered(state.phase)
        self._carry_out(self.moving.resume(state, now))
        self._write_owed()

    def set_opponent(self, opponent: OpponentSettings,
                     engine: BackgroundEngine | None = None) -> None:
        """Who the computer plays from now on (a scenario's ``setup``); ``engine``, if
        given, replaces its engine (and the coach's).  A turn being moved starts afresh."""
        if engine is not None and engine is not self.engine:
            self.engine = engine
            self.coach = coach_for(engine, self.settings)
        changed = opponent != self.settings.opponent
        self.settings = replace(self.settings, opponent=opponent)  # seats it when changed
        if not changed:
            self._take_seat(opponent)  # the same side afresh, on the engine given
        self.matches.next_opponent = opponent  # and the matches after, until MENU or the page
        if self.phase is Phase.MOVING:
            self._carry_out(self.moving.begin(self._now))

    # -- the next match ------------------------------------------------------------

    def new_match(self, length: int, now: int, variant: str | None = None) -> list[Event]:
        """Abandon whatever is going on and start a match of ``length`` points (0 money)
        of ``variant`` ("portes", "plakoto", "fevga", "tavli"; None: ``next_variant``)."""
        self._begin(now)
        self._new_match(length, variant)
        return self._flush()

    def choose_opponent(self, opponent: OpponentSettings, now: int) -> list[Event]:
        """The opponent of the next new match; at once while the board is set up for the
        first game of a match (a ``new_match`` in the new mode when the mode changes)."""
        return self._choose(now, lambda: self.matches.choose_opponent(
            opponent, self.state, self.settings), opponent)

    def choose_variant(self, variant: str, now: int) -> list[Event]:
        """The game of the next new match ("portes", "plakoto", "fevga", "tavli"); at once
        while the board is set up for the first game of a match (a ``new_match``)."""
        return self._choose(now, lambda: self.matches.choose_variant(variant, self.state))

    def choose_clock(self, rules: ClockRules | None, now: int) -> list[Event]:
        """The clock of the next new match (None: none; a money match has none); at once
        while the board is set up for the first game of a match (a ``new_match``)."""
        return self._choose(now, lambda: self.matches.choose_clock(rules, self.state))

    def _choose(self, now: int, chosen: Callable[[], bool],
                opponent: OpponentSettings | None = None) -> list[Event]:
        """A choice for the next match (``chosen``: whether it starts one now); a new
        opponent in the same mode takes its seat at once while the board is set up."""
        self._begin(now)
        if chosen():
            self._new_match(self.match.match_length)
        elif opponent is not None and self.matches.first_setup(self.state):
            self.settings = replace(self.settings, opponent=opponent)
        return self._flush()

    def _new_match(self, length: int, variant: str | None = None) -> None:
        self.settings, ruled = self.matches.start(length, variant, self.settings)
        self.moving.turn, self.sync_fixes = None, ()
        self._write(ruled)
        if self.obs is not None:
            self._check_setup(self.obs)

    # -- the game ------------------------------------------------------------------

    def _check_setup(self, obs: Observation) -> None:
        fixes = board_fixes(self._setup_board(), obs)
        self.sync_fixes = fixes
        if fixes:
            return
        match, start, _ = game_start(self.tavli, self.match)
        self._write(Ruled(EventType.GAME_STARTED, {
            "position_id": start.with_on_roll(match.on_roll).position_id(),
            "match_id": match.match_id(), "variant": self.tavli.variant}))

    def _pass_turn(self) -> None:
        """The turn with no legal move passes: the one step without an event."""
        self.moving.pass_at = None
        self.state = self.state.passed()
        self._settle(None)

    # -- the cube and resignations, decided by the computer ----------------------------

    def offer_resignation(self, color: Color, level: Resignation, now: int) -> list[Event]:
        """``color`` (the computer) offers to resign ``level`` before its roll."""
        self._begin(now)
        self._carry_out([self.offers.offer_resignation(color, level)], color)
        return self._flush()

    def answer_resignation(self, color: Color, *, accept: bool, now: int) -> list[Event]:
        """``color`` (the computer) accepts or declines the resignation on offer."""
        self._begin(now)
        self._carry_out([self.offers.answer_resignation(color, accept=accept)], color)
        return self._flush()

    # -- rulings and events ----------------------------------------------------------

    def _begin(self, now: int) -> None:
        """Every input's first step: the time, and a flag that fell by then."""
        self._now = now
        self._carry_out(self.clocks.fallen(self.state, now))

    def _carry_out(self, rulings: Iterable[Ruling], player: Color | None = None) -> None:
        """Carry out the parts' rulings on ``player``'s press or decision, in order."""
        for ruling in rulings:
            if isinstance(ruling, Refused):
                who = ruling.player or player
                assert who is not None  # a refusal is of a press or a decision
                self._reject(who, ruling.reason)
            elif isinstance(ruling, Ruled):
                self._write(ruling)
            elif isinstance(ruling, Press):
                assert player is not None  # the seat's own button, or the hand's again
                self._carry_out(self.presses.rule(player, ruling.role, self._now,
                                                  long=ruling.long), player)
            elif isinstance(ruling, Passed):
                self._pass_turn()
            elif isinstance(ruling, Synced):
                self._report_sync(ruling.fixes)

    def _write(self, ruled: Ruled) -> None:
        """Write a ruled event, and what follows it: a game's end said, a turn begun."""
        self._emit(ruled.kind, **ruled.fields)
        if self.state.due in (EventType.GAME_OVER, EventType.MATCH_OVER):
            self._write_owed()
        elif ruled.kind in BEGINS_TURN:
            self._carry_out(self.moving.begin(self._now))
            if ruled.kind is EventType.TAKEBACK and self.moving.turn is None \
                    and self.obs is not None:  # the friend's: the hand puts it back
                self._report_sync(board_fixes(self.board_dict(), self.obs))

    def _write_owed(self) -> None:
        """Write what the game's end owes (its ``game_over``, the ``match_over``); the turn
        and the board's fixes end with it."""
        ruled = owed(self.state)
        if ruled is not None:
            self.moving.turn, self.sync_fixes = None, ()
            self._write(ruled)

    def _settle(self, kind: EventType | None) -> None:
        """Once no event is owed: a phase entered (or entered again by a new match, a new
        game or a takeback) starts its time and the resignation desk's, a match ended on
        time stops the turn and the seat, and the clock follows whoever must act now."""
        if self.phase is not self._entered or kind in REENTERS:
            self._entered, self.since_ms = self.phase, self._now
            self.resign.entered(self.phase)
            if self.clock is not None and self.clock.flag is not None:
                self.seat.withdraw()
                self.moving.turn, self.moving.pass_at, self.sync_fixes = None, None, ()
        self._carry_out(self.clocks.follow(self.state, self._now))

    def _report_sync(self, fixes: tuple[Fix, ...]) -> None:
        if fixes == self.sync_fixes:
            return
        self.sync_fixes = fixes
        if fixes:
            self._emit(EventType.OUT_OF_SYNC, fix=[f.to_event() for f in fixes])
        else:
            self._emit(EventType.IN_SYNC)

    def _reject(self, color: Color, reason: str) -> None:
        self._emit(EventType.REJECTED, player=color.value, reason=reason)

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        """Decide an event: the state is the fold's of it (a refusal is a coding error:
        the referee writes only what the rules allow)."""
        event = Event(kind, self._now, fields)
        self.state = push(self.state, event, self.settings)
        self._out.append(event)
        if self.state.before_play is None:  # the last play may no longer be taken back
            self.moving.undo = None
        if self.state.due is None:
            self._settle(kind)

    def _flush(self) -> list[Event]:
        self.coach.follow(self.moving.turn)
        out, self._out = self._out, []
        return out
