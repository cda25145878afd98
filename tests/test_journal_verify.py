"""A journal that checks itself on resume.

Every event is re-derived from the ones before it by the rules
(:func:`tavla_pi.game.restore.verify`); the first that does not follow ends
the trusted journal.  A journal the board wrote is trusted whole, whatever
rules were in force; each way of editing one named in the issue is caught at
the edited line; the daemon keeps the lines before it, moves the rest aside,
says so in one line and shows the fixes when the board differs.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from journal_support import DirectMatch, direct_match, played_with_menus, runner_actions

from tavla_pi.daemon import resume, simstore
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, Journal, encode
from tavla_pi.events.scan import scan_file
from tavla_pi.events.types import EventType, UnknownType
from tavla_pi.game.fold import NOTES
from tavla_pi.game.restore import restore, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.match import MatchRules
from tavla_pi.testing.daemon import VirtualDaemon

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "journals"
RULES = st.builds(MatchRules, crawford=st.booleans(), jacoby=st.booleans(),
                  beavers=st.booleans(), automatic_doubles=st.integers(0, 3))


def whole(events: list[Event], game: GameSettings) -> bool:
    checked = verify(events, game)
    assert checked.reason == "", (checked.trusted, events[checked.trusted])
    return checked.trusted == len(events)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([0, 1, 3, 5, 7]), rules=RULES,
       later=RULES)
def test_a_journal_the_board_wrote_is_trusted_whole(seed: int, length: int, rules: MatchRules,
                                                    later: MatchRules) -> None:
    match = played_with_menus(seed, length, games=2, rules=rules)
    assert whole(match.events, match.settings)
    # the config may change between restarts: the optional rules are not in the journal
    assert whole(match.events, GameSettings(match_length=3, rules=later))


def test_the_older_fixture_journals_are_trusted_whole() -> None:
    for path in sorted(FIXTURES.glob("*/state/journal.jsonl")):
        events = scan_file(path).events
        assert events and whole(events, GameSettings()), path


@cache
def sample(seed: int) -> DirectMatch:
    """A 5-point match with doubles, drops and new-match presses (cached: tests share it)."""
    return played_with_menus(seed, 5, games=3)


Tamper = Callable[[list[Event]], tuple[list[Event], int, int]]
"""Events -> (edited events, the index where trust must end, how many of the original
events the trusted state must equal)."""


def _index(events: list[Event], kind: str, *, last: bool = False) -> int:
    found = [i for i, e in enumerate(events) if e.type == kind]
    return found[-1] if last else found[len(found) // 2]


def _edited(event: Event, **fields: object) -> Event:
    return replace(event, fields={**event.fields, **fields})


def last_played_all_borne_off(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "played", last=True)
    return [*events[:i], _edited(events[i], position_id="AAAAAAAAAAAAAA"), *events[i + 1:]], i, i


def unknown_type(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "rolled")
    sparkle = Event(UnknownType("sparkle"), events[i].t, {"colour": "gold"})
    return [*events[:i], sparkle, *events[i:]], i, i


def duplicated(kind: str) -> Tamper:
    def tamper(events: list[Event]) -> tuple[list[Event], int, int]:
        i = _index(events, kind)
        return [*events[: i + 1], events[i], *events[i + 1:]], i + 1, i + 1
    tamper.__name__ = f"duplicated_{kind}"
    return tamper


def deleted_rolled(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "rolled")
    edited = [*events[:i], *events[i + 1:]]
    stop = next(j for j in range(i, len(edited)) if edited[j].type not in NOTES)
    return edited, stop, i


def play_text(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "played")
    return [*events[:i], _edited(events[i], play="24/23"), *events[i + 1:]], i, i


def negative_time(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "played")
    return [*events[:i], replace(events[i], t=-5), *events[i + 1:]], i, i


def time_backwards(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "rolled")
    return [*events[:i], replace(events[i], t=events[i - 1].t - 1), *events[i + 1:]], i, i


def score_raised(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "game_over")
    score = [n + 1 for n in events[i]["score"]]
    return [*events[:i], _edited(events[i], score=score), *events[i + 1:]], i, i


def other_dice(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "played")
    a, b = events[i]["dice"]
    dice = [6, 6] if [a, b] != [6, 6] else [1, 1]
    return [*events[:i], _edited(events[i], dice=dice), *events[i + 1:]], i, i


def cube_raised(events: list[Event]) -> tuple[list[Event], int, int]:
    i = _index(events, "double_offered")
    edited = _edited(events[i], cube=4 * events[i]["cube"])
    return [*events[:i], edited, *events[i + 1:]], i, i


TAMPERS: list[Tamper] = [
    last_played_all_borne_off, unknown_type, duplicated("played"), deleted_rolled, play_text,
    negative_time, duplicated("game_over"), time_backwards, score_raised, other_dice,
    cube_raised, duplicated("double_offered"), duplicated("match_over"),
]


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda t: t.__name__)
def test_an_edited_journal_is_trusted_up_to_the_edit(tamper: Tamper) -> None:
    match = next(m for m in map(sample, range(20))
                 if {"double_offered", "match_over"} <= {e.type for e in m.events})
    events = match.events
    edited, stop, kept = tamper(events)
    checked = verify(edited, match.settings)
    assert (checked.trusted, bool(checked.reason)) == (stop, True), checked.reason
    assert checked.reason.startswith(f"{edited[stop].type}: ")
    assert checked.state == restore(events[:kept], match.settings)


STATE_EVENTS = {"rolled", "played", "no_legal_move", "double_offered", "double_taken",
                "double_dropped", "game_over", "match_over", "opening_roll", "game_started"}


def _counts(event: Event) -> bool:
    """An event whose loss or repetition later events reveal (not a repeatable tie)."""
    tie = event.type == "opening_roll" and "starter" not in event.fields
    return event.type in STATE_EVENTS and not tie


def _revealed_after(events: list[Event], i: int) -> bool:
    """Whether an event of the same match after ``i`` depends on it: a ``new_match``
    starts afresh, so a loss just before one cannot show."""
    for later in events[i + 1:]:
        if later.type == "new_match":
            return False
        if later.type in STATE_EVENTS:
            return True
    return False


@pytest.mark.slow  # 60 journals checked: seconds
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 5), data=st.data())
def test_a_lost_event_is_caught_where_the_events_after_it_no_longer_follow(
        seed: int, data: st.DataObject) -> None:
    match = sample(seed)
    events = match.events
    revealed = [i for i, e in enumerate(events) if _counts(e) and _revealed_after(events, i)]
    i = data.draw(st.sampled_from(revealed))
    checked = verify([*events[:i], *events[i + 1:]], match.settings)
    assert i <= checked.trusted < len(events) - 1, events[i]
    assert checked.reason


@pytest.mark.slow  # 60 journals checked: seconds
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 5), data=st.data())
def test_a_repeated_event_is_caught_at_the_repetition(seed: int, data: st.DataObject) -> None:
    match = sample(seed)
    events = match.events
    i = data.draw(st.sampled_from([i for i, e in enumerate(events)
                                   if _counts(e) and e.type != "game_started"]))
    checked = verify([*events[: i + 1], *events[i:]], match.settings)
    assert checked.trusted == i + 1, events[i]


# -- the daemon's journal ----------------------------------------------------------


def test_the_daemon_cuts_the_journal_where_it_stops_following(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    match = direct_match(5, 3, games=1, doubles=0.2)
    events = match.events
    with Journal.open(tmp_path) as journal:
        journal.append(events)
    path = tmp_path / JOURNAL_NAME
    edited, stop, kept = last_played_all_borne_off(events)
    path.write_bytes(b"".join(map(encode, edited)))
    with caplog.at_level(logging.INFO, "tavla_pi"):
        journal, state = resume.open_journal(tmp_path, match.settings)
    with journal:
        assert journal.events == events[:stop]
        assert state == restore(events[:kept], match.settings)
        journal.append([Event(EventType.IN_SYNC, events[-1].t)])
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    aside = next(tmp_path.glob("journal.untrusted-*.jsonl"))
    assert warnings == [
        f"journal: {path}:{stop + 1}: played: no legal play of "
        f"{'-'.join(map(str, state.dice))} leads from {state.position().position_id()} "
        f"to AAAAAAAAAAAAAA: the game resumes from the {stop} event(s) before it; this event "
        f"and the {len(edited) - stop - 1} after it are moved to {aside.name}"]
    assert path.read_bytes() == b"".join(map(encode, [*events[:stop],
                                                      Event(EventType.IN_SYNC, events[-1].t)]))
    head, *rest = aside.read_bytes().splitlines(keepends=True)
    assert json.loads(head) == {"untrusted": f"{path}:{stop + 1}",
                                "reason": verify(edited, match.settings).reason}
    assert b"".join(rest) == b"".join(map(encode, edited[stop:]))
    caplog.clear()
    with caplog.at_level(logging.WARNING, "tavla_pi"):
        again, _ = resume.open_journal(tmp_path, match.settings)  # trusted whole now
        again.close()
    assert caplog.records == []


def test_a_resumed_board_that_differs_from_the_trusted_state_shows_the_fixes(
        tmp_path: Path) -> None:
    """Black's first play is edited away: the referee goes back before it while the
    simulated board still shows it, so the board asks for the checkers to be put back."""
    match = direct_match(11, 0, games=1)
    actions = list(runner_actions(match))[:30]
    first = Journal.open(tmp_path)

    async def play() -> None:
        daemon = VirtualDaemon(tmp_path, journal=first)
        for action in actions:
            await daemon.sim(action)
    asyncio.run(play())
    first.close()
    events = scan_file(tmp_path / JOURNAL_NAME).events
    played = [i for i, e in enumerate(events) if e.type == "played"]
    assert len(played) >= 3
    black = next(i for i in played if events[i]["player"] == "black")
    lines = [encode(e) for e in events]
    lines[black] = encode(_edited(events[black], play="13/1"))
    (tmp_path / JOURNAL_NAME).write_bytes(b"".join(lines))

    async def resumed() -> dict[str, object]:
        journal, state = resume.open_journal(tmp_path, GameSettings())
        daemon = VirtualDaemon(tmp_path, journal=journal)
        daemon.clock.advance(journal.events[-1].t + 1)
        assert daemon.desk.restore(simstore.RollCount().add(journal.events))
        resume.resume_from_journal(daemon.referee, journal, state, daemon.clock.now_ms())
        await daemon.sleep(600)
        answer = await daemon.state()
        journal.close()
        return answer

    state = asyncio.run(resumed())
    assert state["phase"] == "moving" and state["fix"]
    on_disk = scan_file(tmp_path / JOURNAL_NAME).events
    assert on_disk[:black] == events[:black]
    assert "out_of_sync" in [e.type for e in on_disk[black:]]
    assert whole(on_disk, GameSettings())
