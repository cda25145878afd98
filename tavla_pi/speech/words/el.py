# ruff: noqa: RUF002
"""Greek: the words of the speaking board, as tavli players say them.

Points and dice are neuter numbers («στο οχτώ», «έξι τέσσερα»; a one on a die
is «άσσο»), doubles have their names («εξάρες»), match points are masculine
(«έναν πόντο», «τρεις πόντους»); a checker is «πούλι», the bar «η μέση»,
bearing off «μαζεύει» (a checker borne off goes «έξω»).
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
    capitalised,
    joined,
)

_ONES = ("μηδέν", "ένα", "δύο", "τρία", "τέσσερα", "πέντε", "έξι", "εφτά", "οχτώ", "εννιά",
         "δέκα", "έντεκα", "δώδεκα", "δεκατρία", "δεκατέσσερα", "δεκαπέντε", "δεκαέξι",
         "δεκαεφτά", "δεκαοχτώ", "δεκαεννιά")
_TENS = ("", "", "είκοσι", "τριάντα", "σαράντα", "πενήντα", "εξήντα", "εβδομήντα",
         "ογδόντα", "ενενήντα")
_HUNDREDS = ("", "εκατό", "διακόσια", "τριακόσια", "τετρακόσια", "πεντακόσια", "εξακόσια",
             "εφτακόσια", "οχτακόσια", "εννιακόσια")
_MASCULINE = {"ένα": "έναν", "τρία": "τρεις", "τέσσερα": "τέσσερις", "δεκατρία": "δεκατρείς",
              "δεκατέσσερα": "δεκατέσσερις"}
_FACES = ("", "άσσο", "δύο", "τρία", "τέσσερα", "πέντε", "έξι")
_DOUBLES = ("", "ασσάρες", "δυάρες", "τριάρες", "τεσσάρες", "πεντάρες", "εξάρες")
_NAMES = {Color.WHITE: "ο Λευκός", Color.BLACK: "ο Μαύρος"}
_BARE = {Color.WHITE: "Λευκός", Color.BLACK: "Μαύρος"}
_ONE_CHECKER = {Color.WHITE: "λευκό πούλι", Color.BLACK: "μαύρο πούλι"}
_CHECKERS = {Color.WHITE: "λευκά πούλια", Color.BLACK: "μαύρα πούλια"}
_TIMES = {2: "δύο φορές", 3: "τρεις φορές", 4: "τέσσερις φορές"}
_KINDS = {"single": "μονό", "gammon": "διπλό", "backgammon": "τριπλό", "mother": "με τη μάνα"}


def number(n: int) -> str:
    """0..999 in words, neuter (as points and dice are said): «εκατόν εξήντα εφτά»."""
    if n >= 100:
        rest = n % 100
        if not rest:
            return _HUNDREDS[n // 100]
        hundreds = "εκατόν" if n < 200 else _HUNDREDS[n // 100]
        return f"{hundreds} {number(rest)}"
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return f"{_TENS[tens]} {_ONES[ones]}" if ones else _TENS[tens]


def _points(n: int) -> str:
    """Match points, masculine accusative: «έναν πόντο», «τρεις πόντους»."""
    words = [_MASCULINE.get(w, w) for w in number(n).split()]
    if words[-1] == "έναν" and len(words) > 1:
        words[-1] = "ένα"
    words = [w[:-1] + "ους" if w.endswith("κόσια") else w for w in words]
    return f"{' '.join(words)} {'πόντο' if n == 1 else 'πόντους'}"


def _dice(high: int, low: int) -> str:
    """A roll: «έξι τέσσερα», «έξι άσσο», «εξάρες»."""
    return _DOUBLES[high] if high == low else f"{_FACES[high]} {_FACES[low]}"


def _subject(color: Color) -> str:
    """The player at the start of a sentence: «Ο Λευκός»."""
    return capitalised(_NAMES[color])


def _on(place: int) -> str:
    """Where a checker goes: «στο δώδεκα», «στη μέση», «έξω»."""
    return {BAR: "στη μέση", OFF: "έξω"}.get(place) or f"στο {number(place)}"


def _from(place: int) -> str:
    """Where a checker comes from: «από το πέντε», «από τη μέση», «από τα μαζεμένα»."""
    return {BAR: "από τη μέση", OFF: "από τα μαζεμένα"}.get(place) or f"από το {number(place)}"


def _move(move: SaidMove) -> str:
    """One checker's step: «οχτώ στο δύο», «από το έξι έξω», «από τη μέση στο είκοσι δύο»."""
    if move.to == OFF or move.from_ == BAR:
        text = f"{_from(move.from_)} {_on(move.to)}"
    else:
        text = f"{number(move.from_)} {_on(move.to)}"
    text += {Capture.HIT: " και χτυπάει", Capture.PIN: " και πλακώνει"}.get(move.capture, "")
    return f"{text}, {_TIMES[move.times]}" if move.times > 1 else text


def _moves(moves: Sequence[SaidMove]) -> str:
    return ", ".join(_move(m) for m in moves)


def _checkers(count: int, color: Color) -> str:
    return f"ένα {_ONE_CHECKER[color]}" if count == 1 else f"{number(count)} {_CHECKERS[color]}"


def _fix(fix: SaidFix) -> str:
    if fix.add:
        return f"Βάλε {_checkers(fix.count, fix.color)} {_on(fix.at)}."
    return f"Πάρε {_checkers(fix.count, fix.color)} {_from(fix.at)}."


def _score(score: tuple[int, int]) -> str:
    return f"Σκορ: Λευκός {number(score[0])}, Μαύρος {number(score[1])}."


def _game_over(winner: Color | None, kind: str, points: int, score: tuple[int, int]) -> str:
    if winner is None:
        return f"Ισοπαλία, πλακώθηκαν και οι δύο μάνες. {_score(score)}"
    return f"{_subject(winner)} κερδίζει {_KINDS[kind]}, {_points(points)}. {_score(score)}"


def _lifted(place: int, destinations: Sequence[int]) -> str:
    where = capitalised(_from(place))
    if not destinations:
        return f"{where} δεν παίζει."
    return f"{where}: {', '.join(_place(d) for d in destinations)}."


def _place(place: int) -> str:
    """A destination by itself: «εφτά», «έξω»."""
    return "έξω" if place == OFF else number(place)


def _side(side: SaidSide) -> str:
    parts = [f"{number(n)} {_on(p)}" for p, n in side.points]
    if side.bar:
        parts.append(f"{number(side.bar)} στη μέση")
    if side.off:
        parts.append(f"{number(side.off)} {'μαζεμένο' if side.off == 1 else 'μαζεμένα'}")
    parts.append(f"μέτρημα {number(side.pips)}")
    if side.pinned:
        word = "πλακωμένο" if len(side.pinned) == 1 else "πλακωμένα"
        parts.append(f"{word} " + joined([_on(p) for p in side.pinned], ", ", " και "))
    return f"{_BARE[side.color]}: {', '.join(parts)}."


def _match_score(score: tuple[int, int], length: int) -> str:
    if not length:
        return ""
    return (f"Σκορ: Λευκός {number(score[0])}, Μαύρος {number(score[1])}, "
            f"ως το {number(length)}.")


def _turn(color: Color | None, dice: tuple[int, ...]) -> str:
    if color is None:
        return "Ρίξτε για το ποιος ξεκινάει."
    if len(dice) < 2:
        return f"Σειρά {'του Λευκού' if color is Color.WHITE else 'του Μαύρου'} να ρίξει."
    return f"Παίζει {_NAMES[color]} με {_dice(dice[0], dice[1])}."


PHRASES = Phrases(
    number=number,
    opening=lambda white, black, starter: (
        f"Ο Λευκός φέρνει {_FACES[white]}, ο Μαύρος {_FACES[black]}, "
        + (f"ξεκινάει {_NAMES[starter]}." if starter else "ίσα ζάρια, ξαναρίξτε.")),
    rolled=lambda color, high, low: f"{_subject(color)} φέρνει {_dice(high, low)}.",
    played=lambda color, moves: f"{_subject(color)} παίζει {_moves(moves)}.",
    engine_play=lambda moves: f"Ο υπολογιστής παίζει {_moves(moves)}.",
    remote_play=lambda moves: f"Ο φίλος σας παίζει {_moves(moves)}.",
    step=lambda color, move: f"{_BARE[color]}: {_move(move)}.",
    hit_step=lambda place: f"Το χτυπημένο πούλι {_from(place)} στη μέση.",
    no_legal_move=lambda color, high, low: (
        f"{_subject(color)} δεν παίζει με {_dice(high, low)}."),
    double_offered=lambda color, cube: f"{_subject(color)} διπλασιάζει στα {number(cube)}.",
    double_taken=lambda color, cube, beaver: (
        f"{_subject(color)} {'δέχεται και ξαναδιπλασιάζει' if beaver else 'δέχεται'}, "
        f"ο κύβος στα {number(cube)}."),
    double_dropped=lambda color, cube: f"{_subject(color)} δεν δέχεται τα {number(cube)}.",
    resign_offered=lambda color, points: (
        f"{_subject(color)} προτείνει παραίτηση για {_points(points)}."),
    resign_accepted=lambda color, points: (
        f"{_subject(color)} δέχεται την παραίτηση, {_points(points)}."),
    resign_declined=lambda color, points: (
        f"{_subject(color)} δεν δέχεται την παραίτηση, το παιχνίδι συνεχίζεται."),
    game_over=_game_over,
    match_over=lambda winner, score: f"{_subject(winner)} κερδίζει τον αγώνα. {_score(score)}",
    lifted=_lifted,
    out_of_sync=lambda fixes: " ".join(_fix(f) for f in fixes),
    in_sync="Το ταμπλό είναι πάλι σωστό.",
    speech_on="Η φωνή άνοιξε.",
    speech_off="Η φωνή κλείνει.",
    refusals={
        Refusal.DICE_UNUSED: "Όχι ακόμα: παίξε όλα τα ζάρια.",
        Refusal.IN_HAND: "Άφησε πρώτα το πούλι από το χέρι.",
        Refusal.HIT_TO_BAR: "Βάλε πρώτα το χτυπημένο πούλι στη μέση.",
        Refusal.AMBIGUOUS: "Δύο κινήσεις μοιάζουν ίδιες: επιβεβαίωσε τη φωτισμένη.",
        Refusal.ILLEGAL: "Αυτή η κίνηση δεν επιτρέπεται.",
        Refusal.ANSWER_FIRST: "Η πρόταση περιμένει απάντηση.",
        Refusal.NOT_YOUR_TURN: "Δεν είναι η σειρά σου.",
        Refusal.NO_DOUBLE: "Δεν γίνεται διπλασιασμός τώρα.",
        Refusal.NO_RESIGNATION: "Δεν γίνεται παραίτηση τώρα.",
        Refusal.NO_HINT: "Δεν υπάρχει συμβουλή τώρα.",
        Refusal.NOT_NOW: "Όχι τώρα.",
    },
    takeback=lambda color: f"{_subject(color)} παίρνει πίσω την κίνηση.",
    blunder_warning=lambda color, best: (
        f"Προσοχή, αυτή η κίνηση είναι λάθος. Καλύτερα: {_moves(best)}."),
    side=_side,
    score=_match_score,
    turn=_turn,
)
"""The Greek phrase table."""

__all__ = ["PHRASES", "number"]
