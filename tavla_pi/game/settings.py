"""The settings of a match as the game needs them (the config file fills them in)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tavla_pi.engine.levels import Level
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchRules
from tavla_pi.rules.tavlimatch import TavliRules
from tavla_pi.rules.variants import DEFAULT


@dataclass(frozen=True, slots=True)
class OpponentSettings:
    """Who the computer (GNU Backgammon) plays, and how it helps the human.

    ``color``: the colour the computer plays, or None for two humans.
    ``level``: how well it plays (gnubg's presets).  ``coach``: warn before
    DONE commits a play that loses more than ``blunder_threshold`` equity
    against the best one.  ``seed``: the noise seed of the noisy levels,
    journaled so that a replay or a resumed game chooses the same plays.
    ``remote``: the name of a friend's board that plays ``color`` through the
    broker (``[network]``); ``online``: an opponent on the online server (``[online]``)
    plays ``color``; either way the computer then plays nobody.
    """

    color: Color | None = None
    level: Level = Level.EXPERT
    coach: bool = True
    blunder_threshold: float = 0.08
    seed: int = 0
    remote: str | None = None
    online: bool = False


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Match length (0 = money play), what is played, optional rules, the opponent and the
    timings (ms).

    ``variant``: "portes" (backgammon), "plakoto", "fevga", or "tavli" (the three in
    turn); ``tavli``: the tavli match's rules (no cube, a backgammon counts 2);
    ``clock``: the tournament clock of a match of 1 point or more (None: no clock;
    docs/CLOCK.md).

    ``no_move_pass_ms``: how long a roll with no legal play is shown before
    the turn passes by itself (the contract says within 3 s).
    ``done_settle_ms``: how long DONE waits for a moving board to settle.
    ``blink_ms``: how long the unused dice blink after a rejected DONE.
    ``menu_confirm_ms``: the window for the second long MENU press.
    """

    match_length: int = 0
    variant: str = DEFAULT
    rules: MatchRules = field(default_factory=MatchRules)
    tavli: TavliRules = field(default_factory=TavliRules)
    opponent: OpponentSettings = field(default_factory=OpponentSettings)
    clock: ClockRules | None = None
    no_move_pass_ms: int = 2000
    done_settle_ms: int = 2000
    blink_ms: int = 2000
    winner_show_ms: int = 5000
    menu_confirm_ms: int = 5000
