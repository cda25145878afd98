"""A match of tavli: Portes, Plakoto and Fevga in turn (or one of them repeated), to N.

A :class:`TavliMatch` is a value, like :class:`~tavla_pi.rules.match.MatchState`:
the match's length and score, which game of its cycle is on, and who starts it.
The first game starts with the opening roll; every later game is started by
the previous game's winner, who rolls both dice; after a draw (Plakoto) the
same player starts again (docs/VARIANTS.md, "The tavli match").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavla_pi.errors import IllegalPlayError, UnknownVariantError
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavli import Ending, Outcome
from tavla_pi.rules.variants import NAMES, variant

GAMES: tuple[str, ...] = NAMES
"""The games of tavli, in the order a tavli match plays them (:data:`~tavla_pi.rules.
variants.NAMES`, the one list of their names)."""
TAVLI = "tavli"
"""The match of all three games in turn."""
MATCHES: tuple[str, ...] = (*GAMES, TAVLI)
"""What a match may play: one of the games over and over, or "tavli" (all three in turn)."""


@dataclass(frozen=True, slots=True)
class TavliRules:
    """The tavli match's house rules: ``cube_in_portes`` (a doubling cube in its Portes
    games, off by default) and ``backgammon_points`` (what a backgammon in them counts:
    2, as Greek players count it, or 3)."""

    cube_in_portes: bool = False
    backgammon_points: int = 2

    def __post_init__(self) -> None:
        if self.backgammon_points not in (2, 3):
            raise ValueError(f"backgammon_points must be 2 or 3, got {self.backgammon_points!r}")


def gnubg_match(name: str) -> bool:
    """Whether GNU Backgammon plays every game of a match called ``name`` (a match of
    Portes alone, whose ``new_match`` names no variant): the only match played with a
    seat other than two players at the board, the computer or a friend's board (whose
    messages carry GNU Backgammon's Position IDs, docs/REMOTE.md)."""
    return all(variant(game).gnubg_plays for game in cycle_of(name))


def computer_may_play(name: str) -> bool:
    """Whether the computer (GNU Backgammon) may play a match called ``name``:
    :func:`gnubg_match`."""
    return gnubg_match(name)


def in_turn(name: object) -> bool:
    """Whether a match called ``name`` plays the games in turn: "tavli"."""
    return name == TAVLI


def cycle_of(name: str) -> tuple[str, ...]:
    """The games a match of ``name`` plays in turn: all three for "tavli", else the one."""
    if in_turn(name):
        return GAMES
    if name not in GAMES:
        expected = ", ".join(repr(n) for n in MATCHES)
        raise UnknownVariantError("variant", f"unknown match {name!r} (expected one of {expected})")
    return (name,)


@dataclass(frozen=True, slots=True)
class TavliMatch:
    """Where a match of one variant or of tavli stands between (and during) its games.

    ``length`` 0 is money play (the match never ends); ``score`` is (White, Black);
    ``game`` the 1-based number of the game now; ``starter`` who starts it: the
    previous game's winner (after a draw, that game's starter), or the opening
    roll's winner once it is thrown (None before the first game's opening roll).
    """

    name: str
    length: int
    score: tuple[int, int] = (0, 0)
    game: int = 1
    starter: Color | None = None
    rules: TavliRules = TavliRules()

    @classmethod
    def new(cls, name: str, length: int, rules: TavliRules | None = None) -> TavliMatch:
        """A match of ``name`` ("portes", "plakoto", "fevga" or "tavli") to ``length``."""
        cycle_of(name)
        if length < 0:
            raise ValueError(f"a match is to 0 (money) or more points, not {length!r}")
        return cls(name, length, rules=rules or TavliRules())

    @property
    def cycle(self) -> tuple[str, ...]:
        """The games in the order they are played, over and over."""
        return cycle_of(self.name)

    @property
    def variant(self) -> str:
        """The game now: "portes", "plakoto" or "fevga"."""
        cycle = self.cycle
        return cycle[(self.game - 1) % len(cycle)]

    @property
    def is_tavli(self) -> bool:
        """True for a tavli match (all three games in turn)."""
        return in_turn(self.name)

    @property
    def is_backgammon(self) -> bool:
        """Whether the match is of Portes alone: GNU Backgammon's kind of match, which the
        computer can play and whose ``new_match`` names no variant."""
        return computer_may_play(self.name)

    @property
    def cube_allowed(self) -> bool:
        """Whether the game now is played with the doubling cube: Portes only, and in a
        tavli match only with the ``cube_in_portes`` rule."""
        return variant(self.variant).has_cube and (not self.is_tavli or self.rules.cube_in_portes)

    def cube_refusal(self) -> str:
        """Why the game now has no doubling cube ("" when it has one)."""
        if self.cube_allowed:
            return ""
        in_tavli = self.is_tavli and self.variant == "portes"  # the cube_in_portes rule off
        return f"no cube in {self.variant}" + (" in a tavli match" if in_tavli else "")

    @property
    def match_winner(self) -> Color | None:
        """The player who has reached the match length, or None."""
        if self.length == 0:
            return None
        for color, points in zip((Color.WHITE, Color.BLACK), self.score, strict=True):
            if points >= self.length:
                return color
        return None

    def points(self, outcome: Outcome, cube: int = 1) -> int:
        """What ``outcome`` of the game now counts: its points times the cube, a backgammon
        in a tavli match counting ``backgammon_points``; a draw 0."""
        if outcome.ending is Ending.BACKGAMMON and self.is_tavli:
            return self.rules.backgammon_points * cube
        return outcome.points * cube

    def after(self, outcome: Outcome, cube: int = 1) -> TavliMatch:
        """The match once the game now has ended with ``outcome``: the points added, the
        next game of the cycle on, started by the winner (after a draw, by the same
        starter as this game)."""
        if self.match_winner is not None:
            raise IllegalPlayError(f"the match is over: {self.match_winner.value} has won it")
        return self.scored(outcome.winner, self.points(outcome, cube))

    def scored(self, winner: Color | None, points: int) -> TavliMatch:
        """The match once the game now has ended with ``points`` (as counted) to
        ``winner`` (None: a draw): the next game of the cycle on, the winner to start it
        (after a draw, this game's starter).  The score is kept, not judged: whether the
        match is over is the Match ID's word (:class:`~tavla_pi.rules.match.MatchState`)."""
        score = list(self.score)
        starter = self.starter
        if winner is not None:
            score[0 if winner is Color.WHITE else 1] += points
            starter = winner
        return replace(self, score=(score[0], score[1]), game=self.game + 1, starter=starter)

    @property
    def opening_roll(self) -> bool:
        """Whether the game now starts with the opening roll: the first game, and every
        game of a Portes match (as backgammon plays it); else its starter rolls."""
        return self.starter is None or self.name == "portes"

    @property
    def opening_dice_played(self) -> bool:
        """Whether the opening roll's dice are the starter's first roll: in Portes; in
        Plakoto and Fevga its winner then rolls both dice."""
        return self.variant == "portes"

    def opened_by(self, starter: Color) -> TavliMatch:
        """The match once the opening roll has chosen ``starter`` for the game now (a draw
        of this game lets the same player start the next)."""
        return replace(self, starter=starter)
