"""Random games on bare referees for the differential test, any variant, any seat.

A :class:`Board` is one referee fed exact observations of the board it is meant to
show (no sensors), button presses and ticks on a virtual clock, its dice topped up
from a seeded generator; after every call that emits events, its
:class:`~tavla_pi.testing.differential.Differential` compares the referee's state
with the fold of its journal so far and keeps what differs (:class:`Finding`).

:func:`play_game` plays one match: two players, the computer (on a seeded
:class:`ChoosingEngine`, the scripted engine choosing at random) or a friend's board
(two referees joined here: what one would send, the other's seat is offered).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from tavla_pi.clock import VirtualClock
from tavla_pi.decode.observation import NOTHING, CountRange, Observation, Reading
from tavla_pi.engine import BackgroundEngine
from tavla_pi.engine.interface import EngineRequest, check_play
from tavla_pi.engine.levels import Level
from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.friend import (
    FriendDecision,
    FriendRoll,
    FriendSeat,
)
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings, OpponentSettings
from tavla_pi.game.view import Phase
from tavla_pi.remote.outgoing import own_body
from tavla_pi.remote.session import friend_decision
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import MatchRules
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.tavli import BoardDict
from tavla_pi.rules.variants import variant
from tavla_pi.testing.differential import Differential
from tavla_pi.testing.engine import ScriptedEngine

W, B = Color.WHITE, Color.BLACK
STEP_MS = 100
MAX_CALLS = 3000
"""A match that takes more calls than this is cut short (random games rarely do)."""
SEATS = ("players", "computer", "friend")
FAST_CLOCK = ClockRules(delay_s=1, reserve_s_per_point=20)
"""A clock short enough for a flag to fall now and then in a random game."""


class ChoosingEngine(ScriptedEngine):
    """The scripted engine whose every answer is a seeded random choice: a legal play, a
    double now and then, a take or a drop, an answer to a resignation, an offer."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__([])
        self.rng = rng

    def _next(self, question: str, request: EngineRequest) -> Any:
        rng = self.rng
        if question == "play":
            return rng.choice(request.position.legal_plays(check_play(request))).notation
        if question == "hint":
            plays = request.position.legal_plays(check_play(request))[:3]
            return [(p.notation, -0.1 * n) for n, p in enumerate(plays)]
        if question == "cube":
            return "double" if rng.random() < 0.15 else "no double"
        if question == "take":
            return rng.choice(("take", "take", "drop"))
        if question == "resign":
            return rng.choice(("accept", "decline"))
        if question == "offer":
            return rng.choice(("none", "none", "single", "gammon", "backgammon"))
        raise AssertionError(f"not asked in these games: {question}")


def observation(board: BoardDict) -> Observation:
    """``board`` read exactly (a pin: the pinned checker covered by the ones on it)."""
    pinned = {at: Color(c) for at, c in board["pinned"].items()}

    def reading(at: str) -> Reading:
        white, black = board["white"].get(at, 0), board["black"].get(at, 0)
        if at in pinned:
            top = pinned[at].opponent
            n = white if top is W else black
            return Reading(top, CountRange(n, n), CountRange(1, 1), covered=pinned[at])
        if white:
            return Reading(W, CountRange(white, white))
        return Reading(B, CountRange(black, black)) if black else NOTHING

    bar = {c: board[c.value].get("bar", 0) for c in Color}
    return Observation(tuple(reading(str(n)) for n in range(1, 25)),
                       Reading(W, CountRange(bar[W], bar[W])) if bar[W] else NOTHING,
                       Reading(B, CountRange(bar[B], bar[B])) if bar[B] else NOTHING)


@dataclass(frozen=True)
class Finding:
    """The referee and the fold disagreed: after which call, the events it emitted."""

    label: str
    call: str
    events: tuple[str, ...]
    differences: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.label}: after {self.call} {list(self.events)}: {list(self.differences)}"


@dataclass
class Board:
    """One referee, its journal's fold beside it, on the game's virtual clock."""

    label: str
    referee: Referee
    rng: random.Random
    dice: ScriptedDice
    wall: VirtualClock
    diff: Differential = field(init=False)
    events: list[Event] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    inbox: list[FriendDecision] = field(default_factory=list)
    """The friend's decisions (and the dice) still to offer this board's seat."""
    sent: int = 0
    """How many of ``events`` the other board has been told of."""

    def __post_init__(self) -> None:
        self.diff = Differential.of(self.referee)

    def call(self, what: str, events: list[Event]) -> list[Event]:
        """The events of one call, checked against the fold."""
        self.events += events
        if events:
            found = self.diff.check(events)
            if found and not self.findings:  # the first drift; later ones follow from it
                self.findings.append(Finding(self.label, what,
                                             tuple(str(e.type) for e in events), tuple(found)))
        return events

    def top_up(self) -> None:
        if len(self.dice.remaining) < 16:
            self.dice.extend([(self.rng.randint(1, 6), self.rng.randint(1, 6))
                              for _ in range(8)])

    def press(self, button: str, now: int, *, long: bool = False) -> list[Event]:
        self.top_up()
        return self.call(f"press {button}{' long' if long else ''}",
                         self.referee.on_button(button, long=long, now=now))

    def show(self, board: BoardDict, now: int, what: str = "board") -> list[Event]:
        return self.call(f"show {what}", self.referee.on_observation(observation(board), now))

    def tick(self, now: int) -> list[Event]:
        self.top_up()
        self.referee.wait_engine(5.0)
        return self.call("tick", self.referee.tick(now, settled=True))


class Game:
    """One match on one board (two players or the computer) or two (a friend's)."""

    def __init__(self, seed: int, variant_name: str, seat: str) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.seat = seat
        lengths = (3, 5) if variant_name == "tavli" else (1, 1, 3)
        length = rng.choice(lengths) if rng.random() < 0.8 else 0
        clock = FAST_CLOCK if length and rng.random() < 0.35 else None
        self.now = 0
        self.engine: BackgroundEngine | None = None
        self.boards: list[Board] = []
        if seat == "friend":
            for here, name in ((W, "izmir"), (B, "athens")):
                opponent = OpponentSettings(color=here.opponent, remote=name, coach=False)
                self.boards.append(self._board(f"{seed}/{variant_name}/friend-{here.value}",
                                               GameSettings(length, variant_name,
                                                            opponent=opponent, clock=clock)))
            self.mine = {id(self.boards[0]): W, id(self.boards[1]): B}
            return
        opponent = OpponentSettings(coach=False)
        if seat == "computer":
            opponent = OpponentSettings(color=rng.choice((W, B)), level=Level.EXPERT,
                                        coach=False)
            self.engine = BackgroundEngine(ChoosingEngine(random.Random(rng.random())),
                                           VirtualClock())
            self.engine.start()
        rules = MatchRules(beavers=rng.random() < 0.5, jacoby=rng.random() < 0.5)
        settings = GameSettings(length, variant_name, rules, opponent=opponent, clock=clock)
        self.boards.append(self._board(f"{seed}/{variant_name}/{seat}", settings))
        self.mine = {}

    def _board(self, label: str, settings: GameSettings) -> Board:
        dice, wall = ScriptedDice(), VirtualClock()
        referee = Referee(settings, dice, engine=self.engine, wall=wall)
        return Board(label, referee, random.Random(self.rng.random()), dice, wall)

    @property
    def findings(self) -> list[Finding]:
        return [f for b in self.boards for f in b.findings]

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()

    # -- the match -----------------------------------------------------------------------

    def play(self) -> None:
        """Play the match to its end (or :data:`MAX_CALLS` steps)."""
        lead = self.boards[0]
        lead.call("new match", lead.referee.new_match(lead.referee.settings.match_length, 0,
                                                      lead.referee.settings.variant))
        for other in self.boards[1:]:
            other.call("new match", other.referee.new_match(
                other.referee.settings.match_length, 0, other.referee.settings.variant))
        for _ in range(MAX_CALLS):
            if all(b.referee.phase is Phase.MATCH_OVER for b in self.boards) \
                    or self.money_done():
                return
            self.now += STEP_MS
            for board in self.boards:
                board.wall.advance(STEP_MS)
            self.step()

    def money_done(self) -> bool:
        """A money session ends after its second game."""
        ref = self.boards[0].referee
        return ref.match.match_length == 0 and sum(
            e.type is EventType.GAME_OVER for e in self.boards[0].events) >= 2

    def step(self) -> None:
        """One input to each board, whatever its phase."""
        for board in self.boards:
            self.act(board)
        if len(self.boards) == 2:
            self.relay()

    def act(self, board: Board) -> None:
        ref, now, rng = board.referee, self.now, self.rng
        phase = ref.phase
        if phase is Phase.MATCH_OVER:
            return
        if ref.clock is not None and rng.random() < 0.002:  # a player thinks too long
            self.now += 25_000
            for b in self.boards:
                b.wall.advance(25_000)
            board.tick(self.now)
            return
        undo = ref.undo
        if undo is not None and not ref.seat.plays(undo.player) and rng.random() < 0.2:
            board.show(undo.start.board(), now, "the last play taken back")
        elif phase in (Phase.SETUP, Phase.GAME_OVER):
            board.show(variant(ref.tavli.variant).start_board(), now, "the start")
        elif phase is Phase.OPENING:
            board.press(rng.choice(self._hands(board, ("white.roll", "black.roll"))), now)
        elif phase is Phase.NO_MOVE:
            if rng.random() < 0.5:
                self.now += ref.settings.no_move_pass_ms
                board.tick(self.now)
            else:
                board.press(f"{ref.match.on_roll.opponent.value}.roll", now)
        elif phase is Phase.MOVING:
            self.move(board)
        else:
            self.decide(board)
        board.tick(self.now)

    def _hands(self, board: Board, buttons: tuple[str, ...]) -> tuple[str, ...]:
        """The buttons of the colours played at this board (not the seat's)."""
        seat = board.referee.seat
        own = tuple(b for b in buttons if not seat.plays(Color(b.partition(".")[0])))
        return own or buttons

    def decide(self, board: Board) -> None:
        """Before a roll, or an offer on the table: what the player to act does."""
        ref, now, rng = board.referee, self.now, self.rng
        actor = ref.match.to_act if ref.phase is not Phase.AWAIT_ROLL else ref.match.on_roll
        if ref.seat.plays(actor):
            return  # the computer's or the friend's: ticks bring it
        hand = actor.value
        if ref.phase is Phase.DOUBLE_OFFERED:
            if cube_rules.may_beaver(ref.match, actor, ref.settings.rules) and rng.random() < 0.3:
                board.press(f"{hand}.cube", now, long=True)
            else:
                board.press(f"{hand}.{rng.choice(('roll', 'roll', 'cube'))}", now)
        elif ref.phase is Phase.RESIGN_OFFERED:
            board.press(f"{hand}.{rng.choice(('roll', 'cube'))}", now)
        elif rng.random() < 0.04:
            board.press(f"{hand}.cube", now, long=True)  # a resignation chosen
            for _ in range(rng.randint(0, 2)):
                board.press(f"{hand}.cube", now)
            board.press(f"{hand}.roll", now)
        elif rng.random() < 0.12:
            board.press(f"{hand}.cube", now)  # a double (refused where there is no cube)
        else:
            board.press(f"{hand}.roll", now)

    def move(self, board: Board) -> None:
        """The mover's hand: the seat's play carried out, or a random legal play and DONE."""
        ref, now = board.referee, self.now
        turn = ref.turn
        if turn is None:
            return  # the seat chooses: ticks bring it
        if turn.seat_play is not None:
            shown = PortesPosition(turn.seat_play.result, turn.mover.opponent).board()
            board.show(shown, now, "the seat's play")
            return
        plays = turn.start.legal_plays(turn.dice)
        play = self.rng.choice(plays)
        board.show(play.result.board(), now, f"{play.notation}")
        board.press(f"{turn.mover.value}.roll", now)

    # -- two boards joined -----------------------------------------------------------------

    def relay(self) -> None:
        """What each board would send, offered to the other's seat in order; a roll asked
        at either board made once for both (no broker, no dice protocol)."""
        for board, other in ((self.boards[0], self.boards[1]), (self.boards[1], self.boards[0])):
            mine = _seat(board)
            color = mine.color.opponent
            for event in board.events[board.sent:]:
                body = own_body(event, color, board.referee.match.cube)
                decision = None if body is None else friend_decision(body)
                if decision is not None:
                    other.inbox.append(decision)
            board.sent = len(board.events)
            if mine.to_send is not None:
                other.inbox.append(mine.to_send)
                mine.to_send = None
        offered = [_seat(b).offered for b in self.boards]
        pending = any(isinstance(d, FriendRoll) for b in self.boards for d in b.inbox) or any(
            o is not None and isinstance(o[0], FriendRoll) for o in offered)
        if not pending and any(_seat(b).roll_asked for b in self.boards):
            roll = FriendRoll(0, (self.rng.randint(1, 6), self.rng.randint(1, 6)))
            for b in self.boards:
                b.inbox.append(roll)
        for board in self.boards:
            seat = _seat(board)
            if board.inbox and seat.offered is None:
                seat.offer(board.inbox.pop(0), None)
                board.tick(self.now)


def _seat(board: Board) -> FriendSeat:
    seat = board.referee.seat
    assert isinstance(seat, FriendSeat)
    return seat


def play_game(seed: int, variant_name: str, seat: str) -> Game:
    """Play one random match; its findings are on the returned game."""
    game = Game(seed, variant_name, seat)
    try:
        game.play()
    finally:
        game.close()
    return game
