"""The differential test: on the real bgammon-server, over random games, the moves the
server lets the player on roll make (its ``Available``) are the ones our rules let them
make first (:func:`tavla_pi.online.board.first_moves`), at every turn's start and after
every single move within it.

Two socket players play a long match, each move one command (the server's dice; the
choices seeded), so that every state of every turn is compared.  Any disagreement is a
finding about one of the two: the test names the position, the dice and both sets.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from programs import needs

from tavla_pi.online.board import MoverStep, first_moves, position_of, step_of
from tavla_pi.online.model import ME, CommandRefused, GameBoard, GameWon
from tavla_pi.rules import Position
from tavla_pi.testing.bgammon import BgammonServer, SocketPlayer


def remaining_dice(board: GameBoard) -> list[int]:
    """The dice still to play on ``board``, as the server counts them (its DiceRolls: a
    move uses the die of its distance, a bearing off with a higher one the first higher
    die in roll order)."""
    d1, d2 = board.dice
    dice = [d1, d2, d1, d2] if d1 == d2 else [d1, d2]
    for move in board.pending:
        origin, target = step_of(move, ME)
        need = origin - target
        if need in dice:
            dice.remove(need)
        elif target == 0:
            dice.remove(next(d for d in dice if d > need))
    return dice


def in_longest_plays(position: Position, dice: list[int]) -> set[MoverStep]:
    """The server's rule (bgammon's LegalMoves): every single move of every longest play,
    wherever in the play it comes, that could be made now (a checker there, the bearing
    off allowed now, a die for it)."""
    found: dict[tuple[int, int], set[MoverStep]] = {}
    walk(position, tuple(sorted(dice, reverse=True)), (), 0, found)
    best = max(found, default=(0, 0))
    now = {step for _, step in single_moves(position, dice)}
    return {step for step in found.get(best, set()) if step in now}


def walk(position: Position, dice: tuple[int, ...], steps: tuple[MoverStep, ...], pips: int,
         found: dict[tuple[int, int], set[MoverStep]]) -> None:
    """Every sequence of single moves from ``position``: its moves, by (dice, pips)."""
    moves = single_moves(position, list(dice))
    if not moves:
        found.setdefault((len(steps), pips), set()).update(steps)
        return
    for die, step in moves:
        rest = list(dice)
        rest.remove(die)
        walk(after(position, step), tuple(rest), (*steps, step), pips + die, found)


def single_moves(position: Position, dice: list[int]) -> list[tuple[int, MoverStep]]:
    """(die, step) of every single move one of ``dice`` allows now."""
    return [(die, (point, max(point - die, 0))) for die in set(dice)
            for point in range(25, 0, -1) if position.can_move(point, die)]


def after(position: Position, step: MoverStep) -> Position:
    """The position after one step, the same player still to move."""
    mine, theirs = list(position.mine), list(position.theirs)
    origin, target = step
    mine[origin - 1] -= 1
    if target:
        mine[target - 1] += 1
        if theirs[24 - target] == 1:
            theirs[24 - target], theirs[24] = 0, theirs[24] + 1
    return Position(mine, theirs)


@dataclass
class Tally:
    """What the comparison found."""

    states: int = 0
    turns: int = 0
    games: int = 0
    disagreements: list[str] = field(default_factory=list)
    later_moves: list[str] = field(default_factory=list)
    """States where the server also lets a move be made first that our rules allow only
    later in a play (bgammon's LegalMoves takes the moves of a longest play wherever in
    it they come): a finding about the server, counted, not failed."""

    def compare(self, board: GameBoard) -> None:
        position = position_of(board.spaces, ME)
        dice = remaining_dice(board)
        ours = first_moves(position, dice)
        theirs: set[MoverStep] = {step_of(m, ME) for m in board.available}
        self.states += 1
        if ours == theirs:
            return
        where = (f"position {position.position_id()} dice {board.dice} left {dice} pending "
                 f"{board.pending}: ours only {sorted(ours - theirs)}, the server's only "
                 f"{sorted(theirs - ours)}")
        if ours < theirs and theirs == in_longest_plays(position, dice):
            self.later_moves.append(where)
        else:
            self.disagreements.append(where)


def act(player: SocketPlayer, board: GameBoard, rng: random.Random, tally: Tally) -> None:
    """The player's one command for ``board``, if it is theirs to act on."""
    if board.winner or board.turn != ME or board.double_offered:
        if board.turn == 0 and not board.winner and board.dice[0] == 0:
            player.roll()  # the opening roll (this player's die first, 0 until rolled)
        return
    if not board.dice[0]:
        player.roll()
        return
    tally.compare(board)
    if not board.available:
        player.ok()
        tally.turns += 1
        return
    player.move((rng.choice(board.available),))


@pytest.mark.slow
@needs("bgammon-server")
def test_the_servers_available_moves_are_our_first_moves(
        bgammon_server: BgammonServer) -> None:
    """Slow (about 5 s): some thousands of states of two 11-point matches."""
    rng = random.Random(2026)
    tally = Tally()
    for _ in range(2):
        play_match(bgammon_server, rng, tally)
    assert tally.states > 2000 and tally.games >= 4
    assert not tally.disagreements, "\n".join(tally.disagreements[:20])


def test_the_server_also_offers_a_move_our_rules_allow_only_later_in_the_play() -> None:
    """Found by this test on the real server: 12 checkers home with one on the 6, the
    opponent holding our 1, 5-4.  The one legal play is 6/2 4/off (both dice); bgammon
    also offers 4/off first, after which the 5 cannot be played: it would accept a play
    of one die where both can be played."""
    position = Position.from_position_id("u48EADj+OgEAAA")
    assert [play.notation for play in position.legal_plays((5, 4))] == ["6/2 4/off"]
    assert first_moves(position, [5, 4]) == {(6, 2)}
    assert in_longest_plays(position, [5, 4]) == {(6, 2), (4, 0)}


def play_match(server: BgammonServer, rng: random.Random, tally: Tally) -> None:
    """An 11-point match of random single moves between two socket players."""
    with SocketPlayer(server.port) as one, SocketPlayer(server.port) as two:
        one.login()
        two.login()
        act(two, two.join(one.create(11, "differential")), rng, tally)  # rolls
        while True:
            for player in (one, two):
                try:
                    event = player.next_event(0.002)
                except TimeoutError:
                    continue
                assert not isinstance(event, CommandRefused), (event, player.events[-4:])
                if isinstance(event, GameWon) and player is one:
                    tally.games += 1
                if isinstance(event, GameBoard):
                    if max(event.me.score, event.opponent.score) >= event.points:
                        return
                    act(player, event, rng, tally)
