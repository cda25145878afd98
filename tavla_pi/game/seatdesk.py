"""The seat's decisions as rulings: what the referee writes for each (:class:`SeatDesk`).

The seat (:mod:`tavla_pi.game.deciding`) decides for the colour the hand does not play;
each of its actions becomes the rulings the referee carries out in one place: a press
of the seat's own button, an offer or an answer the offers rule on, the dice it made,
its play (written, then carried out by hand), a takeback, a flag fall on its board; and
what the online server decides over the board: a resignation made there, the hand's
play refused there, the server's game followed.
"""

from __future__ import annotations

from typing import Protocol

from tavla_pi.decode.observation import Observation
from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game import carry
from tavla_pi.game.clockdesk import ClockDesk
from tavla_pi.game.deciding import (
    AnswersResignation,
    Chooses,
    Concedes,
    Follows,
    KeepsPlay,
    LosesOnTime,
    OffersResignation,
    Press,
    Refuses,
    Seat,
    SeatAction,
    TakesBack,
    Throws,
)
from tavla_pi.game.fold import push
from tavla_pi.game.moving import Moving
from tavla_pi.game.offers import Offers
from tavla_pi.game.rulings import Refused, Ruled, Ruling, Synced
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.tavli import high_first
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import Phase
from tavla_pi.reconcile import board_fixes
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.variants import DEFAULT


class SeatTable(Protocol):
    """What the seat's rulings read of the referee."""

    @property
    def state(self) -> State:
        """The game's state."""
        ...

    @property
    def settings(self) -> GameSettings:
        """The match's settings."""
        ...

    seat: Seat
    offers: Offers
    clocks: ClockDesk
    moving: Moving
    obs: Observation | None


def thrown(state: State, dice: tuple[int, int]) -> list[Ruling]:
    """The event of dice thrown, by the hand's ROLL or the seat: an opening throw (a tie
    is thrown again), or the roll of the player on roll."""
    if state.phase is Phase.OPENING:
        white, black = dice
        if white == black:
            return [Ruled(EventType.OPENING_ROLL, {"white": white, "black": black})]
        starter = OpeningRoll((*state.opening_throws, dice)).starter
        return [Ruled(EventType.OPENING_ROLL,
                      {"white": white, "black": black, "starter": starter.value})]
    if state.phase is Phase.AWAIT_ROLL:
        return [Ruled(EventType.ROLLED,
                      {"player": state.match.on_roll.value, "dice": list(dice)})]
    return []


def taken_back(undo: carry.Undo) -> Ruled:
    """The ``takeback`` of ``undo``'s play: its turn open again with the same dice."""
    start = undo.start.with_on_roll(undo.match.on_roll)
    return Ruled(EventType.TAKEBACK, {"player": undo.player.value,
                                      "dice": high_first(undo.dice),
                                      "position_id": start.position_id(),
                                      "match_id": undo.match.match_id()})


class SeatDesk:
    """Rules on the seat's actions at ``table``."""

    def __init__(self, table: SeatTable) -> None:
        self.table = table

    def rule(self, action: SeatAction, color: Color, now: int) -> list[Ruling]:
        """What the seat's ``action`` (for ``color``) leads to."""
        table = self.table
        if isinstance(action, Press):
            return [action]
        if isinstance(action, AnswersResignation):
            return [table.offers.answer_resignation(color, accept=action.accept)]
        if isinstance(action, OffersResignation):
            return [table.offers.offer_resignation(color, action.level)]
        if isinstance(action, Throws):
            return thrown(table.state, action.dice)
        if isinstance(action, Concedes | Refuses | Follows):
            return self._overruled(action, color)
        return self._about_play(action, color, now)

    def _overruled(self, action: Concedes | Refuses | Follows, color: Color) -> list[Ruling]:
        """What the authority over the game (the online server) decided: a resignation
        made there (offered and accepted), the hand's play refused there (taken back,
        the turn open again at its start: the board is lit back there before the turn
        is moved again), or its game followed (with the board's fixes)."""
        table = self.table
        if isinstance(action, Concedes):
            offer = table.offers.offer_resignation(color, action.level)
            if not isinstance(offer, Ruled):
                return [offer]
            return [offer, Ruled(EventType.RESIGN_ACCEPTED, {
                "player": color.opponent.value, "points": offer.fields["points"]})]
        if isinstance(action, Refuses):
            undo = table.moving.undo
            assert undo is not None  # the seat checked
            table.moving.refused = action.reason  # said as the turn begins again
            return [taken_back(undo)]
        return self._follows(action, color)

    def _follows(self, action: Follows, color: Color) -> list[Ruling]:
        """The ``game_started`` of the authority's game, with the board's fixes; refused
        (and the game here kept) where the rules cannot hold it."""
        table = self.table
        fields = {"position_id": action.position.position_id(),
                  "match_id": action.match.match_id(), "variant": DEFAULT}
        try:
            trial = Event.from_dict({"type": EventType.GAME_STARTED, "t": 0, **fields})
            push(table.state, trial, table.settings)  # the fold's word, before it is written
        except RefusedEventError as exc:
            return [Refused(f"the game of {table.seat.name} cannot be followed: {exc}",
                            color.opponent)]
        board = action.position.to_board(action.match.on_roll)
        fixes = () if table.obs is None else board_fixes(board, table.obs)
        return [Ruled(EventType.GAME_STARTED, fields), Synced(fixes)]

    def _about_play(self, action: TakesBack | KeepsPlay | LosesOnTime | Chooses, color: Color,
                    now: int) -> list[Ruling]:
        """The seat's play chosen, a takeback granted or declined, a flag fallen there."""
        table = self.table
        if isinstance(action, TakesBack):
            undo = table.moving.undo
            assert undo is not None  # the seat checked
            return [taken_back(undo)]
        if isinstance(action, KeepsPlay):
            return self._keep_play()
        if isinstance(action, LosesOnTime):
            return list(table.clocks.lost_on_time(table.state, color, now))
        return self._chooses(color, action)

    def _chooses(self, color: Color, chosen: Chooses) -> list[Ruling]:
        """The seat's play, for the hand to carry out; none chosen: the hand plays it."""
        state, moving = self.table.state, self.table.moving
        dice = (state.dice[0], state.dice[-1])
        play = chosen.play
        if play is None:
            return moving.follow(Turn.begin(state.game_position(), dice))
        fields = {"player": color.value, "dice": high_first(dice), "play": play.notation,
                  "position_id": play.result.position_id()}
        if chosen.kind is EventType.REMOTE_PLAY:  # the friend's board's
            said = Ruled(EventType.REMOTE_PLAY, fields)
        else:
            said = Ruled(EventType.ENGINE_PLAY, fields)
        return [said, *moving.follow(carry.follow_play(state.position(), color, dice, play))]

    def takeback_shown(self, obs: Observation) -> list[Ruling] | None:
        """The board shows the hand's last play taken back: taken back now, or asked of
        the seat (the friend's board) while the game waits for its word; None when the
        board does not show that."""
        undo, seat = self.table.moving.undo, self.table.seat
        if undo is None or seat.plays(undo.player) or not undo.shows(obs):
            return None
        if seat.ask_takeback(undo):
            return [Synced(())]  # as it should be while the friend's board is asked
        return [taken_back(undo)]

    def _keep_play(self) -> list[Ruling]:
        """The friend's board declined the takeback asked: the play stands, and the board
        is to be put back to it."""
        table = self.table
        undo = table.moving.undo
        if undo is None or table.seat.plays(undo.player):
            return []
        table.moving.undo = None
        if table.obs is None or table.state.phase is Phase.MOVING:
            return []
        return [Synced(board_fixes(table.state.committed.state_board(), table.obs))]
