"""Proven the same: after every call that emits events, the referee's state
equals the fold of its journal so far (the events as the journal writes and reads them).

Random matches (tests/differential_games.py) in every variant with two players, and in
Portes against the computer (the scripted engine choosing at random) and against a
friend's board (two referees joined here); doubles, beavers, takes, drops,
resignations, takebacks, no-move passes, the tournament clock with its flag now and
then, game and match ends: 207 games in all (counted 2026-12 with these seeds).
"""

from __future__ import annotations

import pytest
from differential_games import Game, play_game

from tavla_pi.events.types import EventType
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.testing.differential import Differential, RunningFold

MATCHES = {("portes", "players"): 48, ("plakoto", "players"): 6, ("fevga", "players"): 10,
           ("tavli", "players"): 5, ("portes", "computer"): 35, ("portes", "friend"): 30}
"""How many random matches of each kind (the variants' turns cost the referee more)."""

def cases() -> list[object]:
    out: list[object] = []
    for (variant, seat), n in MATCHES.items():
        out += [pytest.param(variant, seat, seed, id=f"{variant}-{seat}-{seed}")
                for seed in range(n)]
    return out


@pytest.mark.parametrize(("variant", "seat", "seed"), cases())
def test_the_referee_and_the_fold_of_its_journal_agree(variant: str, seat: str,
                                                        seed: int) -> None:
    game = play_game(seed, variant, seat)
    assert [str(f) for f in game.findings] == []
    for board in game.boards:
        assert any(e.type is EventType.GAME_STARTED for e in board.events)


def test_the_check_sees_a_state_the_journal_does_not_lead_to() -> None:
    game = Game(3, "portes", "players")
    game.play()
    board = game.boards[0]
    rolled = next(i for i, e in enumerate(board.events) if e.type is EventType.ROLLED)
    fold = RunningFold(board.referee.settings)
    assert fold.add(board.events[:rolled]) == ""
    assert Differential(board.referee, fold).check([]) != []  # before the first roll
    refusing = Differential(board.referee, fold)
    assert "refused: event" in refusing.check(board.events[rolled + 1:])[0]
    assert refusing.check(board.events[rolled + 1:]) == []  # said once


def test_a_fresh_referee_and_an_empty_journal_agree() -> None:
    settings = GameSettings(match_length=3, variant="fevga")
    referee = Referee(settings, ScriptedDice())
    fold = RunningFold(settings)
    assert Differential(referee, fold).check([]) == []
    assert referee.state.phase is fold.state.phase
