"""The one exception tree of tavla-pi.

Every error raised on purpose derives from :class:`TavlaError` and also from
the builtin it is closest to, so callers may catch either.  Errors about bad
input carry ``where`` (file, line, key or field) so the message names the
place at fault.
"""

from __future__ import annotations


class TavlaError(Exception):
    """Base of every error tavla-pi raises on purpose."""


class BadInputError(TavlaError, ValueError):
    """Input from outside (file, frame, request) that cannot be used.

    ``str()`` gives ``"<where>: <problem>"``, one line, ready for stderr.
    """

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


class InvalidPositionError(TavlaError, ValueError):
    """A position that breaks the rules of the board (counts, colours)."""


class InvalidIdError(BadInputError):
    """A GNU Backgammon Position ID or Match ID that cannot be decoded."""


class IllegalPlayError(TavlaError, ValueError):
    """A play or cube action that the rules do not allow."""


class ConfigError(BadInputError):
    """A configuration file or value that is wrong."""


class PinMapError(ConfigError):
    """``hardware/pinout.toml`` (or a maker's copy) is incomplete or inconsistent."""


class ScenarioError(BadInputError):
    """A scenario line that cannot be replayed."""


class JournalError(BadInputError):
    """A journal file that cannot be read back."""


class RefusedEventError(TavlaError, ValueError):
    """An event the game's rules refuse in the state it would apply to; the message
    names the event's type and the rule (:func:`tavla_pi.game.fold.push`)."""


class HardwareError(TavlaError, OSError):
    """The hardware is missing, miswired or not answering."""


class DiceError(TavlaError, RuntimeError):
    """A dice source used wrongly (a scripted source run dry or left unused)."""


class InvalidMatchStateError(TavlaError, ValueError):
    """A match state whose fields cannot go together (cube, score, dice, flags)."""


class EngineError(TavlaError, RuntimeError):
    """The computer opponent (GNU Backgammon) is missing, failed or gave an unusable answer.

    The message names what failed: the program not installed, the process
    dying or hanging twice on one decision, or an answer that does not fit.
    """


class UnknownVariantError(BadInputError):
    """A game name that is not one of the variants the rules know."""


class SpeechError(TavlaError, RuntimeError):
    """The board's voice cannot speak: eSpeak NG missing, failing or past its bounds."""


class ProtocolError(BadInputError):
    """A line from an online game server that breaks its protocol: malformed, too long,
    a field of the wrong type or out of range, a board that cannot be, a move our rules
    refuse.  ``where`` names the event's type and ``problem`` the field at fault."""
