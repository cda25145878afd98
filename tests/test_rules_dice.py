"""Dice sources and the opening roll."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla_pi.errors import DiceError
from tavla_pi.rules import Color, DiceSource, OpeningRoll, ScriptedDice, SecureDice, opening_roll

# -- secure dice ----------------------------------------------------------------------


def test_secure_dice_map_each_draw_to_one_face_without_modulo() -> None:
    asked: list[int] = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return len(asked) - 1  # 0, 1, 2, ... in turn

    dice = SecureDice(randbelow)
    faces = [dice.roll_one() for _ in range(6)]
    assert faces == [1, 2, 3, 4, 5, 6]  # a bijection 0..5 -> 1..6: uniform if the draw is
    assert asked == [6] * 6  # always an exact draw below 6, never a reduced wider number


def test_secure_dice_faces_are_uniform() -> None:
    dice = SecureDice()
    rolls = 60_000
    counts = Counter(dice.roll_one() for _ in range(rolls))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = rolls / 6
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    # 5 degrees of freedom: chi2 > 45 happens by chance less than once in 10^7 runs
    assert chi2 < 45, counts


def test_secure_dice_roll_two_dice() -> None:
    values = iter([5, 0])
    a, b = SecureDice(lambda n: next(values)).roll()
    assert (a, b) == (6, 1)


def test_secure_dice_are_a_dice_source() -> None:
    source: DiceSource = SecureDice()
    assert 1 <= source.roll_one() <= 6


# -- scripted dice ----------------------------------------------------------------------


def test_scripted_dice_give_the_script_in_order() -> None:
    with ScriptedDice([(3, 1), (6, 6)]) as dice:
        assert dice.roll() == (3, 1)
        assert dice.roll_one() == 6
        assert dice.remaining == (6,)
        assert dice.roll_one() == 6


def test_scripted_dice_can_be_queued_later() -> None:
    with ScriptedDice() as dice:
        dice.extend([(2, 5)])
        assert dice.roll() == (2, 5)


def test_running_dry_is_an_error() -> None:
    dice = ScriptedDice([(4, 2)])
    dice.roll()
    with pytest.raises(DiceError, match="ran out"):
        dice.roll_one()
    odd = ScriptedDice()
    odd.extend([(1, 2)])
    odd.roll_one()
    with pytest.raises(DiceError, match=r"one die \(2\) left, a roll takes two"):
        odd.roll()


def test_unused_dice_fail_the_test_at_close() -> None:
    dice = ScriptedDice([(4, 2), (5, 5)])
    dice.roll()
    with pytest.raises(DiceError, match=r"left unused: \[5, 5\]"):
        dice.close()
    dice.close()  # safe twice
    with pytest.raises(DiceError, match="closed"):
        dice.roll_one()


def test_unused_dice_fail_a_with_block() -> None:
    with pytest.raises(DiceError, match="left unused"), ScriptedDice([(1, 2)]):
        pass


def test_an_error_in_a_with_block_is_not_hidden_by_unused_dice() -> None:
    with pytest.raises(KeyError), ScriptedDice([(1, 2)]):
        raise KeyError("the real failure")


@pytest.mark.parametrize("bad", [0, 7, -1, True, 2.0])
def test_scripted_dice_must_be_faces(bad: object) -> None:
    with pytest.raises(DiceError, match=r"a scripted die must be 1\.\.6"):
        ScriptedDice([(1, bad)])  # type: ignore[list-item]


# -- the opening roll ---------------------------------------------------------------------


def test_the_higher_die_starts_and_plays_both() -> None:
    with ScriptedDice([(3, 5)]) as dice:
        opening = opening_roll(dice)
    assert opening == OpeningRoll(((3, 5),))
    assert (opening.white, opening.black) == (3, 5)
    assert opening.starter is Color.BLACK
    assert opening.dice == (5, 3)
    assert opening.ties == 0


def test_ties_are_thrown_again() -> None:
    with ScriptedDice([(4, 4), (2, 2), (6, 1)]) as dice:
        opening = opening_roll(dice)
    assert opening.throws == ((4, 4), (2, 2), (6, 1))
    assert opening.starter is Color.WHITE
    assert opening.ties == 2


@given(st.lists(st.integers(1, 6), max_size=4), st.integers(1, 6), st.integers(1, 6))
def test_the_opening_roll_over_any_dice(ties: list[int], white: int, black: int) -> None:
    script = [(t, t) for t in ties] + [(white, black)]
    if white == black:
        script.append((1, 2))
    with ScriptedDice(script) as dice:
        opening = opening_roll(dice)
    last = opening.throws[-1]
    assert last[0] != last[1]
    assert opening.starter is (Color.WHITE if last[0] > last[1] else Color.BLACK)
    assert opening.dice == (max(last), min(last))


@pytest.mark.parametrize(
    "throws",
    [(), ((3, 3),), ((2, 5), (6, 1))],
)
def test_an_opening_roll_ends_with_its_only_untied_throw(
    throws: tuple[tuple[int, int], ...],
) -> None:
    with pytest.raises(DiceError):
        OpeningRoll(throws)
