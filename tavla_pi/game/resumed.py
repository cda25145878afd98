"""The referee's state as the journal leaves it (:mod:`tavla_pi.game.restore` folds it).

:meth:`tavla_pi.game.referee.Referee.resume` continues from it, the daemon
shows and checks it; the journal's fold builds it event by event.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.game.matchclock import MatchClock
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.game.tavli import VariantResult
from tavla_pi.game.view import Phase
from tavla_pi.rules.match import MatchState, Resignation
from tavla_pi.rules.play import Play
from tavla_pi.rules.portes import portes_only
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch


@dataclass(frozen=True)
class Resumed:
    """The referee's state as the journal leaves it.

    ``dice`` are the dice shown (the turn's dice while moving or passing, a
    tied opening throw while rolling for the start); ``result`` is the
    finished game's; ``opening_throws`` the ties thrown so far; ``opponent``
    the match's opponent as its ``new_match`` says (None: the journal does not
    say, the config decides); ``resign_declined`` the resignation declined this
    turn (the player on roll may only offer more before rolling);
    ``seat_play`` the computer's play of the roll being moved, once chosen;
    ``before_play`` the state before the last play while it may be taken back;
    ``tavli`` the match of Portes, Plakoto, Fevga or tavli, ``committed`` its
    game's committed position (:meth:`game_position` has the match's player on roll);
    ``clock`` the match's clock as its last ``clock`` event (or its ``new_match``) left
    it, ``clock_wall_ms`` the wall-clock time of that event (None: none yet), from which
    a resume counts the time that ran since (:mod:`tavla_pi.game.matchclock`).
    """

    match: MatchState
    committed: VariantPosition
    phase: Phase
    tavli: TavliMatch
    dice: tuple[int, ...] = ()
    result: GameResult | VariantResult | None = None
    opening_throws: tuple[tuple[int, int], ...] = ()
    opponent: OpponentSettings | None = None
    resign_declined: Resignation = Resignation.NONE
    seat_play: Play | None = None
    before_play: Resumed | None = None
    clock: MatchClock | None = None
    clock_wall_ms: int | None = None

    def game_position(self) -> VariantPosition:
        """The committed position with the match's player on roll."""
        return self.committed.with_on_roll(self.match.on_roll)

    def position(self) -> Position:
        """GNU Backgammon's committed position, from the side of the player on roll."""
        return portes_only(self.game_position())
