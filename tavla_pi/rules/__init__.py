"""Pure backgammon and its Greek variants: positions, legal plays, IDs, match state, cube,
dice; ``variant(name)`` for Portes, Plakoto and Fevga behind one interface.

Depends on nothing else in tavla-pi (nor outside the standard library).
"""

from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.cube import CubeVerdict
from tavla_pi.rules.dice import DiceSource, OpeningRoll, ScriptedDice, SecureDice, opening_roll
from tavla_pi.rules.match import GameState, MatchRules, MatchState, Resignation
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult, WinKind
from tavla_pi.rules.tavli import BoardDict, Ending, Outcome, VariantPlay, VariantPosition
from tavla_pi.rules.variants import Variant, variant

__all__ = [
    "Board",
    "BoardDict",
    "Color",
    "CubeVerdict",
    "DiceSource",
    "Ending",
    "GameResult",
    "GameState",
    "MatchRules",
    "MatchState",
    "OpeningRoll",
    "Outcome",
    "Play",
    "Position",
    "Resignation",
    "ScriptedDice",
    "SecureDice",
    "Variant",
    "VariantPlay",
    "VariantPosition",
    "WinKind",
    "opening_roll",
    "variant",
]
