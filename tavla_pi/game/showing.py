"""The referee's views of a turn and of the end of a game, as GameView values.

:meth:`tavla_pi.game.referee.Referee.view` builds the fields every phase
shares; these add what a turn being moved shows (its lights, the computer's
next checker, the coach's suggested play) and what the end of a game shows.
"""

from __future__ import annotations

from typing import Any

from tavla_pi.game import carry
from tavla_pi.game.coach import Coach
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import GameView, Phase
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.scoring import GameResult


def turn_view(base: dict[str, Any], turn: Turn | None, dice: tuple[int, ...], now: int,
              coach: Coach | None) -> GameView:
    """A turn being moved: ``turn`` None while the computer chooses its play."""
    if turn is None:
        return GameView(dice=dice, **base)
    lights = turn.lights()
    base = {**base, "fixes": lights.fixes}
    if turn.engine_play is not None:
        base.update(engine_play=turn.engine_play.notation, engine_step=carry.next_step(turn))
    return GameView(
        dice=dice, dice_used=lights.dice_used,
        dice_blink=now < turn.blink_until, lifted_from=lights.lifted_from,
        destinations=lights.destinations, press_done=lights.press_done,
        to_bar=lights.to_bar, candidates=lights.candidates,
        confirms=lights.confirms, **_suggested(coach), **base)


def _suggested(coach: Coach | None) -> dict[str, Any]:
    """The view's fields of the play the coach lights (none without an engine)."""
    if coach is None or not coach.suggested:
        return {}
    return {"suggested": coach.suggested, "suggested_since_ms": coach.suggested_since}


def end_view(base: dict[str, Any], shown: GameResult | None,
             fixes: tuple[Fix, ...]) -> GameView:
    """Between games: the result while it is ``shown``, else the setup and its fixes."""
    if shown is not None:
        return GameView(winner=shown.winner, points_won=shown.points, **base)
    return GameView(fixes=fixes, **{**base, "phase": Phase.SETUP})
