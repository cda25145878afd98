"""Speech on the running daemon: the config's [speech], the page's settings and questions.

A virtual daemon (tavla_pi/testing/daemon.py) with a silent voice on its virtual clock: the
``spoken`` events are the board's, journaled and published as every other event.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tavla_pi.config import load_config
from tavla_pi.errors import BadInputError, ConfigError
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.testing.daemon import VirtualDaemon, body


def test_the_speech_table_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[speech]\nenabled = true\nlanguage = "tr"\nrate = 200\nvolume = 150\n'
                    'device = "plughw:1,0"\n', encoding="utf-8")
    assert load_config(path).speech == SpeechSettings(enabled=True, language="tr", rate=200,
                                                 volume=150, device="plughw:1,0")


@pytest.mark.parametrize(("text", "message"), [
    ('language = "de"', '[speech] language: expected one of "el", "tr", "en", got \'de\''),
    ("rate = 10", "[speech] rate: expected a whole number 80..450, got 10"),
    ("volume = 201", "[speech] volume: expected a whole number 0..200, got 201"),
    ('device = ""', "[speech] device: expected an ALSA device name"),
    ("enabled = 1", "[speech] enabled: expected true or false, got 1"),
])
def test_a_wrong_speech_key_names_itself(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[speech]\n{text}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value)


def test_speech_off_by_default_says_nothing(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)
    assert daemon.pipeline.speech.speaker is None
    with pytest.raises(BadInputError, match="speech is off"):
        daemon.speech.ask("repeat")


def test_the_page_turns_speech_on_and_the_board_speaks(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)

    async def scenario() -> list[dict[str, Any]]:
        answer = await daemon.request("POST", "/api/settings",
                                      {"speech": {"enabled": True, "page_language": "el"}})
        assert answer.status == 200, answer.body
        assert body(answer)["speech"]["language"] == "el"
        await daemon.request("POST", "/api/sim", {"dice": [6, 4]})
        await daemon.request("POST", "/api/sim", {"setup": "start"})
        await daemon.request("POST", "/api/sim", {"press": "white.roll"})
        await daemon.sleep(5000)
        return [e.to_dict() for e in daemon.memory.events]

    events = asyncio.run(scenario())
    said = [e for e in events if e["type"] == "spoken"]
    assert daemon.pipeline.speech.speaker is not None
    assert [e["about"] for e in said] == ["opening_roll"]
    assert said[0]["language"] == "el"


def test_a_wrong_speech_setting_changes_nothing(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)

    async def scenario() -> None:
        for wrong in ({"enabled": "yes"}, {"language": "fr"}, {"page_language": "fr"},
                      {"device": "hw:0"}, {"loud": True}, [True]):
            answer = await daemon.request("POST", "/api/settings",
                                          {"speech": wrong, "level": "beginner"})
            assert answer.status == 400, (wrong, answer.body)
        answer = await daemon.request("GET", "/api/settings")
        assert body(answer)["level"] == "expert"
        assert body(answer)["speech"]["enabled"] is False

    asyncio.run(scenario())
    assert daemon.pipeline.speech.speaker is None


def test_the_configured_language_wins_over_the_pages(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path, speech=SpeechSettings(enabled=True, language="tr"))
    check = daemon.speech.checked({"page_language": "el"})
    check()
    assert daemon.speech.json()["language"] == "tr"
    assert daemon.speech.json()["follows_page"] is False


def test_a_scenario_line_does_not_set_the_daemons_speech(tmp_path: Path) -> None:
    daemon = VirtualDaemon(tmp_path)

    async def scenario() -> int:
        answer = await daemon.request("POST", "/api/sim",
                                      {"setup": "start", "speech": {"language": "el"}})
        return answer.status

    assert asyncio.run(scenario()) == 400
