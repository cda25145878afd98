"""MatchState and the Match ID: gnubg's own IDs, round trips, clear refusals."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla_pi.errors import IllegalPlayError, InvalidIdError, InvalidMatchStateError
from tavla_pi.rules import Color, GameState, MatchRules, MatchState, OpeningRoll, Resignation
from tavla_pi.rules.match import (
    MAX_CUBE,
    MAX_MATCH_LENGTH,
    MAX_SCORE,
    PLAYERS,
    new_match,
    rolled,
    start_game,
    turn_done,
)

FIXTURE = Path(__file__).parent / "fixtures" / "matchid.jsonl"
FIXTURE_LINES: list[dict[str, Any]] = [json.loads(line) for line in FIXTURE.open()]

W, B = Color.WHITE, Color.BLACK


def gnubg_view(state: MatchState) -> dict[str, Any]:
    """A state in the terms gnubg reports it (see tools/gen_matchid_fixture.py)."""
    owner = -1 if state.cube_owner is None else PLAYERS.index(state.cube_owner)
    return {
        "cube": state.cube,
        "cube_owner": owner,
        "move": PLAYERS.index(state.on_roll),
        "turn": PLAYERS.index(state.to_act),
        "doubled": int(state.double_offered),
        "resigned": int(state.resignation),
        "dice": list(state.dice or (0, 0)),
        "match_length": state.match_length,
        "score": list(state.score),
        "crawford": int(state.crawford),
        # gnubg's cube info shows the Jacoby rule only where it applies: money play
        "jacoby": int(state.jacoby and state.is_money),
        "game_state": int(state.game_state),
    }


def test_the_fixture_covers_real_situations() -> None:
    views = [line["fields"] for line in FIXTURE_LINES]
    assert len(FIXTURE_LINES) >= 300
    assert {v["game_state"] for v in views} == {1, 2, 3, 4}
    assert {v.get("cube") for v in views} >= {1, 2, 4, 8, 16, 32, 64}
    assert any(v["doubled"] and v.get("move") == v["turn"] for v in views)  # a beaver
    assert any(v["crawford"] and v["game_state"] == 1 for v in views)
    assert any(v["match_length"] == 0 and v.get("jacoby") for v in views)
    assert any(v["match_length"] and max(v["score"]) >= v["match_length"] for v in views)


@pytest.mark.parametrize("line", FIXTURE_LINES, ids=[line["match_id"] for line in FIXTURE_LINES])
def test_gnubg_match_ids_decode_to_gnubgs_fields_and_back(line: dict[str, Any]) -> None:
    state = MatchState.from_match_id(line["match_id"])
    view = gnubg_view(state)
    # gnubg keeps dice set by "set dice 2 4" in that order but writes the ID larger first
    reported = dict(line["fields"], dice=sorted(line["fields"]["dice"], reverse=True))
    assert {key: view[key] for key in reported} == reported, line["situation"]
    assert state.match_id() == line["match_id"]


# -- round trips ----------------------------------------------------------------

colors = st.sampled_from(PLAYERS)


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    """Any valid MatchState."""
    length = draw(st.sampled_from([0, 1, 2, 3, 5, 7, 25, MAX_MATCH_LENGTH]))
    game_state = draw(st.sampled_from(list(GameState)))
    if length == 0:
        score = draw(st.tuples(*[st.integers(0, MAX_SCORE)] * 2))
    elif game_state.ended and draw(st.booleans()):
        winner = draw(st.integers(0, 1))
        points = [draw(st.integers(0, length - 1)), draw(st.integers(length, length + 3 * 64))]
        score = (points[winner], points[1 - winner])
    else:
        score = draw(st.tuples(*[st.integers(0, length - 1)] * 2))
    return MatchState(
        cube=1 << draw(st.integers(0, 6)),
        cube_owner=draw(st.one_of(st.none(), colors)),
        on_roll=draw(colors),
        to_act=draw(colors),
        double_offered=draw(st.booleans()),
        resignation=draw(st.sampled_from(list(Resignation))),
        dice=draw(st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6)))),
        match_length=length,
        score=score,
        crawford=length > 0 and draw(st.booleans()),
        jacoby=draw(st.booleans()),
        game_state=game_state,
    )


@given(match_states())
def test_match_id_round_trips(state: MatchState) -> None:
    match_id = state.match_id()
    assert len(match_id) == 12
    assert MatchState.from_match_id(match_id) == state


@given(match_states())
def test_repr_is_a_constructor_call(state: MatchState) -> None:
    names = {"MatchState": MatchState, "Color": Color, "GameState": GameState}
    names["Resignation"] = Resignation
    assert eval(repr(state), names) == state


@given(st.binary(min_size=9, max_size=9))
def test_every_accepted_id_is_written_back_unchanged(key: bytes) -> None:
    match_id = base64.b64encode(key).decode()
    try:
        state = MatchState.from_match_id(match_id)
    except InvalidIdError as exc:
        assert str(exc).startswith(f"Match ID {match_id!r}: ")
    else:
        assert state.match_id() == match_id


def test_dice_are_held_larger_first() -> None:
    assert MatchState(dice=(2, 5)).dice == (5, 2)
    assert MatchState(dice=(2, 5)) == MatchState(dice=(5, 2))


def test_repr_shows_only_what_differs_from_the_defaults() -> None:
    state = MatchState(match_length=7, score=(2, 1), dice=(6, 3))
    assert repr(state) == "MatchState(dice=(6, 3), match_length=7, score=(2, 1))"
    assert repr(MatchState()) == "MatchState()"


def test_a_known_id_from_gnubg() -> None:
    # gnubg 1.07: "new match 7", opening roll 6-3 won by player 1 (Black)
    state = MatchState.from_match_id("cAnvAAAAAAAE")
    assert state == MatchState(on_roll=B, to_act=B, dice=(6, 3), match_length=7)


# -- refusals ---------------------------------------------------------------------


def key_id(**fields: int) -> str:
    """A Match ID with these raw bit fields (the rest: a 7-point match in play)."""
    layout = {
        "cube_log": (0, 0), "owner": (4, 3), "move": (6, 0), "crawford": (7, 0),
        "state": (8, 1), "turn": (11, 0), "doubled": (12, 0), "resigned": (13, 0),
        "die1": (15, 0), "die2": (18, 0), "length": (21, 7), "score0": (36, 0),
        "score1": (51, 0), "no_jacoby": (66, 1), "unused": (67, 0),
    }  # fmt: skip
    bits = 0
    for name, (start, default) in layout.items():
        bits |= fields.get(name, default) << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("match_id", "problem"),
    [
        ("cAnvAAAAAAA", "a Match ID has 12 characters, this has 11"),
        ("cAnvAAAAAAAE=", "a Match ID has 12 characters, this has 13"),
        ("cAnvAAAA-AAE", "character '-' is not in the base64 alphabet"),
        (key_id(unused=1), "the unused bits 67-71 are not zero"),
        (key_id(owner=2), "cube owner bits 2 name no player (3 is centred)"),
        (key_id(state=5), "game state 5 is not 0..4"),
        (key_id(cube_log=7), "cube value 128 is above 64, the highest cube"),
        (key_id(die1=7, die2=1), "dice 7 and 1 are not both 1..6 (or both 0)"),
        (key_id(die1=3), "dice 3 and 0 are not both 1..6 (or both 0)"),
        (key_id(die1=2, die2=5), "dice 2 and 5: the larger die comes first"),
        (key_id(length=65), "match length 65 is not 0..64"),
        (key_id(length=0, crawford=1), "there is no Crawford game in money play"),
        (
            key_id(score0=7),
            "score 7-0 has reached the match length 7 but the game is not over",
        ),
        (key_id(score0=7, score1=8, state=2), "both scores reach the match length 7"),
    ],
)
def test_bad_match_ids_are_refused_with_the_reason(match_id: str, problem: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        MatchState.from_match_id(match_id)
    assert str(caught.value) == f"Match ID {match_id!r}: {problem}"
    assert caught.value.problem == problem


def test_a_match_id_must_be_a_string() -> None:
    with pytest.raises(InvalidIdError, match="a string of 12 characters"):
        MatchState.from_match_id(12345)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"cube": 3}, "cube value 3 is not a power of two 1..64"),
        ({"cube": 128}, "cube value 128 is not a power of two 1..64"),
        ({"cube": 0}, "cube value 0 is not a power of two 1..64"),
        ({"dice": (0, 3)}, "dice (0, 3) are not two numbers 1..6"),
        ({"dice": (1, 2, 3)}, "dice (1, 2, 3) are not two numbers 1..6"),
        ({"score": (-1, 0)}, "score (-1, 0) is not two numbers 0..32767"),
        ({"score": (1 << 15, 0)}, "score (32768, 0) is not two numbers 0..32767"),
        ({"match_length": -1}, "match length -1 is not 0..64"),
    ],
)
def test_bad_fields_are_refused(fields: dict[str, Any], problem: str) -> None:
    with pytest.raises(InvalidMatchStateError) as caught:
        MatchState(**fields)
    assert str(caught.value) == problem


def test_the_match_winner_is_whoever_reached_the_length() -> None:
    assert MatchState(match_length=5, score=(4, 3)).match_winner is None
    over = MatchState(match_length=5, score=(4, 7), game_state=GameState.OVER)
    assert over.match_winner is Color.BLACK
    assert MatchState(score=(400, 3)).match_winner is None  # money play never ends


# -- game by game, turn by turn ------------------------------------------------------


def test_a_new_match_waits_for_its_opening_roll() -> None:
    state = new_match(7, MatchRules())
    assert state == MatchState(match_length=7, game_state=GameState.NONE)
    assert new_match(0, MatchRules(jacoby=True)).jacoby
    assert not new_match(7, MatchRules(jacoby=True)).jacoby  # Jacoby is for money play


def test_the_opening_roll_starts_the_game_with_the_higher_die_on_roll() -> None:
    state = start_game(new_match(7, MatchRules()), OpeningRoll(((3, 5),)), MatchRules())
    assert state == MatchState(on_roll=B, to_act=B, dice=(5, 3), match_length=7)


@pytest.mark.parametrize(
    ("length", "ties", "limit", "cube"),
    [
        (0, 0, 3, 1),
        (0, 1, 3, 2),
        (0, 2, 3, 4),
        (0, 5, 3, 8),
        (0, 7, 6, 64),
        (0, 2, 0, 1),
        (7, 2, 3, 1),
    ],
)
def test_automatic_doubles_double_the_money_cube_per_opening_tie(
    length: int, ties: int, limit: int, cube: int
) -> None:
    rules = MatchRules(automatic_doubles=limit)
    opening = OpeningRoll(((4, 4),) * ties + ((6, 1),))
    state = start_game(new_match(length, rules), opening, rules)
    assert state.cube == cube
    assert state.cube_owner is None


def test_automatic_doubles_stop_at_64() -> None:
    with pytest.raises(InvalidMatchStateError, match=r"automatic doubles 7 is not 0\.\.6"):
        MatchRules(automatic_doubles=7)
    assert MAX_CUBE == 64


def test_no_new_game_while_one_is_on_or_the_match_is_over() -> None:
    rules = MatchRules()
    opening = OpeningRoll(((6, 1),))
    with pytest.raises(IllegalPlayError, match="already in progress"):
        start_game(MatchState(match_length=7), opening, rules)
    over = MatchState(match_length=3, score=(3, 1), game_state=GameState.OVER)
    with pytest.raises(IllegalPlayError, match="the match is over: white has won it"):
        start_game(over, opening, rules)


def test_next_game_keeps_score_and_crawford_flag() -> None:
    ended = MatchState(
        cube=4, cube_owner=W, match_length=5, score=(4, 1), crawford=True,
        game_state=GameState.OVER,
    )  # fmt: skip
    state = start_game(ended, OpeningRoll(((2, 6),)), MatchRules())
    assert state == MatchState(
        on_roll=B, to_act=B, dice=(6, 2), match_length=5, score=(4, 1), crawford=True
    )


def test_a_turn_rolls_then_passes_to_the_opponent() -> None:
    state = MatchState(on_roll=W, to_act=W, match_length=7)
    after_roll = rolled(state, (2, 6))
    assert after_roll.dice == (6, 2)
    assert turn_done(after_roll) == MatchState(on_roll=B, to_act=B, match_length=7)


@pytest.mark.parametrize(
    ("state", "problem"),
    [
        (MatchState(game_state=GameState.OVER), "no game in progress"),
        (MatchState(double_offered=True, to_act=B), "black must answer the offer before rolling"),
        (MatchState(resignation=Resignation.SINGLE, to_act=B), "black must answer the offer"),
        (MatchState(dice=(3, 3)), "white has already rolled"),
    ],
)
def test_no_roll_out_of_turn(state: MatchState, problem: str) -> None:
    with pytest.raises(IllegalPlayError, match=problem):
        rolled(state, (1, 2))


def test_a_turn_ends_only_after_rolling() -> None:
    with pytest.raises(IllegalPlayError, match="only after the dice are rolled"):
        turn_done(MatchState())
