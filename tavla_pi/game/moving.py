"""The turn being moved on the board, as the referee's part (:class:`Moving`).

It follows the turn the dice began (the hand's, or the seat's play that the hand
carries out from -> to), rules on the mover's presses while moving (a hint, the next
candidate, DONE), and returns what the referee writes: the ``no_legal_move`` of dice
with no play, a ``lifted``, a refusal, and the ``played`` that commits the turn.  It
keeps the last play while it may be taken back (:class:`~tavla_pi.game.carry.Undo`).
"""

from __future__ import annotations

from typing import Protocol

from tavla_pi.decode.observation import Observation
from tavla_pi.events.types import EventType
from tavla_pi.game import carry
from tavla_pi.game.coach import Coaching
from tavla_pi.game.deciding import Seat
from tavla_pi.game.rulings import Refused, Ruled, Ruling, Synced
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.tavli import high_first
from tavla_pi.game.transitions import after_play
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import Phase
from tavla_pi.reconcile import Complete
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import VariantPlay


class MoveTable(Protocol):
    """What the turn reads of the referee: the state, the settings, the seat and coach,
    and the board last seen."""

    @property
    def state(self) -> State:
        """The game's state."""
        ...

    @property
    def settings(self) -> GameSettings:
        """The match's settings (timings)."""
        ...

    seat: Seat
    coach: Coaching
    obs: Observation | None


class Moving:
    """The turn being moved (``turn``; None while the seat chooses or no turn is under
    way), the pass of dice with no play (``pass_at``), the last play while it may be
    taken back (``undo``), and why the hand's play taken back was refused (``refused``:
    by the authority over the game; the turn begun again says so, and is shown at its
    start first, the play refused being still on the board)."""

    def __init__(self, table: MoveTable) -> None:
        self.table = table
        self.turn: Turn | None = None
        self.pass_at: int | None = None
        self.undo: carry.Undo | None = None
        self.refused: str | None = None

    def begin(self, now: int) -> list[Ruling]:
        """The dice the state holds are to be played: with no legal move, say so (the
        turn passes at ``pass_at``); else the hand moves (after the play refused is said
        and put back), or the seat chooses first."""
        state = self.table.state
        refused, self.refused = self.refused, None
        if state.phase not in (Phase.MOVING, Phase.NO_MOVE):
            return []
        dice = (state.dice[0], state.dice[-1])
        start = state.game_position()
        if state.phase is Phase.NO_MOVE:
            self.pass_at = now + self.table.settings.no_move_pass_ms
            return [Ruled(EventType.NO_LEGAL_MOVE,
                          {"player": start.on_roll.value, "dice": high_first(dice)})]
        self.turn = None
        if self.table.seat.plays(start.on_roll):
            return []
        turn = Turn.begin(start, dice)
        turn.from_start = refused is not None
        self.table.coach.begin(turn, state.match, now)
        said = [] if refused is None else [Refused(refused, turn.mover)]
        return [*said, *self.follow(turn)]

    def follow(self, turn: Turn) -> list[Ruling]:
        """Follow ``turn`` on the board from now on (what the board shows already)."""
        self.turn = turn
        obs = self.table.obs
        return [] if obs is None else self.observe(obs)

    def observe(self, obs: Observation) -> list[Ruling]:
        """A stable board while moving: the fixes it needs, and what it leads to (a lift
        said, the seat's play committed once the board shows it)."""
        turn = self.turn
        assert turn is not None
        turn.observe(obs)
        self.table.coach.observed()
        out: list[Ruling] = [Synced(turn.fixes())]
        lifted = turn.new_lift()
        if lifted is not None:
            out.append(Ruled(EventType.LIFTED, {"player": turn.mover.value, "from": lifted[0],
                                                "destinations": list(lifted[1])}))
        if turn.seat_play is not None:  # the seat's play, carried out by hand
            self.undo = None if carry.carrying_begun(turn) else self.undo
            if isinstance(turn.verdict, Complete):
                out += self.commit(turn, turn.verdict.play)
        return out

    def press(self, color: Color, role: str, now: int, *, long: bool) -> list[Ruling]:
        """The mover's press while moving: a long CUBE asks for a hint (with an engine),
        CUBE lights the next candidate, DONE or ROLL asks to commit (once settled).  While
        the seat's play is carried out, the hand's own DONE confirms it where the sensors
        cannot see the rest of it (a tall stack reads the same)."""
        turn = self.turn
        assert turn is not None
        coach = self.table.coach
        if color is not turn.mover and turn.seat_play is not None and role == "roll":
            turn.done_pending_since = now  # the hand confirms what it carried out
        elif color is not turn.mover:
            return [Refused(f"{turn.mover.value} is moving")]
        elif role == "cube" and long and coach.gives_hints:
            coach.hint_pressed(now)
            return coach.said()
        elif role == "cube":
            if not turn.cycle_candidate():
                return [Refused("the cube is offered before rolling")]
        elif turn.done_pending_since is None:
            turn.done_pending_since = now
        return []

    def tick(self, now: int, *, settled: bool) -> list[Ruling]:
        """Time passes: the coach's play let through, or a DONE pending once the board is
        settled (or has waited long enough)."""
        turn = self.turn
        if turn is None:
            return []
        coach = self.table.coach
        play = coach.tick(now)
        said = coach.said()
        if play is not None:
            return [*said, *self.commit(turn, play)]
        if self.table.state.phase is not Phase.MOVING or turn.done_pending_since is None:
            return said
        if settled or now - turn.done_pending_since >= self.table.settings.done_settle_ms:
            turn.done_pending_since = None
            return [*said, *self._done(turn, now)]
        return said

    def pass_due(self, now: int) -> bool:
        """Whether the turn with no legal move passes now (then it is no longer due)."""
        due = self.table.state.phase is Phase.NO_MOVE and self.pass_at is not None \
            and now >= self.pass_at
        if due:
            self.pass_at = None
        return due

    def _done(self, turn: Turn, now: int) -> list[Ruling]:
        play = turn.complete_play()
        if play is None:
            turn.blink_until = now + self.table.settings.blink_ms
            hand = turn.mover if turn.seat_play is None else turn.mover.opponent
            return [Refused(turn.why_not_done(), hand)]
        coach = self.table.coach
        if turn.seat_play is None and not coach.may_commit(play, now):
            return coach.said()
        return [*coach.said(), *self.commit(turn, play)]

    def commit(self, turn: Turn, play: VariantPlay) -> list[Ruling]:
        """The ``played`` that commits ``play`` of any game; the play stays open to a
        takeback where the seat allows it, until the other side moves."""
        state, table = self.table.state, self.table
        before, mover = state.match, turn.mover
        after, _ = after_play(before, play, table.settings.rules, state.tavli)
        self.turn = None
        if table.seat.undoes(mover):
            self.undo = carry.Undo.of(turn, before, play.result)
        return [Ruled(EventType.PLAYED, {
            "player": mover.value, "dice": high_first(turn.dice), "play": play.notation,
            "position_id": play.result.position_id(), "match_id": after.match_id(),
            "board": play.result.board()})]

    def resume(self, state: State, now: int) -> list[Ruling]:
        """Go on from a resumed ``state``: a turn being moved afresh from the committed
        position, a pass after the usual delay, the takeback the seat allows; what a
        journal cut short owes of the turn (its ``no_legal_move``)."""
        table = self.table
        self.turn, self.pass_at = None, None
        if state.phase is Phase.MOVING:
            self.turn = carry.resumed_turn(state, table.seat.color)
            if self.turn is not None and self.turn.seat_play is None:
                table.coach.begin(self.turn, state.match, now)
        elif state.stuck:
            self.pass_at = now + table.settings.no_move_pass_ms
        self.undo = carry.resumed_undo(state, table.seat.undoes)
        return self.begin(now) if state.due is EventType.NO_LEGAL_MOVE else []
