"""What the referee shows and answers about the game, without changing it.

:class:`TableView` is the referee's read side: the state's parts by name (the match,
the committed position, the phase ...), the views of the board
(:func:`~tavla_pi.game.showing.referee_view`), the clock's figures, whether something
waits on time, and which press is acted on at its edge.  The referee
(:class:`~tavla_pi.game.referee.Referee`) is a table view that also decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla_pi.decode.observation import Observation
from tavla_pi.game import carry
from tavla_pi.game.clockdesk import ClockDesk
from tavla_pi.game.coach import Coaching
from tavla_pi.game.deciding import Seat
from tavla_pi.game.matchclock import ClockRules, MatchClock
from tavla_pi.game.matchdesk import MatchDesk
from tavla_pi.game.menu import Menu
from tavla_pi.game.moving import Moving
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.showing import referee_view
from tavla_pi.game.state import State
from tavla_pi.game.tavli import EndOfGame
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import GameView, Phase
from tavla_pi.reconcile import board_fixes
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.portes import portes_only
from tavla_pi.rules.position import Position
from tavla_pi.rules.tavli import BoardDict, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant


class TableView:
    """The game as the referee shows it; the referee fills in what it reads."""

    state: State
    seat: Seat
    coach: Coaching
    moving: Moving
    matches: MatchDesk
    clocks: ClockDesk
    resign: ResignDesk
    sync_fixes: tuple[Fix, ...]
    since_ms: int
    obs: Observation | None
    _now: int

    @property
    def settings(self) -> GameSettings:
        """The match's settings."""
        raise NotImplementedError

    # -- the state's parts --------------------------------------------------------

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
    def result(self) -> EndOfGame | None:
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
    def turn(self) -> Turn | None:
        """The turn being moved on the board (None: none, or the seat still chooses)."""
        return self.moving.turn

    @property
    def undo(self) -> carry.Undo | None:
        """The last play while it may be taken back."""
        return self.moving.undo

    @property
    def pass_at(self) -> int | None:
        """When the turn with no legal move passes (None: none waits)."""
        return self.moving.pass_at

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

    def game_position(self) -> VariantPosition:
        """The committed position with the match's player on roll."""
        return self.state.game_position()

    def position(self) -> Position:
        """GNU Backgammon's committed position from the side of the player on roll, for
        the computer (the seat's :class:`~tavla_pi.game.deciding.Table`); Portes only."""
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

    # -- what is shown ------------------------------------------------------------

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
