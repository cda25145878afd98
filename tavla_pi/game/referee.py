"""The match state machine: setup, opening roll, cube, rolls, turns, game end.

The referee is fed stable observations, button presses and the time, and
answers with events (docs/CONTRACTS.md §4).  It never touches hardware and keeps
no clock of its own: every call carries ``now`` in milliseconds.  The logical
board is the authority: when the sensed board differs, the referee says what
to fix and waits.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.decode.observation import Observation
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.restore import Resumed
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.turn import Turn, TurnLights
from tavla_pi.game.view import GameView, Phase
from tavla_pi.reconcile import board_fixes
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import DiceSource, OpeningRoll
from tavla_pi.rules.match import GameState, MatchState, new_match, rolled, start_game, turn_done
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult, win_by_play

Button = tuple[str, bool]
"""A button event as the referee sees it: (name, long press)."""


class Referee:
    """Referees a match on a sensed board; every decision is an event."""

    def __init__(self, settings: GameSettings, dice: DiceSource) -> None:
        self.settings = settings
        self.dice = dice
        self.match: MatchState = new_match(settings.match_length, settings.rules)
        self.board: Board = Board.initial()
        self.phase = Phase.SETUP
        self.turn: Turn | None = None
        self.obs: Observation | None = None
        self.sync_fixes: tuple[Fix, ...] = ()
        self.shown_dice: tuple[int, ...] = ()
        self.result: GameResult | None = None
        self.since_ms = 0
        self.pass_at: int | None = None
        self.menu_armed_until = -1
        self.opening_throws: list[tuple[int, int]] = []
        self._out: list[Event] = []
        self._now = 0

    # -- inputs ------------------------------------------------------------------

    def on_observation(self, obs: Observation, now: int) -> list[Event]:
        """A new stable observation of the board."""
        self._now, self.obs = now, obs
        if self.phase is Phase.MOVING and self.turn is not None:
            self._observe_turn(obs)
        elif self.phase in (Phase.SETUP, Phase.GAME_OVER):
            self._check_setup(obs)
        elif self.phase is not Phase.MATCH_OVER:
            self._report_sync(board_fixes(self.board, obs))
        return self._flush()

    def on_button(self, name: str, long: bool, now: int) -> list[Event]:
        """A debounced press of a button (``white.roll``, ``menu``, ...)."""
        self._now = now
        if name == "menu":
            self._menu(long)
        else:
            color, _, role = name.partition(".")
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
        """Time passes: pending DONE and the no-move pass resolve here."""
        self._now = now
        turn = self.turn
        if self.phase is Phase.MOVING and turn is not None and turn.done_pending_since is not None:
            waited = now - turn.done_pending_since
            if settled or waited >= self.settings.done_settle_ms:
                turn.done_pending_since = None
                self._done(turn)
        if self.phase is Phase.NO_MOVE and self.pass_at is not None and now >= self.pass_at:
            self._pass_turn()
        return self._flush()

    def load(self, position: Position, match: MatchState, now: int) -> list[Event]:
        """Continue from a Position ID and Match ID (a scenario's ``load``)."""
        self._now = now
        self.match = match
        self.board = position.to_board(match.on_roll)
        self.result, self.turn, self.sync_fixes = None, None, ()
        self._emit(EventType.GAME_STARTED, position_id=position.position_id(),
                   match_id=match.match_id())
        if match.game_state is not GameState.PLAYING:
            self._enter(Phase.SETUP)
        elif match.double_offered:
            self._enter(Phase.DOUBLE_OFFERED)
        elif match.dice is not None:
            self._start_turn(match.dice)
        else:
            self._enter(Phase.AWAIT_ROLL)
        return self._flush()

    def resume(self, state: Resumed, now: int) -> None:
        """Continue from a state rebuilt from the journal (:mod:`tavla_pi.game.restore`).

        Nothing is emitted.  A turn being moved starts afresh from the
        committed position; a turn with no legal move passes after the usual delay.
        """
        self._now = now
        self.match, self.board, self.result = state.match, state.board, state.result
        self.shown_dice, self.opening_throws = state.dice, list(state.opening_throws)
        self.turn, self.sync_fixes, self.pass_at = None, (), None
        self._enter(state.phase)
        if state.phase is Phase.MOVING:
            a, b = state.dice
            self.turn = Turn.begin(self.position(), self.match.on_roll, (a, b))
        elif state.phase is Phase.NO_MOVE:
            self.pass_at = now + self.settings.no_move_pass_ms

    # -- what is shown -----------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while something waits on time: a pending DONE or a no-move pass."""
        pending = self.turn is not None and self.turn.done_pending_since is not None
        return pending or self.phase is Phase.NO_MOVE

    def position(self) -> Position:
        """The committed position from the side of the player on roll."""
        return Position.from_board(self.board, self.match.on_roll)

    def view(self) -> GameView:
        """What the players should see now."""
        return self._view(self.sync_fixes, None)

    def preview(self, obs: Observation) -> GameView:
        """What the players would see if ``obs`` were the stable board, computed without
        changing any state: the lights of a provisional board that has not yet stood
        still long enough to decide on (the pipeline shows them at once)."""
        if self.phase is Phase.MOVING and self.turn is not None:
            return self._view(self.sync_fixes, self.turn.preview(obs))
        if self.phase is Phase.MATCH_OVER:
            return self.view()
        board = Board.initial() if self.phase in (Phase.SETUP, Phase.GAME_OVER) else self.board
        return self._view(board_fixes(board, obs), None)

    def _view(self, fixes: tuple[Fix, ...], lights: TurnLights | None) -> GameView:
        """The view with these fixes, and these lights of the turn (None: its own)."""
        match = self.match
        base: dict[str, Any] = dict(
            phase=self.phase, cube_value=match.cube, cube_owner=match.cube_owner,
            score=match.score, match_length=match.match_length, since_ms=self.since_ms,
        )
        if self.phase in (Phase.SETUP, Phase.GAME_OVER, Phase.MATCH_OVER):
            return self._end_view(base, fixes)
        if self.phase is Phase.OPENING:
            return GameView(dice=self.shown_dice, fixes=fixes, **base)
        base.update(on_roll=match.on_roll, fixes=fixes)
        if self.phase is Phase.DOUBLE_OFFERED:
            return GameView(double_offered_by=match.on_roll, **base)
        if self.phase is Phase.NO_MOVE:
            return GameView(dice=self.shown_dice, no_legal_move=True, **base)
        if self.phase is Phase.MOVING and self.turn is not None:
            lights = lights if lights is not None else self.turn.lights()
            base.update(fixes=lights.fixes)
            return GameView(
                dice=self.shown_dice, dice_used=lights.dice_used,
                dice_blink=self._now < self.turn.blink_until, lifted_from=lights.lifted_from,
                destinations=lights.destinations, press_done=lights.press_done,
                to_bar=lights.to_bar, candidates=lights.candidates,
                confirms=lights.confirms, **base)
        return GameView(**base)

    def _end_view(self, base: dict[str, Any], fixes: tuple[Fix, ...]) -> GameView:
        showing = self.result is not None and (
            self.phase is Phase.MATCH_OVER
            or self._now - self.since_ms < self.settings.winner_show_ms)
        if showing and self.result is not None:
            return GameView(winner=self.result.winner, points_won=self.result.points, **base)
        return GameView(fixes=fixes, **{**base, "phase": Phase.SETUP})

    # -- phases ------------------------------------------------------------------

    def _enter(self, phase: Phase) -> None:
        self.phase, self.since_ms = phase, self._now

    def _check_setup(self, obs: Observation) -> None:
        fixes = board_fixes(Board.initial(), obs)
        self.sync_fixes = fixes
        if fixes:
            return
        self.board, self.result, self.shown_dice = Board.initial(), None, ()
        self._emit(EventType.GAME_STARTED, position_id=Position.initial().position_id(),
                   match_id=self.match.match_id())
        self._enter(Phase.OPENING)

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
            self._await_roll(color, role)
        elif phase is Phase.DOUBLE_OFFERED:
            self._answer_double(color, role, long)
        elif phase is Phase.MOVING and self.turn is not None:
            self._moving(self.turn, color, role)
        elif phase is Phase.NO_MOVE and role == "roll":
            self._pass_turn()
            if color is self.match.on_roll:
                self._await_roll(color, role)
        else:
            self._reject(color, f"{role.upper()} does nothing now ({phase.value})")

    def _opening_roll(self) -> None:
        white, black = self.dice.roll_one(), self.dice.roll_one()
        self.shown_dice = (white, black)
        self.opening_throws.append((white, black))
        if white == black:
            self._emit(EventType.OPENING_ROLL, white=white, black=black)
            return
        opening = OpeningRoll(tuple(self.opening_throws))
        self.opening_throws = []
        self._emit(EventType.OPENING_ROLL, white=white, black=black, starter=opening.starter.value)
        self.match = start_game(self.match, opening, self.settings.rules)
        self._start_turn(opening.dice)

    def _await_roll(self, color: Color, role: str) -> None:
        if color is not self.match.on_roll:
            self._reject(color, f"it is {self.match.on_roll.value}'s turn")
        elif role == "cube":
            self._offer_double(color)
        else:
            dice = self.dice.roll()
            self._emit(EventType.ROLLED, player=color.value, dice=list(dice))
            self.match = rolled(self.match, (max(dice), min(dice)))
            self._start_turn(dice)

    def _offer_double(self, color: Color) -> None:
        verdict = cube_rules.may_double(self.match, color, self.settings.rules)
        if not verdict:
            self._reject(color, verdict.reason)
            return
        self.match = cube_rules.offer_double(self.match, color, self.settings.rules)
        self._emit(EventType.DOUBLE_OFFERED, player=color.value, cube=self.match.cube * 2)
        self._enter(Phase.DOUBLE_OFFERED)

    def _answer_double(self, color: Color, role: str, long: bool) -> None:
        answerer = self.match.to_act  # the doubled player, or the doubler after a beaver
        if color is not answerer:
            self._reject(color, f"{answerer.value} must take or drop the double")
        elif role == "roll":
            self.match = cube_rules.take(self.match, color)
            self._emit(EventType.DOUBLE_TAKEN, player=color.value, cube=self.match.cube)
            self._enter(Phase.AWAIT_ROLL)
        elif long and cube_rules.may_beaver(self.match, color, self.settings.rules):
            self.match = cube_rules.beaver(self.match, color, self.settings.rules)
            self._emit(EventType.DOUBLE_TAKEN, player=color.value, cube=self.match.cube,
                       beaver=True)
        else:
            cube = self.match.cube * 2
            self.match, result = cube_rules.drop(self.match, color, self.settings.rules)
            self._emit(EventType.DOUBLE_DROPPED, player=color.value, cube=cube)
            self._game_over(result)

    def _start_turn(self, dice: tuple[int, int]) -> None:
        mover = self.match.on_roll
        start = self.position()
        self.shown_dice = dice
        if not start.legal_plays(dice):
            self._emit(EventType.NO_LEGAL_MOVE, player=mover.value, dice=_high_first(dice))
            self.pass_at = self._now + self.settings.no_move_pass_ms
            self._enter(Phase.NO_MOVE)
            return
        self.turn = Turn.begin(start, mover, dice)
        self._enter(Phase.MOVING)
        if self.obs is not None:
            self._observe_turn(self.obs)

    def _pass_turn(self) -> None:
        self.pass_at = None
        self.match = turn_done(self.match)
        self._enter(Phase.AWAIT_ROLL)

    def _observe_turn(self, obs: Observation) -> None:
        turn = self.turn
        assert turn is not None
        turn.observe(obs)
        self._report_sync(turn.fixes())
        lifted = turn.new_lift()
        if lifted is not None:
            self._emit(EventType.LIFTED, player=turn.mover.value, **{"from": lifted[0]},
                       destinations=list(lifted[1]))

    def _moving(self, turn: Turn, color: Color, role: str) -> None:
        """The mover's press while moving: CUBE lights the next candidate, DONE or ROLL
        asks to commit (once the board has settled)."""
        if color is not turn.mover:
            self._reject(color, f"{turn.mover.value} is moving")
        elif role == "cube":
            if not turn.cycle_candidate():
                self._reject(color, "the cube is offered before rolling")
        elif turn.done_pending_since is None:
            turn.done_pending_since = self._now

    def _done(self, turn: Turn) -> None:
        play = turn.complete_play()
        if play is None:
            turn.blink_until = self._now + self.settings.blink_ms
            self._reject(turn.mover, turn.why_not_done())
            return
        self._commit(turn, play)

    def _commit(self, turn: Turn, play: Play) -> None:
        mover = turn.mover
        self.board = play.result.to_board(mover.opponent)
        self.turn = None
        result = None
        if sum(play.result.theirs) == 0:  # the mover has borne off all 15
            self.match, result = win_by_play(self.match, mover, play.result.mine,
                                             self.settings.rules)
        else:
            self.match = turn_done(self.match)
        self._emit(EventType.PLAYED, player=mover.value, dice=_high_first(turn.dice),
                   play=play.notation, position_id=play.result.position_id(),
                   match_id=self.match.match_id())
        if result is not None:
            self._game_over(result)
        else:
            self._enter(Phase.AWAIT_ROLL)

    def _game_over(self, result: GameResult) -> None:
        self.result, self.turn = result, None
        self._emit(EventType.GAME_OVER, winner=result.winner.value, kind=result.kind.value,
                   cube=self.match.cube, points=result.points, score=list(self.match.score))
        winner = self.match.match_winner
        if winner is not None:
            self._emit(EventType.MATCH_OVER, winner=winner.value, score=list(self.match.score))
            self._enter(Phase.MATCH_OVER)
        else:
            self._enter(Phase.GAME_OVER)
        self.sync_fixes = ()

    def new_match(self, length: int, now: int) -> list[Event]:
        """Abandon whatever is going on and start a match of ``length`` points (0 money)."""
        self._now = now
        self._new_match(length)
        return self._flush()

    def _new_match(self, length: int) -> None:
        self.menu_armed_until = -1
        self.match = new_match(length, self.settings.rules)
        self.turn, self.result, self.sync_fixes, self.opening_throws = None, None, (), []
        self._emit(EventType.NEW_MATCH, match_length=length)
        self._enter(Phase.SETUP)
        if self.obs is not None:
            self._check_setup(self.obs)

    def _menu(self, long: bool) -> None:
        if not long:
            self.menu_armed_until = -1
        elif self._now <= self.menu_armed_until:
            self._new_match(self.settings.match_length)
        else:
            self.menu_armed_until = self._now + self.settings.menu_confirm_ms

    # -- events ------------------------------------------------------------------

    def _reject(self, color: Color, reason: str) -> None:
        self._emit(EventType.REJECTED, player=color.value, reason=reason)

    def _emit(self, kind: EventType, /, **fields: Any) -> None:
        self._out.append(Event(kind, self._now, fields))

    def _flush(self) -> list[Event]:
        out, self._out = self._out, []
        return out


def _high_first(dice: tuple[int, int]) -> list[int]:
    """Dice as GNU Backgammon records a turn's roll: the higher die first."""
    return sorted(dice, reverse=True)
