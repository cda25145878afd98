"""The event types: one enumeration, so that a misspelt type is a mypy error.

Each member's value is the ``"type"`` of docs/CONTRACTS.md §4, as it appears
in the journal and on the wire; a ``StrEnum`` member is that string, so JSON
and comparisons with JSON text are unchanged.  A journal line of a type this
version does not know (a later version's) keeps its name as an
:data:`UnknownType`: passed on, never interpreted.
"""

from __future__ import annotations

import enum
from typing import NewType


class EventType(enum.StrEnum):
    """What an event says happened; the value is its JSON ``"type"``."""

    NEW_MATCH = "new_match"            # a match of match_length points begins (0: money)
    GAME_STARTED = "game_started"      # a game begins: its position_id and match_id
    OPENING_ROLL = "opening_roll"      # one die each; starter is absent on a tie (rolled again)
    ROLLED = "rolled"                  # the player on roll rolled these dice
    LIFTED = "lifted"                  # a checker left a location; where it may legally go now
    OUT_OF_SYNC = "out_of_sync"        # the board differs from the game: what to add or remove
    IN_SYNC = "in_sync"                # the board agrees with the game again
    PLAYED = "played"                  # a play committed (DONE): notation, position after it
    REJECTED = "rejected"              # a press refused, and why (e.g. DONE with dice unused)
    NO_LEGAL_MOVE = "no_legal_move"    # the roll cannot be played; the turn passes by itself
    DOUBLE_OFFERED = "double_offered"  # the player on roll offers the cube at this value
    DOUBLE_TAKEN = "double_taken"      # the opponent takes (beaver: takes and redoubles)
    DOUBLE_DROPPED = "double_dropped"  # the opponent drops: the game is over
    GAME_OVER = "game_over"            # the winner, kind of win, cube, points and score
    MATCH_OVER = "match_over"          # the match is decided: winner and final score
    HINT = "hint"                      # the engine's best plays for the mover's roll, best first
    BLUNDER_WARNING = "blunder_warning"  # DONE held back: the play loses this much to the best
    RESIGN_OFFERED = "resign_offered"  # the player on roll offers to resign these points
    RESIGN_ACCEPTED = "resign_accepted"  # the opponent accepts: the game is over
    RESIGN_DECLINED = "resign_declined"  # the opponent declines: the offerer plays on
    REVIEW = "review"                  # gnubg's analysis of a finished game, per player
    ENGINE_PLAY = "engine_play"        # the computer's chosen play, for the hand to carry out
    TAKEBACK = "takeback"              # a play taken back: the mover's turn is open again
    SPOKEN = "spoken"                  # a sentence said aloud: its text, language, what about
    REMOTE_PLAY = "remote_play"        # the remote board's play, for the hand to carry out
    REMOTE_STATUS = "remote_status"    # the link to the remote board came up or went down
    REMOTE_MATCH = "remote_match"      # this match is played with the remote board: its id
    REMOTE_SENT = "remote_sent"        # a message to the remote board, journaled before it goes
    REMOTE_TAKEN = "remote_taken"      # the remote board's message of this number is applied
    DICE_COMMIT = "dice_commit"        # a board's commitment to its share of one roll
    DICE_REVEAL = "dice_reveal"        # a board's share of one roll, revealed
    CLOCK = "clock"                    # the match's clock: reserves, whose time runs, a flag
    ONLINE_STATUS = "online_status"    # the online server: logged in or not, as whom, the match


ROLL_EVENTS = (EventType.OPENING_ROLL, EventType.ROLLED)
"""The events that spend one roll of the dice (two dice each)."""


UnknownType = NewType("UnknownType", str)
"""The ``"type"`` of a journal line that names no :class:`EventType` (kept, not read)."""


def event_type(name: str) -> EventType | UnknownType:
    """The member whose value is ``name``; else ``name`` as an :data:`UnknownType`."""
    try:
        return EventType(name)
    except ValueError:
        return UnknownType(name)
