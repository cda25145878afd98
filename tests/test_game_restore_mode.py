"""A match against the computer keeps its mode across a restart: the ``new_match`` that
began it names the computer's colour and level, and the journal gives them back."""

from __future__ import annotations

from pathlib import Path

import pytest
from journal_support import observation

from tavla_pi.engine.levels import Level
from tavla_pi.events.event import Event
from tavla_pi.events.journal import JOURNAL_NAME, Journal
from tavla_pi.events.schema import parse_event
from tavla_pi.events.types import EventType
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import restore, verify
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice

CONFIGURED = OpponentSettings(color=None, level=Level.EXPERT, coach=False,
                              blunder_threshold=0.2)
SETTINGS = GameSettings(match_length=3, opponent=CONFIGURED)
HOLD = ("menu", True)
PRESS = ("menu", False)


def chosen_on_the_board(presses: int) -> tuple[Referee, list[Event]]:
    """A referee whose MENU chose the mode ``presses`` short presses on, then the
    board set up and the opening rolled."""
    dice = ScriptedDice([(5, 2)])
    referee = Referee(SETTINGS, dice)
    events, now = [], 0
    for name, long in (HOLD, *[PRESS] * presses, HOLD):
        now += 100
        events += referee.on_button(name, long=long, now=now)
    events += referee.on_observation(observation(Board.initial()), now + 100)
    events += referee.on_button("white.roll", long=False, now=now + 200)
    return referee, events


def test_the_mode_goes_through_the_journal_file_and_back(tmp_path: Path) -> None:
    live, events = chosen_on_the_board(presses=8)                 # white at casual
    assert events[0].fields == {"match_length": 3, "opponent": "white", "level": "casual"}
    with Journal.open(tmp_path) as journal:
        journal.append(events)
    lines = (tmp_path / JOURNAL_NAME).read_text().splitlines()
    assert [parse_event(line) for line in lines] == events
    with Journal.open(tmp_path) as journal:
        checked = verify(journal.events, SETTINGS)
    assert (checked.trusted, checked.reason) == (len(events), "")
    expected = OpponentSettings(color=Color.WHITE, level=Level.CASUAL, coach=False,
                                blunder_threshold=0.2)
    assert checked.state.opponent == expected
    resumed = Referee(SETTINGS, ScriptedDice())
    resumed.resume(checked.state, 10_000)
    assert resumed.settings.opponent == live.settings.opponent == expected
    assert resumed.next_opponent == expected
    assert resumed.phase is live.phase is Phase.MOVING
    again = (resumed.on_button("menu", long=True, now=10_100)
             + resumed.on_button("menu", long=True, now=10_200))
    assert [e.fields for e in again] == [{"match_length": 3, "opponent": "white",
                                          "level": "casual"}]


@pytest.mark.parametrize("fields", [{"match_length": 3}, {"match_length": 3, "opponent": None}])
def test_a_new_match_without_the_computer_is_two_players_whatever_the_config(
        fields: dict[str, object]) -> None:
    configured = GameSettings(opponent=OpponentSettings(color=Color.BLACK))
    state = restore([Event(EventType.NEW_MATCH, 0, fields)], configured)
    assert state.opponent == OpponentSettings(color=None)


def test_a_journal_without_a_new_match_leaves_the_mode_to_the_config() -> None:
    _, events = chosen_on_the_board(presses=1)
    assert restore(events[1:], SETTINGS).opponent is None
    resumed = Referee(GameSettings(opponent=OpponentSettings(color=Color.BLACK)), ScriptedDice())
    resumed.resume(restore(events[1:], SETTINGS), 5000)
    assert resumed.settings.opponent.color is Color.BLACK


@pytest.mark.parametrize(("fields", "words"), [
    ({"match_length": 0, "opponent": "black", "level": "grandmaster"}, "'grandmaster'"),
    ({"match_length": 0, "opponent": "black"}, "field 'level' is missing"),
    ({"match_length": 0, "opponent": "purple", "level": "expert"}, '"purple"'),
])
def test_a_mode_this_board_cannot_play_ends_the_trusted_journal(fields: dict[str, object],
                                                               words: str) -> None:
    checked = verify([Event(EventType.NEW_MATCH, 0, fields)], SETTINGS)
    assert checked.trusted == 0 and words in checked.reason


def test_the_reader_checks_the_fields_it_knows() -> None:
    with pytest.raises(ValueError, match="opponent"):
        parse_event('{"t": 0, "type": "new_match", "match_length": 0, "opponent": 7}')
    with pytest.raises(ValueError, match="level"):
        parse_event('{"t": 0, "type": "new_match", "match_length": 0, "opponent": "white", '
                    '"level": ["expert"]}')
    old = parse_event('{"t": 0, "type": "new_match", "match_length": 0}')
    assert old.fields == {"match_length": 0}
