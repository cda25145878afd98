"""Resignations as GNU Backgammon plays them: offered on one's turn, accepted or declined.

The player on roll (gnubg's ``fTurn`` and ``fMove``) offers to resign a
single, a gammon or a backgammon (play.c, CommandResign); the opponent then
has to act (``to_act``) and accepts (CommandAgree) or declines
(CommandDecline).  Declined, the offerer acts again where the turn stood,
and may not offer the same or a lower level before the next action of the
game (gnubg's ``fResignationDeclined``, cleared by ApplyMoveRecord with the
next roll or cube action).  The Match ID holds the offer (its resigned
bits), not what was declined: the caller keeps that.

Accepted, the game is over and scores the level times the cube, whatever
else is in force: gnubg's ApplyMoveRecord (MOVE_RESIGN) counts
``nCube * nResigned`` with no Jacoby rule (even a gammon resigned on a
centred money cube scores two), the Crawford game and the match score as
after any game (:func:`~tavla_pi.rules.scoring.end_game`).

Each decision is a :class:`~tavla_pi.rules.cube.CubeVerdict`, false with
the reason when the action is not allowed; the actions raise
IllegalPlayError with that reason.
"""

from __future__ import annotations

from tavla_pi.errors import IllegalPlayError
from tavla_pi.rules.color import Color
from tavla_pi.rules.cube import CubeVerdict
from tavla_pi.rules.match import GameState, MatchRules, MatchState, Resignation
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult, accept_resignation

LEVELS: tuple[Resignation, ...] = (Resignation.SINGLE, Resignation.GAMMON, Resignation.BACKGAMMON)
"""What may be resigned, lowest first."""

_NAMES = {Resignation.SINGLE: "single", Resignation.GAMMON: "gammon",
          Resignation.BACKGAMMON: "backgammon"}


def level_name(level: Resignation) -> str:
    """``single``, ``gammon`` or ``backgammon``: the kind of win a level concedes."""
    return _NAMES[Resignation(level)]


def levels_above(declined: Resignation) -> tuple[Resignation, ...]:
    """The levels that may still be offered after ``declined`` was declined this turn."""
    return tuple(level for level in LEVELS if level > declined)


def resignation_points(state: MatchState, level: Resignation) -> int:
    """The points a resignation of ``level`` concedes now: the level times the cube."""
    return int(Resignation(level)) * state.cube


def level_of_points(state: MatchState, points: int) -> Resignation | None:
    """The level whose resignation concedes ``points`` at this cube, or None."""
    for level in LEVELS:
        if resignation_points(state, level) == points:
            return level
    return None


def may_resign(state: MatchState, player: Color, level: Resignation,
               declined: Resignation = Resignation.NONE) -> CubeVerdict:
    """May ``player`` offer to resign ``level`` now (``declined`` this turn already)?"""
    if not (verdict := _resigning_time(state, player)):
        return verdict
    if level not in LEVELS:
        return CubeVerdict(f"a resignation is single, gammon or backgammon, not {level!r}")
    if level <= declined:
        return CubeVerdict(f"{player.opponent.value} has already declined a"
                           f" {level_name(declined)}")
    return CubeVerdict()


def _resigning_time(state: MatchState, player: Color) -> CubeVerdict:
    """Is it ``player``'s turn to act, in a game, with nothing on offer?"""
    if state.game_state is not GameState.PLAYING:
        return CubeVerdict("no game in progress")
    if state.resignation:
        return CubeVerdict("a resignation is waiting for an answer")
    if state.double_offered:
        return CubeVerdict("a double is waiting for an answer")
    if player is not state.on_roll or player is not state.to_act:
        return CubeVerdict(f"only the player on roll ({state.on_roll.value}) may resign")
    return CubeVerdict()


def may_answer_resignation(state: MatchState, player: Color) -> CubeVerdict:
    """May ``player`` accept or decline now: a resignation waits for their answer?"""
    if state.game_state is not GameState.PLAYING or not state.resignation:
        return CubeVerdict("no resignation is offered")
    if player is not state.to_act:
        return CubeVerdict(f"{state.to_act.value} must accept or decline the resignation")
    return CubeVerdict()


def _require(verdict: CubeVerdict) -> None:
    if not verdict:
        raise IllegalPlayError(verdict.reason)


def offer_resignation(state: MatchState, player: Color, level: Resignation,
                      declined: Resignation = Resignation.NONE) -> MatchState:
    """``player`` offers to resign ``level``: the opponent must accept or decline."""
    _require(may_resign(state, player, level, declined))
    return state.replace(resignation=Resignation(level), to_act=player.opponent)


def decline_resignation(state: MatchState, player: Color) -> MatchState:
    """``player`` declines: the offerer acts again, as before the offer (CommandDecline)."""
    _require(may_answer_resignation(state, player))
    return state.replace(resignation=Resignation.NONE, to_act=state.on_roll)


def take_resignation(state: MatchState, player: Color,
                     rules: MatchRules) -> tuple[MatchState, GameResult]:
    """``player`` accepts: the game is won for the level times the cube (CommandAgree)."""
    _require(may_answer_resignation(state, player))
    return accept_resignation(state, rules)


def in_contact(position: Position) -> bool:
    """True while the two sides can still hit each other (gnubg's ClassifyPosition).

    gnubg calls a position a contact position when the back checkers of the
    two sides, counted from each side's own 0 (24 the bar), add up to more
    than 22; otherwise it is a race, a bear-off or over.  A finished game
    is not in contact.
    """
    mine, theirs = _back(position.mine), _back(position.theirs)
    if mine < 0 or theirs < 0:
        return False
    return mine + theirs > 22


def _back(side: tuple[int, ...]) -> int:
    """The index of the side's rearmost checker (-1 when all are off)."""
    for index in range(len(side) - 1, -1, -1):
        if side[index]:
            return index
    return -1
