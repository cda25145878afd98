"""Finished games in other programs' formats: GNU Backgammon's match file (``.mat``)."""

from tavla_pi.export.games import Entry, GameBook, GameRecord, MatchRecord, record_match
from tavla_pi.export.mat import format_match

__all__ = ["Entry", "GameBook", "GameRecord", "MatchRecord", "format_match", "record_match"]
