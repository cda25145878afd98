"""The board that speaks, through the real pipeline: what is said, when, and what is dropped.

Scenarios with ``setup``'s ``"speech"`` (docs/CONTRACTS.md §6) run on the virtual clock
with a silent voice that takes as long as the board's; the voice that plays through
eSpeak NG is tested where espeak-ng is installed, against a sound device that fails and
one that stalls.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from game_support import dice, move, press, replay, scenario
from gnubg_support import fake_gnubg
from programs import needs
from sim_support import PINMAP

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.restore import verify
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import GameView
from tavla_pi.pipeline.step import SCAN_MS
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.replay.timings import Mark
from tavla_pi.speech.settings import LANGUAGES, SpeechSettings
from tavla_pi.speech.speaker import Speaker, Speech
from tavla_pi.speech.voice import EspeakVoice, TimedVoice, open_voice, render_wav, timed_voice

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios" / "speech"
SAID_FOR = {"opening_roll", "rolled", "played", "lifted", "out_of_sync", "double_offered",
            "double_dropped", "game_over"}
"""What the speech scenario must say something for (the issue's list)."""


def run_file(path: Path) -> list[dict[str, Any]]:
    with ScenarioRunner(PINMAP, GameSettings()) as runner:
        return [e.to_dict() for e in runner.run(read_scenario(path))]


def spoken(events: Iterable[dict[str, Any]], about: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "spoken" and about in (None, e["about"])]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_is_said_in_the_language_asked_for(language: str) -> None:
    events = run_file(SCENARIOS / f"speech_{language}.jsonl")
    said = spoken(events)
    assert {e["about"] for e in said} >= SAID_FOR
    assert {e["language"] for e in said} == {language}
    assert len(spoken(events, "played")) == sum(e["type"] == "played" for e in events) == 2
    assert len(spoken(events, "rolled")) == sum(e["type"] == "rolled" for e in events)
    assert all(e["text"] and not re.search(r"\d", e["text"]) for e in said)
    assert verify([Event.from_dict(e) for e in events], GameSettings()).reason == ""


def test_each_language_says_it_in_its_own_words() -> None:
    texts = {language: [e["text"] for e in spoken(run_file(SCENARIOS / f"speech_{language}"
                                                               ".jsonl"))]
             for language in LANGUAGES}
    assert len({tuple(t) for t in texts.values()}) == len(LANGUAGES)
    assert re.search(r"[α-ω]", " ".join(texts["el"]))
    assert re.search(r"[çğışü]", " ".join(texts["tr"]))


def opening(language: str | None = "en") -> list[dict[str, Any]]:
    """Set up (speech on in ``language``; None: as it is) and roll White's opening 6-4."""
    setup = {"setup": "start"} | ({} if language is None else {"speech": {"language": language}})
    return [setup, {"wait": 500}, dice(6, 4), press("white.roll")]


def test_a_lift_put_down_before_its_destinations_are_said_is_not_said() -> None:
    quick = replay(*opening(), {"lift": "13", "color": "white"}, {"wait": 300},
                   {"place": "13", "color": "white"}, {"wait": 10_000})
    assert any(e["type"] == "lifted" for e in quick)
    assert spoken(quick, "lifted") == []
    slow = replay(*opening(), {"wait": 10_000}, {"lift": "13", "color": "white"},
                  {"wait": 300}, {"place": "13", "color": "white"}, {"wait": 10_000})
    assert len(spoken(slow, "lifted")) == 1


def test_a_fix_the_hand_made_before_it_was_said_is_not_said() -> None:
    events = replay(*opening(), {"lift": "13", "color": "white"}, {"wait": 300},
                    {"place": "12", "color": "white"}, {"wait": 300},
                    {"lift": "12", "color": "white"}, {"wait": 300},
                    {"place": "13", "color": "white"}, {"wait": 10_000})
    assert any(e["type"] == "out_of_sync" for e in events)
    assert spoken(events, "out_of_sync") == []


def test_a_short_menu_repeats_and_a_second_reads_the_position() -> None:
    events = replay(*opening(), {"wait": 10_000}, press("menu"), {"wait": 10_000})
    rolls = spoken(events, "opening_roll")
    assert len(rolls) == 2 and rolls[0]["text"] == rolls[1]["text"]
    events = replay(*opening(), {"wait": 10_000}, press("menu"), press("menu"),
                    {"wait": 30_000})
    assert len(spoken(events, "position")) == 1


def test_three_short_menus_switch_speech_off_and_on_again() -> None:
    taps = [press("menu")] * 3
    with ScenarioRunner(PINMAP, GameSettings()) as runner:
        runner.pipeline.speech = Speech(SpeechSettings(), timed_voice, "en")  # the daemon's
        events = [e.to_dict() for e in runner.run(scenario(
            *opening(None), *taps, {"wait": 5000}, {"wait": 10_000}, *taps, {"wait": 5000},
            move("24/18", "white"), move("13/9", "white"), press("white.roll"),
            {"wait": 5000}, *taps, {"wait": 5000}, dice(5, 3), press("black.roll"),
            {"wait": 5000}))]
    switches = [e["text"] for e in spoken(events, "speech")]
    on, off = switches[0], switches[2]
    assert switches == [on, on, off, on] and on != off  # the second: the first tap's repeat
    assert len(spoken(events, "position")) == 1  # the second tap
    assert spoken(events, "played") == []  # said while speech was off: nothing
    assert len(spoken(events, "rolled")) == 1


def test_in_a_scenario_only_setup_switches_speech() -> None:
    events = replay({"setup": "start"}, {"wait": 500}, *[press("menu")] * 3, {"wait": 5000})
    assert spoken(events) == []


def test_without_speech_nothing_is_said() -> None:
    events = replay({"setup": "start"}, {"wait": 500}, dice(6, 4), press("white.roll"))
    assert spoken(events) == []


def test_the_queue_is_bounded_and_counts_what_it_drops() -> None:
    speaker = Speaker(TimedVoice(160), "en", limit=3)
    table = _Table()
    rolls = [Event(EventType.ROLLED, 0, {"player": "white", "dice": [d, 1]}) for d in range(1, 7)]
    first = speaker.hear(rolls, table, 0)
    assert len(first) == 1
    assert len(speaker.pending) == 2 and speaker.dropped == 3


class _Table:
    """A game with nothing going on: the view of a fresh referee."""

    def view(self) -> GameView:
        from tavla_pi.game.view import Phase
        return GameView(Phase.SETUP)

    def game_position(self) -> Any:
        from tavla_pi.rules.variants import variant
        return variant("portes").initial()


# ---- the voices ------------------------------------------------------------------------

class StepTimes:
    """Watches a replay: the real time each scan took (the gap between two scans)."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._last: float | None = None

    def mark(self, mark: Mark, stable: GameView) -> None:
        self._last = None  # the hand's own work is not a scan

    def scan(self, t_ms: int, events: Iterable[Event], stable: GameView,
             shown: GameView) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.gaps.append(now - self._last)
        self._last = now


REPEATS = 3
"""Times the same game is played: each scan's time is its least over the repeats, so that
the machine's other work is not counted, and a scan that waits for the stalled voice,
which would wait every time, is."""


def stalled_game() -> tuple[StepTimes, list[Event], Speaker]:
    """A game played with a voice whose player never reads: each scan's time, the events,
    the speaker."""
    stalled = [sys.executable, "-c", "import time; time.sleep(600)"]  # never reads its input
    voice = EspeakVoice(SpeechSettings(enabled=True), player=stalled)
    lines = scenario(*opening(None), move("24/18", "white"), move("13/9", "white"),
                     press("white.roll"), dice(5, 3), press("black.roll"),
                     move("12/15", "black"), move("24/bar", "white"), move("19/24", "black"),
                     press("black.roll"))
    times = StepTimes()
    try:
        with ScenarioRunner(PINMAP, GameSettings()) as runner:
            runner.pipeline.speech = Speech(SpeechSettings(enabled=True), lambda _: voice, "en")
            speaker = runner.pipeline.speech.speaker
            assert speaker is not None
            runner.watchers.append(times)
            events = list(runner.run(lines))
        assert voice.busy(0)  # still stuck in the first sentence
    finally:
        voice.close()
    return times, events, speaker


@needs("espeak-ng")
@pytest.mark.alone  # times each scan: another test's work on the machine would be counted
def test_a_stalled_sound_device_never_slows_the_scan_loop() -> None:
    runs = [stalled_game() for _ in range(REPEATS)]
    for _, events, speaker in runs:
        assert sum(e.type == "played" for e in events) == 2  # the game went on
        assert len(speaker.pending) <= speaker.limit
    gaps = [times.gaps for times, _, _ in runs]
    assert len({len(g) for g in gaps}) == 1, "the repeats played different games"
    worst = max(min(scan) for scan in zip(*gaps, strict=True))
    assert worst * 1000 < SCAN_MS, f"worst step {worst * 1000:.1f} ms"


@needs("espeak-ng")
def test_a_failing_sound_device_is_one_log_line_and_speech_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    voice = EspeakVoice(SpeechSettings(enabled=True), player=["false"])
    try:
        for n in range(3):
            voice.say(f"sentence {n}", "en", 0)
            assert voice.idle.wait(timeout=20)  # the programs run in real time
    finally:
        voice.close()
    assert voice.failed
    warnings = [r for r in caplog.records if r.name == "tavla_pi.speech"]
    assert len(warnings) == 1 and "without sound" in warnings[0].getMessage()
    voice.say("a longer sentence of eight words in all", "en", 1000)
    assert voice.busy(1000) and not voice.busy(1000 + 8 * 60_000 // 160 + 250)


def test_without_espeak_the_voice_is_silent_and_says_so_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with caplog.at_level(logging.INFO):
        voice = open_voice(SpeechSettings(enabled=True))
    assert isinstance(voice, TimedVoice)
    assert [r.levelno for r in caplog.records if r.name == "tavla_pi.speech"] == \
        [logging.WARNING]


@needs("espeak-ng")
@pytest.mark.parametrize(("language", "text"), [
    ("el", "Ο Λευκός φέρνει έξι τέσσερα"), ("tr", "Beyaz altı dört attı"),
    ("en", "White rolls six four")])
def test_one_sentence_of_each_language_renders_to_a_wav(language: str, text: str) -> None:
    wav = render_wav(text, language, SpeechSettings())
    assert wav[:4] == b"RIFF" and wav[8:12] == b"WAVE"
    assert len(wav) > 10_000  # about a second of 22 kHz audio


def test_the_computers_play_is_said_checker_by_checker(tmp_path: Path) -> None:
    fake_gnubg(tmp_path / "bin", tmp_path / "fake")  # plays the first legal play: 24/13
    game = [{"setup": "start", "opponent": {"color": "black", "level": "expert"},
             "speech": {"language": "en"}},
            {"wait": 400}, dice(3, 1), press("white.roll"), {"wait": 5000},
            move("8/5", "white"), move("6/5", "white"), dice(6, 5), press("white.roll"),
            {"wait": 20_000}, move("1/12", "black"), {"wait": 8000}]
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(a) for a in game) + "\n")
    done = subprocess.run([sys.executable, "-m", "tavla_pi", "replay", str(path)],
                          env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"},
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    about = [e["about"] for e in spoken(events)]
    chose = about.index("engine_play")
    assert about[chose:chose + 2] == ["engine_play", "engine_play"]  # the play, its checker
    assert about[-1] == "played"
