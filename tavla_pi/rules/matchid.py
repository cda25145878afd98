"""The GNU Backgammon Match ID as raw bits: a 9-byte key, 12 base64 characters.

The key is a little-endian bit field (bit 0 is the lowest bit of the first
byte), packed exactly as GNU Backgammon's matchid.c writes it:

========  =====  =========================================================
bits      width  field
========  =====  =========================================================
0-3       4      log2 of the cube value
4-5       2      cube owner: 0 = player 0, 1 = player 1, 3 = centred
6         1      player on roll (fMove)
7         1      this game is the Crawford game
8-10      3      game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11        1      player who must act now (fTurn)
12        1      a double is offered
13-14     2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17     3      first die (the larger; 0 = not rolled)
18-20     3      second die
21-35     15     match length (0 = money play)
36-50     15     score of player 0
51-65     15     score of player 1
66        1      the Jacoby rule is NOT in use
67-71     5      unused, zero
========  =====  =========================================================

The 9 bytes are written with the standard base64 alphabet, three bytes to
four characters, so an ID is exactly 12 characters with no padding.  This
module only moves bits; :mod:`tavla_pi.rules.match` gives them meaning.
"""

from __future__ import annotations

import base64
import binascii
import string
from typing import NamedTuple

from tavla_pi.errors import InvalidIdError

ID_LENGTH = 12
"""Characters in a Match ID."""

_ALPHABET = frozenset(string.ascii_letters + string.digits + "+/")
_KEY_BYTES = 9
_USED_BITS = 67


class MatchKey(NamedTuple):
    """The Match ID's fields as the small integers stored in its bits."""

    cube_log: int
    cube_owner: int
    move: int
    crawford: int
    game_state: int
    turn: int
    doubled: int
    resigned: int
    die1: int
    die2: int
    match_length: int
    score0: int
    score1: int
    no_jacoby: int


# (first bit, width) of each MatchKey field, in MatchKey order.
_LAYOUT: tuple[tuple[int, int], ...] = (
    (0, 4),
    (4, 2),
    (6, 1),
    (7, 1),
    (8, 3),
    (11, 1),
    (12, 1),
    (13, 2),
    (15, 3),
    (18, 3),
    (21, 15),
    (36, 15),
    (51, 15),
    (66, 1),
)


def pack(key: MatchKey) -> str:
    """The 12-character Match ID holding ``key``.

    Raises ValueError if a field does not fit its bits (a bug in the caller:
    :class:`~tavla_pi.rules.match.MatchState` only produces fitting keys).
    """
    bits = 0
    for name, value, (start, width) in zip(MatchKey._fields, key, _LAYOUT, strict=True):
        if not 0 <= value < 1 << width:
            raise ValueError(f"Match ID field {name}={value} does not fit in {width} bits")
        bits |= value << start
    return base64.b64encode(bits.to_bytes(_KEY_BYTES, "little")).decode("ascii")


def unpack(match_id: str) -> MatchKey:
    """The bit fields of a Match ID; InvalidIdError if it is not 12 base64 characters."""
    where = f"Match ID {match_id!r}"
    if not isinstance(match_id, str):
        raise InvalidIdError(where, "a Match ID is a string of 12 characters")
    if len(match_id) != ID_LENGTH:
        raise InvalidIdError(where, f"a Match ID has 12 characters, this has {len(match_id)}")
    bad = sorted(set(match_id) - _ALPHABET)
    if bad:
        raise InvalidIdError(where, f"character {bad[0]!r} is not in the base64 alphabet")
    try:
        raw = base64.b64decode(match_id, validate=True)
    except binascii.Error as exc:  # pragma: no cover - excluded by the checks above
        raise InvalidIdError(where, f"not base64: {exc}") from None
    bits = int.from_bytes(raw, "little")
    if bits >> _USED_BITS:
        raise InvalidIdError(where, "the unused bits 67-71 are not zero")
    return MatchKey(*((bits >> start) & ((1 << width) - 1) for start, width in _LAYOUT))
