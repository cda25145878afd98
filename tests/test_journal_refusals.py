"""Refusals: the journal check refuses every event the live referee would never
write, naming the line and the rule.

Each journal is a real one (a game the referee played, on the modelled board or on a
bare referee) with one event changed or added; :func:`verify` must stop at exactly that
event, and the check a user meets (``tavla-pi export`` and ``dice-stats`` read the state
directory through :func:`trusted_history`) must name its file line and the rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from differential_games import play_game
from game_support import dice, move, press, scenario
from journal_support import direct_match
from sim_support import PINMAP

from tavla_pi.cli.trusted import trusted_history
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, encode
from tavla_pi.events.types import EventType
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import restore, restore_steps, verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import GameState, MatchState
from tavla_pi.rules.position import Position

Journal = list[Event]


# -- the real journals -------------------------------------------------------------------


@functools.cache
def plakoto() -> tuple[Event, ...]:
    """A Plakoto match on the modelled board: the opening, two plays, a pin."""
    runner = ScenarioRunner(PINMAP, GameSettings())
    actions = ({"setup": "start", "variant": "plakoto", "match_length": 3},
               dice(5, 3), press("white.roll"), dice(2, 1), press("white.roll"),
               move("24/22", "white"), move("24/23", "white"), press("white.roll"),
               dice(6, 6), press("black.roll"),
               move("1/7", "black"), move("7/13", "black"), move("13/19", "black"),
               move("1/7", "black"), press("black.roll"))
    return tuple(runner.run(scenario(*actions)))


@functools.cache
def fevga() -> tuple[Event, ...]:
    """A 3-point Fevga match between two players, on a bare referee."""
    return tuple(play_game(5, "fevga", "players").boards[0].events)


@functools.cache
def portes() -> tuple[Event, ...]:
    """A money session of three games with doubles, takes, drops and resignations."""
    return tuple(direct_match(5, 0, 3, doubles=0.3, takes=0.7, resigns=0.08,
                              accepts=0.5).events)


@functools.cache
def friend() -> tuple[Event, ...]:
    """A Portes match against a friend's board, as the White board journals it."""
    return tuple(play_game(2, "portes", "friend").boards[0].events)


@functools.cache
def cube_at_64() -> tuple[Event, ...]:
    """A game loaded with the cube at 64, White's, White on roll; White's CUBE refused."""
    referee = Referee(GameSettings(), ScriptedDice())
    match = MatchState(on_roll=Color.WHITE, to_act=Color.WHITE, cube=64,
                       cube_owner=Color.WHITE, game_state=GameState.PLAYING)
    events = referee.load(Position.initial(), match, now=10)
    events += referee.on_button("white.cube", long=False, now=20)
    assert [str(e.type) for e in events][-1] == "rejected"
    return tuple(events)


# -- changing one event ------------------------------------------------------------------


def states(events: tuple[Event, ...]) -> list[State]:
    """The state before each event (the fold of every prefix)."""
    settings = GameSettings()
    return [restore([], settings), *restore_steps(events, settings)]


def first(events: tuple[Event, ...], kind: str, after: int = 0) -> int:
    return next(i for i, e in enumerate(events) if e.type == kind and i >= after)


def changed(events: tuple[Event, ...], index: int, **fields: Any) -> tuple[Journal, int]:
    """``events`` with event ``index``'s fields changed."""
    old = events[index]
    new = Event(old.type, old.t, {**old.fields, **fields})
    return [*events[:index], new, *events[index + 1:]], index


def added(events: tuple[Event, ...], index: int, kind: EventType,
          **fields: Any) -> tuple[Journal, int]:
    """``events`` with an event of ``kind`` put in before event ``index`` (at its time)."""
    t = events[index - 1].t
    return [*events[:index], Event(kind, t, fields), *events[index:]], index


def where(events: tuple[Event, ...], test: Callable[[State], bool], after: int = 0) -> int:
    """The first index (after ``after``) where the state before it passes ``test``."""
    return next(i for i, s in enumerate(states(events)) if i >= after and test(s))


def awaiting(state: State) -> bool:
    return state.phase is Phase.AWAIT_ROLL


# -- the cases ---------------------------------------------------------------------------


def double_in(journal: Callable[[], tuple[Event, ...]]) -> tuple[Journal, int]:
    events = journal()
    i = first(events, "played") + 1
    on_roll = Color(events[i - 1]["player"]).opponent
    return added(events, i, EventType.DOUBLE_OFFERED, player=on_roll.value, cube=2)


def take_with_no_double() -> tuple[Journal, int]:
    events = portes()
    i = where(events, awaiting, first(events, "played"))
    return added(events, i, EventType.DOUBLE_TAKEN, player="white", cube=2)


def double_by_the_player_who_does_not_own_the_cube() -> tuple[Journal, int]:
    events = portes()
    taken = first(events, "double_taken")
    i = where(events, lambda s: awaiting(s) and s.match.cube_owner is not None
              and s.match.on_roll is not s.match.cube_owner, taken)
    doubler = states(events)[i].match.on_roll
    cube = states(events)[i].match.cube
    return added(events, i, EventType.DOUBLE_OFFERED, player=doubler.value, cube=2 * cube)


def play_after_the_game_ended() -> tuple[Journal, int]:
    events = portes()
    over = first(events, "game_over")
    last = max(i for i in range(over) if events[i].type == "played")
    return added(events, over + 1, EventType.PLAYED, **events[last].fields)


def resignation_accepted_by_its_offerer() -> tuple[Journal, int]:
    events = portes()
    offer = first(events, "resign_offered")
    answer = offer + 1
    assert events[answer].type in ("resign_accepted", "resign_declined")
    fields = {"player": events[offer]["player"], "points": events[offer]["points"]}
    journal = list(events)
    journal[answer] = Event(EventType.RESIGN_ACCEPTED, events[answer].t, fields)
    return journal, answer


def second_roll_in_one_turn() -> tuple[Journal, int]:
    events = portes()
    rolled = first(events, "rolled")
    return added(events, rolled + 1, EventType.ROLLED, **events[rolled].fields)


def takeback_after_the_opponents_play() -> tuple[Journal, int]:
    events = portes()
    mine = first(events, "played", first(events, "rolled"))
    theirs = first(events, "played", mine + 1)
    before = states(events)[mine]
    return added(events, theirs + 1, EventType.TAKEBACK, player=events[mine]["player"],
                 dice=events[mine]["dice"], position_id=before.game_position().position_id(),
                 match_id=before.match.match_id())


def remote_play_not_legal() -> tuple[Journal, int]:
    events = friend()
    i = first(events, "remote_play")
    return changed(events, i, play="24/12 24/12")


def clock_in_a_match_without_one() -> tuple[Journal, int]:
    events = portes()
    i = first(events, "played") + 1
    return added(events, i, EventType.CLOCK, reserve_ms={"white": 60_000, "black": 60_000},
                 running="white", delay_ms=0, flag=None, wall_ms=1_000)


def played_with_the_wrong_dice() -> tuple[Journal, int]:
    events = portes()
    i = first(events, "played", first(events, "rolled"))
    high, low = events[i]["dice"]
    wrong = [6, 6] if [high, low] != [6, 6] else [1, 1]
    return changed(events, i, dice=wrong)


def opening_roll_with_the_wrong_starter() -> tuple[Journal, int]:
    events = portes()
    i = next(i for i, e in enumerate(events) if e.type == "opening_roll" and "starter" in e.fields)
    other = Color(events[i]["starter"]).opponent
    return changed(events, i, starter=other.value)


def game_over_with_the_wrong_points() -> tuple[Journal, int]:
    events = portes()
    i = first(events, "game_over")
    return changed(events, i, points=events[i]["points"] + 1)


def double_after_the_cube_reached_64() -> tuple[Journal, int]:
    events = cube_at_64()
    return added(events, len(events), EventType.DOUBLE_OFFERED, player="white", cube=128)


def roll_by_the_player_not_on_roll() -> tuple[Journal, int]:
    events = portes()
    i = first(events, "rolled", first(events, "played"))
    other = Color(events[i]["player"]).opponent
    return changed(events, i, player=other.value)


def no_legal_move_with_a_legal_move() -> tuple[Journal, int]:
    events = portes()
    rolled = first(events, "rolled")
    return added(events, rolled + 1, EventType.NO_LEGAL_MOVE, player=events[rolled]["player"],
                 dice=sorted(events[rolled]["dice"], reverse=True))


@dataclass(frozen=True)
class Case:
    """A changed journal, and the part of the reason that names the rule broken."""

    make: Callable[[], tuple[Journal, int]]
    rule: str
    adds: bool = True
    """Whether the case adds the event (else it changes one)."""


def case(ident: str, make: Callable[[], tuple[Journal, int]], rule: str, *,
         adds: bool = True, marks: Any = ()) -> Any:
    """One case as a test parameter."""
    return pytest.param(Case(make, rule, adds), id=ident, marks=marks)


CASES = [
    case("double-plakoto", functools.partial(double_in, plakoto),
         "no cube"),
    case("double-fevga", functools.partial(double_in, fevga),
         "no cube"),
    case("take-no-double", take_with_no_double,
         "double_taken: no double is offered"),
    case("double-not-owner", double_by_the_player_who_does_not_own_the_cube,
         "double_offered: the cube belongs to"),
    case("play-after-game-over", play_after_the_game_ended,
         "played: black is not on roll"),
    case("resign-accepted-by-offerer", resignation_accepted_by_its_offerer,
         "must accept or decline the resignation", adds=False),
    case("second-roll", second_roll_in_one_turn,
         "rolled: no roll is awaited now (moving)"),
    case("takeback-after-opponents-play", takeback_after_the_opponents_play,
         "takeback: the player is"),
    case("remote-play-not-legal", remote_play_not_legal,
         "remote_play: the play's notation is", adds=False),
    case("clock-without-clock", clock_in_a_match_without_one,
         "clock: no clock runs in this match"),
    case("played-wrong-dice", played_with_the_wrong_dice,
         "played: dice is (6, 5) by the rules", adds=False),
    case("opening-wrong-starter", opening_roll_with_the_wrong_starter,
         "opening_roll: the starter", adds=False),
    case("game-over-wrong-points", game_over_with_the_wrong_points,
         "game_over: the points", adds=False),
    case("double-past-64", double_after_the_cube_reached_64,
         "the cube is at 64, its highest value"),
    case("roll-not-on-roll", roll_by_the_player_not_on_roll,
         "rolled: black is not on roll", adds=False),
    case("no-legal-move-with-a-play", no_legal_move_with_a_legal_move,
         "only right after a roll with no legal play"),
]


@pytest.mark.parametrize("case", CASES)
def test_the_real_journal_follows_and_the_changed_event_is_refused_by_its_rule(
        case: Case) -> None:
    journal, index = case.make()
    real = [e for n, e in enumerate(journal) if n != index]
    if case.adds:  # the real journal follows the rules to its end
        assert verify(real, GameSettings()).reason == ""
    checked = verify(journal, GameSettings())
    assert (checked.trusted, checked.reason.startswith(f"{journal[index].type}: ")) == \
        (index, True), checked.reason
    assert case.rule in checked.reason


@pytest.mark.parametrize("case", CASES)
def test_the_check_a_user_meets_names_the_line_and_the_rule(case: Case,
                                                            tmp_path: Path) -> None:
    journal, index = case.make()
    (tmp_path / JOURNAL_NAME).write_bytes(b"".join(encode(e) for e in journal))
    warnings = trusted_history(tmp_path).warnings
    line = f"{JOURNAL_NAME}:{index + 1}: "
    assert any(line in w and case.rule in w for w in warnings), warnings
