"""The phrase tables of the speaking board: one module per language (en, el, tr).

Each language module builds one :class:`Phrases`, its ``PHRASES``: the words
of every sentence the board says, as small functions of numbers, colours and
places, so that each language keeps its own grammar (Greek genders, Turkish
suffixes) to itself.  Everything a phrase receives is already in the right
player's numbering (``speech.narrate`` converts); a place is an own point
1..24, :data:`BAR` or :data:`OFF`.  Numbers are always said as words.
Whoever speaks the language corrects its module; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tavla_pi.rules import Color

BAR = 25
"""The place of a player's bar (GNU Backgammon's own point 25)."""
OFF = 0
"""The place of a player's borne-off checkers (own point 0)."""


class Capture(Enum):
    """What a move does to a lone opposing checker where it lands."""

    NONE = "none"
    HIT = "hit"
    PIN = "pin"


class Refusal(Enum):
    """The kinds of refused press the board says, each in one short sentence."""

    DICE_UNUSED = "dice_unused"
    IN_HAND = "in_hand"
    HIT_TO_BAR = "hit_to_bar"
    AMBIGUOUS = "ambiguous"
    ILLEGAL = "illegal"
    ANSWER_FIRST = "answer_first"
    NOT_YOUR_TURN = "not_your_turn"
    NO_DOUBLE = "no_double"
    NO_RESIGNATION = "no_resignation"
    NO_HINT = "no_hint"
    NOT_NOW = "not_now"


@dataclass(frozen=True, slots=True)
class SaidMove:
    """One checker's step of a play, in the mover's numbering, said ``times`` times."""

    from_: int
    to: int
    capture: Capture = Capture.NONE
    times: int = 1


@dataclass(frozen=True, slots=True)
class SaidFix:
    """One correction of the board: add (or remove) ``count`` checkers of ``color`` at ``at``."""

    at: int
    color: Color
    count: int
    add: bool


@dataclass(frozen=True, slots=True)
class SaidSide:
    """One player's part of the position read-out, in that player's own numbering."""

    color: Color
    points: tuple[tuple[int, int], ...]
    """(own point, count), highest point first."""
    bar: int
    off: int
    pips: int
    pinned: tuple[int, ...]
    """Own points where this player's checker lies pinned, highest first."""


@dataclass(frozen=True, slots=True)
class Phrases:
    """Every sentence of one language, as functions of what the sentence names."""

    number: Callable[[int], str]
    """0..999 in words."""
    opening: Callable[[int, int, Color | None], str]
    """The opening roll: White's die, Black's die, the starter (None: a tie)."""
    rolled: Callable[[Color, int, int], str]
    """A roll: the player, the high die, the low die."""
    played: Callable[[Color, Sequence[SaidMove]], str]
    engine_play: Callable[[Sequence[SaidMove]], str]
    remote_play: Callable[[Sequence[SaidMove]], str]
    """The friend's board's play (a remote match), before the hand carries it out here."""
    step: Callable[[Color, SaidMove], str]
    """One checker of the computer's play, as the lights show it."""
    hit_step: Callable[[int], str]
    """The computer's hit checker taken from this point (the computer's numbering) to the bar."""
    no_legal_move: Callable[[Color, int, int], str]
    double_offered: Callable[[Color, int], str]
    double_taken: Callable[[Color, int, bool], str]
    """The taker, the new cube value, whether it was a beaver."""
    double_dropped: Callable[[Color, int], str]
    resign_offered: Callable[[Color, int], str]
    resign_accepted: Callable[[Color, int], str]
    resign_declined: Callable[[Color, int], str]
    game_over: Callable[[Color | None, str, int, tuple[int, int]], str]
    """The winner (None: a draw), the kind (single .. draw), the points, the score."""
    match_over: Callable[[Color, tuple[int, int]], str]
    lifted: Callable[[int, Sequence[int]], str]
    """Where a lifted checker may go: its place and its destinations (none: no move)."""
    out_of_sync: Callable[[Sequence[SaidFix]], str]
    in_sync: str
    speech_on: str
    """Said when MENU switches speech on."""
    speech_off: str
    """Said when MENU switches speech off, the last sentence before silence."""
    refusals: Mapping[Refusal, str]
    takeback: Callable[[Color], str]
    blunder_warning: Callable[[Color, Sequence[SaidMove]], str]
    side: Callable[[SaidSide], str]
    """One player's points, bar, borne-off checkers, pips and pins."""
    score: Callable[[tuple[int, int], int], str]
    """The score and the match length (money play: the length 0)."""
    turn: Callable[[Color | None, tuple[int, ...]], str]
    """Whose turn it is and with which dice, high first (empty: to roll; None: the opening
    roll)."""


def joined(parts: Sequence[str], separator: str, last: str) -> str:
    """``a``, ``a and b``, ``a, b and c``: parts joined, the last one by ``last``."""
    if len(parts) <= 1:
        return "".join(parts)
    return separator.join(parts[:-1]) + last + parts[-1]


def capitalised(text: str) -> str:
    """``text`` with its first letter upper case (the rest unchanged)."""
    return text[:1].upper() + text[1:]
