"""A server's board as the rules' values, and back: spaces to sides, a Board and a
Position; the server's moves to a legal Play and a Play to the server's moves.

The server's board is seen from the board's player (:mod:`tavla_pi.online.model`): its
checkers positive, moving from 24 down to 1 and off to 0, the bar at 26; the opponent's
negative, moving from 1 up to 24 and off to 25, the bar at 27.  So the board's player's
own point n is space n, and the opponent's own point n is space 25 - n.  On this board
the online opponent plays ``opponent`` (``[opponent] color``) and the board's player the
other colour.  Only backgammon (Portes) is read: a board whose counts cannot be one, or a
move our rules refuse, is a :class:`~tavla_pi.errors.ProtocolError` naming the fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from tavla_pi.errors import ProtocolError
from tavla_pi.online.model import (
    ME,
    MY_BAR,
    MY_OFF,
    SPACES,
    THEIR_BAR,
    THEIR_OFF,
    ServerMove,
)
from tavla_pi.rules import Board, Color, Play, Position
from tavla_pi.rules.movegen import may_enter, may_move
from tavla_pi.rules.side import BAR_INDEX, BAR_POINT, CHECKERS, OFF_POINT

ServerSides = tuple[tuple[int, ...], tuple[int, ...]]
"""(the board's player's side, the opponent's side), each 25 counts in its own numbering."""
MoverStep = tuple[int, int]
"""One checker's move in the mover's own points: (from 1..24 or 25 the bar, to 0..24)."""
_WHERE = "server board"


def sides(spaces: Sequence[int]) -> ServerSides:
    """The two sides of a server board's :data:`~tavla_pi.online.model.SPACES` counts;
    ProtocolError if they cannot be a backgammon board (15 checkers a side, the trays and
    bars holding only their own side's, no point held by both)."""
    if len(spaces) != SPACES:
        raise ProtocolError(_WHERE, f"{len(spaces)} spaces, expected {SPACES}")
    wrong = [i for i, n in ((MY_OFF, spaces[MY_OFF]), (MY_BAR, spaces[MY_BAR]),
                            (THEIR_OFF, -spaces[THEIR_OFF]), (THEIR_BAR, -spaces[THEIR_BAR]))
             if n < 0]
    if wrong:
        raise ProtocolError(_WHERE, f"space {wrong[0]}: {spaces[wrong[0]]} checkers of the "
                                    "other side (a tray or bar holds its own side's only)")
    mine = (*(max(spaces[n], 0) for n in range(1, 25)), spaces[MY_BAR])
    theirs = (*(max(-spaces[25 - n], 0) for n in range(1, 25)), -spaces[THEIR_BAR])
    for who, side, off in (("the board's player", mine, spaces[MY_OFF]),
                           ("the opponent", theirs, -spaces[THEIR_OFF])):
        if sum(side) + off != CHECKERS:
            raise ProtocolError(_WHERE, f"{who} has {sum(side)} checkers on the board and "
                                        f"{off} off: not {CHECKERS}")
    return mine, theirs


def spaces_of(mine: Sequence[int], theirs: Sequence[int]) -> tuple[int, ...]:
    """The server board of two sides (the board's player's, the opponent's), each 25
    counts in its own numbering: the inverse of :func:`sides`."""
    spaces = [0] * SPACES
    for n in range(1, 25):
        spaces[n] = mine[n - 1] - theirs[24 - n]
    spaces[MY_OFF] = CHECKERS - sum(mine)
    spaces[THEIR_OFF] = sum(theirs) - CHECKERS
    spaces[MY_BAR] = mine[BAR_INDEX]
    spaces[THEIR_BAR] = -theirs[BAR_INDEX]
    return tuple(spaces)


def to_board(spaces: Sequence[int], opponent: Color) -> Board:
    """The absolute board of a server board, the online opponent playing ``opponent``."""
    mine, theirs = sides(spaces)
    return Board.from_sides(opponent.opponent, mine, theirs)


def from_board(board: Board, opponent: Color) -> tuple[int, ...]:
    """The server board of an absolute board, the online opponent playing ``opponent``."""
    return spaces_of(board.side(opponent.opponent), board.side(opponent))


def position_of(spaces: Sequence[int], on_roll: int) -> Position:
    """The position of a server board with ``on_roll`` (:data:`ME` or :data:`OPPONENT`)
    to play."""
    mine, theirs = sides(spaces)
    return Position(mine, theirs) if on_roll == ME else Position(theirs, mine)


def step_of(move: ServerMove, mover: int) -> MoverStep:
    """A server move of ``mover`` (:data:`ME` or :data:`OPPONENT`) in the mover's own
    points (25 the bar, 0 off); ProtocolError for a move that mover cannot make."""
    origin, target = move
    if mover == ME:
        step = (BAR_POINT if origin == MY_BAR else origin, target)
        valid = (1 <= origin <= 24 or origin == MY_BAR) and MY_OFF <= target <= 24
    else:
        step = (BAR_POINT if origin == THEIR_BAR else 25 - origin,
                OFF_POINT if target == THEIR_OFF else 25 - target)
        valid = (1 <= origin <= 24 or origin == THEIR_BAR) and 1 <= target <= THEIR_OFF
    if not valid or step[1] >= step[0]:
        who = "the board's player" if mover == ME else "the opponent"
        raise ProtocolError(_WHERE, f"move {origin}/{target}: not a move of {who}")
    return step


def server_move(step: MoverStep, mover: int) -> ServerMove:
    """A move in the mover's own points as the server writes it: the inverse of
    :func:`step_of`."""
    origin, target = step
    if mover == ME:
        return (MY_BAR if origin == BAR_POINT else origin, target)
    return (THEIR_BAR if origin == BAR_POINT else 25 - origin,
            THEIR_OFF if target == OFF_POINT else 25 - target)


def server_moves(play: Play, mover: int = ME) -> tuple[ServerMove, ...]:
    """The moves of ``play`` (by ``mover``) as the server takes them, in order."""
    return tuple(server_move((origin, target), mover) for origin, target, _ in play.moves)


def play_of(position: Position, dice: tuple[int, int], moves: Sequence[ServerMove],
            mover: int) -> Play:
    """The legal play of ``dice`` from ``position`` (``mover`` on roll) whose result the
    server's ``moves`` reach, played in order (a move that reverses the one before it
    takes it back); ProtocolError naming the moves if they break our rules."""
    mine, theirs = position.mine, position.theirs
    done: list[tuple[ServerMove, tuple[int, ...], tuple[int, ...]]] = []
    for move in moves:
        if done and done[-1][0] == (move[1], move[0]):
            _, mine, theirs = done.pop()
            continue
        after = _apply(mine, theirs, step_of(move, mover))
        if after is None:
            raise ProtocolError(_WHERE, f"move {move[0]}/{move[1]}: no checker there, or "
                                        f"the point is the other side's ({_named(moves)})")
        done.append((move, mine, theirs))
        mine, theirs = after
    return play_reaching(position, dice, Position(theirs, mine), _named(moves))


def play_reaching(position: Position, dice: tuple[int, int], result: Position,
            what: str = "the server's play") -> Play:
    """The legal play of ``dice`` from ``position`` that leaves ``result`` (the opponent
    on roll); ProtocolError naming ``what`` and the position if none does."""
    plays = position.legal_plays(dice)
    for play in plays:
        if play.result == result:
            return play
    if not plays and result == position.swap():
        return Play(position, dice, (), result)
    raise ProtocolError(_WHERE, f"{what} with {dice[0]}-{dice[1]} from position "
                                f"{position.position_id()} to {result.swap().position_id()}: "
                                "not a legal play by our rules")


def first_moves(position: Position, dice: Sequence[int]) -> frozenset[MoverStep]:
    """The single moves our rules let the player on roll make first with the dice still
    to play (``dice``: two, or four of a double, or what is left of them): those that
    begin a play using the most dice and pips possible.  The server's ``available``
    should be these (the differential test compares them)."""
    mine, theirs = position.mine, position.theirs
    remaining = tuple(sorted(dice, reverse=True))
    best = _best(mine, theirs, remaining)
    found = set()
    for die, step, after in _steps(mine, theirs, remaining):
        rest = _without(remaining, die)
        count, pips = _best(*after, rest)
        if (count + 1, pips + die) == best:
            found.add(step)
    return frozenset(found)


@lru_cache(maxsize=1 << 16)
def _best(mine: tuple[int, ...], theirs: tuple[int, ...],
          dice: tuple[int, ...]) -> tuple[int, int]:
    """(dice, pips) of the longest play of ``dice`` from these sides: most dice, then most
    pips, as the rules require."""
    best = (0, 0)
    for die, _, after in _steps(mine, theirs, dice):
        count, pips = _best(*after, _without(dice, die))
        best = max(best, (count + 1, pips + die))
    return best


def _steps(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, ...],
           ) -> list[tuple[int, MoverStep, tuple[tuple[int, ...], tuple[int, ...]]]]:
    """(die, step, sides after) of every single move one of ``dice`` allows now."""
    found = []
    for die in dict.fromkeys(dice):
        for index in range(BAR_INDEX, -1, -1):
            if not mine[index] or (mine[BAR_INDEX] and index != BAR_INDEX):
                continue
            allowed = (may_enter(theirs, die) if index == BAR_INDEX
                       else may_move(mine, theirs, index, die))
            if not allowed:
                continue
            origin = index + 1
            step = (origin, max(origin - die, OFF_POINT))
            after = _apply(mine, theirs, step)
            assert after is not None  # the rules allowed it
            found.append((die, step, after))
    return found


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1:]


def _apply(mine: tuple[int, ...], theirs: tuple[int, ...],
           step: MoverStep) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The sides after one checker's ``step`` (hitting a blot), or None if there is no
    checker to move or the opponent holds the landing point."""
    origin, target = step
    m, t = list(mine), list(theirs)
    if not m[origin - 1]:
        return None
    m[origin - 1] -= 1
    if target != OFF_POINT:
        opposite = 24 - target
        if t[opposite] >= 2:
            return None
        if t[opposite] == 1:
            t[opposite] = 0
            t[BAR_INDEX] += 1
        m[target - 1] += 1
    return tuple(m), tuple(t)


def _named(moves: Sequence[ServerMove]) -> str:
    return "moves " + " ".join(f"{a}/{b}" for a, b in moves) if moves else "no move"
