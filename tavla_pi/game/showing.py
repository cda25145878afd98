"""The referee's views of the game, as GameView values.

:func:`referee_view` is :meth:`tavla_pi.game.referee.Referee.view` (and its
preview of a provisional board): the fields every phase shares; the others add
what a turn being moved shows (its lights, the computer's next checker, the
coach's suggested play) and what the end of a game shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavla_pi.game import carry
from tavla_pi.game.coach import Coaching
from tavla_pi.game.tavli import EndOfGame
from tavla_pi.game.turn import Turn, TurnLights
from tavla_pi.game.view import GameView, Phase, Pins
from tavla_pi.reconcile.fix import Fix
from tavla_pi.rules.color import Color

if TYPE_CHECKING:
    from tavla_pi.game.table import TableView


def referee_view(referee: TableView, now: int, fixes: tuple[Fix, ...],
                 lights: TurnLights | None = None) -> GameView:
    """What the referee shows at ``now`` with these fixes, and these lights of the turn
    (None: the turn's own)."""
    match, seat, phase = referee.match, referee.seat, referee.phase
    base: dict[str, Any] = dict(
        phase=phase, cube_value=match.cube, cube_owner=match.cube_owner,
        score=match.score, match_length=match.match_length, since_ms=referee.since_ms,
        menu=referee.menu.view(now),
        seat_color=seat.color, seat_thinking=seat.thinking,
        seat_trouble=seat.trouble, clock_bar=referee.clock_bar(now),
        **tavli_fields(referee),
    )
    if phase in (Phase.SETUP, Phase.GAME_OVER, Phase.MATCH_OVER):
        shown = referee.result is not None and (
            phase is Phase.MATCH_OVER
            or now - referee.since_ms < referee.settings.winner_show_ms)
        return end_view(base, referee.result if shown else None, fixes)
    if phase is Phase.OPENING:
        return GameView(dice=referee.shown_dice, fixes=fixes, **base)
    base.update(on_roll=match.on_roll, fixes=fixes, **referee.resign.shown(phase, match))
    if phase is Phase.DOUBLE_OFFERED:
        return GameView(double_offered_by=match.on_roll, **base)
    if phase is Phase.NO_MOVE:
        return GameView(dice=referee.shown_dice, no_legal_move=True, **base)
    if phase is Phase.MOVING:
        return turn_view(base, referee.turn, referee.shown_dice, now, referee.coach,
                         lights=lights)
    return GameView(**base)


def tavli_fields(referee: TableView) -> dict[str, Any]:
    """The view's fields of the tavli match: the game now, its pins, Fevga's first checker."""
    tavli, position = referee.tavli, referee.game_position()
    pinned = Pins({at: Color(c) for at, c in position.board()["pinned"].items()}
                  if position.pins else None)
    return {"variant": tavli.variant, "match_variant": tavli.name, "tavli_game": tavli.game,
            "pinned": pinned, "first_checker": position.bound_first_checker()}


def turn_view(base: dict[str, Any], turn: Turn | None, dice: tuple[int, ...], now: int,
              coach: Coaching, *, lights: TurnLights | None = None) -> GameView:
    """A turn being moved: ``turn`` None while the computer chooses its play; ``lights``
    those of a provisional board (None: the turn's own)."""
    if turn is None:
        return GameView(dice=dice, **base)
    lights = lights if lights is not None else turn.lights()
    base = {**base, "fixes": lights.fixes}
    if turn.seat_play is not None:
        base.update(seat_play=turn.seat_play.notation, seat_step=carry.next_step(turn))
    return GameView(
        dice=dice, dice_used=lights.dice_used,
        dice_blink=now < turn.blink_until, lifted_from=lights.lifted_from,
        destinations=lights.destinations, press_done=lights.press_done,
        to_bar=lights.to_bar, candidates=lights.candidates,
        confirms=lights.confirms, **_suggested(coach), **base)


def _suggested(coach: Coaching) -> dict[str, Any]:
    """The view's fields of the play the coach lights (none without an engine)."""
    if not coach.suggested:
        return {}
    return {"suggested": coach.suggested, "suggested_since_ms": coach.suggested_since}


def end_view(base: dict[str, Any], shown: EndOfGame | None,
             fixes: tuple[Fix, ...]) -> GameView:
    """Between games: the result while it is ``shown``, else the setup and its fixes."""
    if shown is not None:
        return GameView(winner=shown.winner, points_won=shown.points, **base)
    return GameView(fixes=fixes, **{**base, "phase": Phase.SETUP})
