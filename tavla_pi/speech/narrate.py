"""What the board says: one sentence per event, in Greek, Turkish or English.

Pure functions of an event and the :class:`Scene` it happens in; no I/O, no
clock.  The words are the phrase tables of ``speech.words`` (one module per
language); this module only reads the events (docs/CONTRACTS.md §4) and turns
their places into the right player's numbering (docs/SPEECH.md): a play in
the mover's own numbering as its notation has it, a lifted checker's places in
the lifting player's, a fix in the numbering of the player on roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from tavla_pi.errors import BadInputError
from tavla_pi.events import Event, EventType
from tavla_pi.rules import Color, VariantPosition, variant
from tavla_pi.rules.position import pip_count
from tavla_pi.speech.settings import LANGUAGES
from tavla_pi.speech.words import (
    BAR,
    OFF,
    Capture,
    Phrases,
    Refusal,
    SaidFix,
    SaidMove,
    SaidSide,
    el,
    en,
    tr,
)

__all__ = ["LANGUAGES", "Scene", "position_sentence", "sentence", "step_sentence", "switched"]


_TABLES: Mapping[str, Phrases] = {"el": el.PHRASES, "tr": tr.PHRASES, "en": en.PHRASES}

_REFUSALS = (
    ("the server refused the play", Refusal.ILLEGAL),
    ("not all dice", Refusal.DICE_UNUSED),
    ("in the hand", Refusal.IN_HAND),
    ("to the bar", Refusal.HIT_TO_BAR),
    ("read the same", Refusal.AMBIGUOUS),
    ("legal play", Refusal.ILLEGAL),
    ("to answer", Refusal.ANSWER_FIRST),
    ("waiting for an answer", Refusal.ANSWER_FIRST),
    ("take or drop", Refusal.ANSWER_FIRST),
    ("hint", Refusal.NO_HINT),
    ("resign", Refusal.NO_RESIGNATION),
    ("cube", Refusal.NO_DOUBLE),
    ("doubl", Refusal.NO_DOUBLE),
    ("beaver", Refusal.NO_DOUBLE),
    ("turn", Refusal.NOT_YOUR_TURN),
    ("moving", Refusal.NOT_YOUR_TURN),
    (" plays ", Refusal.NOT_YOUR_TURN),
)
"""The referee's reasons (docs/CONTRACTS.md §4 ``rejected``) by the words in them, in order."""


@dataclass(frozen=True, slots=True)
class Scene:
    """What a sentence needs besides the event: the game played now and who is on roll
    (None before the opening roll's start)."""

    variant: str
    on_roll: Color | None


def phrases(language: str) -> Phrases:
    """The phrase table of ``language``; BadInputError for a language not in :data:`LANGUAGES`."""
    table = _TABLES.get(language)
    if table is None:
        raise BadInputError("language", f"unknown language {language!r} (expected el, tr or en)")
    return table


def own_place(location: str, color: Color, variant_name: str) -> int:
    """An absolute location (docs/CONTRACTS.md §1) as ``color``'s own point (bar 25, off 0)
    in the numbering of the game ``variant_name`` (:meth:`Variant.own_point`)."""
    if location in ("bar", "off"):
        return BAR if location == "bar" else OFF
    return variant(variant_name).own_point(int(location), color)


def play_moves(notation: str, *, pins: bool) -> tuple[SaidMove, ...]:
    """A play in GNU Backgammon's notation ("24/18*/13 6/off(2)") as the moves to say,
    one per hop of each checker's path; a star is a hit, or a pin where the game ``pins``."""
    capture = Capture.PIN if pins else Capture.HIT
    return tuple(move for token in notation.split() for move in _path_moves(token, capture))


def _path_moves(token: str, capture: Capture) -> list[SaidMove]:
    """The hops of one checker's path, e.g. "13/5(2)" or "bar/22*"."""
    path, _, repeat = token.partition("(")
    times = int(repeat.rstrip(")")) if repeat else 1
    points = [(_point(p.rstrip("*")), p.endswith("*")) for p in path.split("/")]
    return [SaidMove(a, b, capture if hit else Capture.NONE, times)
            for (a, _), (b, hit) in pairwise(points)]


def _point(name: str) -> int:
    """A point of the notation: 1..24, "bar" 25, "off" 0."""
    if name in ("bar", "off"):
        return BAR if name == "bar" else OFF
    return int(name)


def refusal_of(reason: str) -> Refusal:
    """The kind of a refused press, read from the referee's reason."""
    return next((kind for words, kind in _REFUSALS if words in reason), Refusal.NOT_NOW)


def sentence(event: Event, scene: Scene, language: str) -> str | None:
    """What the board says for ``event``; None for a type it says nothing for."""
    table = phrases(language)
    say = _SAYINGS.get(event.type) if isinstance(event.type, EventType) else None
    return say(event.fields, scene, table) if say else None


def step_sentence(from_: str, to: str, color: Color, scene: Scene, language: str) -> str:
    """One checker of the computer's play as the lights show it (``game.view.SeatStep``);
    ``to`` "bar": the hit checker of ``color`` goes to the bar (said in the computer's
    numbering, as its play is)."""
    table = phrases(language)
    if to == "bar":
        return table.hit_step(own_place(from_, color.opponent, scene.variant))
    move = SaidMove(own_place(from_, color, scene.variant), own_place(to, color, scene.variant))
    return table.step(color, move)


def switched(*, on: bool, language: str) -> str:
    """What the board says as MENU switches speech on (``on``) or off."""
    table = phrases(language)
    return table.speech_on if on else table.speech_off


def position_sentence(  # noqa: PLR0917  (the read-out's six facts, in the order they are said)
        position: VariantPosition, dice: tuple[int, ...], on_roll: Color | None,
        score: tuple[int, int], match_length: int, language: str) -> str:
    """The read-out: each player (White first) in their own numbering, the score in a
    match, and whose turn it is with which dice."""
    table = phrases(language)
    parts = [table.side(side_of(position, color)) for color in Color]
    high_first = tuple(sorted(dice[:2], reverse=True))
    parts += [table.score(score, match_length), table.turn(on_roll, high_first)]
    return " ".join(p for p in parts if p)


def side_of(position: VariantPosition, color: Color) -> SaidSide:
    """``color``'s points, bar, borne-off checkers, pips and pins in its own numbering."""
    own = position.mine if color is position.on_roll else position.theirs
    pinned = sorted((own_place(at, color, position.variant)
                     for at, whose in position.board()["pinned"].items() if whose == color.value),
                    reverse=True)
    return SaidSide(
        color=color,
        points=tuple((i + 1, n) for i, n in reversed(list(enumerate(own[:24]))) if n),
        bar=own[24] if len(own) > 24 else 0,
        off=15 - sum(own),
        pips=pip_count(own),
        pinned=tuple(pinned),
    )


# -- one sentence per event type ------------------------------------------------------

_Say = Callable[[Mapping[str, Any], Scene, Phrases], str | None]


def _color(name: object) -> Color:
    return Color(name)


def _dice(fields: Mapping[str, Any]) -> tuple[int, int]:
    """The two dice, high first."""
    a, b = fields["dice"][:2]
    return (max(a, b), min(a, b))


def _opening(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str:
    starter = f.get("starter")
    return t.opening(f["white"], f["black"], _color(starter) if starter else None)


def _rolled(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str:
    return t.rolled(_color(f["player"]), *_dice(f))


def _played(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str | None:
    moves = play_moves(f["play"], pins=variant(scene.variant).pins)
    return t.played(_color(f["player"]), moves) if moves else None


def _engine_play(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str | None:
    moves = play_moves(f["play"], pins=variant(scene.variant).pins)
    return t.engine_play(moves) if moves else None


def _remote_play(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str | None:
    moves = play_moves(f["play"], pins=variant(scene.variant).pins)
    return t.remote_play(moves) if moves else None


def _no_legal_move(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str:
    return t.no_legal_move(_color(f["player"]), *_dice(f))


def _lifted(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str | None:
    if not f.get("player"):
        return None
    color = _color(f["player"])
    places = sorted((own_place(d, color, scene.variant) for d in f["destinations"]),
                    reverse=True)
    return t.lifted(own_place(f["from"], color, scene.variant), places)


def _out_of_sync(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str | None:
    viewer = scene.on_roll or Color.WHITE
    fixes = [_fix(item, viewer, scene.variant) for item in f["fix"]]
    return t.out_of_sync(fixes) if fixes else None


def _fix(item: Mapping[str, Any], viewer: Color, variant_name: str) -> SaidFix:
    add = "add" in item
    return SaidFix(at=own_place(item["at"], viewer, variant_name), color=_color(item["color"]),
               count=int(item["add"] if add else item["remove"]), add=add)


def _game_over(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str:
    winner = f.get("winner")
    return t.game_over(_color(winner) if winner else None, f["kind"], f["points"],
                       _score(f["score"]))


def _score(score: Sequence[int]) -> tuple[int, int]:
    return (int(score[0]), int(score[1]))


def _blunder(f: Mapping[str, Any], scene: Scene, t: Phrases) -> str:
    best = play_moves(f["best"], pins=variant(scene.variant).pins)
    return t.blunder_warning(_color(f["player"]), best)


def _player_number(pick: Callable[[Phrases], Callable[[Color, int], str]], key: str) -> _Say:
    """The sentence ``pick`` of the event's player and one number field (the cube, the points)."""
    return lambda f, scene, t: pick(t)(_color(f["player"]), int(f[key]))


_SAYINGS: Mapping[EventType, _Say] = {
    EventType.OPENING_ROLL: _opening,
    EventType.ROLLED: _rolled,
    EventType.PLAYED: _played,
    EventType.ENGINE_PLAY: _engine_play,
    EventType.REMOTE_PLAY: _remote_play,
    EventType.NO_LEGAL_MOVE: _no_legal_move,
    EventType.LIFTED: _lifted,
    EventType.OUT_OF_SYNC: _out_of_sync,
    EventType.IN_SYNC: lambda f, scene, t: t.in_sync,
    EventType.REJECTED: lambda f, scene, t: t.refusals[refusal_of(str(f.get("reason", "")))],
    EventType.DOUBLE_OFFERED: _player_number(lambda t: t.double_offered, "cube"),
    EventType.DOUBLE_TAKEN: lambda f, scene, t: t.double_taken(
        _color(f["player"]), int(f["cube"]), bool(f.get("beaver"))),
    EventType.DOUBLE_DROPPED: _player_number(lambda t: t.double_dropped, "cube"),
    EventType.RESIGN_OFFERED: _player_number(lambda t: t.resign_offered, "points"),
    EventType.RESIGN_ACCEPTED: _player_number(lambda t: t.resign_accepted, "points"),
    EventType.RESIGN_DECLINED: _player_number(lambda t: t.resign_declined, "points"),
    EventType.GAME_OVER: _game_over,
    EventType.MATCH_OVER: lambda f, scene, t: t.match_over(_color(f["winner"]),
                                                          _score(f["score"])),
    EventType.TAKEBACK: lambda f, scene, t: t.takeback(_color(f["player"])),
    EventType.BLUNDER_WARNING: _blunder,
}
"""The event types the board speaks for; every other type says nothing."""
