"""ButtonDecoder: debouncing, short and long presses, on a virtual clock."""

from __future__ import annotations

import pytest

from tavla_pi.clock import VirtualClock
from tavla_pi.hal.buttons import ButtonDecoder, ButtonEvent
from tavla_pi.hardware.pinmap import BUTTON_NAMES

SAMPLE_MS = 5


class Bench:
    """A decoder sampled every few ms while a test holds buttons down."""

    def __init__(self, decoder: ButtonDecoder | None = None) -> None:
        self.clock = VirtualClock(1000)
        self.decoder = decoder or ButtonDecoder()
        self.levels = dict.fromkeys(BUTTON_NAMES, False)
        self.events: list[ButtonEvent] = []
        self.sample()

    def sample(self) -> None:
        self.events += self.decoder.update(self.levels, self.clock.now_ms())

    def hold(self, name: str, *, level: bool, ms: int) -> None:
        """Keep ``name`` at ``level`` for ``ms``, sampling as the scan loop would."""
        self.levels[name] = level
        for _ in range(ms // SAMPLE_MS):
            self.sample()
            self.clock.advance(SAMPLE_MS)

    def press(self, name: str, ms: int) -> None:
        self.hold(name, level=True, ms=ms)
        self.hold(name, level=False, ms=100)


def test_short_press_is_reported_on_release() -> None:
    bench = Bench()
    bench.hold("white.roll", level=True, ms=200)
    assert bench.events == []
    assert bench.decoder.pressed("white.roll")
    bench.hold("white.roll", level=False, ms=100)
    assert [(e.name, e.long) for e in bench.events] == [("white.roll", False)]
    released_at = 1000 + 200
    assert released_at + 30 <= bench.events[0].t_ms <= released_at + 30 + SAMPLE_MS


def test_long_press_is_reported_once_while_held_and_release_is_silent() -> None:
    bench = Bench()
    bench.hold("menu", level=True, ms=1400)
    assert bench.events == []
    bench.hold("menu", level=True, ms=3000)
    assert [(e.name, e.long) for e in bench.events] == [("menu", True)]
    assert bench.events[0].t_ms == 1000 + 1500
    bench.hold("menu", level=False, ms=100)
    assert len(bench.events) == 1


def test_press_just_under_the_long_threshold_is_short() -> None:
    bench = Bench()
    bench.press("black.cube", 1490)
    assert [(e.name, e.long) for e in bench.events] == [("black.cube", False)]


def test_bounces_shorter_than_the_debounce_time_report_nothing() -> None:
    bench = Bench()
    for _ in range(20):
        bench.hold("white.cube", level=True, ms=10)
        bench.hold("white.cube", level=False, ms=10)
    bench.hold("white.cube", level=False, ms=200)
    assert bench.events == []
    assert not bench.decoder.pressed("white.cube")


def test_contact_bounce_around_a_real_press_gives_one_press() -> None:
    bench = Bench()
    for _ in range(3):  # closing bounce
        bench.hold("black.roll", level=True, ms=5)
        bench.hold("black.roll", level=False, ms=5)
    bench.hold("black.roll", level=True, ms=300)
    for _ in range(3):  # opening bounce
        bench.hold("black.roll", level=False, ms=5)
        bench.hold("black.roll", level=True, ms=5)
    bench.hold("black.roll", level=False, ms=200)
    assert [(e.name, e.long) for e in bench.events] == [("black.roll", False)]


def test_a_dropout_during_a_hold_does_not_split_the_press() -> None:
    bench = Bench()
    bench.hold("menu", level=True, ms=800)
    bench.hold("menu", level=False, ms=15)
    bench.hold("menu", level=True, ms=900)
    assert [(e.name, e.long) for e in bench.events] == [("menu", True)]
    assert bench.events[0].t_ms == 1000 + 1500


def test_buttons_are_independent() -> None:
    bench = Bench()
    bench.levels["white.roll"] = True
    bench.hold("black.roll", level=True, ms=100)
    bench.levels["white.roll"] = False
    bench.hold("black.roll", level=True, ms=2000)
    bench.hold("black.roll", level=False, ms=100)
    assert sorted((e.name, e.long) for e in bench.events) == [
        ("black.roll", True), ("white.roll", False)]


def test_debounce_and_long_thresholds_are_configurable() -> None:
    bench = Bench(ButtonDecoder(debounce_ms=0, long_ms=100))
    bench.press("menu", 5)
    bench.press("white.roll", 150)
    assert [(e.name, e.long) for e in bench.events] == [("menu", False), ("white.roll", True)]
    # menu released 5 ms after its press; white.roll pressed 100 ms later, long 100 ms on
    assert bench.events[1].t_ms - bench.events[0].t_ms == 200


def test_missing_buttons_read_as_released() -> None:
    decoder = ButtonDecoder(debounce_ms=10)
    decoder.update({"menu": True}, 0)
    decoder.update({"menu": True}, 10)
    assert decoder.update({}, 20) == []
    assert decoder.update({}, 30) == [ButtonEvent("menu", long=False, t_ms=30)]


def test_time_must_not_go_backwards() -> None:
    decoder = ButtonDecoder()
    decoder.update({}, 100)
    with pytest.raises(ValueError, match="older"):
        decoder.update({}, 99)


def test_bad_thresholds_are_refused() -> None:
    with pytest.raises(ValueError):
        ButtonDecoder(debounce_ms=-1)
    with pytest.raises(ValueError):
        ButtonDecoder(debounce_ms=50, long_ms=50)
    assert "long_ms=1500" in repr(ButtonDecoder())


def test_a_release_pending_at_the_threshold_defers_the_long_press() -> None:
    bench = Bench()
    bench.hold("white.roll", level=True, ms=1495)
    bench.hold("white.roll", level=False, ms=15)  # a dropout across the threshold...
    assert bench.events == []
    bench.hold("white.roll", level=True, ms=100)  # ...that was only a bounce
    assert [(e.name, e.long, e.t_ms) for e in bench.events] == [
        ("white.roll", True, 1000 + 1510)]


def test_a_release_at_the_threshold_is_a_long_press_reported_on_release() -> None:
    decoder = ButtonDecoder(debounce_ms=30, long_ms=1500)
    decoder.update({"menu": True}, 0)
    decoder.update({"menu": True}, 30)
    assert decoder.update({"menu": False}, 1500) == []
    assert decoder.update({"menu": False}, 1530) == [ButtonEvent("menu", long=True, t_ms=1530)]


class EdgeBench(Bench):
    """A bench whose decoder reports the presses of ``edge`` buttons on their edge."""

    def __init__(self, edge: set[str]) -> None:
        self.edge = edge
        super().__init__()

    def sample(self) -> None:
        self.events += self.decoder.update(self.levels, self.clock.now_ms(),
                                           on_edge=lambda name: name in self.edge)


def test_a_press_acted_on_at_its_edge_reports_once_before_the_release() -> None:
    bench = EdgeBench({"white.roll"})
    bench.hold("white.roll", level=True, ms=100)
    assert [(e.name, e.long) for e in bench.events] == [("white.roll", False)]
    assert 1000 + 30 <= bench.events[0].t_ms <= 1000 + 30 + SAMPLE_MS  # debounced edge
    bench.hold("white.roll", level=True, ms=3000)  # held past the long threshold: nothing more
    bench.hold("white.roll", level=False, ms=100)  # nor on release
    assert len(bench.events) == 1
    assert bench.decoder.quiet


def test_other_buttons_still_wait_for_the_release_or_the_long_threshold() -> None:
    bench = EdgeBench({"white.roll"})
    bench.press("white.cube", 100)
    bench.hold("menu", level=True, ms=1600)
    assert [(e.name, e.long) for e in bench.events] == [("white.cube", False), ("menu", True)]


def test_a_bounce_is_no_edge() -> None:
    bench = EdgeBench({"white.roll"})
    bench.hold("white.roll", level=True, ms=20)  # shorter than the debounce time
    bench.hold("white.roll", level=False, ms=100)
    assert bench.events == []
