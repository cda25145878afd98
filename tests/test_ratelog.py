"""A flood of refusals writes one line per kind per interval, with the count."""

from __future__ import annotations

import logging
import threading

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.ratelog import RefusalLog

LOGGER = logging.getLogger("tavla_pi.test.ratelog")


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The messages written to the test's logger."""
    return [r.getMessage() for r in caplog.records if r.name == LOGGER.name]


def test_a_flood_of_one_kind_is_one_line_then_one_count(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=10_000)
    with caplog.at_level(logging.WARNING, LOGGER.name):
        for n in range(5000):
            log.refuse("bad payload", f"refused message {n}")
        clock.advance(10_000)
        log.flush()
    assert lines(caplog) == [
        "refused message 0",
        "4999 more refused (bad payload) in 10 s; the last: refused message 4999"]


def test_kinds_are_counted_apart_and_a_new_interval_writes_at_once(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=1000)
    with caplog.at_level(logging.WARNING, LOGGER.name):
        log.refuse("a", "a1")
        log.refuse("b", "b1")
        log.refuse("a", "a2")
        clock.advance(1000)
        log.refuse("a", "a3")
        log.flush()
    assert lines(caplog) == ["a1", "b1", "1 more refused (a) in 1 s; the last: a2", "a3"]


def test_nothing_held_writes_no_count(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=1000)
    with caplog.at_level(logging.WARNING, LOGGER.name):
        log.refuse("a", "a1")
        clock.advance(5000)
        log.flush()
        log.flush()
    assert lines(caplog) == ["a1"]


def test_refusals_from_many_threads_are_all_counted(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=1000)

    def flood() -> None:
        for _ in range(1000):
            log.refuse("k", "x")

    with caplog.at_level(logging.WARNING, LOGGER.name):
        threads = [threading.Thread(target=flood) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        clock.advance(1000)
        log.flush()
    assert lines(caplog) == ["x", "3999 more refused (k) in 1 s; the last: x"]


def test_a_kind_said_at_info_writes_its_count_at_info(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=1000)
    with caplog.at_level(logging.INFO, LOGGER.name):
        log.refuse("dup", "again 1", level=logging.INFO)
        log.refuse("dup", "again 2", level=logging.INFO)
        log.refuse("bad", "bad 1")
        clock.advance(1000)
        log.flush()
    assert [(r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER.name] == [
        (logging.INFO, "again 1"), (logging.WARNING, "bad 1"),
        (logging.INFO, "1 more refused (dup) in 1 s; the last: again 2")]


def test_at_shutdown_every_held_count_is_written_once(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    log = RefusalLog(LOGGER, clock, interval_ms=10_000)
    with caplog.at_level(logging.WARNING, LOGGER.name):
        for kind, text in (("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1")):
            log.refuse(kind, text)
        clock.advance(1000)  # within the interval: flush writes nothing yet
        log.flush()
        assert lines(caplog) == ["a1", "b1"]
        log.write_held()
        log.write_held()
        log.flush()
        clock.advance(10_000)
        log.flush()
        log.refuse("a", "a4")  # a new interval: written at once
    assert lines(caplog) == ["a1", "b1", "2 more refused (a) in 10 s; the last: a3", "a4"]

