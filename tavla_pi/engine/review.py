"""Finished games reviewed by GNU Backgammon: ``analyse match`` on their match file.

A :class:`ReviewRequest` holds a match file's text (``.mat``, one game or a
whole match; :mod:`tavla_pi.export` writes them) and says what to analyse:
one game of it, or all.  gnubg analyses at a :class:`~tavla_pi.engine.levels.Level`
(default expert: 0-ply, cubeful, no noise), its "analysis" settings for chequer
play and for cube decisions both set to that level's preset (``set analysis
chequerplay evaluation ...``, ``set analysis cubedecision evaluation ...``,
``set analysis movefilter ...``); luck is judged as gnubg does by default.

The :class:`Review` gives per player the figures of gnubg's statistics and
gnubg's rating, and the decisions of both players that lost the most equity,
with the better play.  Equities are gnubg's normalised ones (EMG: per unit
of cube; in a match converted from match winning chances), error and luck
rates thousandths of them per decision (mEMG), as gnubg prints them (it
prints error rates with a minus sign; here they are losses, 0 or more).

:class:`GnubgReviewer` runs each review in a one-shot gnubg process of its
own (the bridge's ``review`` op, :mod:`tavla_pi.engine.bridge`), niced below
the computer opponent, with a timeout; a review that fails is one
EngineError naming what failed.  It blocks: call it on a
:class:`~tavla_pi.engine.background.Worker`, never on the scan loop.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tavla_pi.engine import wire
from tavla_pi.engine.gnubg import NICE, gnubg_argv, require_gnubg
from tavla_pi.engine.interface import CubeAction, TakeDecision
from tavla_pi.engine.levels import Level
from tavla_pi.engine.process import LineProcess, ProcessFailedError, clean_env
from tavla_pi.errors import EngineError, InvalidIdError
from tavla_pi.rules import Board, Color, MatchRules, MatchState, Position

RATINGS = ("Awful!", "Beginner", "Casual player", "Intermediate", "Advanced", "Expert",
           "World class", "Supernatural")
"""gnubg's ratings of an error rate, worst first (its ``errorrating`` numbers them so)."""
CUBE_ACTIONS = frozenset({CubeAction.DOUBLE.value, CubeAction.NO_DOUBLE.value,
                          TakeDecision.TAKE.value, TakeDecision.DROP.value})
"""What a cube decision may be: the doubler's and the taker's choices."""
COSTLY = 5
"""How many of the most costly decisions a review lists."""
REVIEW_NICE = NICE + 5
"""How much lower than the daemon a review's gnubg runs: below the opponent's gnubg too."""
_GAME_HEADER = re.compile(r"^\s*Game \d+\s*$", re.MULTILINE)
_PLAYERS = (Color.WHITE, Color.BLACK)  # gnubg's players 0 and 1


@dataclass(frozen=True)
class ReviewRequest:
    """What to review: game ``game`` (from 1) of the match file ``mat``, or all (None).

    ``rules`` are the optional rules the games were played under (the file
    does not say: Jacoby, beavers); ``costly`` how many decisions to list.
    """

    mat: str
    game: int | None = None
    level: Level = Level.EXPERT
    rules: MatchRules = field(default_factory=MatchRules)
    costly: int = COSTLY

    @property
    def games(self) -> int:
        """How many games the match file holds (its ``Game N`` lines)."""
        return len(_GAME_HEADER.findall(self.mat))

    def to_wire(self) -> wire.Fields:
        """The fields of the bridge's ``review`` op."""
        if self.game is not None and not 1 <= self.game <= self.games:
            raise EngineError(f"the match file holds no game {self.game} (1..{self.games})")
        return {"op": "review", "mat": self.mat, "games": self.games, "game": self.game,
                "n": self.costly, "jacoby": self.rules.jacoby, "beavers": self.rules.beavers,
                "eval": self.level.settings.to_wire()}


@dataclass(frozen=True)
class Errors:
    """One kind of decision of one player: the equity lost in all (EMG), how many
    decisions lost any (gnubg's marked ones: doubtful or worse), and of how many
    (unforced moves; cube decisions that were close or taken)."""

    total: float
    count: int
    decisions: int

    def to_json(self) -> dict[str, Any]:
        """``{"errors", "count", "decisions"}``."""
        return {"errors": round(self.total, 3), "count": self.count, "decisions": self.decisions}


@dataclass(frozen=True)
class PlayerReview:
    """One player's figures: chequer and cube errors, luck (EMG, positive: luckier than
    the average roll) over ``moves`` rolls, and gnubg's rating (None: nothing to rate)."""

    chequer: Errors
    cube: Errors
    luck: float
    moves: int
    rating: str | None

    @property
    def error_rate(self) -> float:
        """gnubg's error rate: mEMG lost per decision, chequer and cube together."""
        decisions = self.chequer.decisions + self.cube.decisions
        return 1000 * (self.chequer.total + self.cube.total) / decisions if decisions else 0.0

    @property
    def luck_rate(self) -> float:
        """gnubg's luck rate: mEMG of luck per roll."""
        return 1000 * self.luck / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        """The player's part of a ``review`` event."""
        return {"error_rate": round(self.error_rate, 1), "rating": self.rating,
                "chequer": self.chequer.to_json(), "cube": self.cube.to_json(),
                "luck": round(self.luck, 3), "luck_rate": round(self.luck_rate, 1)}


@dataclass(frozen=True)
class CostlyDecision:
    """One costly decision: who, where (``game``, the position from the side of the
    player on roll, the Match ID), the dice (None for a cube decision), what was done,
    what was better, and the equity lost (EMG).

    ``kind`` is ``"move"`` (``played`` and ``best`` are plays, in the notation of
    ``played`` events) or ``"cube"`` (each one of :data:`CUBE_ACTIONS`).
    """

    game: int
    player: Color
    kind: str
    position_id: str
    match_id: str
    dice: tuple[int, int] | None
    played: str
    best: str
    loss: float

    @property
    def board(self) -> Board:
        """The position as it stands on the board, for drawing."""
        on_roll = MatchState.from_match_id(self.match_id).on_roll
        return Position.from_position_id(self.position_id).to_board(on_roll)

    def to_json(self) -> dict[str, Any]:
        """One entry of a ``review`` event's ``costly``."""
        return {"game": self.game, "player": self.player.value, "kind": self.kind,
                "position_id": self.position_id, "match_id": self.match_id,
                "board": self.board.as_dict(),
                "dice": None if self.dice is None else list(self.dice),
                "played": self.played, "best": self.best, "loss": round(self.loss, 3)}


@dataclass(frozen=True)
class Review:
    """gnubg's review of one game (``game``, from 1) or of the whole match (None)."""

    game: int | None
    white: PlayerReview
    black: PlayerReview
    costly: tuple[CostlyDecision, ...]

    def to_json(self) -> dict[str, Any]:
        """The fields of a ``review`` event (docs/CONTRACTS.md §4 additions)."""
        return {"game": self.game, "white": self.white.to_json(), "black": self.black.to_json(),
                "costly": [decision.to_json() for decision in self.costly]}


# -- the bridge's answer -------------------------------------------------------------------


def review_answer(request: ReviewRequest, answer: wire.Fields) -> Review:
    """The bridge's ``review`` answer as a :class:`Review`; EngineError if it does not fit."""
    players = wire.field(answer, "players", list)
    if len(players) != 2:
        raise EngineError(f"gnubg's review has {len(players)} players, not 2: {answer}")
    white, black = (_player(entry) for entry in players)
    costly = tuple(_decision(entry) for entry in wire.field(answer, "costly", list))
    ranked = tuple(sorted(costly, key=lambda d: -d.loss))[: request.costly]
    return Review(request.game, white, black, ranked)


def _player(entry: Any) -> PlayerReview:
    rating = entry.get("rating") if isinstance(entry, dict) else None
    if rating is not None and not (isinstance(rating, int) and 0 <= rating < len(RATINGS)):
        raise EngineError(f"gnubg's review gives no known rating: {entry}")
    return PlayerReview(
        chequer=_errors(wire.field(entry, "chequer", dict)),
        cube=_errors(wire.field(entry, "cube", dict)),
        luck=float(wire.field(entry, "luck", (int, float))),
        moves=wire.field(entry, "moves", int),
        rating=None if rating is None else RATINGS[rating])


def _errors(entry: wire.Fields) -> Errors:
    return Errors(float(wire.field(entry, "errors", (int, float))),
                  wire.field(entry, "count", int), wire.field(entry, "decisions", int))


def _decision(entry: Any) -> CostlyDecision:
    """One decision of the answer, its plays in the rules' notation."""
    player = wire.field(entry, "player", int)
    kind = wire.field(entry, "kind", str)
    if player not in (0, 1) or kind not in ("move", "cube"):
        raise EngineError(f"gnubg's review names an unknown decision: {entry}")
    position_id = wire.field(entry, "position_id", str)
    try:
        position = Position.from_position_id(position_id)
        state = MatchState.from_match_id(wire.field(entry, "match_id", str))
    except InvalidIdError as exc:
        raise EngineError(f"gnubg's review names an unreadable position: {exc}") from None
    made, better = wire.field(entry, "played", str), wire.field(entry, "best", str)
    dice = None
    if kind == "move":
        dice = _dice(entry.get("dice"))
        made, better = _notation(position, dice, made), _notation(position, dice, better)
        state = state.replace(dice=dice)
    elif not {made, better} <= CUBE_ACTIONS:
        raise EngineError(f"gnubg's review names an unknown cube action: {entry}")
    return CostlyDecision(wire.field(entry, "game", int), _PLAYERS[player], kind, position_id,
                    state.match_id(), dice, made, better,
                    float(wire.field(entry, "loss", (int, float))))


def _dice(value: Any) -> tuple[int, int]:
    """The dice of a move, larger first (as a Match ID holds them)."""
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(d, int) and 1 <= d <= 6 for d in value)):
        raise EngineError(f"gnubg's review gives a move without its dice: {value!r}")
    return max(value), min(value)


def _notation(position: Position, dice: tuple[int, int], result: str) -> str:
    """The legal play of ``dice`` leading to the Position ID ``result``, written as
    ``played`` events write it; EngineError if none does."""
    for play in position.legal_plays(dice):
        if play.result.position_id() == result:
            return play.notation
    raise EngineError(f"gnubg's review names a play giving {result}, which is not a legal "
                      f"play of {dice[0]}-{dice[1]} in {position.position_id()}")


# -- one review, one gnubg -------------------------------------------------------------------


class Reviewer(Protocol):
    """What reviews finished games: gnubg (:class:`GnubgReviewer`) or a test's fake."""

    def review(self, request: ReviewRequest) -> Review:
        """The review (blocking); EngineError naming what failed."""
        ...

    def stop(self) -> None:
        """End the review under way, if any (from another thread): it fails."""
        ...


class GnubgReviewer:
    """Reviews in one-shot gnubg processes running the bridge: one process per review."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None, *,
                 timeout_s: float = 300.0, start_timeout_s: float = 60.0) -> None:
        self.argv = list(argv)
        self.env = env
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self.thinking = threading.Event()
        """Set while a review's request is out and its answer not yet in."""
        self._running: LineProcess | None = None
        self._lock = threading.Lock()

    @classmethod
    def launch(cls, prefs_dir: Path, program: Path | None = None, *,
               timeout_s: float = 300.0, nice: int = REVIEW_NICE,
               search_path: str | None = None) -> GnubgReviewer:
        """A reviewer on ``program``, else the installed gnubg (on ``search_path``, see
        :func:`~tavla_pi.engine.gnubg.find_gnubg`; EngineError saying how to install it if
        there is none), its preferences in ``prefs_dir``."""
        program = program or require_gnubg(search_path)
        prefs_dir.mkdir(parents=True, exist_ok=True)
        return cls(gnubg_argv(program, prefs_dir, nice), clean_env(str(prefs_dir)),
                   timeout_s=timeout_s)

    def review(self, request: ReviewRequest) -> Review:
        """gnubg's review (blocks up to the timeouts); EngineError naming what failed."""
        what = f"game {request.game}" if request.game else "the match"
        fields = request.to_wire()
        try:
            answer = self._ask(fields)
        except EngineError as exc:
            raise EngineError(f"the review of {what} failed: {exc}") from None
        if answer.get("ok") is not True:
            raise EngineError(f"gnubg could not review {what}: {answer.get('error', answer)}")
        return review_answer(request, answer)

    def stop(self) -> None:
        """Kill the gnubg of the review under way, if any."""
        with self._lock:
            if self._running is not None and self._running.alive():
                # the reviewing thread sees gnubg end, then reaps it
                os.kill(self._running.pid, signal.SIGKILL)

    def _ask(self, fields: wire.Fields) -> wire.Fields:
        """Start gnubg, ask once, let it end (killed if it failed)."""
        with self._lock:
            proc = self._running = LineProcess(self.argv, self.env)
        try:
            proc.hello(self.start_timeout_s)
            answer = proc.ask({"id": 1, **fields}, self.timeout_s, sent=self.thinking.set)
        except ProcessFailedError:
            proc.kill()
            raise
        finally:
            self.thinking.clear()
            with self._lock:
                self._running = None
        proc.close()
        return answer
