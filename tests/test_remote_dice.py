"""Commit-reveal dice between two boards: the formulas, their fairness, and RollCheck."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from tavla_pi.errors import DiceError
from tavla_pi.remote.dice import (
    RollCheck,
    _dice_from,
    commitment,
    new_contribution,
    roll_dice,
)

UID = "0123456789abcdef" * 2
A_SHARE, B_SHARE = "00" * 32, "11" * 32


def check_with_roll(roll: int = 4) -> RollCheck:
    """A check of boards a and b with both commitments for ``roll`` made."""
    check = RollCheck(UID, ("a", "b"))
    check.commit("a", roll, commitment(UID, roll, "a", A_SHARE))
    check.commit("b", roll, commitment(UID, roll, "b", B_SHARE))
    return check


# -- the formulas ---------------------------------------------------------------------


def test_a_contribution_is_32_fresh_random_bytes_in_hex() -> None:
    shares = {new_contribution() for _ in range(20)}
    assert len(shares) == 20
    assert all(len(share) == 64 and set(share) <= set("0123456789abcdef") for share in shares)


def test_a_commitment_is_the_sha256_of_the_specified_text() -> None:
    text = f"tavla-dice/1:{UID}:0:a:{A_SHARE}"
    assert commitment(UID, 0, "a", A_SHARE) == hashlib.sha256(text.encode()).hexdigest()
    assert commitment(UID, 0, "a", A_SHARE) == (
        "336ef9623d150f06acd81d05dd28231a46596f2c55808dd5b17244ab9db5eea1")
    assert commitment(UID, 1, "a", A_SHARE) != commitment(UID, 0, "a", A_SHARE)
    assert commitment(UID, 0, "b", A_SHARE) != commitment(UID, 0, "a", A_SHARE)


def test_the_dice_of_a_fixed_input_are_pinned() -> None:
    shares = {"a": A_SHARE, "b": B_SHARE}
    # sha256 begins 27 af ...: 0x27 % 6 + 1 = 4, 0xaf % 6 + 1 = 2
    assert [roll_dice(UID, roll, shares) for roll in range(4)] == [(4, 2), (6, 6), (2, 4), (3, 3)]


def test_the_dice_do_not_depend_on_the_order_the_boards_are_given_in() -> None:
    assert roll_dice(UID, 0, {"b": B_SHARE, "a": A_SHARE}) == roll_dice(
        UID, 0, {"a": A_SHARE, "b": B_SHARE})


def test_the_dice_need_the_two_boards_contributions() -> None:
    with pytest.raises(DiceError, match="roll 3: dice need the contributions of two boards"):
        roll_dice(UID, 3, {"a": A_SHARE})


def test_bytes_at_or_above_252_are_skipped() -> None:
    assert _dice_from(bytes([252, 255, 0, 253, 251, 7])) == (1, 6)
    assert _dice_from(bytes([5, 11])) == (6, 6)


def test_a_digest_short_of_two_good_bytes_is_extended_by_hashing_it() -> None:
    digest = bytes([255] * 31 + [0])
    rest = hashlib.sha256(digest).digest()
    second = next(byte for byte in rest if byte < 252) % 6 + 1
    assert _dice_from(digest) == (1, second)


def test_the_dice_are_uniform_over_random_contributions() -> None:
    draw = random.Random(23)
    counts: Counter[tuple[int, int]] = Counter()
    rolls = 36 * 400
    for roll in range(rolls):
        shares = {"a": draw.randbytes(32).hex(), "b": draw.randbytes(32).hex()}
        counts[roll_dice(UID, roll, shares)] += 1
    assert len(counts) == 36
    expected = rolls / 36
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    # 35 degrees of freedom: chi2 > 90 happens by chance less than once in 10^6 runs
    assert chi2 < 90, counts


# -- RollCheck ------------------------------------------------------------------------


def test_both_reveals_give_the_rolls_dice() -> None:
    check = check_with_roll(4)
    assert check.committed("a", 4) and check.committed("b", 4)
    assert not check.committed("a", 5)
    assert check.dice(4) is None
    check.reveal("a", 4, A_SHARE)
    assert check.revealed("a", 4) and not check.revealed("b", 4)
    assert check.dice(4) is None
    check.reveal("b", 4, B_SHARE)
    assert check.dice(4) == roll_dice(UID, 4, {"a": A_SHARE, "b": B_SHARE})
    assert check.dice(5) is None


def test_the_same_commitment_twice_is_fine_a_different_one_is_not() -> None:
    check = check_with_roll(4)
    check.commit("a", 4, commitment(UID, 4, "a", A_SHARE))
    with pytest.raises(DiceError, match=r"^roll 4: board a committed twice$"):
        check.commit("a", 4, commitment(UID, 4, "a", B_SHARE))


def test_a_board_choosing_its_share_after_seeing_the_others_is_caught_by_its_reveal() -> None:
    check = check_with_roll(4)
    check.reveal("a", 4, A_SHARE)
    with pytest.raises(DiceError,
                       match=r"^roll 4: board b's contribution does not match its commitment$"):
        check.reveal("b", 4, "22" * 32)
    assert not check.revealed("b", 4)
    assert check.dice(4) is None


def test_a_board_committing_after_the_others_reveal_is_caught() -> None:
    check = RollCheck(UID, ("a", "b"))
    check.commit("a", 3, commitment(UID, 3, "a", A_SHARE))
    check.reveal("a", 3, A_SHARE)
    late = commitment(UID, 3, "b", B_SHARE)
    with pytest.raises(DiceError, match=r"^roll 3: board b commits after board a revealed$"):
        check.commit("b", 3, late)
    assert not check.committed("b", 3)
    with pytest.raises(DiceError, match=r"^roll 3: board b reveals without a commitment$"):
        check.reveal("b", 3, B_SHARE)


def test_a_reveal_without_a_commitment_is_refused() -> None:
    check = RollCheck(UID, ("a", "b"))
    with pytest.raises(DiceError, match=r"^roll 0: board a reveals without a commitment$"):
        check.reveal("a", 0, A_SHARE)


def test_a_reveal_of_another_rolls_share_does_not_match() -> None:
    check = check_with_roll(4)
    check.commit("a", 5, commitment(UID, 5, "a", "33" * 32))
    with pytest.raises(DiceError, match="roll 5: board a's contribution does not match"):
        check.reveal("a", 5, A_SHARE)  # roll 4's share replayed for roll 5


def test_a_commitment_that_is_not_a_digest_is_refused() -> None:
    check = RollCheck(UID, ("a", "b"))
    with pytest.raises(DiceError, match=r"^roll 0: board a's commitment is not 64 lowercase"):
        check.commit("a", 0, "xyz")


def test_a_board_outside_the_match_is_refused() -> None:
    check = RollCheck(UID, ("a", "b"))
    with pytest.raises(DiceError, match=r"^roll 2: board c does not play this match$"):
        check.commit("c", 2, commitment(UID, 2, "c", A_SHARE))
    with pytest.raises(DiceError, match=r"^roll 2: board c does not play this match$"):
        check.reveal("c", 2, A_SHARE)


def test_a_match_is_between_two_different_boards() -> None:
    with pytest.raises(DiceError, match="two different boards"):
        RollCheck(UID, ("a", "a"))
