"""Whole matches played for the journal, restore and export tests.

Two ways to play the same match:

* :class:`DirectMatch` drives a :class:`Referee` directly: scripted dice,
  exact observations of the board after each play, button presses and ticks.
  Fast (a match in well under a second), so properties run over many games.
  Every input is recorded as a :class:`Step` with the events it produced, so
  a test can stop anywhere, restore, and feed the rest again.
* :func:`runner_actions` turns the same match into scenario actions for the
  :class:`ScenarioRunner` (the modelled board, sensors, debouncing): a person
  moving checkers one at a time, hits put on the bar by hand.

A :class:`Policy` decides what the players do: which play (at random, or a
laggard who keeps checkers back, for gammons and backgammons), whether to
double, take or drop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tavla_pi.decode.observation import NOTHING, CountRange, Observation, Reading
from tavla_pi.events.event import Event
from tavla_pi.game.referee import Referee
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.rules import cube as cube_rules
from tavla_pi.rules.board import Board
from tavla_pi.rules.color import Color
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.rules.match import MatchRules, Resignation
from tavla_pi.rules.play import Play
from tavla_pi.rules.portes import gnubg_position
from tavla_pi.rules.position import Position
from tavla_pi.rules.resign import levels_above

W, B = Color.WHITE, Color.BLACK


def observation(board: Board) -> Observation:
    """The board read exactly, as a decoder with perfect sensors would."""
    points = []
    for point in range(1, 25):
        white, black = board.count(str(point), W), board.count(str(point), B)
        points.append(_reading(W, white) if white else _reading(B, black))
    return Observation(tuple(points), _reading(W, board.count("bar", W)),
                       _reading(B, board.count("bar", B)))


def _reading(color: Color, n: int) -> Reading:
    return Reading(color, CountRange(n, n)) if n else NOTHING


@dataclass
class Policy:
    """What the players choose: plays, doubles, takes.

    ``laggard`` keeps its checkers back (most on the opponent's home board
    and the bar), which makes gammons and backgammons likely.  ``spread``
    players avoid tall stacks, which the sensors cannot count (for games on
    the modelled board).  ``doubles``
    is the chance that a player allowed to double does; ``takes`` the
    chance a double is taken; ``beavers`` the chance a player doubled
    beavers, when the rules allow it; ``resigns`` the chance the player on
    roll resigns before rolling (a level at random), ``accepts`` the chance
    a resignation is accepted.
    """

    rng: random.Random
    laggard: Color | None = None
    doubles: float = 0.0
    takes: float = 1.0
    doublers: tuple[Color, ...] = (W, B)
    spread: bool = False
    beavers: float = 0.0
    resigns: float = 0.0
    accepts: float = 0.5

    def play(self, plays: list[Play], mover: Color) -> Play:
        """The play ``mover`` makes."""
        def score(play: Play) -> tuple[int, int]:
            held = _held_back(play) if mover is self.laggard else 0
            return held, -_tallest(play) if self.spread else 0

        best = max(score(p) for p in plays)
        return self.rng.choice([p for p in plays if score(p) == best])

    def double(self, color: Color) -> bool:
        """Does ``color``, allowed to, double now?"""
        return color in self.doublers and self.rng.random() < self.doubles

    def take(self) -> bool:
        """Is the double on offer taken?"""
        return self.rng.random() < self.takes

    def beaver(self) -> bool:
        """Does the player doubled, allowed to, beaver?"""
        return self.rng.random() < self.beavers

    def resign(self) -> int:
        """The level the player on roll resigns before rolling (0: none)."""
        if not self.resigns or self.rng.random() >= self.resigns:
            return 0
        return self.rng.randint(1, 3)

    def accept(self) -> bool:
        """Is the resignation on offer accepted?"""
        return self.rng.random() < self.accepts


def _held_back(play: Play) -> int:
    """How many of the mover's checkers stay back (bar and the opponent's home board)."""
    mine = play.result.theirs  # after the play the opponent is on roll
    return sum(mine[18:25])


def _tallest(play: Play) -> int:
    """The mover's tallest stack after the play."""
    return max(play.result.theirs[:24])


Call = tuple[Any, ...]
"""One input to the referee: ("obs", Board), ("button", name, long), ("tick",),
("dice", (a, b)) queues a roll."""


SHOWN_DICE = (Phase.OPENING, Phase.MOVING, Phase.NO_MOVE)


def snapshot(referee: Referee) -> dict[str, Any]:
    """What must survive a restart: IDs, phase, the dice shown, result, opening ties."""
    phase = referee.phase
    return {
        "match_id": referee.match.match_id(),
        "position_id": referee.position().position_id(),
        "phase": phase,
        "dice": referee.shown_dice if phase in SHOWN_DICE else (),
        "result": referee.result,
        "opening_throws": list(referee.state.opening_throws),
        "turn": (referee.turn.start, referee.turn.dice) if referee.turn else None,
        "resign_declined": referee.resign.declined,
    }


@dataclass
class Step:
    """One input, when it happened, the events it produced, and the state after it."""

    call: Call
    now: int
    events: list[Event]
    state: dict[str, Any]


def apply(referee: Referee, dice: ScriptedDice, call: Call, now: int) -> list[Event]:
    """Feed one recorded input to ``referee``."""
    kind = call[0]
    if kind == "obs":
        return referee.on_observation(observation(call[1]), now)
    if kind == "button":
        return referee.on_button(call[1], long=call[2], now=now)
    if kind == "tick":
        return referee.tick(now, settled=True)
    dice.extend([call[1]])
    return []


@dataclass
class DirectMatch:
    """A match played on a bare referee by a policy; ``steps`` records it all."""

    settings: GameSettings
    policy: Policy
    dice_rng: random.Random
    referee: Referee = field(init=False)
    dice: ScriptedDice = field(init=False)
    steps: list[Step] = field(default_factory=list)
    now: int = 0

    def __post_init__(self) -> None:
        self.dice = ScriptedDice()
        self.referee = Referee(self.settings, self.dice)

    @property
    def events(self) -> list[Event]:
        """Every event so far, in order."""
        return [e for step in self.steps for e in step.events]

    def feed(self, *call: Any) -> list[Event]:
        """Apply one input 100 ms after the last; record it."""
        self.now += 100
        events = apply(self.referee, self.dice, call, self.now)
        self.steps.append(Step(call, self.now, events, snapshot(self.referee)))
        return events

    def press(self, button: str, *, long: bool = False) -> list[Event]:
        """Press ``button`` (long or short) 100 ms after the last input; record it."""
        return self.feed("button", button, long)

    def roll(self) -> None:
        self.feed("dice", (self.dice_rng.randint(1, 6), self.dice_rng.randint(1, 6)))

    def play(self, games: int = 1000, until: Callable[[DirectMatch], bool] | None = None) -> None:
        """Play until the match is over, ``games`` games ended, or ``until`` says so."""
        ended = 0
        while self.referee.phase is not Phase.MATCH_OVER and ended < games:
            if until is not None and until(self):
                return
            events = self.turn()
            ended += sum(e.type == "game_over" for e in events)

    def turn(self) -> list[Event]:
        """The next input the players give, whatever the phase."""
        phase = self.referee.phase
        if phase in (Phase.SETUP, Phase.GAME_OVER):
            return self.feed("obs", Board.initial())
        if phase is Phase.OPENING:
            self.roll()
            return self.press(self.policy.rng.choice(["white.roll", "black.roll"]))
        if phase is Phase.NO_MOVE:
            self.now += self.settings.no_move_pass_ms
            return self.feed("tick")
        return self.cube_or_roll() if phase is not Phase.MOVING else self.move()

    def cube_or_roll(self) -> list[Event]:
        """Before rolling: double or roll; or answer the double on offer."""
        ref = self.referee
        on_roll = ref.match.on_roll
        if ref.phase is Phase.RESIGN_OFFERED:
            role = "roll" if self.policy.accept() else "cube"
            return self.press(f"{ref.match.to_act.value}.{role}")
        if ref.phase is Phase.DOUBLE_OFFERED:
            answerer = ref.match.to_act  # the doubled player, or the doubler after a beaver
            if cube_rules.may_beaver(ref.match, answerer, self.settings.rules) \
                    and self.policy.beaver():
                return self.press(f"{answerer.value}.cube", long=True)
            role = "roll" if self.policy.take() else "cube"
            return self.press(f"{answerer.value}.{role}")
        level = self.policy.resign()
        choices = levels_above(ref.resign.declined)
        if level and Resignation(level) in choices:
            return self.resign(on_roll, choices.index(Resignation(level)))
        allowed = cube_rules.may_double(ref.match, on_roll, self.settings.rules)
        if allowed and self.policy.double(on_roll):
            return self.press(f"{on_roll.value}.cube")
        self.roll()
        return self.press(f"{on_roll.value}.roll")

    def resign(self, color: Color, presses: int) -> list[Event]:
        """``color`` holds CUBE, presses it ``presses`` times and offers with ROLL."""
        events = self.press(f"{color.value}.cube", long=True)
        for _ in range(presses):
            events += self.press(f"{color.value}.cube")
        return events + self.press(f"{color.value}.roll")

    def move(self) -> list[Event]:
        """The player moving puts the board of a chosen play and presses DONE."""
        turn = self.referee.turn
        start = gnubg_position(turn.start) if turn is not None else None
        assert turn is not None and start is not None
        play = self.policy.play(start.legal_plays(turn.dice), turn.mover)
        events = self.feed("obs", play.result.to_board(turn.mover.opponent))
        events += self.press(f"{turn.mover.value}.roll")
        return events + self.feed("tick")

    def new_match(self) -> list[Event]:
        """MENU held twice: a new match."""
        return self.press("menu", long=True) + self.press("menu", long=True)


def played_with_menus(seed: int, match_length: int, games: int, *,
                      rules: MatchRules | None = None) -> DirectMatch:
    """A match with random doubles, beavers (when the rules allow them), drops, laggards
    and new-match presses."""
    rng = random.Random(seed)
    policy = Policy(random.Random(rng.random()), laggard=rng.choice([None, W, B]),
                    doubles=rng.choice([0.0, 0.05, 0.3]), takes=rng.choice([0.5, 1.0]),
                    beavers=rng.choice([0.0, 0.5]))
    match = DirectMatch(GameSettings(match_length=match_length, rules=rules or MatchRules()),
                        policy, random.Random(rng.random()))
    ended = 0
    while match.referee.phase is not Phase.MATCH_OVER and ended < games:
        events = match.new_match() if rng.random() < 0.005 else match.turn()
        ended += sum(e.type == "game_over" for e in events)
    return match


def direct_match(seed: int, match_length: int = 0, games: int = 1, *,
                 rules: MatchRules | None = None, **policy: Any) -> DirectMatch:
    """A match played by a seeded policy (``policy``: Policy's keyword fields)."""
    rng = random.Random(seed)
    settings = GameSettings(match_length=match_length, rules=rules or MatchRules())
    match = DirectMatch(settings, Policy(random.Random(rng.random()), **policy),
                        random.Random(rng.random()))
    match.play(games)
    return match


# -- the same match, as a person plays it on the modelled board -----------------


def runner_actions(match: DirectMatch) -> Iterator[dict[str, Any]]:
    """Scenario actions that play ``match`` on the modelled board."""
    board = Board.initial()
    pending: list[tuple[int, int]] = []
    for step in match.steps:
        kind = step.call[0]
        if kind == "dice":
            pending.append(step.call[1])
        elif kind == "button" and step.call[1] == "menu":
            yield {"hold": "menu", "ms": 2000}
        elif kind == "button":
            yield from ({"dice": list(d)} for d in pending)
            pending = []
            yield {"hold": step.call[1], "ms": 2000} if step.call[2] else {"press": step.call[1]}
        elif kind == "obs" and step.call[1] == Board.initial() and _setting_up(match, step):
            yield {"setup": "start"}
            board = Board.initial()
        elif kind == "obs":
            yield from _hand_moves(step, match, board)
            board = step.call[1]


def _setting_up(match: DirectMatch, step: Step) -> bool:
    return any(e.type == "game_started" for e in step.events)


def _hand_moves(step: Step, match: DirectMatch, board: Board) -> Iterator[dict[str, Any]]:
    """Single checker moves from ``board`` to the step's board, hits to the bar."""
    index = match.steps.index(step)
    played = next(e for s in match.steps[index:] for e in s.events if e.type == "played")
    mover = Color(played["player"])
    a, b = played["dice"]
    start = Position.from_board(board, mover)
    target = step.call[1]
    play = next(p for p in start.legal_plays((a, b))
                if p.result.to_board(mover.opponent) == target)
    for src, dst, hit in play.moves:
        yield {"move": f"{_loc(mover, src)}/{_loc(mover, dst)}", "color": mover.value}
        if hit:
            yield {"move": f"{_loc(mover, dst)}/bar", "color": mover.opponent.value}


def _loc(color: Color, number: int) -> str:
    """A location of docs/CONTRACTS.md §1 from ``color``'s own point number (25 bar, 0 off)."""
    if number == 25:
        return "bar"
    if number == 0:
        return "off"
    return str(number if color is W else 25 - number)


# -- stopping anywhere, restoring, going on --------------------------------------------


NOISE = ("lifted", "out_of_sync", "in_sync")
"""Events that depend on what the sensors showed a turn, not on the game state."""


def resumed(events: list[Event], settings: GameSettings, now: int,
            dice: ScriptedDice | None = None) -> Referee:
    """A fresh referee continued from ``events`` (which must all follow the rules)."""
    checked = verify(events, settings)
    assert (checked.trusted, checked.reason) == (len(events), "")
    return resume(checked.state, settings, now, dice)


def resume(state: State, settings: GameSettings, now: int,
           dice: ScriptedDice | None = None) -> Referee:
    """A fresh referee continued from ``state``."""
    referee = Referee(settings, dice or ScriptedDice())
    referee.resume(state, now)
    return referee


def prefixes(match: DirectMatch) -> list[tuple[int, Step]]:
    """(number of events, the step whose state they leave) for every event."""
    out, count = [], 0
    for step in match.steps:
        types = [e.type for e in step.events]
        for i in range(len(step.events)):
            count += 1
            if types[i] == "new_match" and "game_started" in types[i:]:
                continue  # the board was already set up: the game starts in the same step
            out.append((count, step))
    return out


def continue_after(match: DirectMatch, kill: int) -> list[Event]:
    """Stop after step ``kill``, restore, show the board, feed the rest: the events."""
    steps = match.steps
    done = [e for step in steps[: kill + 1] for e in step.events]
    now = steps[kill].now
    dice = ScriptedDice()
    referee = resumed(done, match.settings, now, dice)
    board = next((s.call[1] for s in reversed(steps[: kill + 1]) if s.call[0] == "obs"), None)
    if board is not None:  # the daemon's first stable frame after the restart
        assert [e.type for e in referee.on_observation(observation(board), now)
                if e.type not in NOISE] == []
    dice.extend([s.call[1] for s in steps[: kill + 1] if s.call[0] == "dice"][
        len([1 for e in done if e.type in ("rolled", "opening_roll")]):])
    out: list[Event] = []
    for step in steps[kill + 1:]:
        out += apply(referee, dice, step.call, step.now)
    return out


def graded(events: list[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, dict(e.fields)) for e in events if e.type not in NOISE]


def transient(step: Step) -> bool:
    """A press whose effect is not an event yet, so a restart forgets it: the first of
    two long MENU presses, or DONE while the board settles (the player presses again)."""
    pending_done = step.call[0] == "button" and step.state["phase"] is Phase.MOVING
    return pending_done or step.call[:2] == ("button", "menu")
