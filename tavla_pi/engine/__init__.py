"""The engine room: GNU Backgammon as the computer opponent, behind a narrow interface.

The game asks an :class:`Engine` for plays, cube actions, answers to
resignations, hints and evaluations, each with the exact match context
(:class:`EngineRequest`).  Levels are gnubg's own presets (:class:`Level`).
"""

from tavla_pi.engine.interface import (
    CubeAction,
    Engine,
    EnginePlay,
    EngineRequest,
    Evaluation,
    RankedPlay,
    ResignAnswer,
    TakeDecision,
)
from tavla_pi.engine.levels import Level

__all__ = [
    "CubeAction",
    "Engine",
    "EnginePlay",
    "EngineRequest",
    "Evaluation",
    "Level",
    "RankedPlay",
    "ResignAnswer",
    "TakeDecision",
]
