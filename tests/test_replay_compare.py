"""compare(): how the events `tavla-pi replay` printed are checked against the expected ones."""

from __future__ import annotations

import pytest
from scenario_compare import compare, parse_events

PLAYED = {
    "type": "played", "player": "white", "dice": [3, 1], "play": "8/5 6/5",
    "position_id": "sGfwATDgc/ABMA", "match_id": "cAlgAAAAAAAE",
}
OPENING = {"type": "opening_roll", "white": 3, "black": 1, "starter": "white"}
OVER = {"type": "game_over", "winner": "white", "kind": "single", "cube": 1, "points": 1,
        "score": [1, 0]}


def test_equal_streams_match() -> None:
    assert compare([OPENING, PLAYED], [OPENING, PLAYED]) == []


def test_time_extra_fields_and_other_types_are_ignored() -> None:
    actual = [
        {"t": 0, "type": "game_started", "position_id": "4HPwATDgc/ABMA", "match_id": "x"},
        {**OPENING, "t": 10},
        {"t": 11, "type": "rolled", "player": "white", "dice": [3, 1]},
        {"t": 20, "type": "lifted", "player": "white", "from": "8", "destinations": ["5", "7"]},
        {"t": 30, "type": "out_of_sync", "fix": [{"at": "9", "color": "white", "remove": 1}]},
        {"t": 40, "type": "in_sync"},
        {**PLAYED, "t": 50, "reason": "anything"},
    ]
    assert compare([OPENING, PLAYED], actual) == []


def test_a_wrong_field_is_named_with_the_event() -> None:
    wrong = {**PLAYED, "match_id": "cAkgAAAAAAAE"}
    problems = compare([OPENING, PLAYED], [OPENING, wrong])
    assert problems[0] == (
        'event 2 of 2 (played): match_id expected "cAlgAAAAAAAE", got "cAkgAAAAAAAE"'
    )
    assert any("actual" in line and "cAkgAAAAAAAE" in line for line in problems)


def test_a_missing_field_is_reported_absent() -> None:
    bare = {key: value for key, value in PLAYED.items() if key != "play"}
    assert compare([PLAYED], [bare]) == [
        'event 1 of 1 (played): play expected "8/5 6/5", got absent',
        f"  expected {__import__('json').dumps(PLAYED)}",
        f"  actual   {__import__('json').dumps(bare)}",
    ]


def test_missing_events_are_reported() -> None:
    problems = compare([OPENING, PLAYED, OVER], [OPENING, PLAYED])
    assert len(problems) == 1
    assert problems[0].startswith("1 expected event(s) missing from event 3")
    assert "game_over" in problems[0]


def test_unexpected_compared_events_are_reported() -> None:
    rejected = {"type": "rejected", "player": "white", "reason": "dice not used"}
    problems = compare([OPENING, PLAYED], [OPENING, rejected, PLAYED])
    assert problems[0] == 'event 2 of 2 (played): type expected "played", got "rejected"'
    assert compare([OPENING], [OPENING, PLAYED])[0].startswith(
        "1 unexpected event(s) after event 1"
    )


def test_null_means_the_field_must_be_absent() -> None:
    tie = {"type": "opening_roll", "white": 4, "black": 4, "starter": None}
    assert compare([tie], [{"type": "opening_roll", "white": 4, "black": 4}]) == []
    assert compare([tie], [{**tie, "starter": None}]) == []
    problems = compare([tie], [{**tie, "starter": "white"}])
    assert problems[0] == 'event 1 of 1 (opening_roll): starter expected null, got "white"'


def test_dice_compare_in_either_order_but_exactly() -> None:
    assert compare([PLAYED], [{**PLAYED, "dice": [1, 3]}]) == []
    assert compare([PLAYED], [{**PLAYED, "dice": [3, 3]}]) != []
    assert compare([PLAYED], [{**PLAYED, "dice": [3, 1, 1]}]) != []
    # the opening roll's dice are named fields: their order matters
    assert compare([OPENING], [{**OPENING, "white": 1, "black": 3}]) != []


def test_scores_and_other_lists_compare_in_order() -> None:
    assert compare([OVER], [{**OVER, "score": [0, 1]}]) != []


def test_expected_types_beyond_the_default_set_are_compared() -> None:
    rolled = {"type": "rolled", "player": "black", "dice": [6, 6]}
    assert compare([rolled], [{"type": "rolled", "player": "black", "dice": [6, 6]}]) == []
    assert compare([rolled], []) != []


def test_parse_events_skips_comments_and_blank_lines() -> None:
    text = ['# a comment', '', '{"type": "in_sync", "t": 3}', '  ', '{"type": "rejected"}']
    assert parse_events(text) == [{"type": "in_sync", "t": 3}, {"type": "rejected"}]


@pytest.mark.parametrize("line", ["{not json", "[1, 2]"])
def test_parse_events_names_the_line_at_fault(line: str) -> None:
    with pytest.raises(ValueError, match=r"^out:2: "):
        parse_events(["{}", line], "out")
