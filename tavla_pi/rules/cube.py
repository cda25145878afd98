"""The doubling cube: who may double, take, drop or beaver, and what each does.

Each decision is a small predicate returning a :class:`CubeVerdict`, true when
the action is allowed and otherwise false with the reason, so the game can
say why a button press was refused.  The actions raise IllegalPlayError with
that same reason when called anyway.

The state follows GNU Backgammon: while a double is offered the cube keeps
its old value and ``to_act`` is the player doubled; a take doubles the cube
and gives it to the taker.  A beaver (money play, when allowed) is recorded
as gnubg does: the cube doubles once and passes to the beaverer, and the
original doubler must take or drop the beaver, which a take doubles again.

Beyond 64: the board's cube has faces 2..64 only (rule text 000), so no
double is offered once the cube is at 64, and a beaver only when the cube
after it would not pass 64.  In match play GNU Backgammon stops at 64 too
(a 64 cube wins any match it plays with one game) and also refuses a double
when the cube is dead (the doubler would already win the match with a single
game), which this module follows.  Only money play is capped lower than in
GNU Backgammon (4096 there).
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.errors import IllegalPlayError
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MAX_CUBE, GameState, MatchRules, MatchState, Resignation
from tavla_pi.rules.scoring import GameResult, end_game, result_of_drop


@dataclass(frozen=True)
class CubeVerdict:
    """Whether an action is allowed: true if so, else false with ``reason``."""

    reason: str = ""

    def __bool__(self) -> bool:
        return not self.reason

    @property
    def ok(self) -> bool:
        """True if the action is allowed."""
        return not self.reason


OK = CubeVerdict()


def _no(reason: str) -> CubeVerdict:
    return CubeVerdict(reason)


def _in_play(state: MatchState) -> CubeVerdict:
    if state.game_state is not GameState.PLAYING:
        return _no("no game in progress")
    if state.resignation:
        return _no("a resignation is waiting for an answer")
    return OK


def may_double(state: MatchState, player: Color, rules: MatchRules) -> CubeVerdict:
    """May ``player`` offer a double now?"""
    if not (verdict := _doubling_time(state, player)):
        return verdict
    return _cube_free(state, player)


def _doubling_time(state: MatchState, player: Color) -> CubeVerdict:
    """Is it ``player``'s turn, before rolling, with nothing else on offer?"""
    if not (verdict := _in_play(state)):
        return verdict
    if state.double_offered:
        return _no("a double is already offered")
    if player is not state.on_roll:
        return _no(f"only the player on roll ({state.on_roll.value}) may double")
    if state.dice is not None:
        return _no("the dice are rolled: double before rolling")
    return OK


def _cube_free(state: MatchState, player: Color) -> CubeVerdict:
    """Does the cube itself let ``player`` double (Crawford, owner, 64, dead cube)?"""
    if state.crawford:
        return _no("no doubling in the Crawford game")
    if state.cube_owner is not None and state.cube_owner is not player:
        return _no(f"the cube belongs to {state.cube_owner.value}")
    if state.cube >= MAX_CUBE:
        return _no(f"the cube is at {MAX_CUBE}, its highest value")
    if not state.is_money and state.cube >= state.match_length - state.score_of(player):
        return _no(f"the cube is dead: a single game at {state.cube} wins {player.value} the match")
    return OK


def _may_answer(state: MatchState, player: Color) -> CubeVerdict:
    if not (verdict := _in_play(state)):
        return verdict
    if not state.double_offered:
        return _no("no double is offered")
    if player is not state.to_act:
        return _no(f"the double is {state.to_act.value}'s to answer")
    return OK


def may_take(state: MatchState, player: Color) -> CubeVerdict:
    """May ``player`` take the double on offer?"""
    return _may_answer(state, player)


def may_drop(state: MatchState, player: Color) -> CubeVerdict:
    """May ``player`` drop (refuse) the double on offer?"""
    return _may_answer(state, player)


def may_beaver(state: MatchState, player: Color, rules: MatchRules) -> CubeVerdict:
    """May ``player``, just doubled, redouble at once and keep the cube?"""
    if not (verdict := _may_answer(state, player)):
        return verdict
    if not rules.beavers:
        return _no("beavers are not in use")
    if not state.is_money:
        return _no("beavers are for money play only")
    if state.to_act is state.on_roll:
        return _no("the double is already beavered (no raccoons)")
    if state.cube * 4 > MAX_CUBE:
        return _no(f"a beaver would take the cube past {MAX_CUBE}")
    return OK


def _require(verdict: CubeVerdict) -> None:
    if not verdict:
        raise IllegalPlayError(verdict.reason)


def offer_double(state: MatchState, player: Color, rules: MatchRules) -> MatchState:
    """``player`` offers a double: the opponent must now take or drop."""
    _require(may_double(state, player, rules))
    return state.replace(double_offered=True, to_act=player.opponent)


def take(state: MatchState, player: Color) -> MatchState:
    """``player`` takes: the cube doubles and is theirs; the doubler rolls on."""
    _require(may_take(state, player))
    return state.replace(
        cube=state.cube * 2,
        cube_owner=state.on_roll.opponent,
        double_offered=False,
        to_act=state.on_roll,
    )


def beaver(state: MatchState, player: Color, rules: MatchRules) -> MatchState:
    """``player`` beavers: the cube doubles and is theirs; the doubler must take or drop."""
    _require(may_beaver(state, player, rules))
    return state.replace(cube=state.cube * 2, cube_owner=player, to_act=state.on_roll)


def drop(state: MatchState, player: Color, rules: MatchRules,
         level: Resignation = Resignation.SINGLE) -> tuple[MatchState, GameResult]:
    """``player`` drops: the game is over and the other player scores the cube, single
    (or ``level`` times the cube, where a drop counts as a resignation of ``level``)."""
    _require(may_drop(state, player))
    result = result_of_drop(state, player, level)
    return end_game(state, result, rules), result
