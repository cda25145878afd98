"""The match state: everything a GNU Backgammon Match ID holds, as a value.

Player mapping: GNU Backgammon's player 0 is White and player 1 is Black.
GNU Backgammon rolls the opening dice as ``anDice[0]`` for player 0 and
``anDice[1]`` for player 1 and lets player 1 start when ``anDice[1] >
anDice[0]`` (play.c, NewGame); docs/CONTRACTS.md §4 gives the opening roll's first die
to White and the second to Black, so White is player 0.  The score pair is
therefore (White, Black), and the cube owner and the players on roll / to act
are stored in the ID as 0 for White and 1 for Black.

A :class:`MatchState` is immutable.  Rules that change it (cube actions in
:mod:`tavla_pi.rules.cube`, game results in :mod:`tavla_pi.rules.scoring`)
return a new one.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from tavla_pi.errors import IllegalPlayError, InvalidIdError, InvalidMatchStateError
from tavla_pi.rules import matchid
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.matchid import MatchKey

MAX_CUBE = 64
"""The highest cube value: the doubling cube's faces are 2..64 (rule text 000).

In match play GNU Backgammon refuses to double at 64 as well (its longest
match is 64 points, so a 64 cube already wins any match with one game).  In
money play the board's cube cannot show more, so this board stops there too:
see :func:`tavla_pi.rules.cube.may_double`.
"""

MAX_MATCH_LENGTH = 64
"""The longest match GNU Backgammon plays (MAXSCORE) and accepts in a Match ID."""

MAX_SCORE = (1 << 15) - 1
"""The largest score a Match ID can hold (15 bits)."""

PLAYERS: tuple[Color, Color] = (Color.WHITE, Color.BLACK)
"""GNU Backgammon's players 0 and 1."""

_CENTRED = 3  # cube owner bits for a centred cube, as gnubg writes -1 & 3


class GameState(enum.IntEnum):
    """Where the current game stands (GNU Backgammon's ``gamestate``)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4

    @property
    def ended(self) -> bool:
        """True once the game has a winner (played out, resigned or dropped)."""
        return self >= GameState.OVER

    def __repr__(self) -> str:
        return f"GameState.{self.name}"


class Resignation(enum.IntEnum):
    """A resignation on offer (or accepted), by the points it concedes per cube."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    def __repr__(self) -> str:
        return f"Resignation.{self.name}"


@dataclass(frozen=True)
class MatchRules:
    """The optional rules in force, all off by default except Crawford in matches.

    ``crawford``: no doubling in the game after a player first reaches one
    point from the match length.  ``jacoby``: in money play, gammons and
    backgammons count only once the cube has been turned.  ``beavers``: in
    money play, a player doubled may redouble at once and keep the cube.
    ``automatic_doubles``: in money play, each tied opening throw doubles the
    centred cube, at most this many times per game (0 = off), as GNU
    Backgammon's ``set automatic doubles``.
    """

    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        most = MAX_CUBE.bit_length() - 1
        if not 0 <= self.automatic_doubles <= most:
            raise InvalidMatchStateError(
                f"automatic doubles {self.automatic_doubles} is not 0..{most}"
                f" (the cube stops at {MAX_CUBE})"
            )


def player_index(color: Color) -> int:
    """GNU Backgammon's player number for a colour: 0 White, 1 Black."""
    return 0 if color is Color.WHITE else 1


@dataclass(frozen=True)
class MatchState:
    """Cube, turn, dice, score and flags of a match: exactly a Match ID's content.

    ``on_roll`` is the player whose turn it is (gnubg's fMove); ``to_act`` is
    the player who must act now (fTurn): the same player, except while a
    double or a resignation waits for the other player's answer.  ``dice`` are
    the dice rolled this turn (larger first) or None before the roll.
    ``match_length`` 0 is money play.  ``score`` is (White, Black).
    ``crawford`` marks the Crawford game; ``jacoby`` that the Jacoby rule is in
    use (money play).  ``game_state`` tells whether a game is under way.

    Build one by keywords, e.g. ``MatchState(match_length=7, score=(2, 1))``;
    unnamed fields keep their defaults (money play, cube centred at 1, White
    on roll and to act, a game in progress, nothing offered).  Invalid
    combinations raise InvalidMatchStateError.
    """

    cube: int = 1
    cube_owner: Color | None = None
    on_roll: Color = Color.WHITE
    to_act: Color = Color.WHITE
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    game_state: GameState = GameState.PLAYING

    def __post_init__(self) -> None:
        _check_cube(self.cube)
        object.__setattr__(self, "score", tuple(self.score))
        _check_match(self.match_length, self.score, crawford=self.crawford, state=self.game_state)
        if self.dice is not None:
            object.__setattr__(self, "dice", _checked_dice(self.dice))
        object.__setattr__(self, "resignation", Resignation(self.resignation))
        object.__setattr__(self, "game_state", GameState(self.game_state))

    # -- reading the state -------------------------------------------------

    @property
    def is_money(self) -> bool:
        """True in money play (no match length)."""
        return self.match_length == 0

    @property
    def match_winner(self) -> Color | None:
        """The player who has reached the match length, or None (always None in money play)."""
        if self.is_money:
            return None
        for color, points in zip(PLAYERS, self.score, strict=True):
            if points >= self.match_length:
                return color
        return None

    def score_of(self, color: Color) -> int:
        """The points ``color`` has scored so far."""
        return self.score[player_index(color)]

    def replace(self, **changes: Any) -> MatchState:
        """A copy with some fields changed (validated like the constructor)."""
        return dataclasses.replace(self, **changes)

    def __repr__(self) -> str:
        parts = [
            f"{field.name}={getattr(self, field.name)!r}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) != field.default
        ]
        return f"MatchState({', '.join(parts)})"

    # -- the Match ID --------------------------------------------------------

    @classmethod
    def from_match_id(cls, match_id: str) -> MatchState:
        """Read a GNU Backgammon Match ID; InvalidIdError says what is wrong with it.

        Every ID GNU Backgammon writes is accepted and gives back the same
        string from :meth:`match_id`.  Refused (with the reason): IDs gnubg
        never writes (cube owner bits 2, game state 5-7, a single die, dice
        smaller first, unused bits set) and states this board cannot hold (a
        cube above 64, a match longer than 64, a score beyond the match length
        while a game is on, the Crawford flag in money play).
        """
        key = matchid.unpack(match_id)
        try:
            return cls._from_key(key)
        except InvalidMatchStateError as exc:
            raise InvalidIdError(f"Match ID {match_id!r}", str(exc)) from None

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this state (12 characters)."""
        dice = self.dice or (0, 0)
        owner = _CENTRED if self.cube_owner is None else player_index(self.cube_owner)
        key = MatchKey(
            cube_log=self.cube.bit_length() - 1,
            cube_owner=owner,
            move=player_index(self.on_roll),
            crawford=int(self.crawford),
            game_state=int(self.game_state),
            turn=player_index(self.to_act),
            doubled=int(self.double_offered),
            resigned=int(self.resignation),
            die1=dice[0],
            die2=dice[1],
            match_length=self.match_length,
            score0=self.score[0],
            score1=self.score[1],
            no_jacoby=int(not self.jacoby),
        )
        return matchid.pack(key)

    @classmethod
    def _from_key(cls, key: MatchKey) -> MatchState:
        if key.cube_owner == 2:
            raise InvalidMatchStateError("cube owner bits 2 name no player (3 is centred)")
        if key.game_state > GameState.DROPPED:
            raise InvalidMatchStateError(f"game state {key.game_state} is not 0..4")
        if key.cube_log > MAX_CUBE.bit_length() - 1:
            raise InvalidMatchStateError(
                f"cube value {1 << key.cube_log} is above {MAX_CUBE}, the highest cube"
            )
        return cls(
            cube=1 << key.cube_log,
            cube_owner=None if key.cube_owner == _CENTRED else PLAYERS[key.cube_owner],
            on_roll=PLAYERS[key.move],
            to_act=PLAYERS[key.turn],
            double_offered=bool(key.doubled),
            resignation=Resignation(key.resigned),
            dice=_dice_from_key(key.die1, key.die2),
            match_length=key.match_length,
            score=(key.score0, key.score1),
            crawford=bool(key.crawford),
            jacoby=not key.no_jacoby,
            game_state=GameState(key.game_state),
        )


# -- validation ----------------------------------------------------------------


def _check_cube(cube: int) -> None:
    if not isinstance(cube, int) or cube < 1 or cube > MAX_CUBE or cube & (cube - 1):
        raise InvalidMatchStateError(f"cube value {cube!r} is not a power of two 1..{MAX_CUBE}")


def _check_match(length: int, score: tuple[int, int], *, crawford: bool, state: GameState) -> None:
    if not 0 <= length <= MAX_MATCH_LENGTH:
        raise InvalidMatchStateError(f"match length {length} is not 0..{MAX_MATCH_LENGTH}")
    if len(score) != 2 or not all(0 <= points <= MAX_SCORE for points in score):
        raise InvalidMatchStateError(f"score {score!r} is not two numbers 0..{MAX_SCORE}")
    if length == 0:
        if crawford:
            raise InvalidMatchStateError("there is no Crawford game in money play")
        return
    reached = sum(points >= length for points in score)
    if reached and not GameState(state).ended:
        raise InvalidMatchStateError(
            f"score {score[0]}-{score[1]} has reached the match length {length}"
            " but the game is not over"
        )
    if reached == 2:
        raise InvalidMatchStateError(f"both scores reach the match length {length}")


def _checked_dice(dice: tuple[int, int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise InvalidMatchStateError(f"dice {dice!r} are not two numbers 1..6")
    high, low = max(dice), min(dice)
    return (high, low)


def _dice_from_key(die1: int, die2: int) -> tuple[int, int] | None:
    if die1 == die2 == 0:
        return None
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InvalidMatchStateError(f"dice {die1} and {die2} are not both 1..6 (or both 0)")
    if die1 < die2:
        raise InvalidMatchStateError(f"dice {die1} and {die2}: the larger die comes first")
    return (die1, die2)


# -- game by game, turn by turn ---------------------------------------------------


def new_match(length: int, rules: MatchRules) -> MatchState:
    """A match (``length`` 0: a money session) before its first opening roll."""
    return MatchState(
        match_length=length,
        jacoby=rules.jacoby and length == 0,
        game_state=GameState.NONE,
    )


def start_game(state: MatchState, opening: OpeningRoll, rules: MatchRules) -> MatchState:
    """The next game under way after its opening roll: the starter is on roll.

    Cube centred at 1, except that in money play with automatic doubles each
    tied opening throw doubles it, up to the rules' limit (and 64).
    """
    if state.game_state is GameState.PLAYING:
        raise IllegalPlayError("a game is already in progress")
    if state.match_winner is not None:
        raise IllegalPlayError(f"the match is over: {state.match_winner.value} has won it")
    doublings = min(opening.ties, rules.automatic_doubles) if state.is_money else 0
    return MatchState(
        cube=1 << doublings,
        on_roll=opening.starter,
        to_act=opening.starter,
        dice=opening.dice,
        match_length=state.match_length,
        score=state.score,
        crawford=state.crawford,
        jacoby=state.jacoby,
        game_state=GameState.PLAYING,
    )


def rolled(state: MatchState, dice: tuple[int, int]) -> MatchState:
    """The state after the player on roll rolls ``dice``."""
    if state.game_state is not GameState.PLAYING:
        raise IllegalPlayError("no game in progress: there is nothing to roll for")
    if state.double_offered or state.resignation:
        raise IllegalPlayError(f"{state.to_act.value} must answer the offer before rolling")
    if state.dice is not None:
        raise IllegalPlayError(f"{state.on_roll.value} has already rolled")
    return state.replace(dice=dice)


def turn_done(state: MatchState) -> MatchState:
    """The state after the player on roll has played: the opponent is on roll, no dice."""
    if state.game_state is not GameState.PLAYING or state.dice is None:
        raise IllegalPlayError("a turn ends only after the dice are rolled")
    nxt = state.on_roll.opponent
    return state.replace(on_roll=nxt, to_act=nxt, dice=None)
