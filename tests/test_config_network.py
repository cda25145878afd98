"""The config's ``[network]`` table and ``[opponent] remote`` and ``remote_key``: every key,
and the checks across keys (the remote board: docs/CONTRACTS.md §6 and §7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from signing_support import new_key

from tavla_pi.config import Config, load_config, parse_config, parse_opponent
from tavla_pi.config.fields import parse_broker
from tavla_pi.errors import ConfigError
from tavla_pi.game.settings import OpponentSettings
from tavla_pi.remote.settings import Broker, NetworkSettings
from tavla_pi.rules.color import Color

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"
BROKER = 'broker = "mqtt://192.168.1.20:1883"\nboard = "athens"\n'
"""A [network] table with the least a broker needs."""
EXAMPLE_TEXT = 'e.g. "mqtt://192.168.1.20:1883" or "mqtts://broker.example.org:8883"'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    """The one-line error of a config file holding ``text``, its file name checked."""
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    error = str(info.value)
    assert error.startswith(f"{tmp_path / 'config.toml'}: ")
    assert "\n" not in error
    return error.removeprefix(f"{tmp_path / 'config.toml'}: ")


def network_of(tmp_path: Path, text: str) -> NetworkSettings:
    return load_config(write(tmp_path, f"[network]\n{text}\n")).network


def test_no_network_table_means_no_network() -> None:
    assert Config().network == NetworkSettings()
    assert NetworkSettings() == NetworkSettings(broker=None, username=None, password_file=None,
                                                ca_file=None, board=None, club="home",
                                                publish=True)
    assert Config().opponent.remote is None
    assert parse_config({"network": {}}, "c.toml", Path()).network == NetworkSettings()


def test_every_network_key_is_read(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, """
[network]
broker = "mqtts://broker.example.org:8883"
username = "athens"
password_file = "secrets/broker-password"
ca_file = "/etc/tavla-pi/ca.pem"
board = "athens"
club = "thessaloniki-club"
publish = false
[opponent]
remote = "izmir"
color = "black"
"""))
    assert config.network == NetworkSettings(
        broker=Broker("broker.example.org", 8883, tls=True), username="athens",
        password_file=tmp_path / "secrets" / "broker-password",
        ca_file=Path("/etc/tavla-pi/ca.pem"), board="athens", club="thessaloniki-club",
        publish=False)
    assert config.opponent == OpponentSettings(color=Color.BLACK, remote="izmir")


@pytest.mark.parametrize(("text", "broker"), [
    ("mqtt://192.168.1.20:1883", Broker("192.168.1.20", 1883, tls=False)),
    ("mqtts://broker.example.org:8883", Broker("broker.example.org", 8883, tls=True)),
    ("mqtt://[::1]:1883", Broker("::1", 1883)),
    ("mqtts://[2001:db8::1]:8883", Broker("2001:db8::1", 8883, tls=True)),
    ("mqtt://localhost:1", Broker("localhost", 1)),
    ("mqtt://Broker-2.Example.ORG:65535", Broker("Broker-2.Example.ORG", 65535)),
    ("mqtt://" + ".".join(["a" * 63] * 3 + ["b" * 61]) + ":1883",
     Broker(".".join(["a" * 63] * 3 + ["b" * 61]), 1883)),
])
def test_good_brokers(tmp_path: Path, text: str, broker: Broker) -> None:
    network = network_of(tmp_path, f'broker = "{text}"\nboard = "athens"')
    assert network.broker == broker
    assert str(network.broker) == text
    assert parse_broker(text, "x") == broker


@pytest.mark.parametrize(("value", "problem"), [
    ('"192.168.1.20:1883"', "expected a broker \"mqtt://HOST:PORT\" or \"mqtts://HOST:PORT\", "
                            f"{EXAMPLE_TEXT}, got '192.168.1.20:1883'"),
    ('"mqtt://broker.example.org"', "expected a broker"),
    ('"http://broker.example.org:80"', "expected a broker"),
    ('"MQTT://broker.example.org:1883"', "expected a broker"),
    ('"mqtt://broker.example.org:1883/"', "expected a broker"),
    ('"mqtt://broker.example.org:123456"', "expected a broker"),
    ('"mqtt://::1:1883"', "expected a broker"),
    ('"mqtt://[zz]:1883"', "expected a broker"),
    ('"mqtt://:1883"', "expected a broker"),
    ('""', "expected a broker"),
    ("1883", f"expected a broker \"mqtt://HOST:PORT\" or \"mqtts://HOST:PORT\", {EXAMPLE_TEXT}, "
             "got 1883"),
    ('["mqtt://a:1"]', "expected a broker"),
    ('"mqtt://broker.example.org:0"', f"port 0 is not 1..65535 ({EXAMPLE_TEXT})"),
    ('"mqtt://broker.example.org:65536"', "port 65536 is not 1..65535"),
    ('"mqtt://user@broker.example.org:1883"',
     f"'user@broker.example.org' is not an IP address or a host name ({EXAMPLE_TEXT})"),
    ('"mqtt://999.1.1.1:1883"', "'999.1.1.1' is not an IP address or a host name"),
    ('"mqtt://1.2.3:1883"', "'1.2.3' is not an IP address or a host name"),
    ('"mqtt://[1.2.3.4]:1883"', "'1.2.3.4' is not an IP address or a host name"),
    ('"mqtt://[12345::]:1883"', "'12345::' is not an IP address or a host name"),
    ('"mqtt://-broker.example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://broker-.example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://broker..example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://.example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://broker_1.example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://broker example.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://' + "a" * 64 + '.org:1883"', "is not an IP address or a host name"),
    ('"mqtt://' + "ab." * 84 + 'ab:1883"',
     "'" + "ab." * 20 + "'... is not an IP address or a host name"),
])
def test_bad_brokers_are_named_with_an_example(tmp_path: Path, value: str,
                                               problem: str) -> None:
    error = error_of(tmp_path, f'[network]\nboard = "athens"\nbroker = {value}\n')
    assert error.startswith("[network] broker: ")
    assert problem in error
    assert EXAMPLE_TEXT in error


@pytest.mark.parametrize("name", ["athens", "a", "0", "izmir-2", "x" * 32, "-"])
@pytest.mark.parametrize("key", ["board", "club"])
def test_good_names(tmp_path: Path, key: str, name: str) -> None:
    assert getattr(network_of(tmp_path, f'{key} = "{name}"'), key) == name


@pytest.mark.parametrize("value", ['"Athens"', '""', '"' + "x" * 33 + '"', '"a_b"', '"a.b"',
                                   '"athens "', '"\u0131zmir"', "3", "true", '["athens"]'])
@pytest.mark.parametrize(("table", "key", "example"), [
    ("network", "board", "athens"), ("network", "club", "home"), ("opponent", "remote", "izmir")])
def test_bad_names(tmp_path: Path, table: str, key: str, example: str, value: str) -> None:
    error = error_of(tmp_path, f"[{table}]\n{key} = {value}\n")
    assert error.startswith(f'[{table}] {key}: expected a name of 1 to 32 lowercase letters, '
                            f'digits and "-", e.g. "{example}", got ')


@pytest.mark.parametrize("name", ["athens", "x", "!" * 128, "user@club.example.org", "a:b"])
def test_good_usernames(tmp_path: Path, name: str) -> None:
    network = network_of(tmp_path, f"username = '{name}'\npassword_file = 'p'")
    assert network.username == name


@pytest.mark.parametrize("value", ['""', '"with space"', '"tab\\there"', '"caf\u00e9"',
                                   '"' + "x" * 129 + '"', "5", "false"])
def test_bad_usernames(tmp_path: Path, value: str) -> None:
    error = error_of(tmp_path, f"[network]\nusername = {value}\npassword_file = 'p'\n")
    assert error.startswith("[network] username: expected 1 to 128 printable ASCII characters "
                            "without spaces, got ")


@pytest.mark.parametrize("key", ["password_file", "ca_file"])
def test_file_paths_are_from_the_configs_folder(tmp_path: Path, key: str) -> None:
    others = {"password_file": "username = 'athens'",
              "ca_file": "broker = 'mqtts://b.example.org:8883'\nboard = 'athens'"}[key]
    network = network_of(tmp_path, f"{others}\n{key} = 'secret/file'")
    assert getattr(network, key) == tmp_path / "secret" / "file"
    network = network_of(tmp_path, f"{others}\n{key} = '/etc/tavla-pi/file'")
    assert getattr(network, key) == Path("/etc/tavla-pi/file")
    for bad in ('""', "7", "[]"):
        error = error_of(tmp_path, f"[network]\n{others}\n{key} = {bad}\n")
        assert error.startswith(f"[network] {key}: expected a file or directory path, got ")


def test_publish_is_true_or_false(tmp_path: Path) -> None:
    assert network_of(tmp_path, "publish = false").publish is False
    assert network_of(tmp_path, "publish = true").publish is True
    for bad in ('"yes"', "1"):
        assert error_of(tmp_path, f"[network]\npublish = {bad}\n").startswith(
            "[network] publish: expected true or false, got ")


@pytest.mark.parametrize("text", ['[network]\npassword = "hunter2"\n', 'password = "hunter2"\n'])
def test_a_password_in_the_config_is_refused(tmp_path: Path, text: str) -> None:
    error = error_of(tmp_path, text)
    assert re.fullmatch(r"(\[network\] )?password: the password is never in the config file: "
                        r"put it in a file of its own \(chmod 600\) and name that file with "
                        r"password_file", error)
    assert "hunter2" not in error


@pytest.mark.parametrize(("text", "problem"), [
    ('[network]\nbrokers = "mqtt://a:1"\n',
     "[network] brokers: unknown key (known: broker, username, password_file, ca_file, board, "
     "club, publish); did you mean 'broker'?"),
    ('broker = "mqtt://a:1"\n', "broker: belongs in the [network] table"),
    ('remote = "izmir"\n', "remote: belongs in the [opponent] table"),
    ("network = 1\n", "network: expected a table [network]"),
    ('[netwrok]\n', "[netwrok]: unknown table (known: board, game, tavli, opponent, speech, "
                    "http, network, online, clock, players, daemon); did you mean 'network'?"),
])
def test_misplaced_keys_are_named(tmp_path: Path, text: str, problem: str) -> None:
    assert error_of(tmp_path, text) == problem


@pytest.mark.parametrize(("text", "problem"), [
    ('broker = "mqtt://192.168.1.20:1883"',
     '[network] broker: needs [network] board, this board\'s name (e.g. board = "athens")'),
    ('username = "athens"',
     "[network] username: needs [network] password_file, the file that holds the password"),
    ('password_file = "broker-password"',
     "[network] password_file: needs [network] username, the login the password is for"),
    ('ca_file = "ca.pem"',
     '[network] ca_file: is for a TLS broker only ("mqtts://HOST:PORT"), and no broker is set'),
    (f'{BROKER}ca_file = "ca.pem"',
     '[network] ca_file: is for a TLS broker only ("mqtts://HOST:PORT"), and broker is '
     "mqtt://192.168.1.20:1883"),
])
def test_network_keys_that_need_one_another(tmp_path: Path, text: str, problem: str) -> None:
    assert error_of(tmp_path, f"[network]\n{text}\n") == problem


def test_network_keys_that_go_together(tmp_path: Path) -> None:
    assert network_of(tmp_path, 'board = "athens"').board == "athens"  # no broker: just a name
    network = network_of(tmp_path, 'broker = "mqtts://[::1]:8883"\nboard = "a"\nca_file = "c"')
    assert network.ca_file == tmp_path / "c"
    network = network_of(tmp_path, f'{BROKER}username = "u"\npassword_file = "p"')
    assert (network.username, network.password_file) == ("u", tmp_path / "p")


REMOTE_FAULTS = [
    ("", 'remote = "izmir"\ncolor = "black"',
     '[opponent] remote: needs [network] broker and board (the broker both boards use and this '
     'board\'s name), e.g. broker = "mqtt://192.168.1.20:1883", board = "athens"'),
    ('board = "athens"', 'remote = "izmir"\ncolor = "black"',
     "[opponent] remote: needs [network] broker and board"),
    (BROKER, 'remote = "izmir"',
     '[opponent] remote: needs [opponent] color, the colour the remote board\'s player plays: '
     '"white" or "black"'),
    (BROKER, 'remote = "izmir"\ncolor = "none"', "[opponent] remote: needs [opponent] color"),
    (BROKER, 'remote = "athens"\ncolor = "white"',
     "[opponent] remote: 'athens' is this board's own name ([network] board): name the other "
     "board"),
]


@pytest.mark.parametrize(("network", "opponent", "problem"), REMOTE_FAULTS)
def test_the_remote_board_needs_a_broker_a_colour_and_another_name(
        tmp_path: Path, network: str, opponent: str, problem: str) -> None:
    error = error_of(tmp_path, f"[network]\n{network}\n[opponent]\n{opponent}\n")
    assert error.startswith(problem)


@pytest.mark.parametrize("variant", ["plakoto", "fevga", "tavli"])
def test_the_remote_board_plays_portes_only(tmp_path: Path, variant: str) -> None:
    error = error_of(tmp_path, f'[game]\nvariant = "{variant}"\n[network]\n{BROKER}'
                               '[opponent]\nremote = "izmir"\ncolor = "white"\n')
    assert error == f"[opponent] remote: the remote board plays Portes only, not variant " \
                    f"{variant!r}"
    assert error_of(tmp_path, f'[game]\nvariant = "{variant}"\n[opponent]\ncolor = "white"\n') \
        == f"[opponent] color: the computer plays Portes only, not variant {variant!r}"


@pytest.mark.parametrize("color", [Color.WHITE, Color.BLACK])
def test_a_remote_board_plays_the_colour(tmp_path: Path, color: Color) -> None:
    config = load_config(write(tmp_path, f'[game]\nvariant = "portes"\n[network]\n{BROKER}'
                                         f'[opponent]\nremote = "izmir"\n'
                                         f'color = "{color.value}"\n'))
    assert (config.opponent.remote, config.opponent.color) == ("izmir", color)
    assert config.network.broker == Broker("192.168.1.20", 1883)


def test_the_web_page_cannot_name_a_remote_board() -> None:
    start = OpponentSettings(color=Color.BLACK, remote="izmir")
    with pytest.raises(ConfigError) as info:
        parse_opponent({"remote": "ankara"}, "request body", OpponentSettings())
    assert str(info.value) == ("request body: remote: the remote board is named in the config "
                               "file ([opponent] remote) only; the web page cannot point the "
                               "board at another board")
    with pytest.raises(ConfigError, match=r"request body: remote: the remote board is named"):
        parse_opponent({"remote": None}, "request body", start)
    with pytest.raises(ConfigError) as info:
        parse_opponent({"remot": "x"}, "request body", start)
    assert str(info.value) == ("request body: remot: unknown key (known: color, level, coach, "
                               "blunder_threshold)")
    assert parse_opponent({"level": "casual"}, "request body", start).remote == "izmir"


def example_boards() -> list[str]:
    """The two-board example in config.example.toml's comments: one TOML text per board."""
    text = EXAMPLE.read_text(encoding="utf-8")
    blocks = re.findall(r"(?:^#   .*\n)+", text, flags=re.M)
    return [re.sub(r"^#   ", "", block, flags=re.M) for block in blocks]


def test_the_examples_two_boards_are_mirrors(tmp_path: Path) -> None:
    athens_text, izmir_text = example_boards()
    athens = load_config(write(tmp_path, athens_text))
    izmir = load_config(write(tmp_path, izmir_text))
    assert (athens.network.board, athens.opponent.remote) == ("athens", "izmir")
    assert (izmir.network.board, izmir.opponent.remote) == ("izmir", "athens")
    assert athens.network.broker == izmir.network.broker
    assert athens.network.broker is not None and athens.network.broker.tls
    assert athens.network.club == izmir.network.club
    assert {athens.opponent.color, izmir.opponent.color} == {Color.WHITE, Color.BLACK}
    assert izmir.opponent.color is Color.WHITE  # Athens's player plays white
    assert athens.remote_key is not None and izmir.remote_key is not None
    assert athens.remote_key != izmir.remote_key  # each names the other's


# -- [opponent] remote_key ---------------------------------------------------------------

KEY_TEXT = new_key("izmir").public.text
TYPO = KEY_TEXT[:20] + ("b" if KEY_TEXT[20] == "a" else "a") + KEY_TEXT[21:]
"""A board's key with one letter wrong in its middle."""

def test_the_friends_key_is_read_however_it_is_typed(tmp_path: Path) -> None:
    key = new_key("izmir").public
    typed = key.text.upper().replace("-", " ")
    config = load_config(write(tmp_path, f'[network]\n{BROKER}[opponent]\nremote = "izmir"\n'
                                         f'color = "black"\nremote_key = "{typed}"\n'))
    assert config.remote_key == key
    assert Config().remote_key is None


@pytest.mark.parametrize(("value", "problem"), [
    ('"tavla-ed25519:aaaaa"', "[opponent] remote_key: the key is mistyped"),
    (f'"{TYPO}"', "[opponent] remote_key: the key is mistyped (its check does not match)"),
    ('"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5"', "[opponent] remote_key: a board's key starts with "
                                           "'tavla-ed25519:' (print it with 'tavla-pi key')"),
    ("5", "[opponent] remote_key: expected the friend's board's key as 'tavla-pi key' prints "
          'it ("tavla-ed25519:..."), got 5'),
])
def test_a_wrong_friends_key_is_refused_naming_it(tmp_path: Path, value: str,
                                                  problem: str) -> None:
    text = f'[network]\n{BROKER}[opponent]\nremote = "izmir"\ncolor = "black"\n'
    assert error_of(tmp_path, f"{text}remote_key = {value}\n").startswith(problem)


def test_a_key_without_a_friends_board_is_refused(tmp_path: Path) -> None:
    assert error_of(tmp_path, f'[opponent]\nremote_key = "{KEY_TEXT}"\n') == (
        "[opponent] remote_key: is the key of the friend's board that [opponent] remote "
        "names, and no remote is set")


def test_the_web_page_cannot_change_whom_the_board_trusts() -> None:
    start = OpponentSettings(color=Color.BLACK, remote="izmir")
    with pytest.raises(ConfigError) as info:
        parse_opponent({"remote_key": KEY_TEXT}, "request body", start)
    assert str(info.value) == ("request body: remote_key: the friend's board's key is in the "
                               "config file ([opponent] remote_key) only; the web page cannot "
                               "change whom the board trusts")
