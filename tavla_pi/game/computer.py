"""The computer's side of a match: which decisions are its, the questions out, the answers.

Every tick the referee hands :meth:`Computer.update` its state, which says the
decision the game waits on from the computer (:meth:`Computer.decision`:
resign or not, then double or roll, before its roll; take or drop a double;
accept or decline a resignation; the chequer play of its roll), if any.
The question goes to the :class:`~tavla_pi.engine.BackgroundEngine` and is
polled on later ticks, so the scan loop never waits; the answer comes back
once, as the seat's action (:mod:`tavla_pi.game.deciding`): the computer's button
press (:func:`press_for`), its resignation, or its play, which the referee has
the hand carry out (:mod:`tavla_pi.game.carry`).  A decision that changes
before its answer came (a takeback, a new match) withdraws its question.

An engine that fails (gnubg died twice on one question, or hung past the
deadline) never changes the game: the same question is asked again after
:data:`BACKOFF_MS`, doubling, up to :data:`MAX_ATTEMPTS` times, while
``trouble`` says why.  After that the computer gives that one decision up
(:class:`GaveUp`): the hand makes it on the computer's buttons, as between two
players, and the next decision is asked afresh.  Without an engine there is no
computer: :func:`~tavla_pi.game.seat.seat_for` seats a :class:`~tavla_pi.game.deciding.HandSeat` and
the game is between two players.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from tavla_pi.engine import (
    BackgroundEngine,
    CubeAction,
    EnginePlay,
    EngineRequest,
    Job,
    ResignAnswer,
    TakeDecision,
)
from tavla_pi.engine.interface import may_engine_double
from tavla_pi.errors import TavlaError
from tavla_pi.game.carry import Undo
from tavla_pi.game.deciding import (
    AnswersResignation,
    Chooses,
    OffersResignation,
    Press,
    SeatAction,
    Table,
)
from tavla_pi.game.resign import answer_due, offer_due, offer_to_make
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.cube import may_beaver
from tavla_pi.rules.match import GameState, MatchRules, MatchState, Resignation

MAX_ATTEMPTS = 4
"""How often one question is asked before the computer gives that decision up."""
BACKOFF_MS = 500
"""The wait before asking again after a failure; doubled after each one (0.5, 1, 2 s)."""
COMPUTER_PHASES = (Phase.AWAIT_ROLL, Phase.DOUBLE_OFFERED, Phase.RESIGN_OFFERED, Phase.MOVING)
"""The phases in which the computer's buttons are its own (the hand's presses refused)."""


class Question(enum.Enum):
    """What the game asks the computer."""

    RESIGN = "resignation offer"
    CUBE = "cube action"
    TAKE = "take decision"
    ANSWER = "resignation answer"
    PLAY = "play"


@dataclass(frozen=True)
class Decision:
    """One decision the game waits on from the computer, with its whole match context."""

    question: Question
    request: EngineRequest


@dataclass(frozen=True)
class GaveUp:
    """The engine could not answer ``decision``: the hand makes it for the computer."""

    decision: Decision


ComputerAnswer = CubeAction | TakeDecision | ResignAnswer | Resignation | EnginePlay | GaveUp
"""What the computer's engine answers (or that it gave up), once per decision."""


class Computer:
    """The colour the computer plays, its engine, and the one question out at a time."""

    name = "the computer"

    def __init__(self, opponent: OpponentSettings, engine: BackgroundEngine) -> None:
        self.opponent = opponent
        self.engine = engine
        self.trouble: str | None = None
        """Why the engine cannot answer now (None while it can)."""
        self._asked: Decision | None = None
        self._job: Job[Any] | None = None
        self._answered = False
        self._failures = 0
        self._retry_at: int | None = None
        self._gave_up = False
        self._resign_weighed: MatchState | None = None
        """The match state whose resignation question is answered (no offer: go on)."""

    @property
    def color(self) -> Color | None:
        """The colour the computer plays (None: nobody)."""
        return self.opponent.color

    def plays(self, color: Color) -> bool:
        """Whether the computer plays ``color``."""
        return self.color is color

    def undoes(self, player: Color) -> bool:
        """The human may take a play back until the computer's checkers move."""
        return not self.plays(player)

    def ask_takeback(self, undo: Undo) -> bool:
        """The computer lets every takeback be (its play is chosen again)."""
        return False

    def refuses(self, color: Color, phase: Phase) -> bool:
        """Whether a press of ``color``'s button is refused: the computer plays that
        colour and has not given the decision at hand up to the hand."""
        return self.plays(color) and phase in COMPUTER_PHASES and not self._gave_up

    @property
    def thinking(self) -> bool:
        """True while a question is out and its answer not yet in."""
        return self._job is not None and not self._job.done()

    @property
    def pending(self) -> bool:
        """True while a question is out or waits for its retry (the game waits on time)."""
        return self._job is not None or self._retry_at is not None

    def ask_roll(self, now: int) -> bool:
        """The board's dice roll for the computer and the human alike."""
        return False

    def wait(self, timeout_s: float) -> bool:
        """Block until the question out is answered (replay and tests only); False on
        timeout."""
        return self._job is None or self._job.wait(timeout_s)

    def decision(self, table: Table) -> Decision | None:
        """The decision the game at ``table`` waits on from the computer now, if any."""
        color, match, phase = self.color, table.match, table.phase
        if color is None or match.game_state is not GameState.PLAYING:
            return None
        chosen = table.turn is not None and table.turn.seat_play is not None
        if answer_due(phase, match, color):
            question = Question.ANSWER
        elif phase is Phase.AWAIT_ROLL and match.on_roll is color and self._weighs_resigning(table):
            question = Question.RESIGN
        elif phase is Phase.AWAIT_ROLL and match.on_roll is color:
            question = Question.CUBE
        elif phase is Phase.DOUBLE_OFFERED and match.to_act is color:
            question = Question.TAKE
        elif phase is Phase.MOVING and match.on_roll is color and not chosen:
            question = Question.PLAY
        else:
            return None
        level, seed, rules = self.opponent.level, self.opponent.seed, table.settings.rules
        return Decision(question, EngineRequest(table.position(), match, rules, level, seed))

    def _weighs_resigning(self, table: Table) -> bool:
        """As gnubg's ComputerTurn: before its cube decision, out of contact, once per state."""
        color = self.color
        assert color is not None
        return table.match != self._resign_weighed and offer_due(
            table.phase, table.match, table.position(), color, table.resign.declined)

    def update(self, table: Table, now: int) -> SeatAction | None:
        """The computer's next decision at ``table`` as the seat's action, once its answer
        is in; an answer that asks nothing of the table (a resignation not worth
        offering) is passed over for the next decision."""
        color = self.color
        while (answer := self.answer(table, now)) is not None:
            assert color is not None  # only a playing computer answers
            action = _action(answer, table, color)
            if action is not None:
                return action
        return None

    def answer(self, table: Table, now: int) -> ComputerAnswer | None:
        """Ask, poll or retry for the decision the game waits on (:meth:`decision`); its
        answer once it is in (once only)."""
        decision = self.decision(table)
        if decision != self._asked:
            self.withdraw()
            self._asked = decision
            if decision is not None and _without_asking(decision):
                self._answered = True
                return CubeAction.NO_DOUBLE
        if decision is None or self._answered or self._gave_up:
            return None
        if self._job is None:
            if self._retry_at is None or now >= self._retry_at:
                self._retry_at, self._job = None, self._submit(decision)
            return None
        return self._poll(decision, self._job, now)

    def withdraw(self) -> None:
        """Forget the decision and its question (the game moved on)."""
        if self._job is not None:
            self.engine.cancel(self._job)
        self._asked, self._job, self._answered = None, None, False
        self._failures, self._retry_at, self._gave_up, self.trouble = 0, None, False, None

    def _submit(self, decision: Decision) -> Job[Any]:
        engine, request = self.engine, decision.request
        if decision.question is Question.CUBE:
            return engine.cube_action(request)
        if decision.question is Question.TAKE:
            return engine.take_decision(request)
        if decision.question is Question.RESIGN:
            return engine.resign_offer(request)
        if decision.question is Question.ANSWER:
            return engine.resign_answer(request)
        return engine.play(request)

    def _poll(self, decision: Decision, job: Job[Any], now: int) -> ComputerAnswer | None:
        try:
            answer: ComputerAnswer | None = self.engine.poll(job)
        except TavlaError as exc:
            return self._failed(decision, exc, now)
        if answer is not None:
            self._job, self._answered, self._failures, self.trouble = None, True, 0, None
            if decision.question is Question.RESIGN:
                self._resign_weighed = decision.request.state
        return answer

    def _failed(self, decision: Decision, exc: TavlaError, now: int) -> GaveUp | None:
        """Count a failure: retry later, or give the decision up after the last attempt."""
        self._job = None
        self._failures += 1
        self.trouble = f"the computer cannot answer: {exc}"
        if self._failures < MAX_ATTEMPTS:
            self._retry_at = now + BACKOFF_MS * 2 ** (self._failures - 1)
            return None
        if decision.question is Question.RESIGN:  # not resigning needs no hand: play on
            self._resign_weighed, self._failures, self.trouble = decision.request.state, 0, None
            self._asked = None
            return None
        self._gave_up = True
        self.trouble += "; play its side by hand"
        return GaveUp(decision)


def _action(answer: ComputerAnswer, table: Table, color: Color) -> SeatAction | None:
    """The engine's ``answer`` for ``color`` (the computer's) as the seat's action; None:
    nothing to do (a resignation not worth offering, a decision given up before the
    turn, which the hand makes on the computer's buttons)."""
    if isinstance(answer, CubeAction | TakeDecision):
        return Press(*press_for(answer, table.match, color, table.settings.rules))
    if isinstance(answer, ResignAnswer):
        return AnswersResignation(accept=answer is ResignAnswer.ACCEPT)
    if isinstance(answer, Resignation):
        level = offer_to_make(answer, table.resign.declined)
        return None if level is None else OffersResignation(level)
    if table.phase is not Phase.MOVING:
        return None
    if isinstance(answer, EnginePlay) and answer.play is not None:
        return Chooses(answer.play)
    return Chooses(None)  # given up: the hand plays it


def _without_asking(decision: Decision) -> bool:
    """A cube question the rules answer: the computer may not double, so it rolls."""
    return decision.question is Question.CUBE and not may_engine_double(decision.request)


def press_for(answer: CubeAction | TakeDecision, match: MatchState, color: Color,
              rules: MatchRules) -> tuple[str, bool]:
    """The computer's (``color``'s) answer as the press of its own button: (role, long).

    Before rolling CUBE doubles and ROLL rolls; offered a double, ROLL takes,
    CUBE drops and a long CUBE beavers (a beaver the rules do not allow is a take).
    """
    if answer is CubeAction.DOUBLE or answer is TakeDecision.DROP:
        return "cube", False
    if answer is TakeDecision.BEAVER and may_beaver(match, color, rules):
        return "cube", True
    return "roll", False
