"""The game's transitions, as the referee makes them and the journal's fold checks them.

Each is the match (and the tavli match) after one step of the game: the
opening roll decided (:func:`after_opening`), a play of any game committed
(:func:`after_play`), a turn passed (:func:`after_pass`), a game ended
(:func:`after_game`), and the phase a loaded Match ID continues in
(:func:`loaded_phase`), and whose time the clock runs (:func:`clock_side`).  The referee
(:mod:`tavla_pi.game.referee`) and the fold (:mod:`tavla_pi.game.restore`)
both call them, so the journal cannot drift from the live game.
"""

from __future__ import annotations

from tavla_pi.game.tavli import EndOfGame, opened, portes_end, variant_end
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.match import GameState, MatchRules, MatchState, start_game, turn_done
from tavla_pi.rules.tavli import VariantPlay, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


def after_opening(match: MatchState, tavli: TavliMatch, opening: OpeningRoll,
                  rules: MatchRules) -> tuple[MatchState, TavliMatch, VariantPosition]:
    """The opening roll decided: the game under way with the starter on roll on the
    game's start (in Portes with the opening dice to play, in Plakoto and Fevga to
    roll both dice: ``tavli.opening_dice_played`` says which)."""
    started = start_game(match, opening, rules)
    tavli, started, start = opened(tavli, started, opening.starter)
    return started, tavli, start


def after_play(match: MatchState, play: VariantPlay, rules: MatchRules, tavli: TavliMatch
               ) -> tuple[MatchState, EndOfGame | None]:
    """A ``play`` of any game committed: the opponent's turn, or the game's end, scored
    with the cube in a game that has one (Portes), else by its outcome's points."""
    after = play.result
    outcome = after.outcome()
    if outcome is None:
        return turn_done(match), None
    if after.has_cube:
        return portes_end(match, play.position.on_roll, after.mine, rules, tavli)
    return variant_end(match, outcome)


def after_pass(match: MatchState) -> MatchState:
    """A turn with no legal move passed: the opponent on roll."""
    return turn_done(match)


def after_game(match: MatchState, tavli: TavliMatch,
               result: EndOfGame) -> tuple[TavliMatch, Phase]:
    """A game ended with ``result`` (``match`` scored): the tavli match scored, and the
    phase: the match over once it has a winner, else between games."""
    phase = Phase.MATCH_OVER if match.match_winner is not None else Phase.GAME_OVER
    return tavli.scored(result.winner, result.points), phase


def loaded_phase(match: MatchState) -> Phase:
    """The phase a loaded Match ID continues in: SETUP with no game under way, a double
    or a resignation on offer, MOVING once the dice are rolled, else waiting for the
    roll."""
    if match.game_state is not GameState.PLAYING:
        return Phase.SETUP
    if match.double_offered:
        return Phase.DOUBLE_OFFERED
    if match.resignation:
        return Phase.RESIGN_OFFERED
    if match.dice is not None:
        return Phase.MOVING
    return Phase.AWAIT_ROLL


def clock_side(phase: Phase, match: MatchState) -> Color | None:
    """Whose time the match's clock runs in ``phase`` (:mod:`tavla_pi.game.matchclock`):
    the player on roll from the other's DONE to their own (rolling, moving, a roll with
    no move); the player who must answer a double or a resignation; nobody between games
    nor before the opening roll decides who moves."""
    if phase in (Phase.DOUBLE_OFFERED, Phase.RESIGN_OFFERED):
        return match.to_act
    if phase in (Phase.AWAIT_ROLL, Phase.MOVING, Phase.NO_MOVE):
        return match.on_roll
    return None
