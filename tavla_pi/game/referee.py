"""The match state machine: setup, opening roll, cube, rolls, turns, game end.

The referee is fed stable observations, button presses and the time, and
answers with events (docs/CONTRACTS.md §4).  It never touches hardware and keeps
no clock of its own: every call carries ``now`` in milliseconds.  The logical
board is the authority: when the sensed board differs, the referee says what
to fix and waits.

The referee holds its parts: the cube and resignations (:mod:`tavla_pi.game.offers`
rules on them), the coach (:mod:`tavla_pi.game.coach`) and the seat: whoever
decides for the colour the hand does not play (:mod:`tavla_pi.game.seat`), the
computer (:mod:`tavla_pi.game.computer`) or the hand itself between two players.
A seat's decisions act as its button presses; its play is carried out by hand
and committed once the board shows it.

A match may be played on a tournament clock (:mod:`tavla_pi.game.matchclock`,
docs/CLOCK.md): the referee switches it whenever whose turn it is changes
(:func:`~tavla_pi.game.transitions.clock_side`), says so in a ``clock`` event, and
ends the match when a flag falls (on any call, the regular ``tick`` included).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tavla_pi.clock import Clock, WallClock
from tavla_pi.decode.observation import Observation
from tavla_pi.engine import BackgroundEngine
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game import carry
from tavla_pi.game.clockdesk import ClockDesk
from tavla_pi.game.coach import coach_for
from tavla_pi.game.computer import seat_for
from tavla_pi.game.fold import pass_turn, push
from tavla_pi.game.matchclock import ClockRules, MatchClock
from tavla_pi.game.matchdesk import MatchDesk
from tavla_pi.game.menu import Menu
from tavla_pi.game.offers import Offers
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.restore import fresh
from tavla_pi.game.rulings import Refused, Ruled, Ruling
from tavla_pi.game.seat import (
    AnswersResignation,
    Chooses,
    KeepsPlay,
    LosesOnTime,
    OffersResignation,
    Press,
    SeatAction,
    TakesBack,
    Throws,
)
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.showing import referee_view
from tavla_pi.game.state import State
from tavla_pi.game.tavli import VariantResult, game_start, high_first, kind_of
from tavla_pi.game.transitions import (
    after_play,
)
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import GameView, Phase
from tavla_pi.reconcile import Complete, board_fixes
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules import Resignation
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import DiceSource, OpeningRoll
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.portes import portes_only
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult
from tavla_pi.rules.tavli import BoardDict, VariantPlay, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant

REENTERS = frozenset({EventType.NEW_MATCH, EventType.GAME_STARTED, EventType.TAKEBACK})
"""Events after which the phase is entered anew even when it is the same."""


class Referee:
    """Referees a match on a sensed board; every decision is an event.

    ``settings.opponent`` is the match's opponent; ``next_opponent`` the one the
    next new match takes (MENU and the web page choose it).  ``engine``: GNU
    Backgammon in the background, None without it; ``engine_missing`` is the
    line saying how to install it when it is not installed (None: it is); the
    menu then offers two players only.  ``tavli``: the match of Portes, Plakoto or
    Fevga (or the three in turn) being played; ``committed`` the committed position of
    its game (:meth:`game_position` has the match's player on roll), which the
    referee asks what the game's rules say.  ``clock`` is the match's tournament clock
    (None: none), ``next_clock`` the rules of the next new match's (None: no clock);
    ``wall`` the wall clock the ``clock`` events are stamped with (a resume counts the
    time that ran through a power cut from it).
    """

    def __init__(self, settings: GameSettings, dice: DiceSource, *,
                 engine: BackgroundEngine | None = None,
                 engine_missing: str | None = None,
                 friends: tuple[OpponentSettings, ...] = (),
                 wall: Clock | None = None) -> None:
        self._settings = settings
        self.dice = dice
        self.engine = engine
        self.coach = coach_for(engine, settings, self._emit)
        self.wall: Clock = wall if wall is not None else WallClock()
        self.clocks = ClockDesk(settings.clock, self.wall)
        self.matches = MatchDesk(settings, Menu(settings.menu_confirm_ms, engine_missing, friends),
                                 self.clocks)
        self.state: State = fresh(settings)
        self.turn: Turn | None = None
        self.obs: Observation | None = None
        self.sync_fixes: tuple[Fix, ...] = ()
        self.since_ms = 0
        self.pass_at: int | None = None
        self.resign = ResignDesk()
        self.offers = Offers(self)
        self.seat = seat_for(settings.opponent, engine)
        self.undo: carry.Undo | None = None
        self._out: list[Event] = []
        self._now = 0
        self._entered: Phase | None = self.state.phase  # the phase the hooks last entered

    # -- the state, read ---------------------------------------------------------

    @property
    def match(self) -> MatchState:
        """The match (GNU Backgammon's Match ID's fields)."""
        return self.state.match

    @property
    def committed(self) -> VariantPosition:
        """The game's committed position."""
        return self.state.committed

    @property
    def phase(self) -> Phase:
        """Where the game is."""
        return self.state.phase

    @property
    def tavli(self) -> TavliMatch:
        """The match of Portes, Plakoto, Fevga or the three in turn."""
        return self.state.tavli

    @property
    def result(self) -> GameResult | VariantResult | None:
        """The last finished game's result (None: none since the last game began)."""
        return self.state.result

    @property
    def clock(self) -> MatchClock | None:
        """The match's tournament clock (None: none)."""
        return self.state.clock

    @property
    def shown_dice(self) -> tuple[int, ...]:
        """The dice shown: the turn's, or a tied opening throw."""
        return self.state.dice

    @property
    def menu(self) -> Menu:
        """MENU on the board."""
        return self.matches.menu

    @property
    def next_opponent(self) -> OpponentSettings:
        """The opponent the next new match takes (MENU and the page choose it)."""
        return self.matches.next_opponent

    @property
    def next_variant(self) -> str:
        """The game the next new match plays."""
        return self.matches.next_variant

    @property
    def next_clock(self) -> ClockRules | None:
        """The clock the next new match is on (None: none)."""
        return self.clocks.next_rules

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
        self.seat, self.undo = seat_for(opponent, self.engine), None

    # -- inputs ------------------------------------------------------------------

    def on_observation(self, obs: Observation, now: int) -> list[Event]:
        """A new stable observation of the board."""
        self._begin(now)
        self.obs = obs
        if not self._taken_back(obs):
            self._observe(obs)
        return self._flush()

    def _observe(self, obs: Observation) -> None:
        """What the board shows, for the turn being played or the board being set up."""
        if self.phase is Phase.MOVING and self.turn is not None:
            self._observe_turn(obs)
        elif self.phase in (Phase.SETUP, Phase.GAME_OVER):
            self._check_setup(obs)
        elif self.phase is not Phase.MATCH_OVER:
            self._report_sync(board_fixes(self.board_dict(), obs))

    def on_button(self, name: str, long: bool, now: int) -> list[Event]:
        """A debounced press of a button (``white.roll``, ``menu``, ...)."""
        self._begin(now)
        if name == "menu":
            self._menu(long)
        elif name.endswith(".cube") and not long and self.menu.armed(now):
            refused = self.matches.menu_clock(self.settings.match_length, now)
            if refused is not None:
                self._reject(Color(name.partition(".")[0]), refused.reason)
        else:
            color, _, role = name.partition(".")
            if self.seat.refuses(Color(color), self.phase):
                theirs = self.seat.plays(Color(color))
                self._reject(Color(color), f"{self.seat.name} plays {color}" if theirs
                             else "the dice are on their way")
            else:
                self._player_button(Color(color), role, long)
        return self._flush()

    def acts_on_press(self, name: str) -> bool:
        """True when a press of button ``name`` is acted on at its edge rather than at
        its release: only where no long press of it means anything now, so that
        waiting to tell the two apart buys nothing.  The rule: the mover's ROLL (=
        DONE) while moving.  Everywhere else a press waits for its release or its long
        threshold (MENU's and CUBE's long presses mean something, and a later
        gesture may give ROLL's one).  A press acted on at its edge reports nothing
        more, neither its release nor a long press (:mod:`tavla_pi.hal.buttons`)."""
        turn = self.turn
        return (self.phase is Phase.MOVING and turn is not None
                and name == f"{turn.mover.value}.roll")

    def tick(self, now: int, settled: bool) -> list[Event]:
        """Time passes: the engine's answers, pending DONE and the no-move pass resolve here."""
        self._begin(now)
        if self.turn is not None:
            play = self.coach.tick(now)
            if play is not None:
                self._commit(self.turn, play)
        turn = self.turn
        if self.phase is Phase.MOVING and turn is not None and turn.done_pending_since is not None:
            waited = now - turn.done_pending_since
            if settled or waited >= self.settings.done_settle_ms:
                turn.done_pending_since = None
                self._done(turn)
        if self.phase is Phase.NO_MOVE and self.pass_at is not None and now >= self.pass_at:
            self._pass_turn()
        while (action := self.seat.update(self, now)) is not None:
            self._seat_acts(action)
        return self._flush()

    def load(self, position: Position, match: MatchState, now: int) -> list[Event]:
        """Continue from a Position ID and Match ID (a scenario's ``load``)."""
        self._begin(now)
        self.resign = ResignDesk.loaded(match)
        self.turn, self.sync_fixes = None, ()
        self._emit(EventType.GAME_STARTED, position_id=position.position_id(),
                   match_id=match.match_id(), variant="portes")
        self._begin_turn()
        return self._flush()

    def resume(self, state: State, now: int) -> None:
        """Continue from a state rebuilt from the journal (:mod:`tavla_pi.game.restore`).

        Nothing is emitted.  A turn being moved starts afresh from the
        committed position; a turn with no legal move passes after the usual delay.
        """
        self._now = now
        self.state = self.clocks.resumed(state, now)
        self.settings = replace(self.settings, variant=state.tavli.name)
        self.matches.next_variant = state.tavli.name
        self.turn, self.sync_fixes, self.pass_at = None, (), None
        if state.opponent is not None:
            self.settings = replace(self.settings, opponent=state.opponent)
            self.matches.next_opponent = state.opponent
        self.resign = ResignDesk(state.resign_declined)
        self._entered, self.since_ms = state.phase, now
        self.resign.entered(state.phase)
        if state.phase is Phase.MOVING:
            self.turn = carry.resumed_turn(state, self.seat.color)
            if self.turn is not None and self.turn.seat_play is None:
                self._coach_begin(self.turn)
        elif state.stuck:
            self.pass_at = now + self.settings.no_move_pass_ms
        self.undo = carry.resumed_undo(state, self.seat.undoes)
        self._owed()

    def _owed(self) -> None:
        """The events a journal cut short still owes (a power cut between a game's last
        play and its end): written with the next scan's events."""
        if self.state.due is EventType.NO_LEGAL_MOVE:
            self._begin_turn()
        elif self.state.due in (EventType.GAME_OVER, EventType.MATCH_OVER):
            self._game_over()

    def set_opponent(self, opponent: OpponentSettings,
                     engine: BackgroundEngine | None = None) -> None:
        """Who the computer plays from now on (a scenario's ``setup``); ``engine``, if
        given, replaces its engine (and the coach's).  A turn being moved starts afresh."""
        if engine is not None and engine is not self.engine:
            self.engine = engine
            self.coach = coach_for(engine, self.settings, self._emit)
        changed = opponent != self.settings.opponent
        self.settings = replace(self.settings, opponent=opponent)  # seats it when changed
        if not changed:
            self._take_seat(opponent)  # the same side afresh, on the engine given
        self.matches.next_opponent = opponent  # and the matches after it, until MENU or the page
        if self.phase is Phase.MOVING:
            self._begin_turn()

    # -- what is shown -----------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while something waits on time: a pending DONE, a no-move pass or the engine."""
        pending = self.turn is not None and self.turn.done_pending_since is not None
        return (pending or self.phase is Phase.NO_MOVE or self.seat.pending
                or self.coach.thinking)

    @property
    def thinking(self) -> bool:
        """True while a question to the engine (the computer's or the coach's) is unanswered."""
        return self.seat.thinking or self.coach.thinking

    def wait_engine(self, timeout_s: float) -> bool:
        """Block (in real time) until the pending answers are in; False if ``timeout_s`` passed.

        For replay and tools, before a scan: the answers are then taken at that scan.
        """
        return self.seat.wait(timeout_s) and self.coach.wait(timeout_s)

    def game_position(self) -> VariantPosition:
        """The committed position with the match's player on roll."""
        return self.committed.with_on_roll(self.match.on_roll)

    def position(self) -> Position:
        """GNU Backgammon's committed position from the side of the player on roll, for
        the computer (the seat's :class:`~tavla_pi.game.seat.Table`); Portes only."""
        return portes_only(self.game_position())

    def position_id(self) -> str:
        """The committed position's Position ID (informative only in Plakoto and Fevga)."""
        return self.game_position().position_id()

    def board_dict(self) -> Mapping[str, object]:
        """The committed board as ``/api/state`` shows it."""
        return self.committed.state_board()

    def _setup_board(self) -> BoardDict:
        """The board the next game is set up to: its variant's start."""
        return variant(self.tavli.variant).start_board()

    def view(self) -> GameView:
        """What the players should see now."""
        return referee_view(self, self._now, self.sync_fixes)

    def preview(self, obs: Observation) -> GameView:
        """What the players would see if ``obs`` were the stable board, computed without
        changing any state: the lights of a provisional board that has not yet stood
        still long enough to decide on (the pipeline shows them at once)."""
        if self.phase is Phase.MOVING and self.turn is not None:
            return referee_view(self, self._now, self.sync_fixes, self.turn.preview(obs))
        if self.phase is Phase.MATCH_OVER:
            return self.view()
        setup = self.phase in (Phase.SETUP, Phase.GAME_OVER)
        board = self._setup_board() if setup else self.board_dict()
        return referee_view(self, self._now, board_fixes(board, obs))

    # -- phases ------------------------------------------------------------------

    def _begin(self, now: int) -> None:
        """Every input's first step: the time, and a flag that fell by then."""
        self._now = now
        self._carry_out(self.clocks.fallen(self.state, now))

    def _settle(self, kind: EventType | None) -> None:
        """Once no event is owed: a phase entered (or entered again by a new match, a new
        game or a takeback) starts its time and the resignation desk's, and the clock
        follows whoever must act now."""
        if self.phase is not self._entered or kind in REENTERS:
            self._entered, self.since_ms = self.phase, self._now
            self.resign.entered(self.phase)
        self._carry_out(self.clocks.follow(self.state, self._now))

    def clock_due(self) -> int | None:
        """When the running flag falls unless someone presses first (None: no time runs):
        a caller that skips scans (replay) scans again by then."""
        return self.clocks.due(self.state)

    def clock_state(self, now: int) -> dict[str, Any] | None:
        """``/api/state``'s ``clock`` at ``now`` (None: no clock in this match)."""
        return self.clocks.shown(self.state, now)

    def clock_bar(self, now: int) -> tuple[Color, int, bool] | None:
        """The cube column's bar of the running reserve at ``now`` (None: none shown)."""
        return self.clocks.bar(self.state, now)

    def _check_setup(self, obs: Observation) -> None:
        fixes = board_fixes(self._setup_board(), obs)
        self.sync_fixes = fixes
        if fixes:
            return
        match, start, _ = game_start(self.tavli, self.match)
        self._emit(EventType.GAME_STARTED,
                   position_id=start.with_on_roll(match.on_roll).position_id(),
                   match_id=match.match_id(), variant=self.tavli.variant)

    def _report_sync(self, fixes: tuple[Fix, ...]) -> None:
        if fixes == self.sync_fixes:
            return
        self.sync_fixes = fixes
        if fixes:
            self._emit(EventType.OUT_OF_SYNC, fix=[f.to_event() for f in fixes])
        else:
            self._emit(EventType.IN_SYNC)

    def _player_button(self, color: Color, role: str, long: bool) -> None:
        phase = self.phase
        if phase is Phase.OPENING and role == "roll":
            self._opening_roll()
        elif phase is Phase.AWAIT_ROLL:
            if not self.offers.may_resign or not self._resign_gesture(color, role, long):
                self._await_roll(color, role)
        elif phase is Phase.DOUBLE_OFFERED:
            self._rule(color, self.offers.answer_double(color, role, long))
        elif phase is Phase.RESIGN_OFFERED:
            self._rule(color, self.offers.answer_resignation(color, accept=role == "roll"))
        elif phase is Phase.MOVING and self.turn is not None:
            self._moving(self.turn, color, role, long)
        elif phase is Phase.NO_MOVE and role == "roll":
            self._pass_turn()
            if color is self.match.on_roll:
                self._await_roll(color, role)
        else:
            self._reject(color, f"{role.upper()} does nothing now ({phase.value})")

    def _opening_roll(self) -> None:
        if not self.seat.ask_roll(self._now):
            self._opening_throw(self.dice.roll_one(), self.dice.roll_one())

    def _opening_throw(self, white: int, black: int) -> None:
        """One throw of the opening roll: a tie is thrown again; else the higher die's
        player starts (in Portes with these dice, in Plakoto and Fevga to roll both)."""
        if white == black:
            self._emit(EventType.OPENING_ROLL, white=white, black=black)
            return
        opening = OpeningRoll((*self.state.opening_throws, (white, black)))
        self._emit(EventType.OPENING_ROLL, white=white, black=black, starter=opening.starter.value)
        self._begin_turn()

    def _await_roll(self, color: Color, role: str) -> None:
        if color is not self.match.on_roll:
            self._reject(color, f"it is {self.match.on_roll.value}'s turn")
        elif role == "cube":
            self._rule(color, self.offers.double(color))
        elif not self.seat.ask_roll(self._now):
            self._roll(color, self.dice.roll())

    def _roll(self, color: Color, dice: tuple[int, int]) -> None:
        self._emit(EventType.ROLLED, player=color.value, dice=list(dice))
        self._begin_turn()

    def _begin_turn(self) -> None:
        """The dice the state holds are to be played: with no legal move, say so and pass
        later; else the hand moves, or the seat chooses first (its play comes at a tick)."""
        if self.phase not in (Phase.MOVING, Phase.NO_MOVE):
            return
        dice = (self.shown_dice[0], self.shown_dice[-1])
        start = self.game_position()
        if self.phase is Phase.NO_MOVE:
            self._emit(EventType.NO_LEGAL_MOVE, player=start.on_roll.value, dice=high_first(dice))
            self.pass_at = self._now + self.settings.no_move_pass_ms
            return
        self.turn = None
        if not self.seat.plays(start.on_roll):
            turn = Turn.begin(start, dice)
            self._coach_begin(turn)
            self._follow(turn)

    def _follow(self, turn: Turn) -> None:
        """Follow ``turn`` on the board from now on."""
        self.turn = turn
        if self.obs is not None:
            self._observe_turn(self.obs)

    def _coach_begin(self, turn: Turn) -> None:
        self.coach.begin(turn, self.match, self._now)

    def _pass_turn(self) -> None:
        """The turn with no legal move passes: the one step without an event."""
        self.pass_at = None
        self.state = pass_turn(self.state)
        self._settle(None)

    def _observe_turn(self, obs: Observation) -> None:
        turn = self.turn
        assert turn is not None
        turn.observe(obs)
        self.coach.observed()
        self._report_sync(turn.fixes())
        lifted = turn.new_lift()
        if lifted is not None:
            self._emit(EventType.LIFTED, player=turn.mover.value, **{"from": lifted[0]},
                       destinations=list(lifted[1]))
        if turn.seat_play is not None:  # the computer's play, carried out by hand
            self.undo = None if carry.carrying_begun(turn) else self.undo
            if isinstance(turn.verdict, Complete):
                self._commit(turn, turn.verdict.play)

    def _moving(self, turn: Turn, color: Color, role: str, long: bool) -> None:
        """The mover's press while moving: a long CUBE asks for a hint (with an engine),
        CUBE lights the next candidate, DONE or ROLL asks to commit (once settled).  While
        the seat's play is carried out, the hand's own DONE confirms it where the sensors
        cannot see the rest of it (a tall stack reads the same)."""
        if color is not turn.mover and turn.seat_play is not None and role == "roll":
            turn.done_pending_since = self._now  # the hand confirms what it carried out
        elif color is not turn.mover:
            self._reject(color, f"{turn.mover.value} is moving")
        elif role == "cube" and long and self.coach.gives_hints:
            self.coach.hint_pressed(self._now)
        elif role == "cube":
            if not turn.cycle_candidate():
                self._reject(color, "the cube is offered before rolling")
        elif turn.done_pending_since is None:
            turn.done_pending_since = self._now

    def _done(self, turn: Turn) -> None:
        play = turn.complete_play()
        if play is None:
            turn.blink_until = self._now + self.settings.blink_ms
            hand = turn.mover if turn.seat_play is None else turn.mover.opponent
            self._reject(hand, turn.why_not_done())
            return
        if turn.seat_play is None and not self.coach.may_commit(play, self._now):
            return
        self._commit(turn, play)

    def _commit(self, turn: Turn, play: VariantPlay) -> None:
        """Commit ``play`` of any game: the next turn, or the game's end."""
        mover, before = turn.mover, self.match
        after, _ = after_play(before, play, self.settings.rules, self.tavli)
        self.turn = None
        self._emit(EventType.PLAYED, player=mover.value, dice=high_first(turn.dice),
                   play=play.notation, position_id=play.result.position_id(),
                   match_id=after.match_id(), board=play.result.board())
        if self.state.due is EventType.GAME_OVER:
            self._game_over()
        elif self.seat.undoes(mover) and self.state.before_play is not None:
            self.undo = carry.Undo.of(turn, before, play.result)  # until the other side moves

    def _game_over(self) -> None:
        """Say how the game that just ended ended (the state holds its result), and the
        match's end if it decided the match."""
        result = self.result
        assert result is not None  # the fold keeps the result of the game it ended
        self.turn, self.sync_fixes = None, ()
        if self.state.due is EventType.GAME_OVER:
            winner_name = result.winner.value if result.winner is not None else None
            self._emit(EventType.GAME_OVER, winner=winner_name, kind=kind_of(result),
                       cube=self.match.cube, points=result.points, score=list(self.match.score))
        winner = self.match.match_winner
        if self.state.due is EventType.MATCH_OVER and winner is not None:
            self._emit(EventType.MATCH_OVER, winner=winner.value, score=list(self.match.score))

    def new_match(self, length: int, now: int, variant: str | None = None) -> list[Event]:
        """Abandon whatever is going on and start a match of ``length`` points (0 money)
        of ``variant`` ("portes", "plakoto", "fevga", "tavli"; None: ``next_variant``)."""
        self._begin(now)
        self._new_match(length, variant)
        return self._flush()

    def choose_opponent(self, opponent: OpponentSettings, now: int) -> list[Event]:
        """The opponent of the next new match; at once while the board is set up for the
        first game of a match (a ``new_match`` in the new mode when the mode changes)."""
        self._begin(now)
        if self.matches.choose_opponent(opponent, self.state, self.settings):
            self._new_match(self.match.match_length)
        elif self.matches.first_setup(self.state):
            self.settings = replace(self.settings, opponent=opponent)
        return self._flush()

    def choose_variant(self, variant: str, now: int) -> list[Event]:
        """The game of the next new match ("portes", "plakoto", "fevga", "tavli"); at once
        while the board is set up for the first game of a match (a ``new_match``)."""
        self._begin(now)
        if self.matches.choose_variant(variant, self.state):
            self._new_match(self.match.match_length)
        return self._flush()

    def choose_clock(self, rules: ClockRules | None, now: int) -> list[Event]:
        """The clock of the next new match (None: none; a money match has none); at once
        while the board is set up for the first game of a match (a ``new_match``)."""
        self._begin(now)
        if self.matches.choose_clock(rules, self.state):
            self._new_match(self.match.match_length)
        return self._flush()

    def _new_match(self, length: int, variant: str | None = None) -> None:
        self.settings, ruled = self.matches.start(length, variant, self.settings)
        self.turn, self.sync_fixes = None, ()
        self._carry_out([ruled])
        if self.obs is not None:
            self._check_setup(self.obs)

    def _menu(self, long: bool) -> None:
        variant = self.matches.menu_press(long=long, now=self._now)
        if variant is not None:
            self._new_match(self.settings.match_length, variant)

    # -- the cube and resignations -----------------------------------------------------

    def offer_resignation(self, color: Color, level: Resignation, now: int) -> list[Event]:
        """``color`` (the computer) offers to resign ``level`` before its roll."""
        self._begin(now)
        self._rule(color, self.offers.offer_resignation(color, level))
        return self._flush()

    def answer_resignation(self, color: Color, accept: bool, now: int) -> list[Event]:
        """``color`` (the computer) accepts or declines the resignation on offer."""
        self._begin(now)
        self._rule(color, self.offers.answer_resignation(color, accept))
        return self._flush()

    def _resign_gesture(self, color: Color, role: str, long: bool) -> bool:
        """A press before the roll that chooses, offers or withdraws a resignation."""
        ruling = self.offers.resign_gesture(color, role, long)
        if ruling is not None:
            self._rule(color, ruling)
        return ruling is not None

    def _rule(self, color: Color, ruling: Ruling) -> None:
        """Carry out the offers' ruling on ``color``'s press or decision."""
        if isinstance(ruling, Refused):
            self._reject(color, ruling.reason)
        elif isinstance(ruling, Ruled):
            self._carry_out([ruling])

    # -- the seat --------------------------------------------------------------------

    def _seat_acts(self, action: SeatAction) -> None:
        """Carry out the seat's decision: its press, its resignation, or its play."""
        color = self.seat.color
        assert color is not None  # only a seat that plays a colour decides
        if isinstance(action, Press):
            self._player_button(color, action.role, action.long)
        elif isinstance(action, AnswersResignation):
            self._rule(color, self.offers.answer_resignation(color, action.accept))
        elif isinstance(action, OffersResignation):
            self._rule(color, self.offers.offer_resignation(color, action.level))
        elif isinstance(action, Throws):
            self._seat_rolls(action.dice)
        elif isinstance(action, TakesBack):
            assert self.undo is not None  # the seat checked
            self._take_back(self.undo)
        elif isinstance(action, KeepsPlay):
            self._keep_play()
        elif isinstance(action, LosesOnTime):
            self._carry_out(self.clocks.lost_on_time(self.state, color, self._now))
        else:
            self._seat_chooses(color, action)

    def _seat_rolls(self, dice: tuple[int, int]) -> None:
        """The dice the seat made: the opening throw, or the roll of the player on roll."""
        if self.phase is Phase.OPENING:
            self._opening_throw(*dice)
        elif self.phase is Phase.AWAIT_ROLL:
            self._roll(self.match.on_roll, dice)

    def _seat_chooses(self, color: Color, chosen: Chooses) -> None:
        """The seat's play, for the hand to carry out; none chosen: the hand plays it."""
        dice = (self.shown_dice[0], self.shown_dice[-1])
        play = chosen.play
        if play is None:
            self._follow(Turn.begin(self.game_position(), dice))
            return
        if chosen.kind is EventType.REMOTE_PLAY:  # the friend's board's
            self._emit(EventType.REMOTE_PLAY, player=color.value, dice=high_first(dice),
                       play=play.notation, position_id=play.result.position_id())
        else:
            self._emit(EventType.ENGINE_PLAY, player=color.value, dice=high_first(dice),
                       play=play.notation, position_id=play.result.position_id())
        self._follow(carry.follow_play(self.position(), color, dice, play))

    def _taken_back(self, obs: Observation) -> bool:
        """Whether the board shows the hand's last play taken back: taken back now, or
        asked of the seat (the friend's board) while the game waits for its word."""
        undo = self.undo
        if undo is None or self.seat.plays(undo.player) or not undo.shows(obs):
            return False
        if self.seat.ask_takeback(undo):
            self._report_sync(())  # as it should be while the friend's board is asked
        else:
            self._take_back(undo)
        return True

    def _keep_play(self) -> None:
        """The friend's board declined the takeback asked: the play stands, and the board
        is to be put back to it."""
        undo = self.undo
        if undo is None or self.seat.plays(undo.player):
            return
        self.undo = None
        if self.obs is not None and self.phase is not Phase.MOVING:
            self._report_sync(board_fixes(self.board_dict(), self.obs))

    def _take_back(self, undo: carry.Undo) -> None:
        """The board shows the human's last turn again: it is theirs to play again."""
        self.turn = None
        start = undo.start.with_on_roll(undo.match.on_roll)
        self._emit(EventType.TAKEBACK, player=undo.player.value, dice=high_first(undo.dice),
                   position_id=start.position_id(), match_id=undo.match.match_id())
        self._begin_turn()
        if self.turn is None and self.obs is not None:  # the friend's: the hand puts it back
            self._report_sync(board_fixes(self.board_dict(), self.obs))

    # -- events ------------------------------------------------------------------

    def _carry_out(self, rulings: list[Ruled]) -> None:
        """Write the parts' events; a game ended by one is said to be over, a match
        ended on time stops the turn and the seat."""
        for ruling in rulings:
            self._emit(ruling.kind, **ruling.fields)
            if self.state.due is EventType.GAME_OVER:
                self._game_over()
        if rulings and self.state.clock is not None and self.state.clock.flag is not None:
            self.seat.withdraw()
            self.turn, self.pass_at, self.sync_fixes = None, None, ()

    def _reject(self, color: Color, reason: str) -> None:
        self._emit(EventType.REJECTED, player=color.value, reason=reason)

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        """Decide an event: the state is the fold's of it (a refusal is a coding error:
        the referee writes only what the rules allow)."""
        event = Event(kind, self._now, fields)
        self.state = push(self.state, event, self.settings)
        self._out.append(event)
        if self.state.before_play is None:  # the last play may no longer be taken back
            self.undo = None
        if self.state.due is None:
            self._settle(kind)

    def _flush(self) -> list[Event]:
        self.coach.follow(self.turn)
        out, self._out = self._out, []
        return out

