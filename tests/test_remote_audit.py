"""The journal's dice audit over fair and foul remote matches."""

from __future__ import annotations

from typing import Any

from tavla_pi.events import Event, EventType
from tavla_pi.remote.audit import verify_rolls
from tavla_pi.remote.dice import commitment, roll_dice

UID = "0123456789abcdef" * 2
OTHER_UID = "fedcba9876543210" * 2


def share(board: str, roll: int) -> str:
    """A fixed contribution per board and roll (64 hex digits)."""
    return f"{ord(board[0]):02x}{roll:06x}" * 8


def event(kind: EventType, **fields: Any) -> Event:
    return Event(kind, 0, fields)


def dice_events(uid: str, roll: int, board: str, peer: str = "b") -> list[Event]:
    """Both boards' commitments and reveals of one roll, in a fair order; the journal of
    ``board`` keeps its own contribution in its commit."""
    events = []
    for name in ("a", peer):
        secret = {"contribution": share(name, roll)} if name == board else {}
        events.append(event(EventType.DICE_COMMIT, match_uid=uid, roll=roll, board=name,
                            digest=commitment(uid, roll, name, share(name, roll)), **secret))
    events += [event(EventType.DICE_REVEAL, match_uid=uid, roll=roll, board=name,
                     contribution=share(name, roll)) for name in ("a", peer)]
    return events


def fair(uid: str, roll: int, peer: str = "b") -> tuple[int, int]:
    return roll_dice(uid, roll, {"a": share("a", roll), peer: share(peer, roll)})


def roll_event(uid: str, roll: int, dice: tuple[int, int] | None = None,
               peer: str = "b") -> Event:
    first, second = dice or fair(uid, roll, peer)
    if roll == 0:
        return event(EventType.OPENING_ROLL, white=first, black=second)
    return event(EventType.ROLLED, player="white", dice=[first, second])


def match(uid: str = UID, rolls: int = 6, board: str = "a", peer: str = "b") -> list[Event]:
    """A fair remote match of board a with ``peer``, journaled by ``board``."""
    events = [event(EventType.NEW_MATCH, match_length=5, remote=peer),
              event(EventType.REMOTE_MATCH, match_uid=uid, peer=peer if board == "a" else "a",
                    color="black")]
    for roll in range(rolls):
        events += [*dice_events(uid, roll, board, peer), roll_event(uid, roll, peer=peer)]
        events.append(event(EventType.PLAYED, player="white", dice=[1, 1], play="",
                            position_id="x", match_id="y"))
    return events


def test_a_fair_match_checks_out_in_either_boards_journal() -> None:
    assert verify_rolls(match(), "a") == []
    assert verify_rolls(match(board="b"), "b") == []


def test_dice_that_are_not_the_rolls_are_named() -> None:
    events = match()
    wrong = (6, 6) if fair(UID, 5) != (6, 6) else (1, 1)
    events[events.index(roll_event(UID, 5))] = roll_event(UID, 5, wrong)
    assert verify_rolls(events, "a") == [
        f"match {UID}: roll 5: the dice {wrong[0]}-{wrong[1]} are not the roll's "
        f"({fair(UID, 5)[0]}-{fair(UID, 5)[1]})"]


def test_an_opening_roll_is_white_then_black() -> None:
    first, second = fair(UID, 0)
    events = match()
    events[events.index(roll_event(UID, 0))] = event(EventType.OPENING_ROLL, white=second,
                                                     black=first, starter="white")
    expected = [] if first == second else [
        f"match {UID}: roll 0: the dice {second}-{first} are not the roll's ({first}-{second})"]
    assert verify_rolls(events, "a") == expected


def test_a_roll_before_both_reveals_is_named() -> None:
    events = match()
    late = dice_events(UID, 3, "a")[3]  # b's reveal of roll 3
    events.remove(late)
    assert verify_rolls(events, "a") == [f"match {UID}: roll 3: rolled before both boards revealed"]


def test_a_peer_choosing_its_share_after_ours_is_caught() -> None:
    events = match()
    honest = dice_events(UID, 2, "a")[3]
    events[events.index(honest)] = event(EventType.DICE_REVEAL, match_uid=UID, roll=2,
                                         board="b", contribution="ee" * 32)
    assert verify_rolls(events, "a") == [
        f"match {UID}: roll 2: board b's contribution does not match its commitment",
        f"match {UID}: roll 2: rolled before both boards revealed"]


def test_a_peer_committing_after_our_reveal_is_caught() -> None:
    events = match()
    commit_b, reveal_a = dice_events(UID, 4, "a")[1:3]
    at = events.index(commit_b)
    events[at], events[at + 1] = reveal_a, commit_b
    assert verify_rolls(events, "a") == [
        f"match {UID}: roll 4: board b commits after board a revealed",
        f"match {UID}: roll 4: board b reveals without a commitment",
        f"match {UID}: roll 4: rolled before both boards revealed"]


def test_a_kept_contribution_that_is_not_the_committed_one_is_named() -> None:
    events = match()
    commit_a = dice_events(UID, 1, "a")[0]
    events[events.index(commit_a)] = Event(EventType.DICE_COMMIT, 0, {
        **commit_a.fields, "contribution": "dd" * 32})
    assert verify_rolls(events, "a") == [
        f"match {UID}: roll 1: board a's kept contribution does not match its commitment"]


def test_a_board_outside_the_match_is_named() -> None:
    events = match(rolls=2)
    stranger = event(EventType.DICE_COMMIT, match_uid=UID, roll=1, board="c",
                     digest=commitment(UID, 1, "c", share("c", 1)))
    events.insert(-1, stranger)
    assert verify_rolls(events, "a") == [f"match {UID}: roll 1: board c does not play this match"]


def test_rolls_of_a_local_match_are_not_checked() -> None:
    local = [event(EventType.NEW_MATCH, match_length=3),
             event(EventType.OPENING_ROLL, white=6, black=1, starter="white"),
             event(EventType.ROLLED, player="black", dice=[2, 2])]
    assert verify_rolls(local, "a") == []
    assert verify_rolls([*match(rolls=2), *local], "a") == []


def test_each_remote_match_counts_its_rolls_from_zero() -> None:
    second = match(OTHER_UID, rolls=3, peer="c")
    assert verify_rolls([*match(rolls=4), *second], "a") == []
    assert verify_rolls([*match(rolls=4), *second[1:]], "a") == []  # no new_match between


def test_a_roll_of_a_remote_match_before_it_is_bound_is_named() -> None:
    events = match(rolls=1)
    events.insert(1, event(EventType.OPENING_ROLL, white=3, black=3))
    assert verify_rolls(events, "a") == [
        "remote match with board b: rolled before a remote_match bound the match"]


def test_dice_events_journaled_before_the_remote_match_are_used() -> None:
    events = match(rolls=2)
    early = dice_events(UID, 0, "a")
    for item in early:
        events.remove(item)
    assert verify_rolls([*early, *events], "a") == []


def test_a_peer_that_is_this_board_is_named() -> None:
    events = [event(EventType.REMOTE_MATCH, match_uid=UID, peer="a", color="white")]
    assert verify_rolls(events, "a") == [
        f"match {UID}: a match is between two different boards, not ('a', 'a')"]


def test_the_same_match_with_another_peer_is_named() -> None:
    events = [*match(rolls=1),
              event(EventType.REMOTE_MATCH, match_uid=UID, peer="c", color="white")]
    assert verify_rolls(events, "a") == [
        f"match {UID}: played with board c, but earlier with b"]
