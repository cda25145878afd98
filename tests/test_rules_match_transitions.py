"""Every action gnubg took or refused in recorded play gives the same Match ID here.

tests/fixtures/matchid_transitions.jsonl comes from tools/gen_matchid_fixture.py:
gnubg played matches and money sessions (doubling, taking, dropping,
beavering, resigning, bearing off) and wrote the Match ID before and after
each action, or null after when it refused the action.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.rules import Color, MatchRules, MatchState, OpeningRoll
from tavla_pi.rules.cube import (
    beaver,
    drop,
    may_beaver,
    may_double,
    may_drop,
    may_take,
    offer_double,
    take,
)
from tavla_pi.rules.match import PLAYERS, rolled, start_game, turn_done
from tavla_pi.rules.scoring import accept_resignation, win_by_play

FIXTURE = Path(__file__).parent / "fixtures" / "matchid_transitions.jsonl"
LINES: list[dict[str, Any]] = [json.loads(line) for line in FIXTURE.open()]


def line_id(line: dict[str, Any]) -> str:
    return f"{line['before']}-{line['action']}-{line['after']}"


def opening_that_gave(after: MatchState) -> OpeningRoll:
    """An opening roll consistent with the new game gnubg started."""
    assert after.dice is not None
    high, low = after.dice
    white, black = (high, low) if after.on_roll is Color.WHITE else (low, high)
    ties = after.cube.bit_length() - 1  # each tie doubled the cube (automatic doubles)
    return OpeningRoll(((1, 1),) * ties + ((white, black),))


def apply(line: dict[str, Any], before: MatchState, after: MatchState) -> MatchState:
    """Our rules applied to ``before`` for the action gnubg took."""
    rules = MatchRules(beavers=bool(line["beavers"]), automatic_doubles=line["automatic_doubles"])
    player = PLAYERS[line["player"]]
    actions: dict[str, Callable[[], MatchState]] = {
        "double": lambda: offer_double(before, player, rules),
        "take": lambda: take(before, player),
        "drop": lambda: drop(before, player, rules)[0],
        "beaver": lambda: beaver(before, player, rules),
        "accept": lambda: accept_resignation(before, rules)[0],
        "roll": lambda: rolled(before, after.dice or (0, 0)),
        "move": lambda: turn_done(before),
        # no legal play: gnubg passes the turn at once, so the dice are not in the ID
        "roll without play": lambda: turn_done(rolled(before, (1, 1))),
        "win": lambda: win_by_play(before, player, line["loser_checkers"], rules)[0],
        "new game": lambda: start_game(before, opening_that_gave(after), rules),
    }
    return actions[line["action"]]()


def allowed(line: dict[str, Any], before: MatchState) -> bool:
    rules = MatchRules(beavers=bool(line["beavers"]))
    player = PLAYERS[line["player"]]
    predicates = {
        "double": lambda: may_double(before, player, rules),
        "take": lambda: may_take(before, player),
        "drop": lambda: may_drop(before, player),
        "beaver": lambda: may_beaver(before, player, rules),
    }
    return bool(predicates[line["action"]]())


def test_the_fixture_has_every_kind_of_action() -> None:
    done = {line["action"] for line in LINES if line["after"]}
    refused = {line["action"] for line in LINES if not line["after"]}
    assert done == {
        "double", "take", "drop", "beaver", "accept", "roll", "roll without play", "move", "win",
        "new game",
    }  # fmt: skip
    assert refused >= {"double", "beaver"}


@pytest.mark.parametrize("line", LINES, ids=[line_id(line) for line in LINES])
def test_actions_match_gnubg(line: dict[str, Any]) -> None:
    before = MatchState.from_match_id(line["before"])
    if line["after"] is None:
        assert not allowed(line, before)
        return
    after = MatchState.from_match_id(line["after"])
    if line["action"] in ("double", "take", "drop", "beaver"):
        assert allowed(line, before)
    assert apply(line, before, after).match_id() == line["after"]
