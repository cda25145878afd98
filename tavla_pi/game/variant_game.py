"""The referee's part for the games of tavli: the board a game is set up to, a
Plakoto or Fevga position following the player on roll, and its plays committed
(:mod:`tavla_pi.game.tavli` has the rules they share with the journal's fold)."""

from __future__ import annotations

from tavla_pi.events.types import EventType
from tavla_pi.game.refereebase import RefereeBase
from tavla_pi.game.tavli import commit_variant, high_first, on_roll, position_id, start_board
from tavla_pi.game.turn import Turn
from tavla_pi.game.view import Phase
from tavla_pi.rules.board import Board
from tavla_pi.rules.tavli import BoardDict, VariantPlay


class VariantGames(RefereeBase):
    """Plakoto, Fevga and the tavli match, for :class:`~tavla_pi.game.referee.Referee`."""

    turn: Turn | None

    def board_dict(self) -> BoardDict | dict[str, dict[str, int]]:
        """The committed board in the form of docs/CONTRACTS.md: Portes' ``Board.as_dict()``,
        a Plakoto or Fevga game's ``board()`` (with its pins)."""
        vpos = self.variant_position
        return self.board.as_dict() if vpos is None else vpos.board()

    def position_id(self) -> str:
        """The committed position's Position ID (informative only in Plakoto and Fevga)."""
        vpos = self.variant_position
        return self.position().position_id() if vpos is None else position_id(vpos)

    def _setup_board(self) -> Board | BoardDict:
        """The board the next game is set up to: its variant's start."""
        name = self.tavli.variant
        return Board.initial() if name == "portes" else start_board(name)

    def _turn_to_roll(self) -> None:
        """A Plakoto or Fevga position follows the match's player on roll."""
        if self.variant_position is not None:
            self.variant_position = on_roll(self.variant_position, self.match.on_roll)

    def _commit_variant(self, turn: Turn, play: VariantPlay) -> None:
        """Commit a Plakoto or Fevga play (no computer, no coach, no takeback)."""
        self.variant_position, self.turn = play.result, None
        self.match, result = commit_variant(self.match, play)
        self._emit(EventType.PLAYED, player=turn.mover.value, dice=high_first(turn.dice),
                   play=play.notation, position_id=position_id(play.result),
                   match_id=self.match.match_id(), board=play.result.board())
        if result is not None:
            self._game_over(result)
        else:
            self._enter(Phase.AWAIT_ROLL)
