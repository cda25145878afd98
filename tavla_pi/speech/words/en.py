"""English: the words of the speaking board, as backgammon players say them."""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.rules import Color
from tavla_pi.speech.words import (
    BAR,
    OFF,
    Capture,
    Phrases,
    Refusal,
    SaidFix,
    SaidMove,
    SaidSide,
    joined,
)

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
         "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_DOUBLES = ("", "ones", "twos", "threes", "fours", "fives", "sixes")
_NAMES = {Color.WHITE: "White", Color.BLACK: "Black"}
_TIMES = {2: "twice", 3: "three times", 4: "four times"}
_KINDS = {"single": "", "gammon": "a gammon: ", "backgammon": "a backgammon: ",
          "mother": "the mother is pinned, "}


def number(n: int) -> str:
    """0..999 in words: "one hundred sixty-seven"."""
    if n >= 100:
        rest = n % 100
        hundreds = f"{_ONES[n // 100]} hundred"
        return f"{hundreds} {number(rest)}" if rest else hundreds
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return f"{_TENS[tens]}-{_ONES[ones]}" if ones else _TENS[tens]


def _dice(high: int, low: int) -> str:
    """A roll: "six four", "double sixes"."""
    return f"double {_DOUBLES[high]}" if high == low else f"{number(high)} {number(low)}"


def _place(place: int) -> str:
    """A place by itself: "eight", "the bar", "off"."""
    return {BAR: "the bar", OFF: "off"}.get(place) or number(place)


def _on(place: int) -> str:
    """Where a checker is put: "on twelve", "on the bar", "in the tray"."""
    return {BAR: "on the bar", OFF: "in the tray"}.get(place) or f"on {number(place)}"


def _off(place: int) -> str:
    """Where a checker is taken from: "off five", "off the bar", "out of the tray"."""
    return {BAR: "off the bar", OFF: "out of the tray"}.get(place) or f"off {number(place)}"


def _move(move: SaidMove) -> str:
    """One checker's step: "eight to two", "six off", "bar to twenty-two", ", hits"."""
    if move.to == OFF:
        text = f"{number(move.from_)} off"
    elif move.from_ == BAR:
        text = f"bar to {number(move.to)}"
    else:
        text = f"{number(move.from_)} to {number(move.to)}"
    text += {Capture.HIT: ", hits", Capture.PIN: ", pins"}.get(move.capture, "")
    return f"{text}, {_TIMES[move.times]}" if move.times > 1 else text


def _moves(moves: Sequence[SaidMove]) -> str:
    return ", ".join(_move(m) for m in moves)


def _checkers(count: int, color: Color) -> str:
    noun = "checker" if count == 1 else "checkers"
    return f"{number(count)} {color.value} {noun}"


def _fix(fix: SaidFix) -> str:
    if fix.add:
        return f"Put {_checkers(fix.count, fix.color)} {_on(fix.at)}."
    return f"Take {_checkers(fix.count, fix.color)} {_off(fix.at)}."


def _points(n: int) -> str:
    return "one point" if n == 1 else f"{number(n)} points"


def _score(score: tuple[int, int]) -> str:
    return f"Score: White {number(score[0])}, Black {number(score[1])}."


def _game_over(winner: Color | None, kind: str, points: int, score: tuple[int, int]) -> str:
    if winner is None:
        return f"A draw: both mothers are pinned. {_score(score)}"
    return f"{_NAMES[winner]} wins {_KINDS[kind]}{_points(points)}. {_score(score)}"


def _lifted(place: int, destinations: Sequence[int]) -> str:
    where = "the bar" if place == BAR else number(place)
    if not destinations:
        return f"No move from {where}."
    return f"From {where}: {', '.join(_place(d) for d in destinations)}."


def _side(side: SaidSide) -> str:
    parts = [f"{number(n)} on {number(p)}" for p, n in side.points]
    if side.bar:
        parts.append(f"{number(side.bar)} on the bar")
    if side.off:
        parts.append(f"{number(side.off)} borne off")
    parts.append(f"pip count {number(side.pips)}")
    if side.pinned:
        parts.append("pinned on " + joined([number(p) for p in side.pinned], ", ", " and "))
    return f"{_NAMES[side.color]}: {', '.join(parts)}."


def _match_score(score: tuple[int, int], length: int) -> str:
    if not length:
        return ""
    return f"Score: White {number(score[0])}, Black {number(score[1])}, match to {number(length)}."


def _turn(color: Color | None, dice: tuple[int, ...]) -> str:
    if color is None:
        return "Roll to see who starts."
    if len(dice) < 2:
        return f"{_NAMES[color]} to roll."
    return f"{_NAMES[color]} to play {_dice(dice[0], dice[1])}."


PHRASES = Phrases(
    number=number,
    opening=lambda white, black, starter: (
        f"White {number(white)}, Black {number(black)}: "
        + (f"{_NAMES[starter]} starts." if starter else "a tie, roll again.")),
    rolled=lambda color, high, low: f"{_NAMES[color]} rolls {_dice(high, low)}.",
    played=lambda color, moves: f"{_NAMES[color]} plays {_moves(moves)}.",
    engine_play=lambda moves: f"The computer plays {_moves(moves)}.",
    remote_play=lambda moves: f"Your friend plays {_moves(moves)}.",
    step=lambda color, move: f"{_NAMES[color]}: {_move(move)}.",
    hit_step=lambda place: f"The hit checker from {number(place)} to the bar.",
    no_legal_move=lambda color, high, low: f"{_NAMES[color]} cannot play {_dice(high, low)}.",
    double_offered=lambda color, cube: f"{_NAMES[color]} doubles to {number(cube)}.",
    double_taken=lambda color, cube, beaver: (
        f"{_NAMES[color]} {'beavers' if beaver else 'takes'}: the cube is at {number(cube)}."),
    double_dropped=lambda color, cube: f"{_NAMES[color]} drops the cube at {number(cube)}.",
    resign_offered=lambda color, points: f"{_NAMES[color]} offers to resign: {_points(points)}.",
    resign_accepted=lambda color, points: (
        f"{_NAMES[color]} accepts the resignation: {_points(points)}."),
    resign_declined=lambda color, points: (
        f"{_NAMES[color]} declines the resignation: play on."),
    game_over=_game_over,
    match_over=lambda winner, score: f"{_NAMES[winner]} wins the match. {_score(score)}",
    lifted=_lifted,
    out_of_sync=lambda fixes: " ".join(_fix(f) for f in fixes),
    in_sync="The board is right again.",
    speech_on="Speech on.",
    speech_off="Speech off.",
    refusals={
        Refusal.DICE_UNUSED: "Not yet: play all the dice.",
        Refusal.IN_HAND: "Put the checker down first.",
        Refusal.HIT_TO_BAR: "Put the hit checker on the bar first.",
        Refusal.AMBIGUOUS: "Two plays look the same: confirm the lit one.",
        Refusal.ILLEGAL: "That play is not legal.",
        Refusal.ANSWER_FIRST: "The offer waits for an answer.",
        Refusal.NOT_YOUR_TURN: "Not your turn.",
        Refusal.NO_DOUBLE: "No double now.",
        Refusal.NO_RESIGNATION: "No resignation now.",
        Refusal.NO_HINT: "No hint now.",
        Refusal.NOT_NOW: "Not now.",
    },
    takeback=lambda color: f"{_NAMES[color]} takes the play back.",
    blunder_warning=lambda color, best: (
        f"{_NAMES[color]}, that play is a mistake. Better: {_moves(best)}."),
    side=_side,
    score=_match_score,
    turn=_turn,
)
"""The English phrase table."""

__all__ = ["PHRASES", "number"]
