"""Legal plays: the rules one by one, golden perft counts, symmetry and invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla_pi.rules import Color, Play, Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def pos(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from {own point: count} per side; 25 is the bar."""
    m, t = [0] * 25, [0] * 25
    for point, n in mine.items():
        m[point - 1] = n
    for point, n in theirs.items():
        t[point - 1] = n
    return Position(m, t)


def notations(p: Position, dice: tuple[int, int]) -> list[str]:
    return [play.notation for play in p.legal_plays(dice)]


# -- golden counts (cross-checked with gnubg: the opening cases are in the fixture) -----

OPENING = {
    (1, 1): 42, (2, 1): 15, (2, 2): 75, (3, 1): 16, (3, 2): 17, (3, 3): 73, (4, 1): 14,
    (4, 2): 18, (4, 3): 17, (4, 4): 52, (5, 1): 8, (5, 2): 8, (5, 3): 9, (5, 4): 9,
    (5, 5): 4, (6, 1): 10, (6, 2): 14, (6, 3): 14, (6, 4): 14, (6, 5): 7, (6, 6): 11,
}


def test_opening_roll_counts() -> None:
    start = Position.initial()
    assert {roll: len(start.legal_plays(roll)) for roll in ROLLS} == OPENING


@pytest.mark.slow
def test_perft_two_plies() -> None:
    """Plays summed over the 21 rolls after one and two plies from the start, and the
    distinct positions they reach (gnubg gives the same four numbers)."""
    start = Position.initial()
    ply1 = [play.result for roll in ROLLS for play in start.legal_plays(roll)]
    assert (len(ply1), len(set(ply1))) == (447, 406)
    total = 0
    seen: set[Position] = set()
    for p in ply1:
        for roll in ROLLS:
            plays = p.legal_plays(roll)
            total += len(plays)
            seen.update(play.result for play in plays)
    assert (total, len(seen)) == (202_782, 163_706)


# -- the rules, one by one --------------------------------------------------------------


def test_play_fields() -> None:
    start = Position.initial()
    plays = start.legal_plays((3, 1))
    assert plays[0].notation == "24/23 24/21"
    by_notation = {play.notation: play for play in plays}
    play = by_notation["8/5 6/5"]
    assert play.dice == (3, 1)
    assert play.position == start
    assert sorted(play.moves, reverse=True) == [(8, 5, False), (6, 5, False)]
    assert play.result.theirs[4] == 2 and play.result.theirs[7] == 2  # mover's 5 and 8
    assert play.result.mine == start.theirs  # the opponent, untouched, now on roll
    assert play == start.legal_plays((3, 1))[plays.index(play)]
    assert "8/5 6/5" in repr(play)


def test_order_is_deterministic_and_first_roll_die_first() -> None:
    start = Position.initial()
    assert notations(start, (6, 5)) == notations(start, (6, 5))
    assert notations(start, (6, 5))[0] == "24/13"
    assert set(notations(start, (5, 6))) == set(notations(start, (6, 5)))


def test_hit_on_the_way_is_written_out() -> None:
    p = pos({24: 1, 6: 5, 8: 3, 13: 5}, {7: 1, 13: 4, 8: 3, 6: 5, 24: 2})
    assert notations(p, (6, 5))[:3] == ["24/18*/13", "24/18* 13/8", "24/18* 8/3"]
    play = p.legal_plays((6, 5))[0]
    assert play.moves == ((24, 18, True), (18, 13, False))
    assert play.result.mine[24] == 1  # the hit checker is on the opponent's bar


def test_doubles_are_counted() -> None:
    assert "8/5(2) 6/3(2)" in notations(Position.initial(), (3, 3))
    assert "13/7(4)" in notations(Position.initial(), (6, 6))


def test_bar_first_and_partial_entry_forfeits_the_rest() -> None:
    home = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
    assert notations(pos({25: 2, 13: 13}, home), (6, 5)) == ["bar/19"]
    closed = {**home, 6: 2}
    assert notations(pos({25: 2, 13: 13}, closed), (6, 5)) == []
    one = {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 2}
    plays = pos({25: 1, 13: 14}, one).legal_plays((5, 5))
    assert all(play.moves[0][0] == 25 for play in plays)
    assert "bar/20*/5" in [play.notation for play in plays]


def test_both_dice_else_the_larger_else_as_many_as_possible() -> None:
    # either die alone, never both: the larger (6) must be played
    assert notations(pos({24: 1}, {8: 2, 6: 5}), (6, 1)) == ["24/18"]
    assert notations(pos({24: 1}, {8: 2, 6: 5}), (1, 6)) == ["24/18"]
    # the 6 cannot be played at all: the 1 it is
    assert notations(pos({24: 1}, {7: 2, 8: 2, 6: 5}), (6, 1)) == ["24/23"]
    # both, through the open point only
    assert notations(pos({24: 1}, {7: 2, 6: 5}), (6, 1)) == ["24/17"]
    # doubles: as many as the board allows
    [play] = pos({24: 1}, {9: 2, 6: 5}).legal_plays((4, 4))
    assert play.moves == ((24, 20, False),)


def test_bearing_off() -> None:
    # not all home: no bearing off
    assert notations(pos({7: 1, 3: 1}, {6: 5}), (3, 2)) == ["7/2", "7/4 3/1", "7/5 3/off"]
    # a die larger than the highest point bears off from the highest point only
    # (4/3 then 2/off is not allowed: the 6 must take the highest checker, now on 3)
    assert notations(pos({4: 1, 2: 1}, {6: 5}), (6, 1)) == ["4/off 2/1", "4/off"]
    # a die that neither fits nor may bear off moves inside first
    [play] = pos({6: 1, 1: 1}, {6: 5}).legal_plays((4, 4))
    assert play.notation == "6/off 1/off"
    assert play.moves == ((6, 2, False), (2, 0, False), (1, 0, False))
    assert play.result.theirs == (0,) * 25


def test_bad_dice_are_refused() -> None:
    for dice in [(0, 1), (7, 1), (1,), (1, 2, 3)]:
        with pytest.raises(ValueError, match="dice"):
            Position.initial().legal_plays(dice)  # type: ignore[arg-type]


# -- properties -------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random valid positions with the mover still playing."""
    mine, theirs = [0] * 25, [0] * 25
    for _ in range(draw(st.integers(1, 15))):
        mine[draw(st.sampled_from([*range(24), *range(6), 24]))] += 1
    for _ in range(draw(st.integers(0, 15))):
        slot = draw(st.integers(0, 24))
        if slot == 24 or not mine[23 - slot]:
            theirs[slot] += 1
    return Position(mine, theirs)


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def replay(p: Position, play: Play) -> Position:
    """Apply ``play.moves`` one by one (an independent reading of the moves)."""
    mine, theirs = list(p.mine), list(p.theirs)
    for src, dst, hit in play.moves:
        mine[src - 1] -= 1
        if dst:
            mine[dst - 1] += 1
            assert hit == (theirs[24 - dst] == 1)
            if hit:
                theirs[24 - dst] = 0
                theirs[24] += 1
    return Position(theirs, mine)


@settings(max_examples=300)
@given(positions(), dice)
def test_every_play_is_consistent(p: Position, roll: tuple[int, int]) -> None:
    plays = p.legal_plays(roll)
    results = [play.result for play in plays]
    assert len(set(results)) == len(results)
    used = {len(play.moves) for play in plays}
    assert len(used) <= 1, "every play uses the same number of dice"
    for play in plays:
        assert replay(p, play) == play.result
        assert sum(play.result.mine) + sum(play.result.theirs) <= sum(p.mine) + sum(p.theirs)
        assert sum(play.result.mine) == sum(p.theirs)
        for src, dst, _ in play.moves:
            assert dst == 0 or src - dst in roll
            assert dst != 0 or src <= max(roll)


@settings(max_examples=300)
@given(positions(), dice)
def test_dice_order_does_not_change_the_plays(p: Position, roll: tuple[int, int]) -> None:
    forward = {play.result: play.notation for play in p.legal_plays(roll)}
    backward = {play.result: play.notation for play in p.legal_plays((roll[1], roll[0]))}
    assert forward == backward


@given(positions(), dice, st.sampled_from(list(Color)))
def test_mirrored_situations_have_mirrored_plays(
    p: Position, roll: tuple[int, int], color: Color
) -> None:
    board = p.to_board(color)
    flipped = board.mirrored()
    assert flipped.mirrored() == board
    q = Position.from_board(flipped, color.opponent)
    assert q == p
    for a, b in zip(p.legal_plays(roll), q.legal_plays(roll), strict=True):
        assert a.notation == b.notation
        assert a.result.to_board(color.opponent).mirrored() == b.result.to_board(color)


def test_single_checker_predicates() -> None:
    start = Position.initial()
    assert start.can_move(24, 1) and start.can_move(13, 3)
    assert not start.can_move(24, 5)  # own 19 is the opponent's 6 point
    assert not start.can_move(6, 6)  # no bearing off with checkers outside
    assert not start.can_move(5, 1)  # no checker there
    on_bar = pos({25: 1, 13: 14}, {1: 2, 6: 2})
    assert on_bar.can_move(25, 2) and not on_bar.can_move(25, 1)
    assert not on_bar.can_move(13, 2)  # the bar first
    home = pos({5: 1, 2: 1}, {6: 5})
    assert home.can_move(5, 6) and home.can_move(2, 2)
    assert not home.can_move(2, 6)  # a larger die bears off the highest checker only
    assert home.can_move(2, 1)
