"""The engine room: GNU Backgammon as the computer opponent, behind a narrow interface.

The game asks an :class:`Engine` for plays, cube actions, answers to
resignations, hints and evaluations, each with the exact match context
(:class:`EngineRequest`), through :class:`BackgroundEngine` so that nothing
waits on the scan loop.  :class:`GnubgEngine` drives one long-lived gnubg
process over a pipe (:mod:`tavla_pi.engine.process`, the gnubg-side script
:mod:`tavla_pi.engine.bridge`); tests use the scripted fake in
:mod:`tavla_pi.testing.engine`.  Levels are gnubg's own presets (:class:`Level`).
Finished games are reviewed by gnubg (:class:`GnubgReviewer`, one process
per review, run on a :class:`Worker`).
"""

from tavla_pi.engine.background import BackgroundEngine, Job, Worker
from tavla_pi.engine.gnubg import NOT_INSTALLED, GnubgEngine, find_gnubg, require_gnubg
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
from tavla_pi.engine.review import GnubgReviewer, Review, Reviewer, ReviewRequest

__all__ = [
    "NOT_INSTALLED",
    "BackgroundEngine",
    "CubeAction",
    "Engine",
    "EnginePlay",
    "EngineRequest",
    "Evaluation",
    "GnubgEngine",
    "GnubgReviewer",
    "Job",
    "Level",
    "RankedPlay",
    "ResignAnswer",
    "Review",
    "ReviewRequest",
    "Reviewer",
    "TakeDecision",
    "Worker",
    "find_gnubg",
    "require_gnubg",
]
