"""Games against GNU Backgammon at expert, replayed by ``tavla-pi replay``: gnubg's own plays.

Ten games, 1-point matches and money games, are played on the modelled board
with the computer as Black and the human side making random legal plays
(seeded); each is written as a scenario, the computer's moves made by the
hand, and replayed by ``tavla-pi replay`` in its own process.  Every
``seat_play`` must be the play gnubg itself chooses at 0-ply for that
position, dice and match context, asked directly through its embedded
Python (tests/computer_games.py); every one must be carried out and
committed, and each game must end with the result its last position gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from computer_games import run_games
from programs import needs

GAMES = 10
FIRST_SEED = 1


@pytest.mark.slow
@needs("gnubg")
def test_every_engine_play_is_gnubgs_own_and_every_game_ends_right(tmp_path: Path) -> None:
    report = run_games(list(range(FIRST_SEED, FIRST_SEED + GAMES)), tmp_path)
    print(f"\n{report.games} games, {report.plays} engine plays: {report.agree} gnubg's own, "
          f"{report.committed} committed, {report.results_right} results right, "
          f"{report.seconds:.0f} s")
    assert not report.problems, "\n".join(report.problems[:10])
    assert report.games == GAMES and report.results_right == GAMES
    assert report.plays == report.agree == report.committed
    assert report.plays >= 10 * GAMES
