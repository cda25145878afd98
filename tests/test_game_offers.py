"""The offers rule on the cube and resignations without changing the game they read;
the fold says what the game is once their event is written."""

from __future__ import annotations

from dataclasses import dataclass, field

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.fold import push
from tavla_pi.game.offers import Offers
from tavla_pi.game.resign import ResignDesk
from tavla_pi.game.rulings import Refused, Ruled, Ruling, Shown
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.state import State
from tavla_pi.game.view import Phase
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import GameState, MatchState, Resignation
from tavla_pi.rules.portes import PortesPosition
from tavla_pi.rules.tavli import VariantPosition
from tavla_pi.rules.tavlimatch import TavliMatch
from tavla_pi.rules.variants import variant

W, B = Color.WHITE, Color.BLACK
ROLLING = MatchState(on_roll=W, to_act=W, match_length=7, game_state=GameState.PLAYING)


@dataclass
class Game:
    """A game at the table of the offers: White on roll before rolling, 7 points."""

    phase: Phase = Phase.AWAIT_ROLL
    match: MatchState = ROLLING
    settings: GameSettings = field(default_factory=GameSettings)
    resign: ResignDesk = field(default_factory=ResignDesk)
    tavli: TavliMatch = field(default_factory=lambda: TavliMatch.new("portes", 7))
    committed: VariantPosition = field(default_factory=PortesPosition.initial)


def written(game: Game, ruling: Ruling) -> State:
    """The game once the ruling's event is written (the fold's state after it)."""
    assert isinstance(ruling, Ruled)
    state = State(game.match, game.committed, game.phase, game.tavli)
    return push(state, Event(ruling.kind, 0, ruling.fields), game.settings)


def test_a_double_is_ruled_with_its_event_and_the_phase_and_the_game_is_left_alone() -> None:
    game = Game()
    ruling = Offers(game).double(W)
    assert isinstance(ruling, Ruled) and written(game, ruling).phase is Phase.DOUBLE_OFFERED
    assert (ruling.kind, ruling.fields) == (EventType.DOUBLE_OFFERED, {"player": "white",
                                                                       "cube": 2})
    assert written(game, ruling).match.double_offered and not game.match.double_offered


def test_a_dropped_double_ends_the_game_and_a_wrong_answerer_is_refused() -> None:
    game = Game()
    offers = Offers(game)
    offered = offers.double(W)
    assert isinstance(offered, Ruled)
    game.match, game.phase = written(game, offered).match, Phase.DOUBLE_OFFERED
    assert offers.answer_double(W, "roll", long=False) == Refused(
        "black must take or drop the double")
    dropped = offers.answer_double(B, "cube", long=False)
    assert isinstance(dropped, Ruled) and dropped.kind is EventType.DOUBLE_DROPPED
    ended = written(game, dropped)
    assert ended.due is EventType.GAME_OVER
    assert ended.result is not None and ended.result.winner is W


def test_no_cube_in_plakoto_and_choosing_a_resignation_only_shows_it() -> None:
    game = Game(tavli=TavliMatch.new("plakoto", 7), committed=variant("plakoto").initial())
    assert Offers(game).double(W) == Refused("no cube in plakoto")
    offers = Offers(Game())
    assert offers.resign_gesture(W, "roll", long=False) is None  # a roll, not a gesture
    assert offers.resign_gesture(W, "cube", long=True) == Shown()
    offered = offers.resign_gesture(W, "roll", long=False)
    assert isinstance(offered, Ruled)
    assert written(Game(), offered).phase is Phase.RESIGN_OFFERED
    assert written(Game(), offered).match.resignation is Resignation.SINGLE
