"""A scripted computer opponent: an :class:`~tavla_pi.engine.Engine` that answers from a list.

Like a scripted dice source, it hands out its answers in order and fails
loudly (EngineError) when asked something the script does not hold next,
when it runs dry, and at :meth:`ScriptedEngine.close` when answers are left
unused.  It behaves like gnubg where gnubg is not asked at all: no question
is used up for a roll that cannot be played, nor for a cube action the rules
forbid.  Plays are written in GNU Backgammon's notation and must be legal:
the answer is the rules' own :class:`~tavla_pi.rules.Play`.

Script entries are ``(question, answer)`` pairs:

=========  ==============================================================
question   answer
=========  ==============================================================
play       ``"24/18 13/11"`` or ``("24/18 13/11", equity)``
hint       ``[("24/18 13/11", 0.12), ("13/7 8/7", 0.03), ...]``, best first
cube       ``"double"`` / ``"no double"`` (or a CubeAction)
take       ``"take"`` / ``"drop"`` / ``"beaver"`` (or a TakeDecision)
resign     ``"accept"`` / ``"decline"`` (or a ResignAnswer)
offer      ``"none"`` / ``"single"`` / ``"gammon"`` / ``"backgammon"`` (or a Resignation)
evaluate   an :class:`~tavla_pi.engine.Evaluation`
=========  ==============================================================

Any answer may instead be an exception, which is raised when its turn comes
(an ``EngineError("gnubg died")`` tests how the game copes).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from tavla_pi.engine.interface import (
    CubeAction,
    EnginePlay,
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
    may_engine_double,
)
from tavla_pi.errors import EngineError
from tavla_pi.rules import Play, Resignation
from tavla_pi.rules.resign import in_contact

QUESTIONS = ("play", "hint", "cube", "take", "resign", "offer", "evaluate")
"""The questions a script answers, in the order of the table above."""


class ScriptedEngine:
    """An Engine answering from a script; ``asked`` records every question it used up."""

    def __init__(self, script: Iterable[tuple[str, Any]]) -> None:
        self._script: deque[tuple[str, Any]] = deque()
        for question, answer in script:
            if question not in QUESTIONS:
                raise EngineError(f"scripted engine: unknown question {question!r} ({QUESTIONS})")
            self._script.append((question, answer))
        self.asked: list[tuple[str, EngineRequest]] = []
        """(question, request) of every scripted answer handed out, in order."""
        self.started = False
        self._closed = False

    def start(self) -> None:
        """Nothing to start; remembered for tests."""
        self.started = True

    def close(self) -> None:
        """Stop; EngineError if scripted answers were never used."""
        if self._closed:
            return
        self._closed = True
        if self._script:
            left = ", ".join(f"{q}: {a!r}" for q, a in self._script)
            raise EngineError(f"scripted engine answers left unused: {left}")

    def __enter__(self) -> ScriptedEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.close()
        else:  # do not hide the error already on its way out
            self._closed = True

    # -- the questions -------------------------------------------------------------------

    def play(self, request: EngineRequest) -> EnginePlay:
        """The next scripted play (no answer used when the roll cannot be played)."""
        dice = check_play(request)
        if not request.position.legal_plays(dice):
            return EnginePlay(None)
        answer = self._next("play", request)
        notation, equity = answer if isinstance(answer, tuple) else (answer, None)
        return EnginePlay(_legal(request, notation), equity)

    def hint(self, request: EngineRequest, n: int = 5) -> list[RankedPlay]:
        """The next scripted hint list, cut to ``n`` (none used when no play is legal)."""
        dice = check_play(request)
        if not request.position.legal_plays(dice):
            return []
        entries = self._next("hint", request)
        return [RankedPlay(_legal(request, notation), equity) for notation, equity in entries][:n]

    def cube_action(self, request: EngineRequest) -> CubeAction:
        """The next scripted cube action (none used when the rules forbid a double)."""
        if not may_engine_double(request):
            return CubeAction.NO_DOUBLE
        return CubeAction(self._next("cube", request))

    def take_decision(self, request: EngineRequest) -> TakeDecision:
        """The next scripted answer to the double on offer."""
        check_take(request)
        return TakeDecision(self._next("take", request))

    def resign_answer(self, request: EngineRequest) -> ResignAnswer:
        """The next scripted answer to the resignation on offer."""
        check_resign(request)
        return ResignAnswer(self._next("resign", request))

    def resign_offer(self, request: EngineRequest) -> Resignation:
        """The next scripted resignation offer (none used in contact, as gnubg asks none)."""
        check_resign_offer(request)
        if in_contact(request.position):
            return Resignation.NONE
        answer = self._next("offer", request)
        if isinstance(answer, str):
            return _OFFERS[answer]
        return Resignation(answer)

    def evaluate(self, request: EngineRequest) -> Evaluation:
        """The next scripted evaluation."""
        check_evaluate(request)
        answer = self._next("evaluate", request)
        if not isinstance(answer, Evaluation):
            raise EngineError(
                f"scripted engine: an evaluation answer must be an Evaluation: {answer!r}"
            )
        return answer

    def _next(self, question: str, request: EngineRequest) -> Any:
        if self._closed:
            raise EngineError(f"scripted engine asked for a {question} after it was closed")
        if not self._script:
            raise EngineError(f"scripted engine ran out: asked for a {question}")
        expected, answer = self._script[0]
        if expected != question:
            raise EngineError(
                f"scripted engine asked for a {question}, its script has a {expected}"
                f" next ({answer!r})"
            )
        self._script.popleft()
        self.asked.append((question, request))
        if isinstance(answer, BaseException):
            raise answer
        return answer


_OFFERS = {"none": Resignation.NONE, "single": Resignation.SINGLE,
           "gammon": Resignation.GAMMON, "backgammon": Resignation.BACKGAMMON}


def _legal(request: EngineRequest, notation: str) -> Play:
    """The legal play written ``notation``; EngineError naming the legal ones otherwise."""
    dice = check_play(request)
    plays = request.position.legal_plays(dice)
    for play in plays:
        if play.notation == notation:
            return play
    legal = ", ".join(sorted(play.notation for play in plays))
    raise EngineError(
        f"scripted play {notation!r} is not legal for {dice[0]}-{dice[1]} in"
        f" {request.position.position_id()} (legal: {legal})"
    )
