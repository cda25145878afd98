"""The journal's reader lists no game names (events import only errors and bounded):
a ``variant`` is a short string there, and the fold refuses a name the rules do not
know (``rules.variants``, the one list of names), naming the event and the name."""

from __future__ import annotations

import pytest

from tavla_pi.events.event import Event
from tavla_pi.events.schema import parse_event
from tavla_pi.events.types import EventType
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.tavlimatch import MATCHES

SETTINGS = GameSettings(match_length=3)


@pytest.mark.parametrize("name", [*MATCHES, "narde"])
def test_the_reader_takes_any_short_name_of_a_match(name: str) -> None:
    line = f'{{"t": 0, "type": "new_match", "match_length": 3, "variant": "{name}"}}'
    assert parse_event(line).fields["variant"] == name


@pytest.mark.parametrize("value", ['7', '""', '["plakoto"]', '"' + "x" * 41 + '"'])
def test_the_reader_refuses_a_variant_that_is_no_short_name(value: str) -> None:
    with pytest.raises(ValueError, match="variant"):
        parse_event(f'{{"t": 0, "type": "game_started", "position_id": "4HPwATDgc/ABMA", '
                    f'"match_id": "cAkAAAAAAAAA", "variant": {value}}}')


def test_the_fold_refuses_a_match_of_a_game_the_rules_do_not_know() -> None:
    checked = verify([Event(EventType.NEW_MATCH, 0, {"match_length": 3, "variant": "narde"})],
                     SETTINGS)
    assert checked.trusted == 0
    assert checked.reason.startswith("new_match:") and "unknown match 'narde'" in checked.reason


@pytest.mark.parametrize("name", MATCHES)
def test_the_fold_takes_a_match_of_each_name_the_rules_know(name: str) -> None:
    checked = verify([Event(EventType.NEW_MATCH, 0, {"match_length": 3, "variant": name})],
                     SETTINGS)
    assert checked.trusted == 1, checked.reason
