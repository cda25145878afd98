"""What the board says, word for word, in Greek, Turkish and English (docs/SPEECH.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sim_support import PINMAP

from tavla_pi.events import Event, EventType
from tavla_pi.events.types import event_type as type_of
from tavla_pi.game.settings import GameSettings
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules import Color, VariantPosition, variant
from tavla_pi.speech.narrate import (
    LANGUAGES,
    Scene,
    phrases,
    position_sentence,
    sentence,
    step_sentence,
)

ROOT = Path(__file__).resolve().parent.parent
PORTES_WHITE = Scene("portes", Color.WHITE)
PORTES_BLACK = Scene("portes", Color.BLACK)


def said(event_type: str, scene: Scene = PORTES_WHITE, /, **fields: Any) -> dict[str, str | None]:
    """The sentence of one event in each language."""
    event = Event(type_of(event_type), 0, fields)
    return {language: sentence(event, scene, language) for language in LANGUAGES}


# -- numbers ---------------------------------------------------------------------------

SPOT_CHECKS = (0, 1, 7, 11, 13, 20, 21, 64, 100, 167, 375)
NUMBERS = {
    "en": ["zero", "one", "seven", "eleven", "thirteen", "twenty", "twenty-one", "sixty-four",
           "one hundred", "one hundred sixty-seven", "three hundred seventy-five"],
    "el": ["μηδέν", "ένα", "εφτά", "έντεκα", "δεκατρία", "είκοσι", "είκοσι ένα",
           "εξήντα τέσσερα", "εκατό", "εκατόν εξήντα εφτά", "τριακόσια εβδομήντα πέντε"],
    "tr": ["sıfır", "bir", "yedi", "on bir", "on üç", "yirmi", "yirmi bir", "altmış dört",
           "yüz", "yüz altmış yedi", "üç yüz yetmiş beş"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_are_words(language: str) -> None:
    number = phrases(language).number
    assert [number(n) for n in SPOT_CHECKS] == NUMBERS[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_number_to_999_is_words_and_distinct(language: str) -> None:
    words = [phrases(language).number(n) for n in range(1000)]
    assert not [w for w in words if re.search(r"\d", w) or not w]
    assert len(set(words)) == 1000


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        sentence(Event(EventType.IN_SYNC, 0, {}), PORTES_WHITE, "de")


# -- the events ------------------------------------------------------------------------


def test_the_opening_roll_and_who_starts() -> None:
    assert said("opening_roll", white=6, black=4, starter="white") == {
        "en": "White six, Black four: White starts.",
        "el": "Ο Λευκός φέρνει έξι, ο Μαύρος τέσσερα, ξεκινάει ο Λευκός.",
        "tr": "Beyaz altı, Siyah dört attı, Beyaz başlıyor.",
    }


def test_an_opening_tie_is_said_as_a_tie() -> None:
    assert said("opening_roll", white=1, black=1, starter=None) == {
        "en": "White one, Black one: a tie, roll again.",
        "el": "Ο Λευκός φέρνει άσσο, ο Μαύρος άσσο, ίσα ζάρια, ξαναρίξτε.",
        "tr": "Beyaz bir, Siyah bir attı, berabere, yeniden atın.",
    }


def test_a_roll_high_die_first() -> None:
    assert said("rolled", player="black", dice=[4, 6]) == {
        "en": "Black rolls six four.",
        "el": "Ο Μαύρος φέρνει έξι τέσσερα.",
        "tr": "Siyah altı dört attı.",
    }


def test_a_roll_of_one_says_asso_in_greek() -> None:
    assert said("rolled", player="white", dice=[2, 1])["el"] == "Ο Λευκός φέρνει δύο άσσο."


def test_a_double_roll_is_said_as_doubles() -> None:
    assert said("rolled", player="white", dice=[5, 5]) == {
        "en": "White rolls double fives.",
        "el": "Ο Λευκός φέρνει πεντάρες.",
        "tr": "Beyaz çift beş attı.",
    }


def test_a_play_with_a_hit() -> None:
    assert said("played", player="white", dice=[6, 1], play="13/7* 8/7") == {
        "en": "White plays thirteen to seven, hits, eight to seven.",
        "el": "Ο Λευκός παίζει δεκατρία στο εφτά και χτυπάει, οχτώ στο εφτά.",
        "tr": "Beyaz oynadı: on üçten yediye, kırarak, sekizden yediye.",
    }


def test_a_hit_on_the_way_and_a_repeated_move() -> None:
    assert said("played", player="black", dice=[4, 4], play="24/20*/16 13/9(2)") == {
        "en": "Black plays twenty-four to twenty, hits, twenty to sixteen, "
              "thirteen to nine, twice.",
        "el": "Ο Μαύρος παίζει είκοσι τέσσερα στο είκοσι και χτυπάει, είκοσι στο δεκαέξι, "
              "δεκατρία στο εννιά, δύο φορές.",
        "tr": "Siyah oynadı: yirmi dörtten yirmiye, kırarak, yirmiden on altıya, "
              "on üçten dokuza, iki kez.",
    }


def test_a_bear_off() -> None:
    assert said("played", player="white", dice=[6, 5], play="6/off(2)") == {
        "en": "White plays six off, twice.",
        "el": "Ο Λευκός παίζει από το έξι έξω, δύο φορές.",
        "tr": "Beyaz oynadı: altıdan dışarı, iki kez.",
    }


def test_a_bar_entry() -> None:
    assert said("played", player="white", dice=[4, 3], play="bar/22 13/9") == {
        "en": "White plays bar to twenty-two, thirteen to nine.",
        "el": "Ο Λευκός παίζει από τη μέση στο είκοσι δύο, δεκατρία στο εννιά.",
        "tr": "Beyaz oynadı: ortadan yirmi ikiye, on üçten dokuza.",
    }


def test_a_plakoto_star_is_a_pin() -> None:
    scene = Scene("plakoto", Color.BLACK)
    assert said("played", scene, player="black", dice=[6, 2], play="24/22* 14/8") == {
        "en": "Black plays twenty-four to twenty-two, pins, fourteen to eight.",
        "el": "Ο Μαύρος παίζει είκοσι τέσσερα στο είκοσι δύο και πλακώνει, δεκατέσσερα στο οχτώ.",
        "tr": "Siyah oynadı: yirmi dörtten yirmi ikiye, tapa yaparak, on dörtten sekize.",
    }


def test_blacks_lifted_checker_in_portes_in_blacks_numbering() -> None:
    lifted = said("lifted", PORTES_BLACK, player="black", **{"from": "12"},
                  destinations=["16", "18", "22"])
    assert lifted == {
        "en": "From thirteen: nine, seven, three.",
        "el": "Από το δεκατρία: εννιά, εφτά, τρία.",
        "tr": "On üçten: dokuz, yedi, üç.",
    }


def test_blacks_lifted_checker_in_fevga_in_blacks_numbering() -> None:
    scene = Scene("fevga", Color.BLACK)
    lifted = said("lifted", scene, player="black", **{"from": "12"}, destinations=["6", "8"])
    assert lifted == {
        "en": "From twenty-four: twenty, eighteen.",
        "el": "Από το είκοσι τέσσερα: είκοσι, δεκαοχτώ.",
        "tr": "Yirmi dörtten: yirmi, on sekiz.",
    }


def test_a_lifted_checker_bearing_off() -> None:
    lifted = said("lifted", player="white", **{"from": "5"}, destinations=["3", "off"])
    assert lifted == {"en": "From five: three, off.", "el": "Από το πέντε: τρία, έξω.",
                      "tr": "Beşten: üç, dışarı."}


def test_no_move_from_a_point() -> None:
    assert said("lifted", player="white", **{"from": "8"}, destinations=[]) == {
        "en": "No move from eight.",
        "el": "Από το οχτώ δεν παίζει.",
        "tr": "Sekizden hamle yok.",
    }


def test_a_lift_of_nobody_says_nothing() -> None:
    assert set(said("lifted", player=None, **{"from": "8"}, destinations=[]).values()) == {None}


def test_the_fixes_in_the_numbering_of_the_player_on_roll() -> None:
    fix = [{"at": "12", "color": "black", "add": 1}, {"at": "20", "color": "white", "remove": 2}]
    assert said("out_of_sync", PORTES_BLACK, fix=fix) == {
        "en": "Put one black checker on thirteen. Take two white checkers off five.",
        "el": "Βάλε ένα μαύρο πούλι στο δεκατρία. Πάρε δύο λευκά πούλια από το πέντε.",
        "tr": "On üçe bir siyah pul koy. Beşten iki beyaz pul al.",
    }


def test_a_fix_before_anyone_is_on_roll_is_in_whites_numbering() -> None:
    fix = [{"at": "bar", "color": "white", "add": 1}, {"at": "12", "color": "black", "add": 3}]
    assert said("out_of_sync", Scene("portes", None), fix=fix) == {
        "en": "Put one white checker on the bar. Put three black checkers on twelve.",
        "el": "Βάλε ένα λευκό πούλι στη μέση. Βάλε τρία μαύρα πούλια στο δώδεκα.",
        "tr": "Ortaya bir beyaz pul koy. On ikiye üç siyah pul koy.",
    }


def test_in_sync_again() -> None:
    assert said("in_sync") == {"en": "The board is right again.",
                               "el": "Το ταμπλό είναι πάλι σωστό.", "tr": "Tahta yine doğru."}


def test_a_double_and_its_answers() -> None:
    assert said("double_offered", player="white", cube=2) == {
        "en": "White doubles to two.",
        "el": "Ο Λευκός διπλασιάζει στα δύο.",
        "tr": "Beyaz ikiye katladı.",
    }
    assert said("double_taken", player="black", cube=2) == {
        "en": "Black takes: the cube is at two.",
        "el": "Ο Μαύρος δέχεται, ο κύβος στα δύο.",
        "tr": "Siyah kabul etti, katlama zarı ikide.",
    }
    assert said("double_dropped", player="black", cube=4) == {
        "en": "Black drops the cube at four.",
        "el": "Ο Μαύρος δεν δέχεται τα τέσσερα.",
        "tr": "Siyah dörde katlamayı kabul etmedi.",
    }


def test_a_beaver() -> None:
    assert said("double_taken", player="black", cube=64, beaver=True) == {
        "en": "Black beavers: the cube is at sixty-four.",
        "el": "Ο Μαύρος δέχεται και ξαναδιπλασιάζει, ο κύβος στα εξήντα τέσσερα.",
        "tr": "Siyah kabul edip yeniden katladı, katlama zarı altmış dörtte.",
    }


def test_a_resignation() -> None:
    assert said("resign_offered", player="white", points=3) == {
        "en": "White offers to resign: three points.",
        "el": "Ο Λευκός προτείνει παραίτηση για τρεις πόντους.",
        "tr": "Beyaz üç puana pes etmeyi teklif etti.",
    }
    assert said("resign_declined", player="black", points=3)["en"] == (
        "Black declines the resignation: play on.")
    assert said("resign_accepted", player="black", points=1)["el"] == (
        "Ο Μαύρος δέχεται την παραίτηση, έναν πόντο.")


def test_game_over_and_match_over() -> None:
    assert said("game_over", winner="white", kind="gammon", cube=2, points=4,
                score=[4, 1]) == {
        "en": "White wins a gammon: four points. Score: White four, Black one.",
        "el": "Ο Λευκός κερδίζει διπλό, τέσσερις πόντους. Σκορ: Λευκός τέσσερα, Μαύρος ένα.",
        "tr": "Beyaz mars etti, dört puan. Skor: Beyaz dört, Siyah bir.",
    }
    assert said("match_over", winner="white", score=[5, 1]) == {
        "en": "White wins the match. Score: White five, Black one.",
        "el": "Ο Λευκός κερδίζει τον αγώνα. Σκορ: Λευκός πέντε, Μαύρος ένα.",
        "tr": "Beyaz maçı kazandı. Skor: Beyaz beş, Siyah bir.",
    }


def test_a_plakoto_mother_and_a_draw() -> None:
    scene = Scene("plakoto", Color.WHITE)
    assert said("game_over", scene, winner="black", kind="mother", cube=1, points=2,
                score=[0, 2])["el"] == (
        "Ο Μαύρος κερδίζει με τη μάνα, δύο πόντους. Σκορ: Λευκός μηδέν, Μαύρος δύο.")
    assert said("game_over", scene, winner=None, kind="draw", cube=1, points=0,
                score=[0, 0])["en"] == (
        "A draw: both mothers are pinned. Score: White zero, Black zero.")


def test_no_legal_move() -> None:
    assert said("no_legal_move", player="black", dice=[6, 6]) == {
        "en": "Black cannot play double sixes.",
        "el": "Ο Μαύρος δεν παίζει με εξάρες.",
        "tr": "Siyah çift altı ile oynayamıyor.",
    }


@pytest.mark.parametrize(("reason", "english"), [
    ("not all dice are used", "Not yet: play all the dice."),
    ("a checker is still in the hand", "Put the checker down first."),
    ("a hit checker must go to the bar first", "Put the hit checker on the bar first."),
    ("two plays read the same: confirm one", "Two plays look the same: confirm the lit one."),
    ("the board does not show a legal play", "That play is not legal."),
    ("it is black's turn", "Not your turn."),
    ("white is moving", "Not your turn."),
    ("white must take or drop the double", "The offer waits for an answer."),
    ("no doubling in the Crawford game", "No double now."),
    ("the cube belongs to white", "No double now."),
    ("no hint: the engine did not answer", "No hint now."),
    ("ROLL does nothing now (game_over)", "Not now."),
    ("the server refused the play: It is not your turn.", "That play is not legal."),
    ("put the checkers back where they stood before the play refused", "Not now."),
])
def test_a_refused_press_is_said_in_general(reason: str, english: str) -> None:
    assert said("rejected", player="white", reason=reason)["en"] == english


def test_the_friends_board_play_is_said_as_the_friends() -> None:
    assert said("remote_play", PORTES_BLACK, player="black", dice=[6, 4],
                play="24/18 13/9*") == {
        "en": "Your friend plays twenty-four to eighteen, thirteen to nine, hits.",
        "el": "Ο φίλος σας παίζει είκοσι τέσσερα στο δεκαοχτώ, δεκατρία στο εννιά και χτυπάει.",
        "tr": "Arkadaşınızın hamlesi: yirmi dörtten on sekize, on üçten dokuza, kırarak.",
    }


def test_the_computers_play_and_its_steps() -> None:
    assert said("engine_play", PORTES_BLACK, player="black", dice=[6, 4],
                play="24/18 13/9*") == {
        "en": "The computer plays twenty-four to eighteen, thirteen to nine, hits.",
        "el": "Ο υπολογιστής παίζει είκοσι τέσσερα στο δεκαοχτώ, δεκατρία στο εννιά και χτυπάει.",
        "tr": "Bilgisayarın hamlesi: yirmi dörtten on sekize, on üçten dokuza, kırarak.",
    }
    steps = {language: (step_sentence("12", "16", Color.BLACK, PORTES_BLACK, language),
                        step_sentence("16", "bar", Color.WHITE, PORTES_BLACK, language))
             for language in LANGUAGES}
    assert steps == {
        "en": ("Black: thirteen to nine.", "The hit checker from nine to the bar."),
        "el": ("Μαύρος: δεκατρία στο εννιά.", "Το χτυπημένο πούλι από το εννιά στη μέση."),
        "tr": ("Siyah: on üçten dokuza.", "Kırılan pul dokuzdan ortaya."),
    }


def test_a_takeback() -> None:
    assert said("takeback", player="white", dice=[3, 1], position_id="", match_id="") == {
        "en": "White takes the play back.",
        "el": "Ο Λευκός παίρνει πίσω την κίνηση.",
        "tr": "Beyaz hamlesini geri aldı.",
    }


@pytest.mark.parametrize("event_type", ["hint", "review", "spoken", "new_match", "later_type"])
def test_types_it_says_nothing_for(event_type: str) -> None:
    assert set(said(event_type).values()) == {None}


# -- the position read-out -------------------------------------------------------------

PORTES = variant("portes").from_board(
    {"white": {"24": 1, "13": 4, "8": 3, "6": 4, "bar": 1, "off": 2},
     "black": {"1": 2, "12": 5, "17": 3, "19": 4, "off": 1}}, Color.BLACK)
PLAKOTO = variant("plakoto").from_board(
    {"white": {"24": 10, "16": 2, "11": 2, "3": 1}, "black": {"1": 12, "3": 1, "20": 2},
     "pinned": {"3": "white"}}, Color.WHITE)


def read_out(position: VariantPosition, dice: tuple[int, ...], on_roll: Color | None,
             score: tuple[int, int], length: int) -> dict[str, str]:
    return {language: position_sentence(position, dice, on_roll, score, length, language)
            for language in LANGUAGES}


def test_the_read_out_of_a_portes_position() -> None:
    assert read_out(PORTES, (6, 4), Color.BLACK, (2, 1), 5) == {
        "en": "White: one on twenty-four, four on thirteen, three on eight, four on six, "
              "one on the bar, two borne off, pip count one hundred forty-nine. "
              "Black: two on twenty-four, five on thirteen, three on eight, four on six, "
              "one borne off, pip count one hundred sixty-one. "
              "Score: White two, Black one, match to five. Black to play six four.",
        "el": "Λευκός: ένα στο είκοσι τέσσερα, τέσσερα στο δεκατρία, τρία στο οχτώ, "
              "τέσσερα στο έξι, ένα στη μέση, δύο μαζεμένα, μέτρημα εκατόν σαράντα εννιά. "
              "Μαύρος: δύο στο είκοσι τέσσερα, πέντε στο δεκατρία, τρία στο οχτώ, "
              "τέσσερα στο έξι, ένα μαζεμένο, μέτρημα εκατόν εξήντα ένα. "
              "Σκορ: Λευκός δύο, Μαύρος ένα, ως το πέντε. Παίζει ο Μαύρος με έξι τέσσερα.",
        "tr": "Beyaz: yirmi dörtte bir, on üçte dört, sekizde üç, altıda dört, ortada bir, "
              "toplanan iki, pip sayısı yüz kırk dokuz. "
              "Siyah: yirmi dörtte iki, on üçte beş, sekizde üç, altıda dört, toplanan bir, "
              "pip sayısı yüz altmış bir. "
              "Skor: Beyaz iki, Siyah bir, beş puanlık maç. Sıra Siyah'ta: altı dört.",
    }


def test_the_read_out_of_a_plakoto_position_with_a_pin() -> None:
    assert read_out(PLAKOTO, (), Color.WHITE, (0, 0), 0) == {
        "en": "White: ten on twenty-four, two on sixteen, two on eleven, one on three, "
              "pip count two hundred ninety-seven, pinned on three. "
              "Black: twelve on twenty-four, one on twenty-two, two on five, "
              "pip count three hundred twenty. White to roll.",
        "el": "Λευκός: δέκα στο είκοσι τέσσερα, δύο στο δεκαέξι, δύο στο έντεκα, ένα στο τρία, "
              "μέτρημα διακόσια ενενήντα εφτά, πλακωμένο στο τρία. "
              "Μαύρος: δώδεκα στο είκοσι τέσσερα, ένα στο είκοσι δύο, δύο στο πέντε, "
              "μέτρημα τριακόσια είκοσι. Σειρά του Λευκού να ρίξει.",
        "tr": "Beyaz: yirmi dörtte on, on altıda iki, on birde iki, üçte bir, "
              "pip sayısı iki yüz doksan yedi, üçte tapalı. "
              "Siyah: yirmi dörtte on iki, yirmi ikide bir, beşte iki, "
              "pip sayısı üç yüz yirmi. Sıra Beyaz'da, zar atacak.",
    }


def test_the_read_out_says_the_dice_high_first() -> None:
    assert read_out(PORTES, (4, 6), Color.BLACK, (2, 1), 5) == read_out(
        PORTES, (6, 4), Color.BLACK, (2, 1), 5)


def test_the_read_out_before_the_opening_roll() -> None:
    start = variant("portes").initial()
    assert position_sentence(start, (), None, (0, 0), 0, "en").endswith(
        "pip count one hundred sixty-seven. Roll to see who starts.")


# -- every sentence of real games ------------------------------------------------------

GAMES = ("examples/hit_and_reentry.jsonl", "examples/illegal_corrected.jsonl",
         "examples/double_take.jsonl", "examples/plakoto_pin_and_mother.jsonl",
         "examples/fevga_first_checker_and_block.jsonl")


class SceneOfGame:
    """The scene a game's events happen in, folded from the events themselves."""

    def __init__(self) -> None:
        self.scene = Scene("portes", None)

    def see(self, event: Event) -> None:
        variant_name, on_roll = self.scene.variant, self.scene.on_roll
        if event.type == "game_started":
            variant_name, on_roll = event.fields.get("variant", "portes"), None
        elif event.type == "opening_roll" and event.fields.get("starter"):
            on_roll = Color(event["starter"])
        elif event.type in ("rolled", "takeback"):
            on_roll = Color(event["player"])
        elif event.type in ("played", "no_legal_move"):
            on_roll = Color(event["player"]).opponent
        self.scene = Scene(variant_name, on_roll)


def events_of(path: str) -> list[Event]:
    with ScenarioRunner(PINMAP, GameSettings(), seed=0) as runner:
        return list(runner.run(list(read_scenario(ROOT / path))))


@pytest.fixture(scope="module")
def games() -> dict[str, list[Event]]:
    return {path: events_of(path) for path in GAMES}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_of_real_games_is_words(language: str,
                                               games: dict[str, list[Event]]) -> None:
    spoken: set[str] = set()
    for events in games.values():
        fold = SceneOfGame()
        for event in events:
            fold.see(event)
            text = sentence(event, fold.scene, language)
            if text is not None:
                spoken.add(str(event.type))
                assert text.strip() and len(text) <= 2000, (event, text)
                assert not re.search(r"\d", text), (event, text)
    assert {"opening_roll", "rolled", "played", "lifted", "out_of_sync", "in_sync",
            "double_offered", "double_taken", "game_over"} <= spoken
