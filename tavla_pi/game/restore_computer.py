"""The journal's fold for the computer's and the coach's events (:mod:`tavla_pi.game.restore`):
``engine_play``, ``takeback``, ``hint`` and ``blunder_warning``, each checked
against the turn as :mod:`tavla_pi.game.restore`'s module doc says."""

from __future__ import annotations

from tavla_pi.errors import RefusedEventError
from tavla_pi.events.event import Event
from tavla_pi.game.fold_checks import (
    Folding,
    chosen_play,
    dice_of,
    high_low,
    mover_of,
    play_to,
    same,
)
from tavla_pi.game.view import Phase
from tavla_pi.rules.portes import gnubg_play


def fold_engine_play(fold: Folding, event: Event) -> None:
    """The computer's choice: a legal play of the rolled dice, once per roll."""
    if fold.state.seat_play is not None:
        raise RefusedEventError("the computer's play of this roll is already chosen")
    play, _ = chosen_play(fold, event)
    fold.set(seat_play=gnubg_play(play))


def takeback(fold: Folding, event: Event) -> None:
    """The last ``played`` undone: the turn it began with is open again."""
    before = fold.state.before_play
    if before is None:
        raise RefusedEventError("only the last play may be taken back, before anything but the "
                         "opponent's roll and choice")
    same("the player", event["player"], before.match.on_roll.value)
    same("dice", dice_of(event), high_low(before.dice))
    same("the position", event["position_id"], before.game_position().position_id())
    same("the Match ID", event["match_id"], before.match.match_id())
    fold.state = before


def hint(fold: Folding, event: Event) -> None:
    """The engine's best plays shown to the mover: legal plays of the turn's dice."""
    dice = coached_turn(fold, event, "hint")
    same("dice", dice_of(event), high_low(dice))
    for entry in event["plays"]:
        play = play_to(fold, dice, entry["position_id"])
        same("the hinted play's notation", entry["play"], play.notation)


def blunder_warning(fold: Folding, event: Event) -> None:
    """DONE held back: the play and the better one are legal plays of the turn's dice."""
    dice = coached_turn(fold, event, "blunder warning")
    legal = {play.notation for play in fold.legal_plays(dice)}
    for name in ("play", "best"):
        if event[name] not in legal:
            raise RefusedEventError(f"{event[name]!r} is no legal play of {dice[0]}-{dice[1]}")


def coached_turn(fold: Folding, event: Event, what: str) -> tuple[int, int]:
    """The dice of the turn the mover is moving (ValueError if none is)."""
    mover_of(fold, event)
    fold.expect(Phase.MOVING, what)
    a, b = fold.state.dice
    return a, b
