"""The soak test: random legal games through the whole pipeline, every event checked.

A :class:`Session` plays a money session or a match on a
:class:`~tavla_pi.replay.runner.ScenarioRunner` (the modelled board with its
parts' tolerances and noise, decode, reconcile, the referee, on a virtual
clock).  The rules engine chooses: random opening throws and rolls, a random
legal play, random cube actions.  A :class:`~tavla_pi.testing.hand.Hand`
moves each play on the board, step by step, as the player at it
(:class:`~tavla_pi.testing.soak_turn.HandTurn`) looks at the lights and presses DONE.
The session keeps its own match state by the rules (a :class:`SoakMatch`:
:class:`PortesMatch` here, the other games'
:class:`~tavla_pi.testing.varsoak.VariantMatch`, which hold what is the
game's own) and checks every event the referee sends against it: one ``played``
per turn with the chosen play, ``no_legal_move`` exactly when the roll has
no play, the cube and the game's end as the rules say.  Anything else is a
:class:`Failure`; the session's scenario (docs/CONTRACTS.md §4 JSON lines) is
then written out to replay with ``tavla-pi replay``.

The session judges by what the product shows a user, never by its insides:
the events, and the runner's state as ``GET /api/state`` gives it (what the
sensors read, the fixes asked for, the play DONE confirms, and ``physical``,
where the modelled checkers really are).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from tavla_pi.errors import TavlaError
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import PinMap
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.replay.actions import (
    Action,
    DiceAction,
    GlitchAction,
    SetupAction,
    WaitAction,
)
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.replay.timings import FlickerCount
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import OpeningRoll
from tavla_pi.rules.match import MatchState, new_match, rolled, start_game, turn_done
from tavla_pi.rules.movegen import Dice
from tavla_pi.rules.position import Position
from tavla_pi.rules.scoring import GameResult, win_by_play
from tavla_pi.testing.differential import Differential
from tavla_pi.testing.hand import Hand, HandStep, HandStyle, done_button
from tavla_pi.testing.scenario_writer import scenario_lines
from tavla_pi.testing.soak_turn import (
    GAME_END,
    PLAYER_SETTLE_LIMIT_MS,
    AbortError,
    HandTurn,
    brief,
    press,
)

MAX_TURNS = 600
"""A game longer than this is stuck (random games take about 80 turns, rarely 250)."""
SETUP_WAIT_MS = 400
"""After setting up, long enough for the referee to see the starting position."""
DECISIONS = frozenset({
    EventType.GAME_STARTED, EventType.OPENING_ROLL, EventType.ROLLED, EventType.PLAYED,
    EventType.NO_LEGAL_MOVE, EventType.DOUBLE_OFFERED, EventType.DOUBLE_TAKEN,
    EventType.DOUBLE_DROPPED, EventType.GAME_OVER, EventType.MATCH_OVER, EventType.NEW_MATCH})
"""Events that change the game: each must be one the session expects at that moment."""


@dataclass(frozen=True, slots=True)
class Players:
    """How the two players use the buttons: probabilities per chance.

    ``double``: offer a double when allowed (per turn); ``take``: take it;
    ``wrong_cube``: press CUBE when doubling is not allowed (rejected);
    ``stray``: the other player presses ROLL or CUBE during a turn
    (rejected); ``menu``: a short MENU press (shows the state, changes nothing).
    """

    double: float = 0.03
    take: float = 0.7
    wrong_cube: float = 0.01
    stray: float = 0.02
    menu: float = 0.01


DEFAULT_STYLE = HandStyle()
DEFAULT_PLAYERS = Players()


@dataclass(frozen=True, slots=True)
class Failure:
    """Something the referee got wrong: where, what, and the scenario to replay it."""

    kind: str
    seed: int
    match_length: int
    game: int
    turn: int
    detail: str
    dump: str | None = None

    def __str__(self) -> str:
        where = f"seed {self.seed} (match length {self.match_length}) game {self.game}"
        dump = f" [{self.dump}]" if self.dump else ""
        return f"{self.kind}: {where} turn {self.turn}: {self.detail}{dump}"


@dataclass
class SessionResult:
    """The counts and failures of one session."""

    seed: int
    match_length: int
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)


PositionT = TypeVar("PositionT", bound="Playable")


class Playable(Protocol):
    """A position the driver rolls on: it only asks whether the dice can be played."""

    def legal_plays(self, dice: Dice) -> Sequence[Any]:
        """The legal plays of ``dice`` ([] if none)."""
        ...


@dataclass(frozen=True, slots=True)
class GameStart:
    """How a game is set up: the scenario's note, the setup action, the decisions it may
    bring, the fields ``game_started`` must carry, and the counts it adds."""

    note: str
    setup: SetupAction
    expect: frozenset[EventType]
    started: dict[str, Any]
    tally: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Chosen(Generic[PositionT]):
    """A play the session chose: its notation, the position after it, the hand's steps
    (made when the session asks for them) and the counts it adds."""

    notation: str
    result: PositionT
    steps: Callable[[], list[HandStep]]
    tally: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """A game's end as the rules score it: its kind and the fields of ``game_over``."""

    kind: str
    fields: dict[str, Any]


class Score(Protocol):
    """A match's state as the session reads it."""

    @property
    def match_winner(self) -> Color | None:
        """The match's winner (None while it goes on, and in money play)."""
        ...

    @property
    def score(self) -> tuple[int, int]:
        """(White, Black)."""
        ...


class SoakMatch(Protocol[PositionT]):
    """The match a session plays, kept by the rules (``state``): the parts of a soak
    session that are the game's own (its start, its cube, what ``played`` and the
    game's end say)."""

    @property
    def state(self) -> Score:
        """The match as the rules keep it."""
        ...

    def begin(self, game: int) -> GameStart:
        """How game number ``game`` (from 1) is set up."""
        ...

    def start(self, opening: Callable[[], OpeningRoll]) -> tuple[Color, Dice | None]:
        """Who moves first (``opening`` makes the opening roll, when the game has one),
        and the dice when the opening roll's are played."""
        ...

    def initial(self, mover: Color) -> PositionT:
        """The game's start with ``mover`` on roll."""
        ...

    def before_roll(self, session: Session, mover: Color) -> bool:
        """What the players do before ``mover`` rolls; True if the game ended there."""
        ...

    def rolled(self, dice: Dice) -> None:
        """The dice rolled."""
        ...

    def passed(self, position: PositionT, mover: Color) -> PositionT:
        """The position after ``mover`` could not play."""
        ...

    def choose(self, session: Session, position: PositionT, mover: Color,
               dice: Dice) -> Chosen[PositionT]:
        """A random legal play of ``dice``."""
        ...

    def commit(self, chosen: Chosen[PositionT], mover: Color
               ) -> tuple[dict[str, Any], GameEnd | None]:
        """The play committed: the fields ``played`` must carry, and the game's end."""
        ...


class PortesMatch:
    """A Portes money session or match as the rules keep it: the opening roll of every
    game, the cube, gammons, the Position ID and Match ID of every commit."""

    def __init__(self, settings: GameSettings) -> None:
        self.rules = settings.rules
        self.state: MatchState = new_match(settings.match_length, self.rules)

    def begin(self, game: int) -> GameStart:
        return GameStart(f"game {game}: score {self.state.score}", SetupAction(),
                         frozenset({EventType.GAME_STARTED}),
                         {"position_id": Position.initial().position_id(),
                          "match_id": self.state.match_id()})

    def start(self, opening: Callable[[], OpeningRoll]) -> tuple[Color, Dice]:
        """Every game starts with an opening roll, played."""
        roll = opening()
        self.state = start_game(self.state, roll, self.rules)
        return roll.starter, roll.dice

    def initial(self, mover: Color) -> Position:
        return Position.initial()

    def before_roll(self, session: Session, mover: Color) -> bool:
        """Perhaps double (and take or drop), then the other player's stray press."""
        if self._cube(session, mover):
            return True
        session.stray(mover)
        return False

    def _cube(self, session: Session, mover: Color) -> bool:
        """Perhaps double (and take or drop); True if the game ended on a drop."""
        if not cube_rules.may_double(self.state, mover, self.rules):
            session.refuse_cube(mover)
            return False
        chance, players, counts = session.hand.chance, session.players, session.counts
        if not chance(players.double):
            return False
        counts["cube_offers"] += 1
        cube = self.state.cube * 2
        events = session.do(press(f"{mover.value}.cube"), expect={EventType.DOUBLE_OFFERED})
        session.one(events, EventType.DOUBLE_OFFERED, player=mover.value, cube=cube)
        self.state = cube_rules.offer_double(self.state, mover, self.rules)
        taker = mover.opponent
        if chance(players.take):
            counts["cube_takes"] += 1
            events = session.do(press(f"{taker.value}.roll"), expect={EventType.DOUBLE_TAKEN})
            session.one(events, EventType.DOUBLE_TAKEN, player=taker.value, cube=cube)
            self.state = cube_rules.take(self.state, taker)
            return False
        counts["cube_drops"] += 1
        events = session.do(press(f"{taker.value}.cube"), expect=GAME_END)
        session.one(events, EventType.DOUBLE_DROPPED, player=taker.value, cube=cube)
        self.state, result = cube_rules.drop(self.state, taker, self.rules)
        session.game_over(events, self._end(result))
        return True

    def rolled(self, dice: Dice) -> None:
        self.state = rolled(self.state, (max(dice), min(dice)))

    def passed(self, position: Position, mover: Color) -> Position:
        self.state = turn_done(self.state)
        return position.swap()

    def choose(self, session: Session, position: Position, mover: Color,
               dice: Dice) -> Chosen[Position]:
        play = session.rng.choice(position.legal_plays(dice))
        return Chosen(play.notation, play.result, lambda: session.hand.turn(play, mover))

    def commit(self, chosen: Chosen[Position], mover: Color
               ) -> tuple[dict[str, Any], GameEnd | None]:
        result = chosen.result
        end = None
        if sum(result.theirs) == 0:
            self.state, won = win_by_play(self.state, mover, result.mine, self.rules)
            end = self._end(won)
        else:
            self.state = turn_done(self.state)
        return {"position_id": result.position_id(), "match_id": self.state.match_id()}, end

    def _end(self, result: GameResult) -> GameEnd:
        return GameEnd(result.kind.value, {
            "winner": result.winner.value, "kind": result.kind.value, "cube": self.state.cube,
            "points": result.points, "score": list(self.state.score)})


class Session:
    """One money session (``games`` games) or one match, played and checked.

    ``naive_done``: when plays read the same, press DONE as the lights invite
    rather than cycling (CUBE) to the play on the board.  ``match_of`` makes the
    match the session keeps (Portes unless told).
    """

    def __init__(self, pinmap: PinMap, seed: int, *, match_length: int = 0, games: int = 1,
                 style: HandStyle = DEFAULT_STYLE, players: Players = DEFAULT_PLAYERS,
                 dump_dir: Path | None = None, naive_done: bool = False,
                 variant: str = "portes",
                 match_of: Callable[[GameSettings], SoakMatch[Any]] = PortesMatch) -> None:
        self.seed = seed
        self.match_length = match_length
        self.games = games
        self.rng = random.Random(seed)
        self.settings = GameSettings(match_length=match_length, variant=variant)
        self.runner = ScenarioRunner(pinmap, self.settings, seed=seed)
        self.flickers = FlickerCount()
        self.runner.watchers.append(self.flickers)
        self.hand = Hand(self.rng, style)
        self.players = players
        self.dump_dir = dump_dir
        self.naive_done = naive_done
        self.lines: list[Action | str] = []
        self.glitch_until = 0
        """When the last glitch the hand made ends (virtual ms)."""
        self.events: list[Event] = []
        self.match: SoakMatch[Any] = match_of(self.settings)
        self.differential = Differential.of(self.runner.referee)
        """The referee's state against the fold of its journal so far."""
        self.result = SessionResult(seed, match_length)
        self.counts = self.result.counts
        self.game = 0
        self.turn = 0
        self.hand_turn = HandTurn(self)
        """The player at the board, moving each play by hand."""

    # -- the session -------------------------------------------------------------------

    def run(self) -> SessionResult:
        """Play every game (or the match).

        The referee's slips that the hand puts right (an illegal placement not
        reported, say) are recorded and play goes on; a wrong commit, a stuck
        game or an unexpected decision ends the session.
        """
        start, cpu = time.perf_counter(), time.process_time()
        self._events(self.runner.advance(0))
        try:
            while self._more_games():
                self.game += 1
                self.counts["games"] += 1
                self._game()
            self.counts["sessions"] += 1
        except AbortError as abort:
            self.fail(abort.kind, abort.detail)
        except TavlaError as exc:
            self.fail("error", f"{type(exc).__name__}: {exc}")
        self.counts["virtual_ms"] += self.runner.clock.now_ms()
        self.counts["light_flickers"] += self.flickers.flickers
        self.counts["light_flickers_followed"] += self.flickers.followed
        self.counts["light_flickers_unseen"] += self.flickers.unseen
        self.counts["light_flickers_phantom"] += self.flickers.phantom
        self.counts["wall_ms"] += round((time.perf_counter() - start) * 1000)
        self.counts["cpu_ms"] += round((time.process_time() - cpu) * 1000)
        self.counts.update(self.hand.tally)
        return self.result

    def _more_games(self) -> bool:
        if self.match_length == 0:
            return self.game < self.games
        return self.match.state.match_winner is None

    def _game(self) -> None:
        self.turn = 0
        begin = self.match.begin(self.game)
        self._tally(begin.tally)
        self._note(begin.note)
        events = self.do(begin.setup, WaitAction(SETUP_WAIT_MS), expect=begin.expect)
        for _ in range(PLAYER_SETTLE_LIMIT_MS // SCAN_MS):  # a sensor near a threshold: its mean
            if any(e.type == EventType.GAME_STARTED for e in events):  # takes a few scans more
                break
            events += self.do(WaitAction(SCAN_MS), expect={EventType.GAME_STARTED})
        self.one(events, EventType.GAME_STARTED, **begin.started)
        mover, dice = self.match.start(self._opening)
        position = self.match.initial(mover)
        while True:
            self.turn += 1
            if self.turn > MAX_TURNS:
                raise AbortError("stuck", f"no end after {MAX_TURNS} turns")
            if dice is None:
                if self.match.before_roll(self, mover):
                    return
                dice = self._roll(mover, position)
            if dice is None:
                position = self.match.passed(position, mover)
            elif (after := self._play(position, mover, dice)) is None:
                return
            else:
                position = after
            mover, dice = mover.opponent, None

    # -- the opening roll, the cube, the roll ------------------------------------------

    def _opening(self) -> OpeningRoll:
        throws: list[tuple[int, int]] = []
        while True:
            white, black = self.rng.randint(1, 6), self.rng.randint(1, 6)
            button = f"{self.rng.choice(tuple(Color)).value}.roll"
            events = self.do(DiceAction(white, black), press(button),
                             expect={EventType.OPENING_ROLL})
            throws.append((white, black))
            starter = {} if white == black else {
                "starter": (Color.WHITE if white > black else Color.BLACK).value}
            self.one(events, EventType.OPENING_ROLL, white=white, black=black, **starter)
            if white != black:
                break
        return OpeningRoll(tuple(throws))

    def refuse_cube(self, mover: Color) -> None:
        """Perhaps ``mover`` presses CUBE where doubling is not allowed (rejected)."""
        if self.hand.chance(self.players.wrong_cube):
            self.counts["cube_refused"] += 1
            self.one(self.do(press(f"{mover.value}.cube")), EventType.REJECTED,
                     player=mover.value)

    def stray(self, mover: Color) -> None:
        """Perhaps the other player presses a button (rejected), or someone MENU."""
        other = mover.opponent
        if self.hand.chance(self.players.stray):
            self.counts["stray_presses"] += 1
            role = self.rng.choice(("roll", "cube"))
            events = self.do(press(f"{other.value}.{role}"))
            self.one(events, EventType.REJECTED, player=other.value)
        if self.hand.chance(self.players.menu):
            self.counts["menu_presses"] += 1
            self.do(press("menu"))

    def _roll(self, mover: Color, position: Playable) -> Dice | None:
        """Roll; the dice, or None when they cannot be played (the turn passed)."""
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        events = self.do(DiceAction(*dice), press(done_button(mover)),
                         expect={EventType.ROLLED, EventType.NO_LEGAL_MOVE})
        self.one(events, EventType.ROLLED, player=mover.value, dice=list(dice))
        self.match.rolled(dice)
        if position.legal_plays(dice):
            self.none(events, EventType.NO_LEGAL_MOVE)
            return dice
        self.counts["no_move_turns"] += 1
        self.one(events, EventType.NO_LEGAL_MOVE, player=mover.value,
                 dice=sorted(dice, reverse=True))
        return None

    # -- one play ----------------------------------------------------------------------

    def _play(self, position: Any, mover: Color, dice: Dice) -> Any:
        """A random legal play moved by hand, DONE pressed, the commit checked; the
        position after it, or None when the game ended."""
        chosen = self.match.choose(self, position, mover, dice)
        self._note(f"turn {self.turn}: {mover.value} {dice[0]}-{dice[1]} plays "
                   f"{chosen.notation}")
        self.counts["turns"] += 1
        self._tally(chosen.tally)
        self.stray(mover)
        events = self.hand_turn.play(chosen, mover)
        played, end = self.match.commit(chosen, mover)
        self.one(events, EventType.PLAYED, player=mover.value, dice=sorted(dice, reverse=True),
                 play=chosen.notation, **played)
        self.counts["plays_committed"] += 1
        if end is None:
            self.none(events, EventType.GAME_OVER)
            return chosen.result
        self.game_over(events, end)
        return None

    def game_over(self, events: list[Event], end: GameEnd) -> None:
        """``game_over`` among ``events`` as the rules scored it; ``match_over`` once won."""
        self.counts[f"won_{end.kind}"] += 1
        self.one(events, EventType.GAME_OVER, **end.fields)
        self._match_over(events, self.match.state.match_winner, self.match.state.score)

    def _match_over(self, events: list[Event], winner: Color | None,
                    score: tuple[int, int]) -> None:
        """``match_over`` among ``events`` exactly when the match has a ``winner``."""
        if winner is None:
            self.none(events, EventType.MATCH_OVER)
        else:
            self.counts["matches"] += 1
            self.one(events, EventType.MATCH_OVER, winner=winner.value, score=list(score))

    # -- actions and events ------------------------------------------------------------

    def do(self, *actions: Action, expect: Set[EventType] = frozenset()) -> list[Event]:
        """Apply actions; their events.  Of the game's decisions (:data:`DECISIONS`)
        only those in ``expect`` may happen."""
        events: list[Event] = []
        for action in actions:
            self.lines.append(action)
            if isinstance(action, GlitchAction):
                ends = self.runner.clock.now_ms() + action.ms
                self.glitch_until = max(self.glitch_until, ends)
            events += self._events(self.runner.apply(action))
        unexpected = [e for e in events if e.type in DECISIONS and e.type not in expect]
        if unexpected:
            raise AbortError("wrong_commit" if unexpected[0].type == EventType.PLAYED else
                              f"unexpected_{unexpected[0].type}", f"{brief(unexpected)}")
        return events

    def _events(self, events: Iterable[Event]) -> list[Event]:
        out = list(events)
        self.events += out
        if out and (found := self.differential.check(out)):
            self.fail("differs_from_journal", f"after {brief(out)[-3:]}: {found}")
        return out

    def _note(self, text: str) -> None:
        self.lines.append(text)

    def _tally(self, counts: dict[str, int]) -> None:
        for key, n in counts.items():
            self.counts[key] += n

    def one(self, events: Sequence[Event], kind: EventType, /, **fields: Any) -> Event:
        """The one event of ``kind`` among ``events``, with these fields; else abort."""
        found = [e for e in events if e.type == kind]
        if len(found) != 1:
            raise AbortError(_mismatch(kind),
                              f"expected one {kind} {fields}, got {brief(events)}")
        event = found[0]
        wrong = [k for k, v in fields.items() if event.fields.get(k) != v]
        if kind == EventType.OPENING_ROLL and ("starter" in event.fields) != ("starter" in fields):
            wrong.append("starter")
        if wrong:
            raise AbortError(_mismatch(kind), f"expected {kind} {fields}, got {event.to_dict()}")
        return event

    def none(self, events: Sequence[Event], kind: EventType) -> None:
        """No event of ``kind`` among ``events``; else abort."""
        if found := [e for e in events if e.type == kind]:
            raise AbortError(_mismatch(kind), f"unexpected {brief(found)}")

    # -- failures ----------------------------------------------------------------------

    def fail(self, kind: str, detail: str) -> None:
        """Record a failure; the session's scenario is written out for the first of a kind."""
        first = self.counts[kind] == 0
        dump = self.dump(kind) if self.dump_dir is not None and first else None
        self.result.failures.append(Failure(kind, self.seed, self.match_length, self.game,
                                            self.turn, detail, dump))
        self.counts[kind] += 1

    def dump(self, kind: str) -> str:
        """Write the session's scenario so far; the file's path."""
        assert self.dump_dir is not None
        self.dump_dir.mkdir(parents=True, exist_ok=True)
        path = self.dump_dir / f"soak-{self.seed}-g{self.game}-t{self.turn}-{kind}.jsonl"
        head = [f"# tavla-pi soak: {kind} at game {self.game}, turn {self.turn}",
                f"# tavla-pi replay {path.name} --match-length {self.match_length}"
                f" --seed {self.seed}"]
        path.write_text("\n".join(head + scenario_lines(self.lines)) + "\n", encoding="utf-8")
        return str(path)


def _mismatch(kind: EventType) -> str:
    return "wrong_commit" if kind == EventType.PLAYED else f"bad_{kind}"

