"""Pure backgammon: positions, legal plays, IDs, match state, cube, dice.

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

__all__ = [
    "Board",
    "Color",
    "CubeVerdict",
    "DiceSource",
    "GameResult",
    "GameState",
    "MatchRules",
    "MatchState",
    "OpeningRoll",
    "Play",
    "Position",
    "Resignation",
    "ScriptedDice",
    "SecureDice",
    "WinKind",
    "opening_roll",
]
