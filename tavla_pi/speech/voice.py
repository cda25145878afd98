"""Voices: what turns a sentence into sound, outside the scan loop.

The speaker (:mod:`tavla_pi.speech.speaker`) runs in the scan loop and only ever asks a
voice two things that cannot block: ``say`` (start this sentence) and ``busy`` (is the
last one still being said).  :class:`TimedVoice` says nothing aloud and is busy for as
long as the sentence would take at the rate set, on the injected clock: the voice of
``tavla-pi replay`` and of a board without a sound device.  :class:`EspeakVoice` hands
the sentence to a worker thread that runs eSpeak NG (``espeak-ng --stdout``) into the
sound device (ALSA's ``aplay``); a device that stalls holds the worker, never the scan
loop, and is given up after :data:`STALL_S`.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Sequence
from typing import Protocol

from tavla_pi.errors import SpeechError
from tavla_pi.speech.settings import SpeechSettings

log = logging.getLogger("tavla_pi.speech")

PAUSE_MS = 250
"""The pause after a sentence before the next one starts."""
STALL_S = 20.0
"""The longest one sentence may take to play before its device counts as stalled."""
WAV_LIMIT = 16 * 1024 * 1024
"""The most audio one rendered sentence may give (a minute of speech is about 2.6 MB)."""
RENDER_S = 10.0
"""The longest eSpeak NG may take to render one sentence to a WAV."""
ESPEAK = "espeak-ng"


class Voice(Protocol):
    """Says one sentence at a time; never blocks its caller."""

    def say(self, text: str, language: str, now: int) -> None:
        """Start saying ``text`` (the previous sentence is over: ``busy`` was False)."""
        ...

    def busy(self, now: int) -> bool:
        """True while the last sentence is still being said."""
        ...

    def stop(self) -> None:
        """Cut the sentence being said short (a repeat or a read-out comes first)."""
        ...

    def close(self) -> None:
        """Stop for good; safe twice."""
        ...


def duration_ms(text: str, rate: int) -> int:
    """How long ``text`` takes to say at ``rate`` words a minute, with the pause after it."""
    words = max(1, len(text.split()))
    return words * 60_000 // rate + PAUSE_MS


class TimedVoice:
    """Silent: busy for as long as each sentence would take (replay; no sound device)."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self._until = 0

    def say(self, text: str, language: str, now: int) -> None:
        """Be busy for the sentence's time from ``now``."""
        self._until = now + duration_ms(text, self.rate)

    def busy(self, now: int) -> bool:
        """True until the sentence's time has passed."""
        return now < self._until

    def stop(self) -> None:
        """The sentence is over."""
        self._until = 0

    def close(self) -> None:
        """Nothing to release."""


def timed_voice(settings: SpeechSettings) -> Voice:
    """The silent voice at ``settings``' rate (``tavla-pi replay``'s, on its virtual clock)."""
    return TimedVoice(settings.rate)


def espeak_args(text: str, language: str, settings: SpeechSettings) -> list[str]:
    """The eSpeak NG command that renders ``text`` as a WAV on standard output."""
    return [ESPEAK, "-v", language, "-s", str(settings.rate), "-a", str(settings.volume),
            "--stdout", "--", text]


def player_args(settings: SpeechSettings) -> list[str]:
    """The command that plays a WAV from standard input on the configured device."""
    device = [] if settings.device is None else ["-D", settings.device]
    return ["aplay", "-q", *device, "-"]


def render_wav(text: str, language: str, settings: SpeechSettings) -> bytes:
    """``text`` said by eSpeak NG as WAV bytes (the page's audio); SpeechError if it cannot."""
    if shutil.which(ESPEAK) is None:
        raise SpeechError("speech needs eSpeak NG: apt install espeak-ng")
    try:
        done = subprocess.run(espeak_args(text, language, settings), capture_output=True,
                              timeout=RENDER_S, check=False)
    except subprocess.TimeoutExpired:
        raise SpeechError(f"espeak-ng gave no audio within {RENDER_S:g} s") from None
    if done.returncode != 0 or not done.stdout:
        reason = done.stderr.decode(errors="replace").strip()[:200] or "no audio"
        raise SpeechError(f"espeak-ng failed (exit {done.returncode}): {reason}")
    if len(done.stdout) > WAV_LIMIT:
        raise SpeechError(f"espeak-ng gave more than {WAV_LIMIT} bytes of audio")
    return done.stdout


class EspeakVoice:
    """eSpeak NG into the sound device, in a worker thread of its own.

    ``player`` is the command that plays a WAV from standard input (default: aplay on
    the configured device).  When a sentence cannot be
    played (no device, a failing program, a device stalled past :data:`STALL_S`) the
    voice logs one line, once, and goes on paced by a :class:`TimedVoice`, so that
    what is said and when stays the same.
    """

    def __init__(self, settings: SpeechSettings, *, player: Sequence[str] | None = None,
                 stall_s: float = STALL_S) -> None:
        self.settings = settings
        self.player = list(player) if player is not None else player_args(settings)
        self.stall_s = stall_s
        self.failed = False
        self._paced = TimedVoice(settings.rate)
        self._jobs: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self.idle = threading.Event()
        """Set while the worker has no sentence (a caller outside the scan loop may wait)."""
        self.idle.set()
        self._procs: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()
        self._worker = threading.Thread(target=self._run, name="tavla-speech", daemon=True)
        self._closed = False
        self._worker.start()

    def say(self, text: str, language: str, now: int) -> None:
        """Queue ``text`` for the worker and return at once."""
        self._paced.say(text, language, now)
        self.idle.clear()
        self._jobs.put((text, language))

    def busy(self, now: int) -> bool:
        """True while the worker plays; once playing failed, for the sentence's time."""
        if self.failed:
            return self._paced.busy(now)
        return not self.idle.is_set()

    def stop(self) -> None:
        """Kill the programs saying the current sentence."""
        self._paced.stop()
        with self._lock:
            for proc in self._procs:
                proc.kill()

    def close(self) -> None:
        """Stop, let the worker end; safe twice."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self.stop()
        self._worker.join(timeout=2)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                self._play(*job)
            except (OSError, SpeechError) as exc:
                self._fail(str(exc))
            finally:
                self.idle.set()

    def _play(self, text: str, language: str) -> None:
        speak = espeak_args(text, language, self.settings)
        names = [ESPEAK, self.player[0]]
        first = subprocess.Popen(speak, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        procs = [first, subprocess.Popen(self.player, stdin=first.stdout,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        assert first.stdout is not None
        first.stdout.close()  # the player holds the pipe now
        with self._lock:
            self._procs = procs
        try:
            codes = [proc.wait(timeout=self.stall_s) for proc in reversed(procs)]
        except subprocess.TimeoutExpired:
            self.stop()
            raise SpeechError(f"the sound device took more than {self.stall_s:g} s "
                              "for one sentence: it looks stalled") from None
        finally:
            with self._lock:
                self._procs = []
        if any(code > 0 for code in codes):  # a kill (stop) is negative: not a failure
            raise SpeechError(f"{' | '.join(names)} failed (exit {max(codes)}): "
                              "no sound device?")

    def _fail(self, reason: str) -> None:
        if not self.failed:
            log.warning("speech: %s; the board goes on without sound", reason)
        self.failed = True


def open_voice(settings: SpeechSettings) -> Voice:
    """The daemon's voice: eSpeak NG into aplay where both are installed, else a silent
    one (one log line)."""
    for program, package in ((ESPEAK, "espeak-ng"), ("aplay", "alsa-utils")):
        if shutil.which(program) is None:
            log.warning("speech: %s is not installed (apt install %s); the board goes on "
                        "without sound", program, package)
            return TimedVoice(settings.rate)
    return EspeakVoice(settings)
