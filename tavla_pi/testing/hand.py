"""A scripted player's hand: a chosen play turned into physical actions on the board.

The rules engine picks a :class:`~tavla_pi.rules.Play`; a :class:`Hand` moves
it the way people do: one checker at a time in some order of the single-die
moves (entering from the bar first, or, now and then, not), one checker over
several dice in one movement, hit blots put on the bar before the hitter
arrives, while it is in the hand or after, slides over the points on the
way, pauses of any length, sensor glitches.  At random it is also clumsy:
DONE pressed too early, a checker put where no legal play goes, a takeback,
a knocked stack.  The result is a list of :class:`HandStep` s, each a run of
scenario actions and the event the referee must answer it with.

The hand keeps its own small model of the board (the mover's and the
opponent's 25 counts, as the rules engine holds them) and its own statement
of the single-die rules (:mod:`tavla_pi.testing.handrules`), so that it never
relies on the code it tests.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tavla_pi.events.types import EventType
from tavla_pi.hardware.pinmap import POINT_SLOTS
from tavla_pi.replay.actions import (
    SHORT_PRESS_MS,
    Action,
    GlitchAction,
    LiftAction,
    MoveAction,
    PlaceAction,
    PressAction,
    WaitAction,
)
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.side import BAR_POINT, OFF_POINT
from tavla_pi.testing.handrules import (
    Sides,
    Single,
    ix,
    moved,
    orders,
    partial_boards,
    points,
    reads_legal,
)

ILLEGAL_HOLD_MS = 400
"""How long an illegal placement is left standing (the referee must object)."""
UNSEEN_UNDER = 2 * POINT_SLOTS
"""A point with this many checkers or more (either colour's) has every pocket two
high: a checker put there lies on the third layer, whose field the sensors cannot
tell from the tolerances (hardware/GEOMETRY.md).  The hand puts no illegal checker
there and counts the placements it left out (``illegal_unseen_skipped``)."""
GLITCH_MS = (10, 140)
"""Glitches are shorter than the stability time (150 ms): the game never sees them."""
SLIDE_MS = (0, 130)
"""How long a slide rests on each point on the way (shorter than the stability time)."""


def location(point: int, color: Color) -> str:
    """The docs/CONTRACTS.md §1 location of ``color``'s own point (25 = "bar", 0 = "off")."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point if color is Color.WHITE else 25 - point)


def hand_moves(play: Play, color: Color) -> list[dict[str, Any]]:
    """The moves of a hand carrying ``play`` out for ``color``: one single-die move at a
    time, a hit blot put on the bar before the hitter arrives."""
    actions: list[dict[str, Any]] = []
    for frm, to, hit in play.moves:
        if hit:
            actions.append({"move": f"{location(to, color)}/bar",
                            "color": color.opponent.value})
        actions.append({"move": f"{location(frm, color)}/{location(to, color)}",
                        "color": color.value})
    return actions


def hand_takes_back(play: Play, color: Color) -> list[dict[str, Any]]:
    """The moves of a hand putting ``color``'s ``play``, made on the board, back to where
    it began (the inverse of :func:`hand_moves`): the last checker first, a checker it hit
    back from the bar once the hitter has left."""
    actions: list[dict[str, Any]] = []
    for frm, to, hit in reversed(play.moves):
        actions.append({"move": f"{location(to, color)}/{location(frm, color)}",
                        "color": color.value})
        if hit:
            actions.append({"move": f"bar/{location(to, color)}",
                            "color": color.opponent.value})
    return actions


def done_button(color: Color) -> str:
    """The ROLL/DONE button of ``color``."""
    return f"{color.value}.roll"


@dataclass(frozen=True, slots=True)
class HandStyle:
    """How varied and how clumsy the hand is: each field a probability per chance.

    ``any_order`` (per turn): the single moves in an order that is only legal
    as a whole (e.g. another checker before the one on the bar enters);
    ``multi_die`` (per continuation): one checker over several dice in one
    movement; ``use_move``: the runner's ``move`` (lift, settle, place,
    settle) rather than separate lifts and places; ``slide`` (per movement):
    slide over points on the way; ``glitch`` (per action): a phantom reading;
    ``illegal`` (per movement): first put the checker where no legal play
    goes; ``done_on_illegal``: then press DONE while it stands there;
    ``illegal_held``: such a point may be one the opponent holds (else only
    points no dice reach);
    ``early_done`` (per pause between movements): DONE before the play is
    complete; ``takeback`` (per turn, twice): play other moves and take them
    back first, and take back the last movement and make it again;
    ``knock`` (per pause between movements): lift 2-3 checkers of a stack
    and put them back; ``pauses``: random waits between actions (else none).
    """

    any_order: float = 0.15
    multi_die: float = 0.35
    use_move: float = 0.35
    slide: float = 0.15
    glitch: float = 0.04
    illegal: float = 0.04
    done_on_illegal: float = 0.5
    illegal_held: bool = True
    early_done: float = 0.04
    takeback: float = 0.05
    knock: float = 0.02
    pauses: bool = True


CAREFUL = HandStyle(any_order=0.0, multi_die=0.0, use_move=1.0, slide=0.0, glitch=0.0,
                    illegal=0.0, done_on_illegal=0.0, early_done=0.0, takeback=0.0,
                    knock=0.0, pauses=False)
"""A careful player: legal order, one ``move`` per die, no glitches, no mistakes."""


@dataclass(frozen=True, slots=True)
class HandStep:
    """Actions of the hand and the event the referee must answer them with.

    ``expect``: ``EventType.OUT_OF_SYNC`` (an illegal placement left standing),
    ``EventType.REJECTED`` (DONE pressed before the play is on the board), or None.
    ``what`` names the step for counting and for failure reports.
    ``carries``: (from, to) of a movement by a legal order with no hit: when
    the referee reports the checker lifted, ``to`` must be among the
    destinations it lights; for an illegal placement, where it was put.
    """

    actions: tuple[Action, ...]
    expect: EventType | None = None
    what: str = "move"
    carries: tuple[str, str] | None = None


class Hand:
    """A scripted player's hand: :meth:`turn` makes the steps of one chosen play.

    ``tally`` counts what the hand did (movements, hits, slides, glitches,
    takebacks, knocks, illegal placements, early DONE presses).
    """

    def __init__(self, rng: random.Random, style: HandStyle = HandStyle()) -> None:
        self.rng = rng
        self.style = style
        self.tally: Counter[str] = Counter()

    def turn(self, play: Play, mover: Color) -> list[HandStep]:
        """The steps that move ``play`` on the board (DONE not included)."""
        return self.steps(PortesModel(play, mover))

    def steps(self, model: TurnModel) -> list[HandStep]:
        """The steps that move the play of ``model`` on the board (DONE not included)."""
        return _Turn(self, model).build()

    def actions(self, play: Play, mover: Color) -> list[Action]:
        """The actions of :meth:`turn`, flattened."""
        return [a for step in self.turn(play, mover) for a in step.actions]

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return p > 0 and self.rng.random() < p

    def pause(self) -> int:
        """A random pause in ms: none, shorter than the stability time (150 ms),
        long enough to be seen, or a long one."""
        if not self.style.pauses:
            return 0
        r = self.rng.random()
        if r < 0.35:
            return 0
        if r < 0.65:
            return self.rng.randrange(20, 150, 10)
        if r < 0.95:
            return self.rng.randrange(160, 380, 20)
        return self.rng.randrange(400, 1100, 100)


def undo(actions: Sequence[Action]) -> list[Action]:
    """The actions that take ``actions`` back: reversed, lifts and places swapped."""
    out: list[Action] = []
    for action in reversed(actions):
        match action:
            case LiftAction(at, color):
                out.append(PlaceAction(at, color))
            case PlaceAction(at, color):
                out.append(LiftAction(at, color))
            case MoveAction(source, target, color):
                out.append(MoveAction(target, source, color))
            case WaitAction():
                out.append(action)
            case _:
                pass
    return out


# -- one turn ---------------------------------------------------------------------------


class TurnModel(Protocol):
    """The hand's model of the board during one play, the variant's own part of a turn:
    the mover's and the opponent's counts as the single moves leave them, where a point
    is, how the play's single moves can be ordered, and where an illegal placement may
    go.  :class:`PortesModel` here; :mod:`tavla_pi.testing.varhand` has the others."""

    mover: Color
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    complete: set[Sides]
    """The boards (mine, theirs) that a complete legal play leaves."""

    @property
    def others(self) -> Sequence[Any]:
        """The legal plays of the roll (a takeback may play one)."""
        ...

    def location(self, point: int) -> str:
        """The location of the mover's own ``point``."""
        ...

    def orders(self, *, legal: bool) -> list[tuple[Single, ...]]:
        """Orders of the play's single moves (with ``legal``, each legal when made)."""
        ...

    def move(self, frm: int, to: int) -> bool:
        """The model after one single move; True if it hit."""
        ...

    def stacks(self) -> list[tuple[str, Color, int]]:
        """(location, colour, count) of every stack of two or more."""
        ...

    def held(self, point: int) -> bool:
        """Whether the opponent holds the mover's own ``point``."""
        ...

    def illegal_points(self, hand: Hand, before: Sides, origin: int, dest: int) -> list[int]:
        """The points where the checker from ``origin`` makes a board no legal play shows."""
        ...

    def other_steps(self, hand: Hand, other: Any) -> list[HandStep]:
        """The steps ``hand`` makes of another legal play ``other``."""
        ...


class PortesModel:
    """The model of a Portes play: the rules engine's 25-tuples, hits to the bar."""

    def __init__(self, play: Play, mover: Color) -> None:
        self.play = play
        self.mover = mover
        self.mine, self.theirs = play.position.mine, play.position.theirs
        plays = play.position.legal_plays(play.dice)
        self.complete = {(p.result.theirs, p.result.mine) for p in plays}
        self.others = plays
        self._partials: set[tuple[int, ...]] | None = None

    def location(self, point: int) -> str:
        return location(point, self.mover)

    def orders(self, *, legal: bool) -> list[tuple[Single, ...]]:
        return orders(self.play.position, self.play, legal=legal)

    def move(self, frm: int, to: int) -> bool:
        self.mine, self.theirs, hit = moved(self.mine, self.theirs, frm, to)
        return hit

    def stacks(self) -> list[tuple[str, Color, int]]:
        opponent = self.mover.opponent
        stacks = [(location(p, self.mover), self.mover, n)
                  for p, n in points(self.mine) if n >= 2]
        return stacks + [(location(p, opponent), opponent, n)
                         for p, n in points(self.theirs) if n >= 2]

    def held(self, point: int) -> bool:
        return self.theirs[24 - point] >= 2

    def illegal_points(self, hand: Hand, before: Sides, origin: int, dest: int) -> list[int]:
        """Held by the opponent, or reached by no dice (never an opponent's blot)."""
        if self._partials is None:
            self._partials = {m for m, _ in partial_boards(self.play.position, self.play.dice)}
        partials = self._partials
        mine, theirs = before
        candidates = []
        for point in range(1, 25):
            held = theirs[24 - point]
            if point in (origin, dest) or held == 1 or (held and not hand.style.illegal_held):
                continue
            if held >= UNSEEN_UNDER or mine[point - 1] >= UNSEEN_UNDER:
                hand.tally["illegal_unseen_skipped"] += 1
                continue
            m = list(mine)
            m[ix(origin)] -= 1
            m[point - 1] += 1
            if not reads_legal(tuple(m), theirs, partials):
                candidates.append(point)
        return candidates

    def other_steps(self, hand: Hand, other: Any) -> list[HandStep]:
        return hand.turn(other, self.mover)


class _Turn:
    """Builds the steps of one play, keeping the hand's model of the board."""

    def __init__(self, hand: Hand, model: TurnModel) -> None:
        self.hand = hand
        self.style = hand.style
        self.model = model
        self.mover = model.mover
        self.steps: list[HandStep] = []
        self.pending: list[Action] = []
        self.legal_order = True

    # -- the whole turn ----------------------------------------------------------------

    def build(self) -> list[HandStep]:
        """Every step of the turn."""
        h = self.hand
        if h.chance(self.style.takeback):
            self._detour()
        legal = self.legal_order = not h.chance(self.style.any_order)
        order = h.rng.choice(self.model.orders(legal=legal) or self.model.orders(legal=False))
        h.tally["order_any" if not legal else "order_legal"] += 1
        last: list[Action] | None = None
        for chain in self._chains(order):
            self._between()
            last = self._movement(chain)
        if last and h.chance(self.style.takeback):
            h.tally["takeback_last"] += 1
            self._add(*undo(last), *self._wait(), *last)
            self._cut("takeback")
        self._cut("move")
        return self.steps

    def _chains(self, order: tuple[Single, ...]) -> list[list[Single]]:
        """The single moves grouped into hand movements (one checker, several dice)."""
        chains: list[list[Single]] = []
        for frm, to in order:
            if chains and chains[-1][-1][1] == frm and self.hand.chance(self.style.multi_die):
                chains[-1].append((frm, to))
            else:
                chains.append([(frm, to)])
        return chains

    # -- between movements -------------------------------------------------------------

    def _between(self) -> None:
        """Clumsiness while no checker is in the hand: an early DONE, a knocked stack."""
        h = self.hand
        if h.chance(self.style.knock):
            self._knock()
        board = (self.model.mine, self.model.theirs)
        if h.chance(self.style.early_done) and board not in self.model.complete:
            h.tally["early_done"] += 1
            self._cut("move")
            self._add(PressAction(done_button(self.mover), SHORT_PRESS_MS, long=False))
            self._cut("early_done", expect=EventType.REJECTED)

    def _knock(self) -> None:
        """Lift two or three checkers of a stack, wait, put them back."""
        stacks = self.model.stacks()
        if not stacks:
            return
        at, color, n = self.hand.rng.choice(stacks)
        k = min(n, self.hand.rng.choice((2, 3)))
        self.hand.tally["knock"] += 1
        self._cut("move")
        self._add(*[LiftAction(at, color)] * k, WaitAction(self.hand.rng.randrange(0, 700, 20)),
                  *[PlaceAction(at, color)] * k, *self._wait())
        self._cut("knock")

    def _detour(self) -> None:
        """Play (part of) another legal play, then take it back."""
        other = self.hand.rng.choice(self.model.others)
        careful = Hand(self.hand.rng, HandStyle(
            any_order=0.0, multi_die=self.style.multi_die, use_move=self.style.use_move,
            slide=0.0, glitch=0.0, illegal=0.0, early_done=0.0, takeback=0.0, knock=0.0,
            pauses=self.style.pauses))
        steps = self.model.other_steps(careful, other)
        actions = [a for s in steps for a in s.actions]
        if self.hand.chance(0.5):
            lifts = [i for i, a in enumerate(actions) if isinstance(a, LiftAction | MoveAction)]
            cut = self.hand.rng.choice(lifts[1:]) if len(lifts) > 1 else len(actions)
            actions = actions[:cut]
            self.hand.tally["takeback_part"] += 1
        else:
            self.hand.tally["takeback_play"] += 1
        self._add(*actions, *self._wait(), *undo(actions), *self._wait())
        self._cut("takeback")

    # -- one movement ------------------------------------------------------------------

    def _movement(self, chain: list[Single]) -> list[Action]:
        """The actions of one hand movement (hits included); the model moves on."""
        h = self.hand
        before = (self.model.mine, self.model.theirs)
        origin, dest = chain[0][0], chain[-1][1]
        hits = []
        for frm, to in chain:
            if self.model.move(frm, to):
                hits.append(to)
        h.tally["movement"] += 1
        h.tally["multi_die"] += len(chain) > 1
        h.tally["hit"] += len(hits)
        if not hits and self.legal_order and h.chance(self.style.illegal):
            wrong = self._illegal_point(before, origin, dest)
            if wrong is not None:
                self._illegal(origin, wrong, dest)
                return []
        actions = self._carry(origin, dest, hits)
        self._add(*actions)
        legal = self.legal_order and not hits
        loc = self.model.location
        self._cut("move", carries=(loc(origin), loc(dest)) if legal else None)
        return actions

    def _carry(self, origin: int, dest: int, hits: list[int]) -> list[Action]:
        """Lift at ``origin``, place at ``dest``; each hit blot to its bar in some order."""
        h, me, them = self.hand, self.mover, self.mover.opponent
        pre: list[Action] = []
        held: list[Action] = []
        post: list[Action] = []
        for point in hits:
            at = self.model.location(point)
            lift, to_bar = LiftAction(at, them), PlaceAction("bar", them)
            when = h.rng.choice(("before", "in_hand", "after", "blot_held"))
            h.tally[f"hit_{when}"] += 1
            if when == "before":
                pre += [lift, *self._wait(), to_bar, *self._wait()]
            elif when == "in_hand":
                held += [lift, *self._wait(), to_bar, *self._wait()]
            elif when == "after":
                post += [*self._wait(), lift, *self._wait(), to_bar]
            else:
                pre += [lift, *self._wait()]
                post += [*self._wait(), to_bar]
        src, dst = self.model.location(origin), self.model.location(dest)
        if not held and h.chance(self.style.use_move):
            h.tally["move_action"] += 1
            return [*pre, MoveAction(src, dst, me), *post, *self._wait()]
        return [*pre, LiftAction(src, me), *self._wait(), *held, *self._slide(origin, dest),
                PlaceAction(dst, me), *post, *self._wait()]

    def _slide(self, origin: int, dest: int) -> list[Action]:
        """The checker rests briefly on points on its way (each under the stability time)."""
        between = list(range(origin - 1, dest, -1)) if origin != BAR_POINT else []
        if not between or not self.hand.chance(self.style.slide):
            return []
        self.hand.tally["slide"] += 1
        rng = self.hand.rng
        stops = sorted(rng.sample(between, min(len(between), rng.randint(1, 3))), reverse=True)
        out: list[Action] = []
        for point in stops:
            at = self.model.location(point)
            out += [PlaceAction(at, self.mover), WaitAction(rng.randrange(*SLIDE_MS, 10)),
                    LiftAction(at, self.mover)]
        return out

    # -- illegal placements ------------------------------------------------------------

    def _illegal_point(self, before: Sides, origin: int, dest: int) -> int | None:
        """A point where the checker from ``origin`` makes a board no legal play shows."""
        candidates = self.model.illegal_points(self.hand, before, origin, dest)
        return self.hand.rng.choice(candidates) if candidates else None

    def _illegal(self, origin: int, wrong: int, dest: int) -> None:
        """Put the checker on ``wrong``, leave it (DONE perhaps), then move it right.

        The step is ``illegal_held`` when the opponent holds ``wrong``, else
        ``illegal_far`` (no dice lead there).
        """
        h, me = self.hand, self.mover
        loc = self.model.location
        src, bad, dst = loc(origin), loc(wrong), loc(dest)
        kind = "illegal_held" if self.model.held(wrong) else "illegal_far"
        h.tally["illegal"] += 1
        h.tally[kind] += 1
        self._cut("move")
        self._add(LiftAction(src, me), *self._wait(), PlaceAction(bad, me),
                  WaitAction(ILLEGAL_HOLD_MS))
        self._cut(kind, expect=EventType.OUT_OF_SYNC, carries=(src, bad))
        if h.chance(self.style.done_on_illegal):
            h.tally[f"done_on_{kind}"] += 1
            self._add(PressAction(done_button(me), SHORT_PRESS_MS, long=False))
            self._cut(f"done_on_{kind}", expect=EventType.REJECTED)
        self._add(LiftAction(bad, me), *self._wait(), PlaceAction(dst, me), *self._wait())
        self._cut("recover")

    # -- building steps ----------------------------------------------------------------

    def _wait(self) -> list[Action]:
        ms = self.hand.pause()
        return [WaitAction(ms)] if ms else []

    def _add(self, *actions: Action) -> None:
        self.pending.extend(actions)

    def _cut(self, what: str, expect: EventType | None = None,
             carries: tuple[str, str] | None = None) -> None:
        """Close the pending actions into a step (glitches sprinkled in)."""
        if not self.pending:
            return
        self.steps.append(HandStep(tuple(self._glitched(self.pending)), expect, what, carries))
        self.pending = []

    def _glitched(self, actions: list[Action]) -> Iterator[Action]:
        h = self.hand
        for action in actions:
            yield action
            if h.chance(self.style.glitch):
                h.tally["glitch"] += 1
                at = h.rng.choice([*(str(n) for n in range(1, 25)), "bar"])
                yield GlitchAction(at, h.rng.choice(tuple(Color)), h.rng.randint(*GLITCH_MS))
