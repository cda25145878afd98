"""The requests the bridge reads and the answers it writes, built and checked here.

Each ``*_request`` function turns an :class:`EngineRequest` into the JSON
fields of one bridge op (see :mod:`tavla_pi.engine.bridge`); each
``*_answer`` function turns the bridge's answer back into the interface's
values, EngineError when it does not fit.  Pure: no process here.

gnubg cannot be handed a state with an offer pending (``set matchid`` steps
back to before it), so a take or resignation question is sent as the state
*before* the offer, and the bridge makes the offer as the human player.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.engine.interface import (
    CubeAction,
    EngineRequest,
    Evaluation,
    RankedPlay,
    ResignAnswer,
    TakeDecision,
    check_evaluate,
    check_play,
    check_resign,
    check_resign_offer,
    check_take,
)
from tavla_pi.errors import EngineError
from tavla_pi.rules import Color, MatchState, Resignation
from tavla_pi.rules.cube import may_beaver
from tavla_pi.rules.match import player_index

Fields = dict[str, Any]


def context(request: EngineRequest, state: MatchState, player: Color) -> Fields:
    """The fields every op takes: what gnubg must set up, for whom, at which level."""
    return {
        "match_id": state.match_id(),
        "position_id": request.position.position_id(),
        "player": player_index(player),
        "jacoby": state.jacoby,
        "beavers": request.rules.beavers,
        "seed": request.seed,
        "eval": request.level.settings.to_wire(),
    }


def hint_request(request: EngineRequest, n: int) -> Fields:
    """``hint``: the ``n`` best plays of the rolled dice for the player on roll."""
    check_play(request)
    return {"op": "hint", "n": n, **context(request, request.state, request.state.on_roll)}


def double_request(request: EngineRequest) -> Fields:
    """``double``: whether the player on roll doubles before rolling."""
    return {"op": "double", **context(request, request.state, request.state.on_roll)}


def take_request(request: EngineRequest) -> Fields:
    """``take``: the answer of ``to_act`` to the double on offer, sent as the state before it.

    When ``to_act`` is the player on roll, that player doubled and was
    beavered: the bridge replays the double and the beaver.  gnubg judges
    the beaver as its own double at the beavered cube, so the owner before
    the double is given as centred (cube 1) or the doubler.
    """
    check_take(request)
    state = request.state
    before = state.replace(double_offered=False, to_act=state.on_roll)
    beavered = state.to_act is state.on_roll
    if beavered:
        cube = state.cube // 2
        before = before.replace(cube=cube, cube_owner=None if cube == 1 else state.on_roll)
    return {"op": "take", "beavered": beavered, **context(request, before, state.to_act)}


def resign_request(request: EngineRequest) -> Fields:
    """``resign``: the answer of ``to_act`` to the resignation the other player offers."""
    points = check_resign(request)
    state = request.state
    before = state.replace(resignation=Resignation.NONE, to_act=state.to_act.opponent)
    return {"op": "resign", "points": int(points), **context(request, before, state.to_act)}


def resign_offer_request(request: EngineRequest) -> Fields:
    """``offer``: whether the player on roll resigns now, and what (gnubg's ComputerTurn)."""
    check_resign_offer(request)
    return {"op": "offer", **context(request, request.state, request.state.on_roll)}


def evaluate_request(request: EngineRequest) -> Fields:
    """``evaluate``: the position before the roll, for the player on roll."""
    check_evaluate(request)
    state = request.state.replace(
        dice=None, double_offered=False, resignation=Resignation.NONE, to_act=request.state.on_roll
    )
    return {"op": "evaluate", **context(request, state, state.on_roll)}


# -- answers ------------------------------------------------------------------------------


def field(answer: Fields, key: str, kind: type | tuple[type, ...]) -> Any:
    """``answer[key]`` if it is of ``kind``, else EngineError naming the op and the field."""
    value = answer.get(key)
    numeric = kind in (int, float, (int, float))
    if not isinstance(value, kind) or (numeric and isinstance(value, bool)):
        raise EngineError(f"gnubg's answer has no usable {key!r}: {answer}")
    return value


def hint_answer(request: EngineRequest, answer: Fields) -> list[RankedPlay]:
    """gnubg's plays as the rules' own legal plays, matched by their result Position ID."""
    dice = check_play(request)
    legal = {play.result.position_id(): play for play in request.position.legal_plays(dice)}
    ranked = []
    for entry in field(answer, "plays", list):
        result = field(entry, "position_id", str)
        if result not in legal:
            raise EngineError(
                f"gnubg chose {entry.get('notation')!r} (giving {result}), which is not a legal"
                f" play of {dice[0]}-{dice[1]} in {request.position.position_id()}"
            )
        ranked.append(RankedPlay(legal[result], float(field(entry, "equity", (int, float)))))
    return ranked


def double_answer(answer: Fields) -> CubeAction:
    """The bridge's ``double`` answer."""
    return CubeAction.DOUBLE if field(answer, "double", bool) else CubeAction.NO_DOUBLE


def take_answer(request: EngineRequest, answer: Fields) -> TakeDecision:
    """The bridge's ``take`` answer; a beaver the rules do not allow becomes a take, as in gnubg."""
    try:
        decision = TakeDecision(field(answer, "take", str))
    except ValueError:
        problem = f"gnubg's answer to a double is not take, drop or beaver: {answer}"
        raise EngineError(problem) from None
    allowed = may_beaver(request.state, request.player, request.rules)
    if decision is TakeDecision.BEAVER and not allowed:
        return TakeDecision.TAKE
    return decision


def resign_answer(answer: Fields) -> ResignAnswer:
    """The bridge's ``resign`` answer."""
    return ResignAnswer.ACCEPT if field(answer, "accept", bool) else ResignAnswer.DECLINE


def resign_offer_answer(answer: Fields) -> Resignation:
    """The bridge's ``offer`` answer: the level gnubg resigned (0: none)."""
    level = field(answer, "resign", int)
    if level not in tuple(Resignation):
        raise EngineError(f"gnubg's resignation is not 0..3: {answer}")
    return Resignation(level)


def evaluate_answer(answer: Fields) -> Evaluation:
    """The bridge's ``evaluate`` answer."""
    probs = [float(x) for x in field(answer, "probs", list)]
    cube = [float(x) for x in field(answer, "cube", list)]
    if len(probs) != 5 or len(cube) != 4:
        raise EngineError(f"gnubg's evaluation has the wrong number of figures: {answer}")
    return Evaluation(
        win=probs[0],
        win_gammon=probs[1],
        win_backgammon=probs[2],
        lose_gammon=probs[3],
        lose_backgammon=probs[4],
        cubeless=float(field(answer, "cubeless", (int, float))),
        cubeful=cube[0],
        no_double=cube[1],
        double_take=cube[2],
        double_drop=cube[3],
        advice=str(field(answer, "advice", str)),
    )
