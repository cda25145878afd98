"""The games of a tavli match as the referee and the journal's fold share them.

Portes is refereed by :class:`~tavla_pi.rules.match.MatchState` and GNU
Backgammon's Position and Match IDs, as ever.  Plakoto and Fevga keep the same
:class:`MatchState` for who is on roll, the dice and the score (its Match ID
is informative only), and their committed position as a
:class:`~tavla_pi.rules.tavli.VariantPosition`, whose board (the ``board`` of
every ``played`` event) is the authority.  A Plakoto or Fevga position's
``position_id`` is GNU Backgammon's encoding of the two sides' counts in each
player's own numbering: informative only, gnubg cannot play these games.

The computer (GNU Backgammon) plays Portes only: a match of another variant is
between two players (:data:`PORTES_ONLY` says why).
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchRules, MatchState
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.scoring import GameResult, WinKind, end_game, result_of_play
from tavla_pi.rules.tavli import Ending, Outcome, VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant

PORTES_ONLY = "the computer (GNU Backgammon) plays Portes only"
"""Why a match of Plakoto, Fevga or tavli has no computer opponent."""


@dataclass(frozen=True)
class EndOfGame:
    """The end of a game of any variant as scored (the one result type of the game):
    ``winner`` None for a draw, ``kind`` as a ``game_over`` gives it (``single``,
    ``gammon``, ``backgammon``, ``mother``, ``draw``; ``time`` for a flag's fall),
    ``points`` added to the winner's score."""

    winner: Color | None
    kind: str
    points: int

    @classmethod
    def of(cls, result: GameResult) -> EndOfGame:
        """A Portes game's end as the rules score it (:class:`GameResult`)."""
        return cls(result.winner, result.kind.value, result.points)


def started_by(match: MatchState, starter: Color) -> MatchState:
    """The next game under way without an opening roll: ``starter`` (the last game's
    winner) on roll, to roll both dice."""
    return MatchState(on_roll=starter, to_act=starter, match_length=match.match_length,
                      score=match.score, crawford=match.crawford, jacoby=match.jacoby,
                      game_state=GameState.PLAYING)


def variant_end(match: MatchState, outcome: Outcome) -> tuple[MatchState, EndOfGame]:
    """The match once a Plakoto or Fevga game has ended with ``outcome`` (no cube, no
    Crawford rule): the points added, the loser (after a draw, the last mover's
    opponent) on roll with no dice, as a won game of Portes leaves it."""
    score = list(match.score)
    if outcome.winner is not None:
        i = 0 if outcome.winner is Color.WHITE else 1
        score[i] += outcome.points
    nxt = match.on_roll.opponent if outcome.winner is None else outcome.winner.opponent
    ended = match.replace(score=(score[0], score[1]), on_roll=nxt, to_act=nxt, dice=None,
                          game_state=GameState.OVER)
    winner = outcome.winner
    return ended, EndOfGame(winner, outcome.ending.value, outcome.points)


def portes_end(match: MatchState, winner: Color, loser_side: tuple[int, ...],
               rules: MatchRules, tavli: TavliMatch) -> tuple[MatchState, EndOfGame]:
    """A Portes game won by bearing off, a backgammon in a tavli match counting its
    ``backgammon_points`` (:func:`~tavla_pi.rules.scoring.win_by_play` otherwise)."""
    result = result_of_play(match, winner, loser_side)
    if result.kind is WinKind.BACKGAMMON and tavli.is_tavli:
        outcome = Outcome(winner, Ending.BACKGAMMON, 3)
        result = GameResult(winner, result.kind, tavli.points(outcome, match.cube), result.how)
    loser = winner.opponent
    moved = match.replace(on_roll=loser, to_act=loser, dice=None)
    return end_game(moved, result, rules), EndOfGame.of(result)


def scored(tavli: TavliMatch, result: EndOfGame) -> TavliMatch:
    """The tavli match once a game has ended with ``result`` (its points as counted)."""
    return tavli.scored(result.winner, result.points)


def high_first(dice: tuple[int, int]) -> list[int]:
    """Dice as GNU Backgammon records a turn's roll: the higher die first."""
    return sorted(dice, reverse=True)


def game_start(tavli: TavliMatch, match: MatchState
               ) -> tuple[MatchState, VariantPosition, bool]:
    """A game of the match's variant set up on the board: the match (under way when the
    last game's winner starts it), the game's start and whether the opening roll comes
    first."""
    starter = tavli.starter
    start = variant(tavli.variant).start(starter or Color.WHITE)
    if tavli.opening_roll or starter is None:
        return match, start, True
    return started_by(match, starter), start, False


def opened(tavli: TavliMatch, match: MatchState, starter: Color
           ) -> tuple[TavliMatch, MatchState, VariantPosition]:
    """After the opening roll chose ``starter`` (``match`` under way with its dice): the
    start with the starter on roll, who in Plakoto and Fevga is to roll both dice (no
    dice yet)."""
    tavli = tavli.opened_by(starter)
    start = variant(tavli.variant).start(starter)
    if tavli.opening_dice_played:
        return tavli, match, start
    return tavli, match.replace(dice=None), start


def between_matches(committed: VariantPosition) -> VariantPosition:
    """The committed position a new match shows until its first game is set up: the
    last Portes game's, else Portes' start."""
    return committed if committed.has_cube else PortesPosition.initial()
