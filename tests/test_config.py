"""The config file: defaults, every key, and one clear message per fault."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla_pi.config import (
    MAX_BYTES,
    SCHEMA,
    Config,
    default_config_path,
    load_config,
    parse_config,
    parse_opponent,
)
from tavla_pi.config.fields import Listen, parse_listen
from tavla_pi.engine.levels import Level
from tavla_pi.errors import ConfigError
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.rules.color import Color
from tavla_pi.rules.match import MatchRules
from tavla_pi.rules.tavlimatch import TavliRules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    return str(info.value)


def test_no_file_at_the_default_place_means_defaults(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("CONFIGURATION_DIRECTORY", raising=False)
    assert default_config_path() == tmp_path / "tavla-pi" / "config.toml"
    assert load_config() == Config()


def test_the_service_reads_systemds_configuration_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(tmp_path))
    (tmp_path / "config.toml").write_text("[board]\nbrightness = 0.5\n")
    assert load_config().brightness == 0.5


def test_a_named_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_the_example_documents_every_key_and_loads_to_the_defaults() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    sections = re.split(r"^\[(\w+)\]$", text, flags=re.M)
    documented = {name: re.findall(r"^(?:# )?(\w+) = ", body, flags=re.M)
                  for name, body in zip(sections[1::2], sections[2::2], strict=True)}
    assert {name: set(keys) for name, keys in documented.items()} == \
        {name: set(keys) for name, keys in SCHEMA.items()}
    uncommented = re.sub(r"^# (\w+ = )", r"\1", text, flags=re.M)
    assert tomllib.loads(uncommented)  # the commented examples are valid too
    assert load_config(EXAMPLE) == Config(source=str(EXAMPLE))


def test_every_key_is_read(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, """
[board]
backend = "sim"
pinout = "pins/pinout.toml"
brightness = 1
scan_hz = 100
stable_ms = 300
[game]
match_length = 7
crawford = false
jacoby = true
beavers = true
automatic_doubles = 2
[opponent]
color = "black"
level = "world class"
coach = false
blunder_threshold = 0.5
[http]
listen = "[::]:9000"
token = "0123456789abcdef0123"
[daemon]
state_dir = "/srv/tavla"
log_level = "debug"
"""))
    assert config.backend == "sim"
    assert config.pinout == tmp_path / "pins" / "pinout.toml"
    assert (config.brightness, config.scan_hz, config.stable_ms) == (1.0, 100, 300)
    assert config.match_length == 7
    assert config.rules == MatchRules(crawford=False, jacoby=True, beavers=True,
                                      automatic_doubles=2)
    assert config.opponent == OpponentSettings(color=Color.BLACK, level=Level.WORLD_CLASS,
                                               coach=False, blunder_threshold=0.5)
    assert config.listen == Listen("::", 9000)
    assert str(config.listen) == "[::]:9000"
    assert config.token == "0123456789abcdef0123"
    assert config.state_dir == Path("/srv/tavla")
    assert config.log_level == "debug"


@pytest.mark.parametrize(("text", "message"), [
    ('[board]\nbrightness = 2\n', "[board] brightness: expected a number 0..1, got 2"),
    ('[board]\nbrightness = "high"\n', "[board] brightness: expected a number 0..1, got 'high'"),
    ('[board]\nbackend = "gpio"\n',
     '[board] backend: expected one of "auto", "pi", "sim", got \'gpio\''),
    ('[board]\nscan_hz = 5\n', "[board] scan_hz: expected a whole number 10..200, got 5"),
    ('[board]\nscan_hz = 50.0\n', "[board] scan_hz: expected a whole number 10..200, got 50.0"),
    ('[board]\nstable_ms = true\n', "[board] stable_ms: expected a whole number 20..2000"),
    ('[board]\npinout = ""\n', "[board] pinout: expected a file or directory path, got ''"),
    ('[game]\nmatch_length = -1\n', "[game] match_length: expected a whole number 0..64"),
    ('[game]\ncrawford = "yes"\n', "[game] crawford: expected true or false, got 'yes'"),
    ('[game]\nautomatic_doubles = 7\n', "[game] automatic_doubles: expected a whole number 0..6"),
    ('[http]\nlisten = "8750"\n', '[http] listen: expected an address "HOST:PORT"'),
    ('[http]\nlisten = "example.org:80"\n',
     "[http] listen: 'example.org' is not an IP address (or localhost)"),
    ('[http]\nlisten = "127.0.0.1:70000"\n', "[http] listen: port 70000 is not 0..65535"),
    ('[http]\ntoken = "short"\n', "[http] token: expected 16 to 256 printable ASCII"),
    ('[http]\ntoken = "with spaces in the token"\n', "[http] token: expected 16 to 256"),
    ('[daemon]\nlog_level = "loud"\n', "[daemon] log_level: expected one of"),
    ('[opponent]\nlevel = "pro"\n', '[opponent] level: expected one of "beginner", '),
    ('[opponent]\nblunder_threshold = 2\n',
     "[opponent] blunder_threshold: expected a number 0..1, got 2"),
    ('[board]\nbrighness = 0.5\n', "[board] brighness: unknown key (known: backend, pinout, "
                                   "brightness, scan_hz, stable_ms); did you mean 'brightness'?"),
    ('brightness = 0.5\n', "brightness: belongs in the [board] table"),
    ('[opponent]\ncolor = "red"\n',
     '[opponent] color: expected one of "white", "black", "none", got \'red\''),
    ('[opponent]\ncolor = "White"\n', "[opponent] color: expected one of"),
    ('[opponent]\nlevel = "worldclass"\n',
     '[opponent] level: expected one of "beginner", "casual", "intermediate", "advanced", '
     '"expert", "world class", got \'worldclass\''),
    ('[opponent]\nlevel = 5\n', "[opponent] level: expected one of"),
    ('[opponent]\ncoach = 1\n', "[opponent] coach: expected true or false, got 1"),
    ('[opponent]\nblunder_threshold = 1.5\n',
     "[opponent] blunder_threshold: expected a number 0..1, got 1.5"),
    ('[opponent]\nblunder_threshold = nan\n',
     "[opponent] blunder_threshold: expected a number 0..1, got nan"),
    ('[opponent]\nblunder_threshold = true\n',
     "[opponent] blunder_threshold: expected a number 0..1, got True"),
    ('[opponent]\nlevels = "expert"\n', "[opponent] levels: unknown key (known: color, level, "
                                         "coach, blunder_threshold, remote, remote_key, "
                                         "online); did you mean 'level'?"),
    ('coach = true\n', "coach: belongs in the [opponent] table"),
    ('[board]\nbackend = "' + "x" * 100 + '"\n',
     "[board] backend: expected one of \"auto\", \"pi\", \"sim\", got '" + "x" * 59 + "..."),
    ('[bord]\n', "[bord]: unknown table (known: board, game, tavli, opponent, speech, http, "
                 "network, online, clock, players, daemon); did you mean 'board'?"),
    ('board = 3\n', "board: expected a table [board]"),
    ('[board]\nbrightness = [0.5]\n', "[board] brightness: expected a number 0..1, got [0.5]"),
    ('[board]\nbrightness = { a = 1 }\n',
     "[board] brightness: expected a number 0..1, got {'a': 1}"),
])
def test_each_fault_names_file_key_and_expectation(tmp_path: Path, text: str,
                                                   message: str) -> None:
    error = error_of(tmp_path, text)
    assert error.startswith(f"{tmp_path / 'config.toml'}: ")
    assert message in error
    assert "\n" not in error


def test_the_opponent_defaults_to_two_players_with_the_expert_coaching() -> None:
    assert Config().opponent == OpponentSettings(color=None, level=Level.EXPERT, coach=True,
                                                 blunder_threshold=0.08)


@pytest.mark.parametrize(("text", "color"), [
    ('color = "white"', Color.WHITE), ('color = "none"', None), ("", None)])
def test_the_opponents_colour(tmp_path: Path, text: str, color: Color | None) -> None:
    assert load_config(write(tmp_path, f"[opponent]\n{text}\n")).opponent.color is color


def test_a_threshold_may_be_a_whole_number(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[opponent]\nblunder_threshold = 0\n"))
    assert config.opponent.blunder_threshold == 0.0


def test_the_opponent_settings_of_a_form_are_checked_as_the_files_are() -> None:
    start = OpponentSettings()
    changed = parse_opponent({"color": None, "level": "casual", "coach": False}, "form",
                             replace(start, color=Color.BLACK))
    assert changed == replace(start, level=Level.CASUAL, coach=False)
    assert parse_opponent({}, "form", start) == start
    for changes, message in (({"color": "red"}, 'form: color: expected one of "white"'),
                             ({"colour": "white"}, "form: colour: unknown key (known: color"),
                             ({"x" * 500: 1}, "form: " + "x" * 60 + "...: unknown key")):
        with pytest.raises(ConfigError) as info:
            parse_opponent(changes, "form", start)
        assert str(info.value).startswith(message)


def test_syntax_errors_name_line_and_column(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[board]\nbrightness = 0.5\nbackend = sim\n')
    assert error == (f"{tmp_path / 'config.toml'}: line 3, column 11: "
                     "not valid TOML (invalid value)")
    error = error_of(tmp_path, '[board]\nbrightness = 0.5\nbrightness = 0.6\n')
    assert ": line 3, column " in error
    assert error_of(tmp_path, '[board').endswith("not valid TOML (expected ']' at the end "
                                                 "of a table declaration)")


def test_hostile_files_get_one_line(tmp_path: Path) -> None:
    assert "nested too deeply" in error_of(tmp_path, "a = " + "[" * 5000 + "]" * 5000)
    big = tmp_path / "config.toml"
    big.write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    with pytest.raises(ConfigError, match="too large for a config file"):
        load_config(big)
    big.write_bytes(b"[board]\n# \xff\xfe\n")
    with pytest.raises(ConfigError, match=r"config.toml: line 2: not UTF-8 text"):
        load_config(big)
    big.write_bytes(b"[board]\x00\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(big)
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(tmp_path)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(fifo)  # never blocks waiting for a writer
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(Path("/dev/zero"))


LOAD_AS_NOBODY = """
import os, sys
from pathlib import Path
from tavla_pi.config import load_config
from tavla_pi.errors import ConfigError
try:  # everything is imported: now become nobody
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
except OSError as exc:
    print(f"cannot become nobody: {exc}")
    sys.exit(3)
try:
    load_config(Path(sys.argv[1]))
except ConfigError as exc:
    print(exc)
"""


def load_as_nobody(path: Path) -> str:
    """What load_config says of ``path`` to nobody (root reads every file: the run as root
    checks the file from a child that has dropped to nobody); skips where it cannot drop."""
    done = subprocess.run([sys.executable, "-c", LOAD_AS_NOBODY, str(path)], capture_output=True,
                          text=True, timeout=60, check=False)
    if done.returncode == 3:
        pytest.skip(f"running as root and {done.stdout.strip()}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    path.chmod(0)
    if os.geteuid() != 0:
        with pytest.raises(ConfigError, match="cannot read"):
            load_config(path)
        return
    shared = Path(tempfile.mkdtemp(prefix="tavla-config-"))  # tmp_path is root's alone
    try:
        shared.chmod(0o755)
        locked = write(shared, "")
        locked.chmod(0)
        assert re.search("cannot read", load_as_nobody(locked))
    finally:
        shutil.rmtree(shared)


def test_listen_addresses() -> None:
    assert parse_listen("127.0.0.1:8750", "x") == Listen("127.0.0.1", 8750)
    assert parse_listen("[::1]:0", "x") == Listen("::1", 0)
    assert parse_listen("localhost:80", "x").loopback
    assert parse_listen("127.0.0.2:80", "x").loopback
    assert not parse_listen("0.0.0.0:80", "x").loopback
    assert not parse_listen("[::]:80", "x").loopback
    assert not parse_listen("192.168.1.20:8750", "x").loopback
    for bad in ("::1:80", "[::1]", "1.2.3.4:", ":80", "[zz]:80", 8750):
        with pytest.raises(ConfigError):
            parse_listen(bad, "x")


def test_beyond_loopback_needs_a_token(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[http]\nlisten = "0.0.0.0:8750"\n'))
    with pytest.raises(ConfigError) as info:
        config.check_exposure("[http] listen")
    assert "(not loopback) needs a [http] token" in str(info.value)
    Config().check_exposure("x")
    config.with_listen("127.0.0.1:0").check_exposure("x")
    with_token = load_config(write(tmp_path, '[http]\nlisten = "0.0.0.0:8750"\n'
                                             'token = "abcdefghijklmnopqrstuvwxyz"\n'))
    with_token.check_exposure("x")


VALUES = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True), st.booleans(),
                   st.text(max_size=40), st.lists(st.integers(), max_size=3),
                   st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
KEYS = st.sampled_from([k for keys in SCHEMA.values() for k in keys] + ["x", "board"])


@pytest.mark.slow
@given(st.dictionaries(st.sampled_from([*SCHEMA, "extra"]),
                       st.dictionaries(KEYS, VALUES, max_size=4), max_size=4))
@settings(max_examples=300, deadline=None)
def test_any_document_is_a_config_or_one_config_error(doc: dict[str, Any]) -> None:
    try:
        config = parse_config(doc, "fuzz.toml", Path("/"))
    except ConfigError as exc:
        assert str(exc).startswith("fuzz.toml")
        assert "\n" not in str(exc)
    else:
        assert isinstance(config, Config)


@pytest.mark.slow
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
@settings(max_examples=300, deadline=None)
def test_any_bytes_are_a_config_or_one_config_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_bytes(data)
        try:
            load_config(path)
        except ConfigError as exc:
            assert str(exc).startswith(str(path))


def test_variant_and_tavli_rules_are_read() -> None:
    config = parse_config({"game": {"variant": "tavli"},
                           "tavli": {"cube_in_portes": True, "backgammon_points": 3}},
                          "c.toml", Path())
    assert config.variant == "tavli"
    assert config.tavli == TavliRules(cube_in_portes=True, backgammon_points=3)
    assert parse_config({}, "c.toml", Path()).variant == "portes"


@pytest.mark.parametrize("doc, message", [
    ({"game": {"variant": "tavla"}}, "[game] variant"),
    ({"tavli": {"backgammon_points": 4}}, "[tavli] backgammon_points"),
    ({"game": {"variant": "plakoto"}, "opponent": {"color": "black"}}, "Portes only"),
])
def test_variant_faults_are_named(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(doc, "c.toml", Path())
