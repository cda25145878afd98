"""The engine off the scan loop: questions go to a worker thread, answers are polled.

The game submits a question and gets a :class:`Job` at once; each scan it
asks :meth:`BackgroundEngine.poll` whether the answer is there.  Nothing here
waits for gnubg on the caller's thread: starting gnubg, a slow decision, a
restart after a crash all happen on the worker.  An optional deadline, on
the injected clock, turns a question that takes too long into an
EngineError for the caller (the worker's own answer, if it comes later, is
thrown away).  Questions are answered one at a time, in order.

:class:`Worker` is that thread and its queue for any blocking work (the
daemon's game reviews run on one of their own); :class:`BackgroundEngine`
puts an :class:`Engine`'s questions on one.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from tavla_pi.clock import Clock
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
from tavla_pi.errors import EngineError
from tavla_pi.rules import Resignation

T = TypeVar("T")


class Job(Generic[T]):
    """One question on its way through the worker: its answer, or its error, once done."""

    def __init__(self, name: str, ask: Callable[[], T], deadline_ms: int | None) -> None:
        self.name = name
        """What was asked ("play", "cube action", ...), for messages."""
        self.deadline_ms = deadline_ms
        """Clock time after which the caller gives up (None: no deadline)."""
        self._ask = ask
        self._done = threading.Event()
        self._value: T | None = None
        self._error: Exception | None = None
        self.cancelled = False

    def done(self) -> bool:
        """Whether the answer (or the error) is in."""
        return self._done.is_set()

    def wait(self, timeout_s: float) -> bool:
        """Block until done or ``timeout_s`` passed: for tools and tests, never the scan loop."""
        return self._done.wait(timeout_s)

    def result(self) -> T:
        """The answer; the error raised instead if the question failed."""
        if not self._done.is_set():
            raise RuntimeError(f"the {self.name} job is not done yet")
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set whenever there is no error

    def run(self) -> None:
        """Do the work (on the worker thread) and keep what comes back."""
        try:
            self._value = self._ask()
        except Exception as exc:  # handed to the caller by result()
            self._error = exc
        self._done.set()


class Worker:
    """One thread doing submitted jobs in order; the caller only submits and polls."""

    def __init__(self, clock: Clock, *, deadline_ms: int | None = None,
                 name: str = "engine") -> None:
        self.clock = clock
        self.deadline_ms = deadline_ms
        self._jobs: queue.Queue[Job[Any] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._started = False

    def start(self) -> None:
        """Start the thread (safe twice)."""
        if not self._started:
            self._started = True
            self._thread.start()

    def submit(self, name: str, ask: Callable[[], T]) -> Job[T]:
        """Queue ``ask`` for the thread; returns at once."""
        now = self.clock.now_ms()
        job = Job(name, ask, None if self.deadline_ms is None else now + self.deadline_ms)
        self._jobs.put(job)
        return job

    def poll(self, job: Job[T]) -> T | None:
        """The answer if it is in, else None; EngineError once the deadline has passed."""
        if job.done():
            return job.result()
        if job.deadline_ms is not None and self.clock.now_ms() >= job.deadline_ms:
            job.cancelled = True
            raise EngineError(f"the engine gave no {job.name} answer within {self.deadline_ms} ms")
        return None

    def cancel(self, job: Job[T]) -> None:
        """Forget a job (the caller moved on): the thread skips it or drops its answer."""
        job.cancelled = True

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop the thread after the job it is on."""
        if self._started:
            self._jobs.put(None)
            self._thread.join(timeout_s)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            if not job.cancelled:
                job.run()


class BackgroundEngine:
    """An :class:`Engine` driven by one worker thread; the caller only submits and polls."""

    def __init__(self, engine: Engine, clock: Clock, *, deadline_ms: int | None = None) -> None:
        self.engine = engine
        self.clock = clock
        self.deadline_ms = deadline_ms
        self.worker = Worker(clock, deadline_ms=deadline_ms)

    def start(self) -> Job[None]:
        """Start the worker, and the engine on it (gnubg loads in the background)."""
        self.worker.start()
        return self.submit("start", lambda engine: engine.start())

    def submit(self, name: str, ask: Callable[[Engine], T]) -> Job[T]:
        """Queue a question for the worker; returns at once."""
        return self.worker.submit(name, lambda: ask(self.engine))

    def poll(self, job: Job[T]) -> T | None:
        """The answer if it is in, else None; EngineError once the deadline has passed."""
        return self.worker.poll(job)

    def cancel(self, job: Job[T]) -> None:
        """Forget a question (the game moved on): the worker skips it or drops its answer."""
        self.worker.cancel(job)

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop the worker after the question it is on, then close the engine."""
        self.worker.close(timeout_s)
        self.engine.close()

    # -- one submit per question of the interface ------------------------------------------

    def play(self, request: EngineRequest) -> Job[EnginePlay]:
        """Submit :meth:`Engine.play`."""
        return self.submit("play", lambda engine: engine.play(request))

    def hint(self, request: EngineRequest, n: int = 5) -> Job[list[RankedPlay]]:
        """Submit :meth:`Engine.hint`."""
        return self.submit("hint", lambda engine: engine.hint(request, n))

    def cube_action(self, request: EngineRequest) -> Job[CubeAction]:
        """Submit :meth:`Engine.cube_action`."""
        return self.submit("cube action", lambda engine: engine.cube_action(request))

    def take_decision(self, request: EngineRequest) -> Job[TakeDecision]:
        """Submit :meth:`Engine.take_decision`."""
        return self.submit("take decision", lambda engine: engine.take_decision(request))

    def resign_answer(self, request: EngineRequest) -> Job[ResignAnswer]:
        """Submit :meth:`Engine.resign_answer`."""
        return self.submit("resignation answer", lambda engine: engine.resign_answer(request))

    def resign_offer(self, request: EngineRequest) -> Job[Resignation]:
        """Submit :meth:`Engine.resign_offer`."""
        return self.submit("resignation offer", lambda engine: engine.resign_offer(request))

    def evaluate(self, request: EngineRequest) -> Job[Evaluation]:
        """Submit :meth:`Engine.evaluate`."""
        return self.submit("evaluation", lambda engine: engine.evaluate(request))
