"""The journal's dice audit: was every roll of a remote match the two boards' fair dice?

Reads a journal's events in order and replays each remote match's ``dice_commit`` and
``dice_reveal`` events through a :class:`~tavla_pi.remote.dice.RollCheck`; the k-th
``opening_roll`` or ``rolled`` after a ``remote_match`` is roll k and must be the dice
of that roll's two revealed contributions.  Rolls outside a remote match are local
dice and not this check's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tavla_pi.errors import DiceError
from tavla_pi.events import Event, EventType
from tavla_pi.events.types import ROLL_EVENTS
from tavla_pi.remote.dice import RollCheck, commitment

_DICE_EVENTS = (EventType.DICE_COMMIT, EventType.DICE_REVEAL)


def verify_rolls(events: Iterable[Event], board: str) -> list[str]:
    """The problems with the rolls of the remote matches in ``events`` (a journal of the
    board named ``board``), each naming the match and the roll; empty: all check out."""
    audit = _Audit(board)
    for event in events:
        audit.see(event)
    return audit.problems


def journal_board(events: Iterable[Event]) -> str | None:
    """The board whose journal ``events`` is: the one whose commitments keep their
    contribution (None: the journal holds no remote match's dice)."""
    return next((e["board"] for e in events if e.type is EventType.DICE_COMMIT
                 and "contribution" in e.fields), None)


def dice_problems(events: Iterable[Event]) -> list[str]:
    """:func:`verify_rolls` of a journal whose board is read off it (:func:`journal_board`)."""
    kept = list(events)
    board = journal_board(kept)
    return [] if board is None else verify_rolls(kept, board)


@dataclass(slots=True)
class _Bound:
    """The remote match the journal is in: its id, its dice and the next roll's number."""

    uid: str
    check: RollCheck
    roll: int = 0


class _Audit:
    """One pass over one journal (its state lives only as long as the pass)."""

    def __init__(self, board: str) -> None:
        self.board = board
        self.problems: list[str] = []
        self._checks: dict[str, RollCheck] = {}
        self._early: dict[str, list[Event]] = {}
        self._bound: _Bound | None = None
        self._unbound_peer: str | None = None

    def see(self, event: Event) -> None:
        """Take the next event of the journal."""
        if event.type is EventType.NEW_MATCH:
            self._bound = None
            self._unbound_peer = event.fields.get("remote")
        elif event.type is EventType.REMOTE_MATCH:
            self._bind(event["match_uid"], event["peer"])
        elif event.type in _DICE_EVENTS:
            self._dice(event)
        elif event.type in ROLL_EVENTS:
            self._roll(event)

    def _bind(self, uid: str, peer: str) -> None:
        self._unbound_peer = None
        self._bound = None
        check = self._checks.get(uid)
        if check is None:
            try:
                check = self._checks[uid] = RollCheck(uid, (self.board, peer))
            except DiceError as exc:
                self.problems.append(f"match {uid}: {exc}")
                return
            for event in self._early.pop(uid, []):
                self._apply(check, event)
        elif peer not in check.boards:
            self.problems.append(f"match {uid}: played with board {peer}, "
                                 f"but earlier with {check.boards[1]}")
            return
        self._bound = _Bound(uid, check)

    def _dice(self, event: Event) -> None:
        check = self._checks.get(event["match_uid"])
        if check is None:  # before its remote_match: kept until the match's boards are known
            self._early.setdefault(event["match_uid"], []).append(event)
        else:
            self._apply(check, event)

    def _apply(self, check: RollCheck, event: Event) -> None:
        board, roll = event["board"], event["roll"]
        try:
            if event.type is EventType.DICE_REVEAL:
                check.reveal(board, roll, event["contribution"])
            else:
                check.commit(board, roll, event["digest"])
                self._kept_secret(event)
        except DiceError as exc:
            self.problems.append(f"match {check.match_uid}: {exc}")

    def _kept_secret(self, event: Event) -> None:
        """A board's own commit keeps its contribution: it must be the committed one."""
        secret = event.fields.get("contribution")
        uid, roll, board = event["match_uid"], event["roll"], event["board"]
        if secret is not None and commitment(uid, roll, board, secret) != event["digest"]:
            self.problems.append(f"match {uid}: roll {roll}: board {board}'s kept "
                                 "contribution does not match its commitment")

    def _roll(self, event: Event) -> None:
        bound = self._bound
        if bound is None:
            if self._unbound_peer is not None:
                self.problems.append(f"remote match with board {self._unbound_peer}: "
                                     "rolled before a remote_match bound the match")
            return
        roll, bound.roll = bound.roll, bound.roll + 1
        if event.type is EventType.OPENING_ROLL:
            dice = (event["white"], event["black"])
        else:
            dice = (event["dice"][0], event["dice"][1])
        fair = bound.check.dice(roll)
        where = f"match {bound.uid}: roll {roll}"
        if fair is None:
            self.problems.append(f"{where}: rolled before both boards revealed")
        elif dice != fair:
            self.problems.append(f"{where}: the dice {dice[0]}-{dice[1]} are not the roll's "
                                 f"({fair[0]}-{fair[1]})")
