"""The settings of a match as the game needs them (the config file fills them in)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tavla_pi.rules.match import MatchRules


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Match length (0 = money play), optional rules and the game's timings (ms).

    ``no_move_pass_ms``: how long a roll with no legal play is shown before
    the turn passes by itself (the contract says within 3 s).
    ``done_settle_ms``: how long DONE waits for a moving board to settle.
    ``blink_ms``: how long the unused dice blink after a rejected DONE.
    ``menu_confirm_ms``: the window for the second long MENU press.
    """

    match_length: int = 0
    rules: MatchRules = field(default_factory=MatchRules)
    no_move_pass_ms: int = 2000
    done_settle_ms: int = 2000
    blink_ms: int = 2000
    winner_show_ms: int = 5000
    menu_confirm_ms: int = 5000
