# ruff: noqa: RUF002
"""Turkish: the words of the speaking board, as tavla players say them.

A checker is «pul», the bar «orta» (a hit checker waits in the middle), a hit
«kırmak», bearing off «toplamak», a pin (Plakoto, Turkish Tapa) «tapa»; a
gammon is «mars».  Case endings follow vowel harmony on the number's last
word (:func:`case`): «sekizden ikiye», «dörde», «altıda».
"""

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

_ONES = ("sıfır", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz")
_TENS = ("", "on", "yirmi", "otuz", "kırk", "elli", "altmış", "yetmiş", "seksen", "doksan")
_NAMES = {Color.WHITE: "Beyaz", Color.BLACK: "Siyah"}
_COLORS = {Color.WHITE: "beyaz", Color.BLACK: "siyah"}
_TURN = {Color.WHITE: "Beyaz'da", Color.BLACK: "Siyah'ta"}
_BACK = set("aıou")
_VOWELS = set("aeıioöuü")
_VOICELESS = set("çfhkpsşt")
_ENDINGS = {"from": ("dan", "den"), "to": ("a", "e"), "at": ("da", "de")}
_KINDS = {"single": "kazandı", "gammon": "mars etti", "backgammon": "büyük mars etti",
          "mother": "kazandı, ana taş tapada"}


def number(n: int) -> str:
    """0..999 in words: «yüz altmış yedi», «üç yüz yetmiş beş»."""
    if n >= 100:
        hundreds = "yüz" if n < 200 else f"{_ONES[n // 100]} yüz"
        return f"{hundreds} {number(n % 100)}" if n % 100 else hundreds
    tens, ones = divmod(n, 10)
    if not tens:
        return _ONES[ones]
    return f"{_TENS[tens]} {_ONES[ones]}" if ones else _TENS[tens]


def case(word: str, which: str) -> str:
    """``word`` with the ending of ``which`` ("from", "to", "at") by vowel harmony:
    «sekizden», «ikiye», «dörde», «üçte», «ortaya»."""
    back, front = _ENDINGS[which]
    last_vowel = next(c for c in reversed(word) if c in _VOWELS)
    ending = back if last_vowel in _BACK else front
    final = word[-1]
    if which == "to":
        if word.endswith("dört"):
            return word[:-1] + "d" + ending
        return word + ("y" + ending if final in _VOWELS else ending)
    if final in _VOICELESS:
        ending = "t" + ending[1:]
    return word + ending


def turkish_capitalised(text: str) -> str:
    """``text`` with its first letter upper case, Turkish style (i -> İ, ı -> I)."""
    first = {"i": "İ", "ı": "I"}.get(text[:1], text[:1].upper())
    return first + text[1:]


def _place(place: int) -> str:
    """A place by itself: «sekiz», «orta», «dışarı»."""
    return {BAR: "orta", OFF: "dışarı"}.get(place) or number(place)


def _dice(high: int, low: int) -> str:
    """A roll: «altı dört», «çift altı»."""
    return f"çift {number(high)}" if high == low else f"{number(high)} {number(low)}"


def _move(move: SaidMove) -> str:
    """One checker's step: «sekizden ikiye», «altıdan dışarı», «ortadan yirmi ikiye, kırarak»."""
    to = "dışarı" if move.to == OFF else case(_place(move.to), "to")
    text = f"{case(_place(move.from_), 'from')} {to}"
    text += {Capture.HIT: ", kırarak", Capture.PIN: ", tapa yaparak"}.get(move.capture, "")
    return f"{text}, {number(move.times)} kez" if move.times > 1 else text


def _moves(moves: Sequence[SaidMove]) -> str:
    return ", ".join(_move(m) for m in moves)


def _fix(fix: SaidFix) -> str:
    checkers = f"{number(fix.count)} {_COLORS[fix.color]} pul"
    if fix.add:
        return turkish_capitalised(f"{case(_place(fix.at), 'to')} {checkers} koy.")
    return turkish_capitalised(f"{case(_place(fix.at), 'from')} {checkers} al.")


def _points(n: int) -> str:
    return f"{number(n)} puan"


def _score(score: tuple[int, int]) -> str:
    return f"Skor: Beyaz {number(score[0])}, Siyah {number(score[1])}."


def _game_over(winner: Color | None, kind: str, points: int, score: tuple[int, int]) -> str:
    if winner is None:
        return f"Berabere, iki ana taş da tapada. {_score(score)}"
    return f"{_NAMES[winner]} {_KINDS[kind]}, {_points(points)}. {_score(score)}"


def _lifted(place: int, destinations: Sequence[int]) -> str:
    where = turkish_capitalised(case(_place(place), "from"))
    if not destinations:
        return f"{where} hamle yok."
    return f"{where}: {', '.join(_place(d) for d in destinations)}."


def _side(side: SaidSide) -> str:
    parts = [f"{case(number(p), 'at')} {number(n)}" for p, n in side.points]
    if side.bar:
        parts.append(f"ortada {number(side.bar)}")
    if side.off:
        parts.append(f"toplanan {number(side.off)}")
    parts.append(f"pip sayısı {number(side.pips)}")
    if side.pinned:
        at = [case(number(p), "at") for p in side.pinned]
        parts.append(joined(at, ", ", " ve ") + " tapalı")
    return f"{_NAMES[side.color]}: {', '.join(parts)}."


def _match_score(score: tuple[int, int], length: int) -> str:
    if not length:
        return ""
    return (f"Skor: Beyaz {number(score[0])}, Siyah {number(score[1])}, "
            f"{number(length)} puanlık maç.")


def _turn(color: Color | None, dice: tuple[int, ...]) -> str:
    if color is None:
        return "Kimin başlayacağı için zar atın."
    if len(dice) < 2:
        return f"Sıra {_TURN[color]}, zar atacak."
    return f"Sıra {_TURN[color]}: {_dice(dice[0], dice[1])}."


PHRASES = Phrases(
    number=number,
    opening=lambda white, black, starter: (
        f"Beyaz {number(white)}, Siyah {number(black)} attı, "
        + (f"{_NAMES[starter]} başlıyor." if starter else "berabere, yeniden atın.")),
    rolled=lambda color, high, low: f"{_NAMES[color]} {_dice(high, low)} attı.",
    played=lambda color, moves: f"{_NAMES[color]} oynadı: {_moves(moves)}.",
    engine_play=lambda moves: f"Bilgisayarın hamlesi: {_moves(moves)}.",
    remote_play=lambda moves: f"Arkadaşınızın hamlesi: {_moves(moves)}.",
    step=lambda color, move: f"{_NAMES[color]}: {_move(move)}.",
    hit_step=lambda place: f"Kırılan pul {case(number(place), 'from')} ortaya.",
    no_legal_move=lambda color, high, low: (
        f"{_NAMES[color]} {_dice(high, low)} ile oynayamıyor."),
    double_offered=lambda color, cube: f"{_NAMES[color]} {case(number(cube), 'to')} katladı.",
    double_taken=lambda color, cube, beaver: (
        f"{_NAMES[color]} {'kabul edip yeniden katladı' if beaver else 'kabul etti'}, "
        f"katlama zarı {case(number(cube), 'at')}."),
    double_dropped=lambda color, cube: (
        f"{_NAMES[color]} {case(number(cube), 'to')} katlamayı kabul etmedi."),
    resign_offered=lambda color, points: (
        f"{_NAMES[color]} {case(_points(points), 'to')} pes etmeyi teklif etti."),
    resign_accepted=lambda color, points: (
        f"{_NAMES[color]} pes etmeyi kabul etti, {_points(points)}."),
    resign_declined=lambda color, points: (
        f"{_NAMES[color]} pes etmeyi kabul etmedi, oyun sürüyor."),
    game_over=_game_over,
    match_over=lambda winner, score: f"{_NAMES[winner]} maçı kazandı. {_score(score)}",
    lifted=_lifted,
    out_of_sync=lambda fixes: " ".join(_fix(f) for f in fixes),
    in_sync="Tahta yine doğru.",
    speech_on="Ses açık.",
    speech_off="Ses kapanıyor.",
    refusals={
        Refusal.DICE_UNUSED: "Daha değil: bütün zarları oyna.",
        Refusal.IN_HAND: "Önce elindeki pulu koy.",
        Refusal.HIT_TO_BAR: "Önce kırılan pulu ortaya koy.",
        Refusal.AMBIGUOUS: "İki hamle aynı görünüyor: yanan hamleyi onayla.",
        Refusal.ILLEGAL: "Bu hamle geçersiz.",
        Refusal.ANSWER_FIRST: "Teklif cevap bekliyor.",
        Refusal.NOT_YOUR_TURN: "Sıra sende değil.",
        Refusal.NO_DOUBLE: "Şimdi katlanamaz.",
        Refusal.NO_RESIGNATION: "Şimdi pes edilemez.",
        Refusal.NO_HINT: "Şimdi ipucu yok.",
        Refusal.NOT_NOW: "Şimdi olmaz.",
    },
    takeback=lambda color: f"{_NAMES[color]} hamlesini geri aldı.",
    blunder_warning=lambda color, best: f"Dikkat, bu hamle hatalı. Daha iyisi: {_moves(best)}.",
    side=_side,
    score=_match_score,
    turn=_turn,
)
"""The Turkish phrase table."""

__all__ = ["PHRASES", "case", "number"]
