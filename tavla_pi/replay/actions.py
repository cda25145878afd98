"""Scenario actions (docs/CONTRACTS.md §4): parsing JSON lines into typed values.

Every fault is reported as one :class:`~tavla_pi.errors.ScenarioError` naming
the file, the line and the field, e.g. ``game.jsonl:7: field "color":
expected "white" or "black", got "red"``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.bounded import LimitError, json_text_fault, parse_json, read_text
from tavla_pi.engine.levels import Level
from tavla_pi.errors import ScenarioError
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.seating import seating
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.game.tavli import PORTES_ONLY
from tavla_pi.hardware.pinmap import BUTTON_NAMES
from tavla_pi.rules.board import LOCATIONS
from tavla_pi.rules.color import Color
from tavla_pi.rules.tavlimatch import MATCHES, computer_may_play
from tavla_pi.speech.settings import LANGUAGES

MAX_MS = 3_600_000
"""The longest one ``wait`` or ``hold`` may be (an hour)."""
MAX_TOTAL_MS = 24 * MAX_MS
"""What the waits and holds of one scenario may add up to (a day of virtual time)."""
MAX_SCENARIO_BYTES = 4 * 1024 * 1024
"""The largest scenario file read (a five-point match is about 100 kB)."""
MAX_MATCH = 64


@dataclass(frozen=True, slots=True)
class SetupAction:
    """Put all 30 checkers in the starting position.

    ``match_length`` (optional, docs/CONTRACTS.md §4) also starts a
    new match of that many points (0 = money play) before the board is set;
    ``opponent`` (optional) says who the computer plays from now on (its
    ``color`` None: nobody, two players at the board).  ``variant`` (optional:
    "portes", "plakoto", "fevga" or "tavli") also starts a new match of that
    game (of ``match_length``, else of the match's length so far).  The board
    is set to the start of the match's game now (its variant's).  ``speech``
    (optional, §6: ``{"language": L}``) turns speech on in that language from now on,
    so that ``spoken`` events are in the output.  ``clock`` (optional, §6:
    ``{"delay_s": 12, "reserve_s_per_point": 120}``, either key defaulted) plays the
    new match, and the matches after it, on a tournament clock (docs/CLOCK.md); it
    starts a new match as ``variant`` does, which must be of 1 point or more.
    """

    match_length: int | None = None
    opponent: OpponentSettings | None = None
    variant: str | None = None
    speech: str | None = None
    clock: ClockRules | None = None


@dataclass(frozen=True, slots=True)
class LoadAction:
    """Start from a Position ID and Match ID; the board is laid out to match."""

    position_id: str
    match_id: str


@dataclass(frozen=True, slots=True)
class DiceAction:
    """The next roll shows ``a`` and ``b`` (opening roll: White's die, Black's die)."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class PressAction:
    """A button pressed for ``ms`` (short press) or held (long press)."""

    button: str
    ms: int
    long: bool


@dataclass(frozen=True, slots=True)
class LiftAction:
    """One checker of ``color`` leaves ``location`` into the hand."""

    location: str
    color: Color


@dataclass(frozen=True, slots=True)
class PlaceAction:
    """One checker of ``color`` goes from the hand onto ``location``."""

    location: str
    color: Color


@dataclass(frozen=True, slots=True)
class MoveAction:
    """Lift, settle, place, settle: a person moving one checker."""

    source: str
    target: str
    color: Color


@dataclass(frozen=True, slots=True)
class GlitchAction:
    """A phantom checker reading at ``at`` for ``ms``."""

    at: str
    color: Color
    ms: int


@dataclass(frozen=True, slots=True)
class WaitAction:
    """Let ``ms`` of virtual time pass while the board is scanned."""

    ms: int


Action = (SetupAction | LoadAction | DiceAction | PressAction | LiftAction | PlaceAction
          | MoveAction | GlitchAction | WaitAction)
"""One scenario line's action (docs/CONTRACTS.md §4): each class is named after its key."""
SHORT_PRESS_MS = 100


@dataclass(frozen=True, slots=True)
class ScenarioLine:
    """One action and where it came from (for error messages)."""

    where: str
    action: Action


class _Fields:
    """Typed access to one line's JSON object; every error names the field."""

    def __init__(self, where: str, data: Mapping[str, Any]) -> None:
        self.where = where
        self.data = data

    def fail(self, key: str, expected: str) -> ScenarioError:
        got = json.dumps(self.data.get(key), ensure_ascii=False)
        where = f"{self.where}: field {json.dumps(key)}"
        return ScenarioError(where, f"expected {expected}, got {got}")

    def location(self, key: str) -> str:
        v = self.data.get(key)
        if not isinstance(v, str) or v not in LOCATIONS:
            raise self.fail(key, 'a location "1".."24", "bar" or "off"')
        return v

    def color(self, key: str = "color") -> Color:
        v = self.data.get(key)
        if v not in ("white", "black"):
            raise self.fail(key, '"white" or "black"')
        return Color(v)

    def ms(self, key: str) -> int:
        v = self.data.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_MS:
            raise self.fail(key, f"a whole number of milliseconds 0..{MAX_MS}")
        return v

    def button(self, key: str) -> str:
        v = self.data.get(key)
        if v not in BUTTON_NAMES:
            raise self.fail(key, "one of " + ", ".join(BUTTON_NAMES))
        return str(v)

    def string(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(key, "a non-empty string")
        return value


def _setup(f: _Fields) -> Action:
    if f.data["setup"] != "start":
        raise f.fail("setup", '"start"')
    opponent = _opponent(f) if "opponent" in f.data else None
    variant = f.data.get("variant")
    if variant is not None and variant not in MATCHES:
        raise f.fail("variant", "one of " + ", ".join(f'"{n}"' for n in MATCHES))
    if variant is not None and not computer_may_play(variant) and opponent is not None \
            and seating(opponent).portes_only:
        raise f.fail("opponent", f"null or absent: {PORTES_ONLY}")
    speech = _speech(f) if "speech" in f.data else None
    clock = _clock(f) if "clock" in f.data else None
    if "match_length" not in f.data:
        return SetupAction(opponent=opponent, variant=variant, speech=speech, clock=clock)
    length = f.data["match_length"]
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= MAX_MATCH:
        raise f.fail("match_length", f"a whole number of points 0..{MAX_MATCH} (0 = money play)")
    if clock is not None and length == 0:
        raise f.fail("match_length", f"1..{MAX_MATCH} points with a clock (money play has none)")
    return SetupAction(length, opponent, variant, speech, clock)


def _clock(f: _Fields) -> ClockRules:
    """``setup``'s ``clock``: ``{"delay_s": 12, "reserve_s_per_point": 120}``."""
    try:
        return ClockRules.from_fields(f.data["clock"])
    except ValueError as exc:
        raise ScenarioError(f'{f.where}: field "clock"', str(exc)) from None


def _speech(f: _Fields) -> str:
    """``setup``'s ``speech``: ``{"language": "el"}`` (or ``"tr"``, ``"en"``)."""
    body = f.data["speech"]
    if not isinstance(body, dict):
        raise f.fail("speech", 'an object {"language": "el", "tr" or "en"}')
    _known_fields(f.where, body, "speech.")
    language = body.get("language")
    if language not in LANGUAGES:
        inner = _Fields(f.where, {f"speech.{k}": v for k, v in body.items()})
        raise inner.fail("speech.language", "one of " + ", ".join(f'"{n}"' for n in LANGUAGES))
    return str(language)


def _opponent(f: _Fields) -> OpponentSettings:
    """``setup``'s ``opponent``: ``{"color": c, "level": name}``, or null for nobody.

    The coach is off in a scenario unless ``"coach": true`` says so: a scenario
    presses DONE once per play, and a blunder warning would hold a play back
    for a second DONE the scenario does not have."""
    body = f.data["opponent"]
    if body is None:
        return OpponentSettings()
    if not isinstance(body, dict):
        raise f.fail("opponent", 'an object {"color": "white" or "black", "level": ...} or null')
    _known_fields(f.where, body, "opponent.")
    inner = _Fields(f.where, {f"opponent.{k}": v for k, v in body.items()})
    color = inner.color("opponent.color")
    level = body.get("level")
    names = [lv.value for lv in Level]
    if level not in names:
        raise inner.fail("opponent.level", "one of " + ", ".join(f'"{n}"' for n in names))
    coach = body.get("coach", False)
    if not isinstance(coach, bool):
        raise inner.fail("opponent.coach", "true or false")
    return OpponentSettings(color=color, level=Level(level), coach=coach)


def _load(f: _Fields) -> Action:
    body = f.data["load"]
    if not isinstance(body, dict):
        raise f.fail("load", 'an object {"position_id": ..., "match_id": ...}')
    _known_fields(f.where, body, "load.")
    return LoadAction(f.string("load.position_id", body.get("position_id")),
                f.string("load.match_id", body.get("match_id")))


def _dice(f: _Fields) -> Action:
    v = f.data["dice"]
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in v)):
        raise f.fail("dice", "two dice [a, b], each 1..6")
    return DiceAction(v[0], v[1])


def _press(f: _Fields) -> Action:
    return PressAction(f.button("press"), SHORT_PRESS_MS, long=False)


def _hold(f: _Fields) -> Action:
    return PressAction(f.button("hold"), f.ms("ms"), long=True)


def _lift(f: _Fields) -> Action:
    return LiftAction(f.location("lift"), f.color())


def _place(f: _Fields) -> Action:
    return PlaceAction(f.location("place"), f.color())


def _move(f: _Fields) -> Action:
    v = f.data["move"]
    parts = v.split("/") if isinstance(v, str) else []
    if len(parts) != 2 or not all(p in LOCATIONS for p in parts) or parts[0] == parts[1]:
        raise f.fail("move", 'two different locations "from/to", e.g. "13/8", "bar/22", "6/off"')
    return MoveAction(parts[0], parts[1], f.color())


def _glitch(f: _Fields) -> Action:
    body = f.data["glitch"]
    if not isinstance(body, dict):
        raise f.fail("glitch", 'an object {"at": loc, "color": c, "ms": n}')
    _known_fields(f.where, body, "glitch.")
    inner = _Fields(f.where, {f"glitch.{k}": v for k, v in body.items()})
    at = inner.location("glitch.at")
    color = inner.color("glitch.color")
    return GlitchAction(at, color, inner.ms("glitch.ms"))


def _wait(f: _Fields) -> Action:
    return WaitAction(f.ms("wait"))


_PARSERS: dict[str, Callable[[_Fields], Action]] = {
    "setup": _setup, "load": _load, "dice": _dice, "press": _press, "hold": _hold,
    "lift": _lift, "place": _place, "move": _move, "glitch": _glitch, "wait": _wait,
}
FIELDS: Mapping[str, tuple[str, ...]] = {
    "setup": ("setup", "match_length", "variant", "opponent", "speech", "clock"), "load": ("load",),
    "opponent.": ("color", "level", "coach"), "speech.": ("language",),
    "dice": ("dice",),
    "press": ("press",), "hold": ("hold", "ms"), "lift": ("lift", "color"),
    "place": ("place", "color"), "move": ("move", "color"), "glitch": ("glitch",),
    "wait": ("wait",), "load.": ("position_id", "match_id"), "glitch.": ("at", "color", "ms"),
}
"""The fields each action may have (``"load."``: inside its object); any other is refused."""


def parse_line(text: str, where: str) -> Action | None:
    """One scenario line to an action; ``None`` for blank and ``#`` lines."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    try:
        data = parse_json(stripped)
    except json.JSONDecodeError as exc:
        raise ScenarioError(where, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except LimitError as exc:
        raise ScenarioError(where, str(exc)) from None
    if not isinstance(data, dict):
        raise ScenarioError(where, "expected a JSON object, one action per line")
    not_text = json_text_fault(data)
    if not_text is not None:
        raise ScenarioError(f"{where}: field {json.dumps(not_text[0])}", not_text[1])
    kinds = [k for k in data if k in _PARSERS]
    if len(kinds) != 1:
        names = ", ".join(sorted(_PARSERS))
        got = sorted(data)
        raise ScenarioError(where, f"expected exactly one action key of {names}; got {got}")
    _known_fields(where, data, kinds[0])
    return _PARSERS[kinds[0]](_Fields(where, data))


def _known_fields(where: str, data: Mapping[str, Any], kind: str) -> None:
    """ScenarioError naming the first field that ``kind`` does not have (a typo, or a
    field this version does not know)."""
    known = FIELDS[kind]
    for key in data:
        if key not in known:
            name = f"{kind}{key}" if kind.endswith(".") else key
            action = kind.rstrip(".")
            raise ScenarioError(f"{where}: field {json.dumps(name[:40])}",
                                f"unknown field of a {action!r} action "
                                f"(known: {', '.join(known)})")


def read_scenario(path: Path) -> Iterator[ScenarioLine]:
    """Every action of a scenario file, in order, each with its ``file:line``.

    The file must be a regular one of at most :data:`MAX_SCENARIO_BYTES`, and its
    waits and holds may add up to at most :data:`MAX_TOTAL_MS`.
    """
    text = read_text(path, MAX_SCENARIO_BYTES, "a scenario", ScenarioError)
    total_ms = 0
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{path}:{number}"
        action = parse_line(line, where)
        if action is None:
            continue
        total_ms += action.ms if isinstance(action, WaitAction | PressAction) else 0
        if total_ms > MAX_TOTAL_MS:
            raise ScenarioError(where, f"the waits and holds add up to more than "
                                       f"{MAX_TOTAL_MS} ms (a day)")
        yield ScenarioLine(where, action)
