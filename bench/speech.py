"""How soon the board speaks: from an event to the first sound, and eSpeak NG's CPU.

The sentences are the board's own: the speech scenarios of tests/scenarios/speech/
replayed in Greek, Turkish and English.  For each sentence the bench times

- the speaker's share in the scan loop (``Speaker.hear`` for the event that says it,
  with a silent voice): the cost a scan pays;
- from that event to the first audio reaching the sound device: the speaker hands
  the sentence to an :class:`~tavla_pi.speech.voice.EspeakVoice` whose player stands in
  for ``aplay`` and notes when the first 1 KiB of audio (the WAV header and the first
  ~20 ms of sound) arrives;
- eSpeak NG's CPU time to render the sentence whole (``espeak-ng --stdout``), and the
  sentence's length in seconds of audio.

    python bench/speech.py [--rounds N] [--json]

Needs espeak-ng (apt install espeak-ng).  Aim: under 300 ms to the first sound.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tavla_pi.events.event import Event
from tavla_pi.events.types import EventType
from tavla_pi.game.settings import GameSettings
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay.actions import read_scenario
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.speech.settings import LANGUAGES, SpeechSettings
from tavla_pi.speech.speaker import Speaker
from tavla_pi.speech.voice import EspeakVoice, TimedVoice, espeak_args

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios" / "speech"
FIRST_SOUND_BYTES = 1024
AIM_MS = 300
WAV_BYTES_PER_S = 22050 * 2
"""eSpeak NG's output: 22,050 samples a second, 16-bit mono."""


def said(language: str) -> list[tuple[Event, str, ScenarioRunner]]:
    """Each event of the language's speech scenario that is said, with its sentence."""
    runner = ScenarioRunner(load_pinmap(), GameSettings())
    out = []
    heard: list[Event] = []
    for event in runner.run(read_scenario(SCENARIOS / f"speech_{language}.jsonl")):
        if event.type is EventType.SPOKEN:
            match = next((e for e in reversed(heard) if str(e.type) == event["about"]), None)
            if match is not None:
                out.append((match, str(event["text"]), runner))
        else:
            heard.append(event)
    return [(e, text, r) for e, text, r in out if _says(e, r, language)]


def _says(event: Event, runner: ScenarioRunner, language: str) -> bool:
    """True when the speaker says ``event`` as the game ended (a lift put down is not)."""
    return bool(Speaker(TimedVoice(160), language).hear([event], runner.referee, 0))


def scan_cost_us(event: Event, runner: ScenarioRunner, language: str) -> float:
    """What ``Speaker.hear`` costs a scan for ``event``, in microseconds."""
    speaker = Speaker(TimedVoice(160), language)
    start = time.perf_counter()
    speaker.hear([event], runner.referee, 0)
    return (time.perf_counter() - start) * 1e6


def first_sound_ms(event: Event, runner: ScenarioRunner, language: str, stamps: Path) -> float:
    """From ``event`` reaching the speaker to its first audio at the device, in ms."""
    probe = ["sh", "-c", f"head -c {FIRST_SOUND_BYTES} >/dev/null; date +%s%N >> {stamps};"
             " cat >/dev/null"]
    voice = EspeakVoice(SpeechSettings(enabled=True), player=probe)
    speaker = Speaker(voice, language)
    start = time.time_ns()
    assert speaker.hear([event], runner.referee, 0), "the event is said"
    voice.idle.wait()  # the player noted the first sound before it ended
    arrived = int(_stamps(stamps)[-1])
    voice.close()
    return (arrived - start) / 1e6


def _stamps(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def render_cpu(text: str, language: str) -> tuple[float, float]:
    """eSpeak NG's CPU ms to render ``text`` whole, and the audio's length in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(espeak_args(text, language, SpeechSettings()), capture_output=True,
                          check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return cpu, len(done.stdout) / WAV_BYTES_PER_S


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def measure(rounds: int) -> dict[str, Any]:
    """Every figure, per language."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        stamps = Path(scratch) / "stamps"
        for language in LANGUAGES:
            sentences = said(language)
            costs = [scan_cost_us(e, r, language) for e, _, r in sentences]
            first = [first_sound_ms(e, r, language, stamps)
                     for _ in range(rounds) for e, _, r in sentences]
            cpu = [render_cpu(text, language) for _, text, _ in sentences]
            figures[language] = {
                "sentences": len(sentences), "first sound samples": len(first),
                "first sound median ms": statistics.median(first),
                "first sound p99 ms": p99(first),
                "scan cost median us": statistics.median(costs),
                "scan cost max us": max(costs),
                "espeak cpu ms per sentence": statistics.mean(c for c, _ in cpu),
                "audio s per sentence": statistics.mean(s for _, s in cpu)}
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each sentence is said")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        print("bench/speech.py needs espeak-ng: apt install espeak-ng", file=sys.stderr)
        return 2
    figures = measure(args.rounds)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for language, f in figures.items():
        print(f"{language}: {f['sentences']} sentences, {f['first sound samples']} said: "
              f"event -> first sound median {f['first sound median ms']:.0f} ms, "
              f"p99 {f['first sound p99 ms']:.0f} ms (aim < {AIM_MS}); "
              f"scan cost median {f['scan cost median us']:.0f} us, "
              f"max {f['scan cost max us']:.0f} us; espeak-ng CPU "
              f"{f['espeak cpu ms per sentence']:.0f} ms for "
              f"{f['audio s per sentence']:.1f} s of audio per sentence")
    return 0


if __name__ == "__main__":
    sys.exit(main())
