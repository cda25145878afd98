"""Hints and the blunder warning: the engine ranks a human mover's plays in the background.

A long CUBE press by the mover after rolling lights the best play from -> to
and emits ``hint`` (the five best plays with their equities).  With the coach
on, against the computer, DONE on a play that loses more than the threshold
against the best emits ``blunder_warning`` and lights the better play instead
of committing; a second DONE commits anyway, and any change of the board
withdraws the warning (the next DONE checks again).

One question a turn: the engine's ``hint`` for every legal play of the roll, so
that the play about to be committed is ranked too.  It is asked at expert
(world class when the computer plays at that level) with the exact match
context; the equities are gnubg's cubeful equities for the mover.  It is asked
when the turn begins if the warning applies to the mover, else at the first
hint press, and polled from :meth:`Coach.tick`, which the referee calls every
scan.  An answer is taken at the earliest at a later time than its question,
so a replay that waits for the engine before each scan takes it at the same
scan every time.  A hint press or a DONE waits at most :data:`WAIT_MS` for the
answer: an engine that fails or stays silent never holds a commit back (the
log says so).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from tavla_pi.engine.background import BackgroundEngine, Job
from tavla_pi.engine.interface import EngineRequest, RankedPlay
from tavla_pi.engine.levels import Level
from tavla_pi.events.types import EventType
from tavla_pi.game.rulings import Refused, Ruled, Ruling
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.turn import Turn
from tavla_pi.reconcile import Verdict
from tavla_pi.reconcile.layout import cell_of, location_name
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchState
from tavla_pi.rules.play import Play
from tavla_pi.rules.portes import gnubg_play, gnubg_position
from tavla_pi.rules.tavli import VariantPlay

log = logging.getLogger("tavla_pi.game")

HINT_PLAYS = 5
"""How many plays a ``hint`` lists."""
WAIT_MS = 3000
"""How long a hint press or a DONE waits for the engine's ranking (on the game's clock)."""

Step = tuple[str, str]
"""One movement of a hand: from -> to, as docs/CONTRACTS.md §1 locations of the mover."""


@dataclass(frozen=True)
class HintList:
    """A hint as shown: the mover, the dice (high first) and the best plays, best first."""

    player: Color
    dice: tuple[int, int]
    plays: tuple[RankedPlay, ...]


@dataclass(frozen=True)
class BlunderWarning:
    """DONE held back: ``play`` loses ``loss`` equity against ``best``."""

    player: Color
    play: Play
    best: Play
    loss: float


def ranked_fields(ranked: RankedPlay) -> dict[str, Any]:
    """One play of a ``hint`` event (and of ``/api/state``'s ``hint``)."""
    return {"play": ranked.play.notation, "position_id": ranked.play.result.position_id(),
            "equity": round(ranked.equity, 4)}


def hint_level(settings: GameSettings) -> Level:
    """The level hints are asked at: expert, or world class when the computer plays it."""
    return Level.WORLD_CLASS if settings.opponent.level is Level.WORLD_CLASS else Level.EXPERT


def play_steps(play: Play, mover: Color) -> tuple[Step, ...]:
    """The hand's movements of ``play``, from -> to: a checker's consecutive moves are
    joined into one, but not across a hit (the hand stops where it hits)."""
    hits = {dst for _, dst, hit in play.moves if hit}
    paths: list[list[int]] = []
    for src, dst, _ in sorted(play.moves, key=lambda move: (move[0], move[1]), reverse=True):
        joined = next((p for p in paths if p[1] == src and src not in hits), None)
        if joined is None:
            paths.append([src, dst])
        else:
            joined[1] = dst
    return tuple((_location(mover, a), _location(mover, b)) for a, b in paths)


def _location(mover: Color, point: int) -> str:
    return location_name(cell_of(mover, point))


@dataclass
class _Lesson:
    """The coach's state for one turn: the question, the answer and what stands now.

    ``hint_due`` / ``commit``: a hint press / a DONE waits for the ranking until
    then.  ``seen``: the board (the turn's verdict) when something was lit or
    held back; a different one withdraws it.  ``failed``: the question failed
    this turn, so a DONE does not wait for it again.
    """

    turn: Turn
    request: EngineRequest
    job: Job[list[RankedPlay]] | None = None
    asked_at: int = 0
    ranking: list[RankedPlay] | None = None
    failed: bool = False
    hint_due: int | None = None
    commit: tuple[VariantPlay, int] | None = None
    hint: HintList | None = None
    warning: BlunderWarning | None = None
    suggested: tuple[Step, ...] = ()
    suggested_since: int = 0
    seen: Verdict | None = None


class Coaching(Protocol):
    """What the referee asks of its coach every turn: a :class:`Coach` with an engine,
    a :class:`NoCoach` without one."""

    settings: GameSettings

    @property
    def gives_hints(self) -> bool:
        """Whether a long CUBE of the mover asks for a hint (else it lights a candidate)."""
        ...

    @property
    def hint(self) -> HintList | None:
        """The hint shown this turn."""
        ...

    @property
    def warning(self) -> BlunderWarning | None:
        """The blunder warning standing now."""
        ...

    @property
    def suggested(self) -> tuple[Step, ...]:
        """The play lit now."""
        ...

    @property
    def suggested_since(self) -> int:
        """When the play lit now was lit."""
        ...

    @property
    def thinking(self) -> bool:
        """True while a question waits for its answer to be taken."""
        ...

    def wait(self, timeout_s: float) -> bool:
        """Block until the pending answer is in; False on timeout."""
        ...

    def begin(self, turn: Turn, match: MatchState, now: int) -> None:
        """A turn begins."""
        ...

    def follow(self, turn: Turn | None) -> None:
        """The referee's turn now."""
        ...

    def observed(self) -> None:
        """The board was read again."""
        ...

    def hint_pressed(self, now: int) -> None:
        """A long CUBE of the mover."""
        ...

    def may_commit(self, play: VariantPlay, now: int) -> bool:
        """DONE on ``play``: True to commit now."""
        ...

    def said(self) -> list[Ruling]:
        """What the coach said since it was last asked (a hint, a blunder warning, a hint
        it cannot give), for the referee to write; then forgotten."""
        ...

    def tick(self, now: int) -> VariantPlay | None:
        """Time passes: the play to commit now, if any."""
        ...


def coach_for(engine: BackgroundEngine | None, settings: GameSettings) -> Coaching:
    """The coach on ``engine``: a :class:`NoCoach` when there is none."""
    return NoCoach(settings) if engine is None else Coach(engine, settings)


class NoCoach:
    """The coach without an engine: no hints, no warnings, every DONE commits at once."""

    gives_hints = False
    hint: HintList | None = None
    warning: BlunderWarning | None = None
    suggested: tuple[Step, ...] = ()
    suggested_since = 0
    thinking = False

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings

    def wait(self, timeout_s: float) -> bool:
        """Nothing is ever pending."""
        return True

    def begin(self, turn: Turn, match: MatchState, now: int) -> None:
        """Nothing to ask."""

    def follow(self, turn: Turn | None) -> None:
        """Nothing to forget."""

    def observed(self) -> None:
        """Nothing is lit or held back."""

    def hint_pressed(self, now: int) -> None:
        """No hint to show (the referee lights a candidate instead)."""

    def may_commit(self, play: VariantPlay, now: int) -> bool:
        """Every DONE commits."""
        return True

    def said(self) -> list[Ruling]:
        """A coach without an engine says nothing."""
        return []

    def tick(self, now: int) -> VariantPlay | None:
        """Nothing is held back."""
        return None


class Coach:
    """Hints and the blunder warning for the turn being moved, asked of a background engine."""

    gives_hints = True

    def __init__(self, engine: BackgroundEngine, settings: GameSettings) -> None:
        self.engine = engine
        self.settings = settings
        self.wait_ms = WAIT_MS
        self._said: list[Ruling] = []
        self._lesson: _Lesson | None = None

    # -- what stands now ------------------------------------------------------------------

    @property
    def hint(self) -> HintList | None:
        """The hint shown this turn (it stays listed until the turn ends)."""
        return self._lesson.hint if self._lesson is not None else None

    @property
    def warning(self) -> BlunderWarning | None:
        """The blunder warning standing now."""
        return self._lesson.warning if self._lesson is not None else None

    @property
    def suggested(self) -> tuple[Step, ...]:
        """The play lit now (the hint's best, or the better play of a warning)."""
        return self._lesson.suggested if self._lesson is not None else ()

    @property
    def suggested_since(self) -> int:
        """When the play lit now was lit (its walk starts there)."""
        return self._lesson.suggested_since if self._lesson is not None else 0

    @property
    def thinking(self) -> bool:
        """True while the question of this turn waits for its answer to be taken."""
        return self._lesson is not None and self._lesson.job is not None

    def wait(self, timeout_s: float) -> bool:
        """Block until the pending answer is in (tools and replay, never the scan loop)."""
        job = self._lesson.job if self._lesson is not None else None
        return job is None or job.wait(timeout_s)

    def warns(self, mover: Color) -> bool:
        """Whether DONE is checked for ``mover``: the coach on, a human against the computer."""
        opponent = self.settings.opponent
        computer = seating(opponent).engine_color
        return opponent.coach and computer is not None and mover is not computer

    # -- the referee's hooks ----------------------------------------------------------------

    def begin(self, turn: Turn, match: MatchState, now: int) -> None:
        """A turn begins: forget the last one; ask at once if DONE will be checked.
        No coaching in Plakoto and Fevga (GNU Backgammon knows Portes only)."""
        self._drop()
        position = gnubg_position(turn.start)
        if position is None:
            return
        request = EngineRequest(position, match, self.settings.rules,
                                hint_level(self.settings), self.settings.opponent.seed)
        self._lesson = _Lesson(turn, request, seen=turn.verdict)
        if self.warns(turn.mover):
            self._ask(self._lesson, now)

    def follow(self, turn: Turn | None) -> None:
        """The referee's turn now: once it is another (committed, a new game), forget this one."""
        if self._lesson is not None and self._lesson.turn is not turn:
            self._drop()

    def observed(self) -> None:
        """The board was read again: a change withdraws what is lit or held back."""
        lesson = self._lesson
        if lesson is None or lesson.turn.verdict == lesson.seen:
            return
        lesson.seen = lesson.turn.verdict
        lesson.warning, lesson.commit, lesson.suggested = None, None, ()

    def hint_pressed(self, now: int) -> None:
        """A long CUBE of the mover: show the hint now, or once the ranking is in."""
        lesson = self._lesson
        if lesson is None:
            return
        if lesson.ranking is not None:
            self._show_hint(lesson, now)
        else:
            lesson.hint_due = now + self.wait_ms
            self._ask(lesson, now)

    def may_commit(self, play: VariantPlay, now: int) -> bool:
        """DONE on ``play``: True to commit now; False while it waits or is warned about."""
        lesson = self._lesson
        if lesson is None or not self.warns(lesson.turn.mover):
            return True
        warned = lesson.warning
        if warned is not None and warned.play == gnubg_play(play):  # the second DONE commits
            lesson.warning, lesson.suggested = None, ()
            return True
        if lesson.ranking is not None:
            return not self._judge(lesson, play, now)
        if lesson.failed:
            return True
        lesson.commit, lesson.seen = (play, now + self.wait_ms), lesson.turn.verdict
        self._ask(lesson, now)
        return False

    def tick(self, now: int) -> VariantPlay | None:
        """Time passes: take the answer if it is in; the play to commit now, if any."""
        lesson = self._lesson
        if lesson is None:
            return None
        if lesson.job is not None and now > lesson.asked_at:
            self._take(lesson)
        if lesson.hint_due is not None:
            self._hint_waits(lesson, now)
        if lesson.commit is None:
            return None
        play, due = lesson.commit
        if lesson.ranking is not None:
            lesson.commit = None
            return None if self._judge(lesson, play, now) else play
        if lesson.job is not None and now < due:
            return None
        if lesson.job is not None:
            self._give_up(lesson)
        lesson.commit = None
        log.warning("no ranking from the engine for %s: committed without the blunder check",
                    play.notation)
        return play

    def said(self) -> list[Ruling]:
        """What the coach said since it was last asked, for the referee to write."""
        said, self._said = self._said, []
        return said

    # -- inside ---------------------------------------------------------------------------

    def _ask(self, lesson: _Lesson, now: int) -> None:
        if lesson.job is not None or lesson.ranking is not None:
            return
        every = len(lesson.request.position.legal_plays(lesson.turn.dice))
        lesson.job, lesson.asked_at = self.engine.hint(lesson.request, every), now

    def _take(self, lesson: _Lesson) -> None:
        """Poll the question: the ranking, or (logged) a failure."""
        assert lesson.job is not None
        try:
            answer = self.engine.poll(lesson.job)
        except Exception as exc:  # whatever the engine did, the game goes on without it
            log.warning("the engine could not rank the plays: %s", exc)
            lesson.job, lesson.failed = None, True
            return
        if answer is None:
            return
        lesson.job = None
        if answer:
            lesson.ranking = answer
        else:
            log.warning("the engine ranked no play of a roll that has legal plays")
            lesson.failed = True

    def _give_up(self, lesson: _Lesson) -> None:
        """The answer is too late: forget the question (a later need asks again)."""
        assert lesson.job is not None
        log.warning("the engine gave no ranking within %d ms", self.wait_ms)
        self.engine.cancel(lesson.job)
        lesson.job, lesson.failed = None, True

    def _hint_waits(self, lesson: _Lesson, now: int) -> None:
        due = lesson.hint_due
        assert due is not None
        if lesson.ranking is not None:
            self._show_hint(lesson, now)
        elif lesson.job is None or now >= due:
            if lesson.job is not None:
                self._give_up(lesson)
            lesson.hint_due = None
            self._said.append(Refused("no hint: the engine did not answer", lesson.turn.mover))

    def _show_hint(self, lesson: _Lesson, now: int) -> None:
        assert lesson.ranking is not None
        turn, best = lesson.turn, lesson.ranking[:HINT_PLAYS]
        dice = (max(turn.dice), min(turn.dice))
        lesson.hint, lesson.hint_due = HintList(turn.mover, dice, tuple(best)), None
        self._said.append(Ruled(EventType.HINT, {"player": turn.mover.value, "dice": list(dice),
                                                 "plays": [ranked_fields(r) for r in best]}))
        self._light(lesson, best[0].play, now)

    def _judge(self, lesson: _Lesson, chosen: VariantPlay, now: int) -> bool:
        """Warn if ``chosen`` loses more than the threshold against the best; True if warned."""
        assert lesson.ranking is not None
        play = gnubg_play(chosen)
        result = play.result.position_id()
        mine = next((r for r in lesson.ranking if r.play.result.position_id() == result), None)
        if mine is None:
            log.warning("the engine did not rank %s: committed without the blunder check",
                        play.notation)
            return False
        best = lesson.ranking[0]
        loss = best.equity - mine.equity
        if loss <= self.settings.opponent.blunder_threshold:
            return False
        mover = lesson.turn.mover
        lesson.warning = BlunderWarning(mover, play, best.play, loss)
        self._said.append(Ruled(EventType.BLUNDER_WARNING, {
            "player": mover.value, "play": play.notation, "best": best.play.notation,
            "loss": round(loss, 4)}))
        self._light(lesson, best.play, now)
        return True

    def _light(self, lesson: _Lesson, play: Play, now: int) -> None:
        lesson.suggested, lesson.suggested_since = play_steps(play, lesson.turn.mover), now
        lesson.seen = lesson.turn.verdict

    def _drop(self) -> None:
        lesson, self._lesson = self._lesson, None
        if lesson is not None and lesson.job is not None:
            self.engine.cancel(lesson.job)
