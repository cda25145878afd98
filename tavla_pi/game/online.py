"""The online opponent's seat: a player on the online server plays one colour (docs/ONLINE.md).

The server is the authority for the dice and the game.  The online session
(:mod:`tavla_pi.online.session`) reads what the server says and tells this seat, one
fact at a time and in order (:meth:`OnlineSeat.tell`): an opening throw, a roll, a
play (the board the server shows after it), a cube action, a resignation, the score
after a game, a play of this board's the server refused, or the whole game to follow.
The seat acts on a fact once the game here has come to the point where it fits
(:func:`fit_fact`): the opponent's play once its roll is shown, this board's dice once its
player pressed ROLL; until then it waits (the hand may still be carrying out the last
play, or setting up the next game).

A fact our rules cannot fit (a play that no legal play of the roll leads to, a board
after this board's own play other than ours, a score other than ours) is a
disagreement: the seat keeps why (:attr:`OnlineSeat.disagreed`) and forgets what was
queued; the session logs both positions and tells the seat the server's whole game
(:class:`ServerGame`), which the board follows (:class:`~tavla_pi.game.deciding.Follows`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Final

from tavla_pi.events.types import EventType
from tavla_pi.game.carry import Undo
from tavla_pi.game.deciding import (
    AnswersResignation,
    Chooses,
    Concedes,
    Follows,
    KeepsPlay,
    Press,
    Refuses,
    SeatAction,
    Table,
    Throws,
)
from tavla_pi.game.fold_checks import high_low
from tavla_pi.game.friend import ROLLING, WAITS, Waits
from tavla_pi.game.resign import answer_due
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState, Resignation
from tavla_pi.rules.position import Position
from tavla_pi.rules.side import BAR_INDEX, CHECKERS


@dataclass(frozen=True)
class ServerOpening:
    """The opening throw that decided who starts: White's die and Black's (never a tie:
    the server throws ties again by itself)."""

    white: int
    black: int


@dataclass(frozen=True)
class ServerRoll:
    """The dice ``player`` rolled on the server (high first)."""

    player: Color
    dice: tuple[int, int]


@dataclass(frozen=True)
class ServerPlay:
    """``player``'s play of ``dice`` as the server shows it: the board after it."""

    player: Color
    dice: tuple[int, int]
    board: Board


@dataclass(frozen=True)
class ServerCube:
    """``player``'s cube action on the server: ``double``, ``take`` or ``drop``."""

    player: Color
    action: str


@dataclass(frozen=True)
class ServerResign:
    """``player`` resigned the game on the server (not a drop): the other player wins
    ``level`` times the cube."""

    player: Color
    level: Resignation


@dataclass(frozen=True)
class ServerScore:
    """The match's score (White, Black) on the server after a game."""

    score: tuple[int, int]


@dataclass(frozen=True)
class ServerRefusal:
    """The server refused this board's last play (``failedmove``, ``failedok``)."""

    reason: str


@dataclass(frozen=True)
class ServerGame:
    """The server's whole game, for the board to follow: the position (the player on
    roll's side), the match, and why it is followed."""

    position: Position
    match: MatchState
    why: str


ServerFact = (ServerOpening | ServerRoll | ServerPlay | ServerCube | ServerResign
              | ServerScore | ServerRefusal | ServerGame)
"""What the session tells the seat, once per thing the server said."""


class Taken:
    """The fact is as the game here already is: nothing to do."""


TAKEN: Final = Taken()
LAGGING = (Phase.SETUP, Phase.GAME_OVER, Phase.NO_MOVE, Phase.MOVING)
"""The phases in which this board may be behind the server (a game to set up, a play
being carried out, a pass to show): a roll waits."""
ENDED = (Phase.GAME_OVER, Phase.MATCH_OVER, Phase.SETUP, Phase.OPENING)
"""The phases in which a game has ended here (or the next one not begun)."""
OPPONENT_CUBE = {"double": Press("cube"), "take": Press("roll"), "drop": Press("cube")}
"""The opponent's cube action as the press of its button that makes it here."""

Fitted = SeatAction | Waits | Taken | str


def fit_fact(fact: ServerFact, table: Table, color: Color, *, roll_asked: bool) -> Fitted:
    """``fact`` of the server as the seat's action at ``table`` (the opponent playing
    ``color``; ``roll_asked``: this board's player pressed ROLL): :data:`WAITS` while the
    game here has not come to it, :data:`TAKEN` when it is as the game here is; else why
    our rules cannot follow it (a disagreement)."""
    if isinstance(fact, ServerGame):
        return Follows(fact.position, fact.match) if table.phase is not Phase.MATCH_OVER \
            else "the match is over here"
    if isinstance(fact, ServerScore):
        return _fit_score(fact, table)
    if table.phase is Phase.MATCH_OVER:  # only a last play can still be checked
        return _own_play(fact, table) if isinstance(fact, ServerPlay) else TAKEN
    if isinstance(fact, ServerOpening | ServerRoll):
        return _fit_roll(fact, table, color, roll_asked=roll_asked)
    if isinstance(fact, ServerPlay | ServerRefusal):
        return _fit_play(fact, table, color)
    return _fit_offer(fact, table, color)


def _fit_opening(fact: ServerOpening, phase: Phase) -> Fitted:
    """The opening throw, once the board is set up for the game."""
    if phase is Phase.OPENING:
        return Throws((fact.white, fact.black))
    if phase in (Phase.SETUP, Phase.GAME_OVER):
        return WAITS  # the board is still being set up for the game
    return f"no opening throw now ({phase.value})"


def _fit_roll(fact: ServerOpening | ServerRoll, table: Table, color: Color, *,
              roll_asked: bool) -> Fitted:
    """A throw: the opponent's shown when its turn comes here, this board's player's when
    that player pressed ROLL."""
    if isinstance(fact, ServerOpening):
        return _fit_opening(fact, table.phase)
    phase, match = table.phase, table.match
    if phase is Phase.AWAIT_ROLL and match.on_roll is fact.player:
        if fact.player is not color and not roll_asked:
            return WAITS  # shown when this board's player presses ROLL
        return Throws(fact.dice)
    if phase is Phase.DOUBLE_OFFERED and match.on_roll is fact.player:
        return f"the server rolled for {fact.player.value}: no double now"
    if phase in LAGGING or phase is Phase.DOUBLE_OFFERED:
        return WAITS
    return f"no roll of {fact.player.value}'s now ({phase.value}, {match.on_roll.value} on roll)"


def _fit_play(fact: ServerPlay | ServerRefusal, table: Table, color: Color) -> Fitted:
    """A play as the server took it: the opponent's, for the hand to carry out; this
    board's, the same as here, or refused."""
    if isinstance(fact, ServerRefusal):
        return _fit_refusal(fact, table, color)
    if fact.player is not color:
        return _own_play(fact, table)
    phase, match = table.phase, table.match
    if phase in (Phase.AWAIT_ROLL, Phase.SETUP, Phase.GAME_OVER) or (
            phase is Phase.MOVING and table.turn is not None):
        # its roll is not shown yet, or the last play is being carried out; that play
        # lit already (the journal kept it through a restart) is this one, taken
        return TAKEN if phase is Phase.MOVING and _lit(table.turn, fact, color) else WAITS
    if match.on_roll is not color or match.dice is None:
        return f"no play of {color.value}'s now ({phase.value}, {match.on_roll.value} on roll)"
    if phase is Phase.NO_MOVE:
        return TAKEN if _board(table.position(), color) == fact.board else \
            f"{color.value} cannot move {_dice(match.dice)} here, but moved on the server"
    return _opponents_play(fact, table.position(), match.dice, color)


def _opponents_play(fact: ServerPlay, position: Position, dice: tuple[int, int],
                    color: Color) -> Fitted:
    """The legal play of ``dice`` that leads to the server's board, for the hand to carry
    out."""
    if high_low(fact.dice) != high_low(dice):
        return f"the server's dice {_dice(fact.dice)} are not the roll here ({_dice(dice)})"
    for play in position.legal_plays(dice):
        if _board(play.result, color.opponent) == fact.board:
            return Chooses(play, EventType.REMOTE_PLAY)
    return f"no legal play of {_dice(dice)} leads to the server's board"


def _lit(turn: Turn | None, fact: ServerPlay, color: Color) -> bool:
    """Whether ``turn`` shows the opponent's play that ``fact`` is (``color``'s)."""
    play = None if turn is None else turn.seat_play
    return play is not None and _board(play.result, color.opponent) == fact.board


def _own_play(fact: ServerPlay, table: Table) -> Fitted:
    """This board's player's play, as the server took it: the same board as here."""
    if table.phase is Phase.MOVING and table.match.on_roll is fact.player:
        return WAITS  # its DONE is still to come here
    here = _board(table.position(), table.match.on_roll)
    return TAKEN if here == fact.board else "the server's board after this board's play " \
                                            "is not the board here"


def _fit_offer(fact: ServerCube | ServerResign, table: Table, color: Color) -> Fitted:
    """The opponent's cube action or resignation (this board's own were made here first)."""
    if fact.player is not color:
        return TAKEN
    if isinstance(fact, ServerResign):
        return _fit_resign(fact, table, color)
    return _fit_cube(fact, table, color)


def _fit_cube(fact: ServerCube, table: Table, color: Color) -> Fitted:
    phase, match = table.phase, table.match
    if fact.action == "double" and phase is Phase.AWAIT_ROLL and match.on_roll is color:
        return OPPONENT_CUBE["double"]
    if fact.action != "double" and phase is Phase.DOUBLE_OFFERED and match.to_act is color:
        return OPPONENT_CUBE[fact.action]
    if phase in LAGGING:
        return WAITS
    return f"no {fact.action} by {color.value} now ({phase.value})"


def _fit_resign(fact: ServerResign, table: Table, color: Color) -> Fitted:
    phase, match = table.phase, table.match
    if phase is Phase.AWAIT_ROLL and match.on_roll is color:
        return Concedes(fact.level)
    if phase in (Phase.MOVING, Phase.NO_MOVE) and match.on_roll is color \
            and table.turn is None:  # resigned after its roll (with or without a move)
        return Follows(table.position(), replace(match, dice=None))
    return WAITS if phase in LAGGING else f"no resignation by {color.value} now ({phase.value})"


def _fit_refusal(fact: ServerRefusal, table: Table, color: Color) -> Fitted:
    undo = table.undo
    if undo is None or undo.player is color:
        return f"the server refused a play no longer open here: {fact.reason}"
    return Refuses(f"the server refused the play: {fact.reason}")


def _fit_score(fact: ServerScore, table: Table) -> Fitted:
    if table.phase not in ENDED:
        return WAITS if table.match.game_state is GameState.PLAYING else \
            f"the server's score is {_score(fact.score)}, here {_score(table.match.score)}"
    if tuple(table.match.score) == fact.score:
        return TAKEN
    return f"the server's score is {_score(fact.score)}, here {_score(table.match.score)}"


def server_level(loser: tuple[int, ...]) -> Resignation:
    """What a resignation counts on the server as the loser's side (own numbering)
    stands: a backgammon with a checker on the bar or in the winner's home board (even
    with checkers borne off), else a gammon with none borne off, else a single."""
    if loser[BAR_INDEX] or any(loser[18:24]):
        return Resignation.BACKGAMMON
    return Resignation.GAMMON if sum(loser) == CHECKERS else Resignation.SINGLE


def _board(position: Position, on_roll: Color) -> Board:
    return position.to_board(on_roll)


def _dice(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


class OnlineSeat:
    """The colour an opponent on the online server plays: the server's facts as they
    come, this board's rolls asked."""

    pending = False

    def __init__(self, color: Color) -> None:
        self._color = color
        self.trouble: str | None = None
        """Why the online opponent cannot play now (the server not reached, or gone)."""
        self.seeking = False
        """True while the session looks for an opponent (the lights show it waiting)."""
        self.roll_asked = False
        """True once this board's player pressed ROLL (the session sends ``roll``)."""
        self.disagreed: str | None = None
        """Why the last fact could not be followed (the session makes the board follow
        the server, and clears it)."""
        self._facts: deque[ServerFact] = deque()
        self._keep_play = False
        self._waiting = False

    @property
    def name(self) -> str:
        """The seat as a refused press names it."""
        return "the online opponent"

    @property
    def color(self) -> Color:
        """The colour the online opponent plays."""
        return self._color

    @property
    def thinking(self) -> bool:
        """True while the game waits on the server: the opponent to act, the dice asked,
        or an opponent sought."""
        return self._waiting or self.seeking

    @property
    def queued(self) -> int:
        """How many facts wait to fit the game here."""
        return len(self._facts)

    def tell(self, fact: ServerFact) -> None:
        """Hand the seat the server's next fact (in the server's order)."""
        self._facts.append(fact)

    def plays(self, color: Color) -> bool:
        """Whether the online opponent plays ``color``."""
        return color is self._color

    def refuses(self, color: Color, phase: Phase) -> bool:
        """The online opponent's colour's buttons here do nothing; nor do this board's
        while the dice it asked for are on their way."""
        return self.plays(color) or (self.roll_asked and phase in ROLLING)

    def undoes(self, player: Color) -> bool:
        """This board's player's last play stays open while the server may refuse it."""
        return not self.plays(player)

    def ask_takeback(self, undo: Undo) -> bool:
        """The board shows this board's last play taken back: the server took it, so the
        play stands (:class:`KeepsPlay`) and the board is put back to it."""
        self._keep_play = True
        return True

    def ask_roll(self, now: int) -> bool:
        """A ROLL here: the server rolls; the dice come back as its :class:`Throws`."""
        self.roll_asked = True
        return True

    def update(self, table: Table, now: int) -> SeatAction | None:
        """The next fact as the seat's action, once it fits the game here; the answer to
        a resignation this board's player offers."""
        self._waiting = _waits_on_server(table, self._color, roll_asked=self.roll_asked)
        if self._keep_play:
            self._keep_play = False
            return KeepsPlay()
        if answer_due(table.phase, table.match, self._color):
            return _answer(table, self._color)
        while self._facts:
            fitted = fit_fact(self._facts[0], table, self._color, roll_asked=self.roll_asked)
            if isinstance(fitted, Waits):
                return None
            fact = self._facts.popleft()
            if isinstance(fitted, str):
                self.disagreed = fitted
                self._facts.clear()
                return None
            if isinstance(fitted, Taken):
                continue
            if isinstance(fitted, Follows) and not isinstance(fact, ServerGame):
                self._facts.appendleft(fact)  # resigned after its roll: back to before it
            if isinstance(fitted, Throws) and not (
                    isinstance(fact, ServerRoll) and fact.player is self._color):
                self.roll_asked = False  # this board's dice, asked for, are here
            return fitted
        return None

    def withdraw(self) -> None:
        """The game moved on here (a new match): nothing is kept."""
        self._facts.clear()
        self.roll_asked = self._keep_play = False
        self.disagreed = None

    def wait(self, timeout_s: float) -> bool:
        """Nothing to wait for in real time: the server's facts come by message."""
        return True


def _answer(table: Table, color: Color) -> AnswersResignation:
    """This board's player offers to resign: the server counts a resignation as the
    position stands (:func:`server_level`), so only that level is accepted (and sent)."""
    loser = table.position().mine  # the player on roll resigns
    return AnswersResignation(accept=table.match.resignation == server_level(loser))


def _waits_on_server(table: Table, color: Color, *, roll_asked: bool) -> bool:
    """Whether the game waits on the server: the opponent's decision, or the dice."""
    phase, match = table.phase, table.match
    if phase in ROLLING and roll_asked:
        return True
    if phase in (Phase.AWAIT_ROLL, Phase.MOVING):
        return match.on_roll is color and table.turn is None
    return phase is Phase.DOUBLE_OFFERED and match.to_act is color
